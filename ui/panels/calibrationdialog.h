#pragma once
// "Calibrate from My Run": the user enters what a run of the current scenario measured
// (allocated, reserved or nvidia-smi); the dialog shows what vramplan estimates for the same
// number and the fit it would make, and hands the fitted calibration back.

#include "charts/units.h"
#include "scenario.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;

namespace vramplan::ui {

class CalibrationDialog : public QDialog
{
    Q_OBJECT

public:
    CalibrationDialog(const vramplan::Scenario &scenario, Unit unit, QWidget *parent = nullptr);

    // The fitted calibration; valid when the dialog was accepted.
    const vramplan::Calibration &calibration() const { return m_fitted; }

    // For tests and scripts: choose a metric and a value (in the dialog's unit).
    void setMeasurement(vramplan::MemoryMetric metric, double valueInUnit);
    QString resultText() const;
    QLabel *resultLabel() const { return m_result; }
    bool canAccept() const;

private:
    void metricChanged();
    void refit();
    void fitText(); // grows the dialog when the fit's line wraps to more lines than it had

    vramplan::Scenario m_scenario; // without its calibration
    Unit m_unit;
    vramplan::Calibration m_fitted;
    QComboBox *m_metric;
    QDoubleSpinBox *m_value;
    QLabel *m_modelled;
    QLabel *m_result;
    QDialogButtonBox *m_buttons;
};

} // namespace vramplan::ui
