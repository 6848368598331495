#include "panels/architecturenotes.h"

#include <QCoreApplication>

namespace vramplan::ui {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("ArchitectureNotes", text);
}

QString number(double v)
{
    return QString::number(v, 'g', 4);
}

} // namespace

QStringList architectureNotes(const ModelConfig &m)
{
    QStringList notes;
    if (m.isMla()) {
        const QString kv =
            tr("MLA: kv rank %1 + rope %2").arg(m.mla.kvLoraRank).arg(m.mla.qkRopeHeadDim);
        notes << (m.mla.qLoraRank > 0 ? tr("%1, q rank %2").arg(kv).arg(m.mla.qLoraRank)
                                      : tr("%1, full-rank q").arg(kv));
    }
    switch (m.qkNorm) {
    case QkNorm::None:
        break;
    case QkNorm::Head:
        notes << tr("q/k RMSNorm per head");
        break;
    case QkNorm::Full:
        notes << tr("q/k RMSNorm over all heads");
        break;
    case QkNorm::L2:
        notes << tr("q/k L2 norm");
        break;
    }
    if (m.slidingLayers > 0 && m.slidingWindow > 0)
        notes << (m.slidingLayers >= m.layers
                      ? tr("All %1 layers slide over %2 tokens").arg(m.layers).arg(m.slidingWindow)
                      : tr("%1 of %2 layers slide over %3 tokens")
                            .arg(m.slidingLayers)
                            .arg(m.layers)
                            .arg(m.slidingWindow));
    if (m.attentionSoftcap > 0 && m.finalSoftcap > 0)
        notes << tr("Soft-capping: attention %1, logits %2")
                     .arg(number(m.attentionSoftcap), number(m.finalSoftcap));
    else if (m.attentionSoftcap > 0)
        notes << tr("Soft-capping: attention %1").arg(number(m.attentionSoftcap));
    else if (m.finalSoftcap > 0)
        notes << tr("Soft-capping: logits %1").arg(number(m.finalSoftcap));
    if (m.attentionSinks)
        notes << tr("Attention sinks (a learned logit per head)");
    if (m.isMoe()) {
        const int64_t routed = m.moeLayersIn(0, m.layers);
        if (routed < m.layers)
            notes << tr("Experts in %1 of %2 layers").arg(routed).arg(m.layers);
    }
    if (m.mtpLayers > 0)
        notes << (m.mtpLayers == 1 ? tr("1 MTP layer in the checkpoint only")
                                   : tr("%1 MTP layers in the checkpoint only").arg(m.mtpLayers));
    return notes;
}

} // namespace vramplan::ui
