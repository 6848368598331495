#pragma once
// Batch and sequence: micro-batch, sequence length and gradient accumulation, each a log-scale
// slider with a box for the exact number. A slider drag is one undo step.

#include "panels/controlgroup.h"

namespace vramplan::ui {

class LogSlider;

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
