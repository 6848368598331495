#pragma once
// Mode, precision and optimizer: training or inference, the precision recipe, the optimizer and
// the framework whose habits the step follows, and the precision of the optimizer's states, master
// weights and gradients where a framework lets a user choose it. Every choice says what it means in its tooltip.

#include "panels/controlgroup.h"

class QComboBox;

namespace vramplan::ui {

class TrainingGroup : public ControlGroup
{
    Q_OBJECT

public:
    explicit TrainingGroup(QWidget *parent = nullptr);

    void refreshAvailability(const Scenario &scenario) override;

    QComboBox *modeBox() const { return m_mode; }
    QComboBox *precisionBox() const { return m_precision; }
    QComboBox *optimizerBox() const { return m_optimizer; }
    QComboBox *frameworkBox() const { return m_framework; }
    QComboBox *statesDtypeBox() const { return m_statesDtype; }
    QComboBox *masterDtypeBox() const { return m_masterDtype; }
    QComboBox *gradientsDtypeBox() const { return m_gradientsDtype; }

protected:
    void display(const Scenario &scenario) override;

private:
    QComboBox *m_mode, *m_precision, *m_optimizer, *m_framework;
    // training.optimizer_precision: the states' dtype (both moments), the master copy's and the
    // gradients' ("auto": what the precision and optimizer imply)
    QComboBox *m_statesDtype, *m_masterDtype, *m_gradientsDtype;
};

} // namespace vramplan::ui
