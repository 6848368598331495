#include "panels/batchgroup.h"

#include "panels/formcontrols.h"
#include "panels/logslider.h"

namespace vramplan::ui {

BatchGroup::BatchGroup(QWidget *parent)
    : ControlGroup(tr("Batch and sequence"), parent), m_microBatch(new LogSlider),
      m_sequence(new LogSlider), m_accumulation(new LogSlider)
{
    m_microBatch->setRange(1, 4096);
    m_microBatch->setMarks(powersOfTwo(1, 4096));
    m_sequence->setRange(16, 1 << 21);
    m_sequence->setMarks(powersOfTwo(16, 1 << 21));
    m_accumulation->setRange(1, 1024);
    m_accumulation->setMarks(powersOfTwo(1, 1024));
    addRow(tr("Micro-batch"), m_microBatch, QStringLiteral("training.micro_batch_size"),
           tr("micro-batch"),
           tr("Sequences per GPU in one forward and backward pass: activations and logits grow "
              "with it"));
    addRow(tr("Sequence"), m_sequence, QStringLiteral("training.sequence_length"),
           tr("sequence length"),
           tr("Tokens per sequence: activations grow with it, eager attention's scores with its "
              "square"));
    addRow(tr("Grad. accumulation"), m_accumulation,
           QStringLiteral("training.gradient_accumulation_steps"), tr("gradient accumulation"),
           tr("Micro-batches whose gradients add up before one optimizer step: a larger global "
              "batch at the same memory (with pipeline parallelism, the micro-batches in flight)"));
    connect(m_microBatch, &LogSlider::valueEdited, this, [this](double v, bool drag) {
        request(
            m_microBatch, [v](Scenario &s) { s.training.microBatchSize = int64_t(v); }, drag);
    });
    connect(m_sequence, &LogSlider::valueEdited, this, [this](double v, bool drag) {
        request(
            m_sequence, [v](Scenario &s) { s.training.sequenceLength = int64_t(v); }, drag);
    });
    connect(m_accumulation, &LogSlider::valueEdited, this, [this](double v, bool drag) {
        request(
            m_accumulation, [v](Scenario &s) { s.training.gradientAccumulationSteps = int64_t(v); },
            drag);
    });
}

void BatchGroup::display(const Scenario &s)
{
    m_microBatch->setValue(double(s.training.microBatchSize));
    m_sequence->setValue(double(s.training.sequenceLength));
    m_accumulation->setValue(double(s.training.gradientAccumulationSteps));
}

void BatchGroup::refreshAvailability(const Scenario &s)
{
    setAvailable(m_accumulation, s.training.mode == Mode::Train,
                 tr("Applies to training only (the mode is inference)"));
}

} // namespace vramplan::ui
