#pragma once
// Parallelism: the GPU count and how the model is split over them (tensor with sequence
// parallelism, pipeline with virtual stages, context, expert). Tensor-parallel sizes the heads
// cannot be split into are listed but disabled, saying why.

#include "panels/controlgroup.h"

class QCheckBox;
class QComboBox;
class QSpinBox;

namespace vramplan::ui {

class LogSlider;

class ParallelGroup : public ControlGroup
{
    Q_OBJECT

public:
    explicit ParallelGroup(QWidget *parent = nullptr);

    void refreshAvailability(const Scenario &scenario) override;

    LogSlider *gpuCount() const { return m_gpus; }
    QComboBox *tensorParallelBox() const { return m_tp; }

protected:
    void display(const Scenario &scenario) override;

private:
    LogSlider *m_gpus;
    QComboBox *m_tp;
    QSpinBox *m_pp, *m_vpp, *m_cp, *m_ep;
    QCheckBox *m_sp;
};

} // namespace vramplan::ui
