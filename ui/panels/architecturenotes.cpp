#include "panels/architecturenotes.h"

#include "model/model_weights.h"

#include <QCoreApplication>

#include <algorithm>

namespace vramplan::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::ArchitectureNotes)
};

QString number(double v)
{
    return QString::number(v, 'g', 4);
}

constexpr int mixerKinds = 7; // Mixer's values

// "48 layers: 36 Gated DeltaNet, 12 full attention, MoE 512 experts top 10 + shared": the
// layer mix of a model with layer kinds.
QString layerMix(const ModelConfig &m)
{
    int64_t counts[mixerKinds] = {};
    int64_t mlpOnly = 0;
    for (const auto &kind : layerKindsIn(m, 0, m.layers)) {
        counts[int(kind.spec.mixer)] += kind.layers;
        if (kind.spec.mixer == Mixer::None && kind.spec.mlp != LayerMlp::None)
            mlpOnly += kind.layers;
    }
    QStringList parts;
    const int64_t sliding = std::min(m.slidingLayers, counts[int(Mixer::Attention)]);
    const auto add = [&](int64_t n, const QString &what) {
        if (n > 0)
            parts << Words::tr("%1 %2", "layers of a kind: 36 Gated DeltaNet").arg(n).arg(what);
    };
    add(counts[int(Mixer::LinearAttention)], Words::tr("Gated DeltaNet"));
    add(counts[int(Mixer::Mamba)], Words::tr("Mamba2"));
    add(counts[int(Mixer::ShortConv)], Words::tr("short conv"));
    add(counts[int(Mixer::AttentionAndMamba)], Words::tr("attention + Mamba2"));
    add(counts[int(Mixer::Attention)] - sliding,
        m.indexer.heads > 0 ? Words::tr("sparse attention") : Words::tr("full attention"));
    add(sliding, Words::tr("sliding-window"));
    add(counts[int(Mixer::GlobalAttention)], Words::tr("global attention"));
    add(mlpOnly, Words::tr("MLP-only"));
    QString text = Words::tr("%1 layers: %2")
                       .arg(m.layers)
                       .arg(parts.join(Words::tr(", ", "between the layer kinds")));
    if (m.isMoe())
        text += Words::tr(", MoE %1 experts top %2%3")
                    .arg(m.moe.experts)
                    .arg(m.moe.expertsPerToken)
                    .arg(m.moe.sharedExperts > 0 ? Words::tr(" + shared") : QString());
    return text;
}

} // namespace

QStringList architectureNotes(const ModelConfig &m)
{
    QStringList notes;
    if (m.family == Family::Generic)
        notes << Words::tr("Generic decoder (model_type %1): attention and MLP from the standard "
                           "fields; estimates are generic")
                     .arg(QString::fromStdString(m.hfModelType));
    if (m.hasLayerPlan())
        notes << layerMix(m);
    if (m.indexer.heads > 0)
        notes << Words::tr("Sparse-attention indexer: %1 heads of %2, top %3 keys")
                     .arg(m.indexer.heads)
                     .arg(m.indexer.headDim)
                     .arg(m.indexer.topK);
    if (m.vision.present())
        notes << Words::tr("Vision tower: %1 blocks of %2 (%3 M parameters)")
                     .arg(m.vision.depth)
                     .arg(m.vision.hiddenSize)
                     .arg(QString::number(double(countParameters(m).vision) / 1e6, 'f', 0));
    if (m.checkpointParameters > 0)
        notes << Words::tr("Checkpoint: %1 M parameters in its tensors")
                     .arg(QString::number(double(m.checkpointParameters) / 1e6, 'f', 1));
    if (m.isMla()) {
        const QString kv =
            Words::tr("MLA: kv rank %1 + rope %2").arg(m.mla.kvLoraRank).arg(m.mla.qkRopeHeadDim);
        notes << (m.mla.qLoraRank > 0 ? Words::tr("%1, q rank %2").arg(kv).arg(m.mla.qLoraRank)
                                      : Words::tr("%1, full-rank q").arg(kv));
    }
    switch (m.qkNorm) {
    case QkNorm::None:
        break;
    case QkNorm::Head:
        notes << Words::tr("q/k RMSNorm per head");
        break;
    case QkNorm::Full:
        notes << Words::tr("q/k RMSNorm over all heads");
        break;
    case QkNorm::L2:
        notes << Words::tr("q/k L2 norm");
        break;
    }
    if (m.slidingLayers > 0 && m.slidingWindow > 0)
        notes << (m.slidingLayers >= m.layers ? Words::tr("All %1 layers slide over %2 tokens")
                                                    .arg(m.layers)
                                                    .arg(m.slidingWindow)
                                              : Words::tr("%1 of %2 layers slide over %3 tokens")
                                                    .arg(m.slidingLayers)
                                                    .arg(m.layers)
                                                    .arg(m.slidingWindow));
    if (m.attentionSoftcap > 0 && m.finalSoftcap > 0)
        notes << Words::tr("Soft-capping: attention %1, logits %2")
                     .arg(number(m.attentionSoftcap), number(m.finalSoftcap));
    else if (m.attentionSoftcap > 0)
        notes << Words::tr("Soft-capping: attention %1").arg(number(m.attentionSoftcap));
    else if (m.finalSoftcap > 0)
        notes << Words::tr("Soft-capping: logits %1").arg(number(m.finalSoftcap));
    if (m.attentionSinks)
        notes << Words::tr("Attention sinks (a learned logit per head)");
    if (m.isMoe() && !m.hasLayerPlan()) {
        const int64_t routed = m.moeLayersIn(0, m.layers);
        if (routed < m.layers)
            notes << Words::tr("Experts in %1 of %2 layers").arg(routed).arg(m.layers);
    }
    if (m.mtpLayers > 0)
        notes << (m.mtpLayers == 1
                      ? Words::tr("1 MTP layer in the checkpoint only")
                      : Words::tr("%1 MTP layers in the checkpoint only").arg(m.mtpLayers));
    return notes;
}

} // namespace vramplan::ui
