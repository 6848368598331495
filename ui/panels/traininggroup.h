#pragma once
// Mode, precision and optimizer: training or inference, the precision recipe, the optimizer and
// the framework whose habits the step follows. Every choice says what it means in its tooltip.

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

protected:
    void display(const Scenario &scenario) override;

private:
    QComboBox *m_mode, *m_precision, *m_optimizer, *m_framework;
};

} // namespace vramplan::ui
