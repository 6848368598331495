#include "panels/batchgroup.h"

#include "panels/formcontrols.h"
#include "panels/logslider.h"

#include <algorithm>

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

std::vector<double> contextSizes(double from, double to)
{
    std::vector<double> out;
    for (double v = 1; v <= to; v *= 2)
        for (double size : {v, 3 * v}) // 2k, 4k, 8k, ... and 3k, 6k, 12k, ... 96k, 192k
            if (size >= from && size <= to)
                out.push_back(size);
    for (double size : {128000.0, 200000.0, 1000000.0}) // "128k", "200k", "1M" contexts
        if (size >= from && size <= to)
            out.push_back(size);
    std::sort(out.begin(), out.end());
    return out;
}

void BatchGroup::display(const Scenario &s)
{
    m_microBatch->setValue(double(s.training.microBatchSize));
    // The model's own context is a stop of its own, marked, so that a drag can end on it.
    std::vector<double> sizes = contextSizes(16, 1 << 21);
    std::vector<double> marks = powersOfTwo(16, 1 << 21);
    sizes.push_back(double(s.model.maxPositions));
    marks.push_back(double(s.model.maxPositions));
    m_sequence->setSnaps(sizes);
    m_sequence->setMarks(marks);
    m_sequence->setValue(double(s.training.sequenceLength));
    m_accumulation->setValue(double(s.training.gradientAccumulationSteps));
}

void BatchGroup::refreshAvailability(const Scenario &s)
{
    setAvailable(m_accumulation, s.training.mode == Mode::Train,
                 tr("Applies to training only (the mode is inference)"));
}

} // namespace vramplan::ui
