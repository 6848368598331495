#include "panels/parallelgroup.h"

#include "panels/formcontrols.h"
#include "panels/logslider.h"

#include <QCheckBox>
#include <QStandardItemModel>

namespace vramplan::ui {

ParallelGroup::ParallelGroup(QWidget *parent)
    : ControlGroup(tr("Parallelism"), parent), m_gpus(new LogSlider), m_tp(new QComboBox),
      m_pp(spinBox(1, 2048)), m_vpp(spinBox(1, 2048)), m_cp(spinBox(1, 1 << 14)),
      m_ep(spinBox(1, 1 << 14)), m_sp(new QCheckBox(tr("Sequence parallel")))
{
    m_gpus->setRange(1, 16384);
    m_gpus->setMarks(powersOfTwo(1, 16384));
    for (int t : {1, 2, 4, 8, 16, 32, 64})
        m_tp->addItem(QString::number(t), t);
    addRow(tr("GPUs"), m_gpus, QStringLiteral("parallelism.gpus"), tr("GPU count"),
           tr("GPUs in the run; what the model-parallel sizes leave over is data parallelism"));
    addRow(tr("Tensor parallel"), m_tp, QStringLiteral("parallelism.tensor_parallel"),
           tr("tensor parallelism"),
           tr("GPUs each layer's matrices are split over (Megatron TP): weights and most "
              "activations divide by it"));
    addRow(QString(), m_sp, QStringLiteral("parallelism.sequence_parallel"),
           tr("sequence parallelism"),
           tr("Splits the norms' and dropouts' activations over the tensor-parallel group too"));
    addRow(tr("Pipeline parallel"), m_pp, QStringLiteral("parallelism.pipeline_parallel"),
           tr("pipeline parallelism"),
           tr("Stages the layers are split into; the first holds the most micro-batches in "
              "flight (1F1B)"));
    addRow(tr("Virtual stages"), m_vpp, QStringLiteral("parallelism.virtual_pipeline_parallel"),
           tr("virtual stages"), tr("Interleaved pipeline: chunks of layers per stage"));
    addRow(tr("Context parallel"), m_cp, QStringLiteral("parallelism.context_parallel"),
           tr("context parallelism"), tr("GPUs each sequence is split over (ring attention)"));
    addRow(tr("Expert parallel"), m_ep, QStringLiteral("parallelism.expert_parallel"),
           tr("expert parallelism"), tr("GPUs a MoE layer's experts are spread over"));
    connect(m_gpus, &LogSlider::valueEdited, this, [this](double v, bool drag) {
        request(
            m_gpus, [v](Scenario &s) { s.parallelism.gpus = int64_t(v); }, drag);
    });
    connect(m_tp, &QComboBox::currentIndexChanged, this, [this] {
        request(m_tp, [t = m_tp->currentData().toInt()](Scenario &s) {
            s.parallelism.tensorParallel = t;
            if (t == 1)
                s.parallelism.sequenceParallel = false;
        });
    });
    connect(m_sp, &QCheckBox::toggled, this, [this](bool on) {
        request(m_sp, [on](Scenario &s) { s.parallelism.sequenceParallel = on; });
    });
    connect(m_pp, &QSpinBox::valueChanged, this, [this](int v) {
        request(m_pp, [v](Scenario &s) {
            s.parallelism.pipelineParallel = v;
            if (v == 1)
                s.parallelism.virtualPipelineParallel = 1;
        });
    });
    connect(m_vpp, &QSpinBox::valueChanged, this, [this](int v) {
        request(m_vpp, [v](Scenario &s) { s.parallelism.virtualPipelineParallel = v; });
    });
    connect(m_cp, &QSpinBox::valueChanged, this, [this](int v) {
        request(m_cp, [v](Scenario &s) { s.parallelism.contextParallel = v; });
    });
    connect(m_ep, &QSpinBox::valueChanged, this, [this](int v) {
        request(m_ep, [v](Scenario &s) { s.parallelism.expertParallel = v; });
    });
}

void ParallelGroup::display(const Scenario &s)
{
    m_gpus->setValue(double(s.parallelism.gpus));
    showData(m_tp, int(s.parallelism.tensorParallel));
    {
        const QSignalBlocker b(m_sp);
        m_sp->setChecked(s.parallelism.sequenceParallel);
    }
    showInt(m_pp, s.parallelism.pipelineParallel);
    showInt(m_vpp, s.parallelism.virtualPipelineParallel);
    showInt(m_cp, s.parallelism.contextParallel);
    showInt(m_ep, s.parallelism.expertParallel);
}

void ParallelGroup::refreshAvailability(const Scenario &s)
{
    setAvailable(m_sp, s.parallelism.tensorParallel > 1,
                 tr("Sequence parallelism splits the tensor-parallel group: needs TP > 1"));
    setAvailable(m_vpp, s.parallelism.pipelineParallel > 1,
                 tr("Virtual stages interleave a pipeline: needs PP > 1"));
    setAvailable(m_ep, s.model.isMoe(), tr("Expert parallelism needs a mixture-of-experts model"));

    // Tensor-parallel sizes the heads cannot be split into are listed but disabled.
    auto *model = qobject_cast<QStandardItemModel *>(m_tp->model());
    for (int i = 0; model && i < m_tp->count(); ++i) {
        const int t = m_tp->itemData(i).toInt();
        QString why;
        if (s.model.attentionHeads % t != 0)
            why =
                tr("%1 does not divide the %2 attention heads").arg(t).arg(s.model.attentionHeads);
        else if (s.model.kvHeads % t != 0 && t % s.model.kvHeads != 0)
            why = tr("%1 and the %2 key/value heads do not divide one another")
                      .arg(t)
                      .arg(s.model.kvHeads);
        else if (t > s.parallelism.gpus)
            why = tr("more than the %1 GPUs").arg(s.parallelism.gpus);
        QStandardItem *item = model->item(i);
        item->setEnabled(why.isEmpty());
        item->setToolTip(why.isEmpty() ? tr("Split each layer over %1 GPUs").arg(t) : why);
    }
}

} // namespace vramplan::ui
