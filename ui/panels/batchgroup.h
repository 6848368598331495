#pragma once
// Batch and sequence: micro-batch, sequence length and gradient accumulation, each a log-scale
// slider with a box for the exact number. A slider drag is one undo step; a sequence drag stops
// at the common context sizes and the model's own, typing stays free.

#include "panels/controlgroup.h"

#include <vector>

namespace vramplan::ui {

class LogSlider;

// Where a sequence-length drag stops: powers of two, three times them (3k, 6k, ..., 96k) and the
// round contexts models are sold with (128,000, 200,000, 1,000,000), from `from` to `to`.
std::vector<double> contextSizes(double from, double to);

class BatchGroup : public ControlGroup
{
    Q_OBJECT

public:
    explicit BatchGroup(QWidget *parent = nullptr);

    void refreshAvailability(const Scenario &scenario) override;

    LogSlider *microBatch() const { return m_microBatch; }
    LogSlider *sequenceLength() const { return m_sequence; }
    LogSlider *accumulation() const { return m_accumulation; }

protected:
    void display(const Scenario &scenario) override;

private:
    LogSlider *m_microBatch, *m_sequence, *m_accumulation;
};

} // namespace vramplan::ui
