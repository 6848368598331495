#include "panels/calibrationdialog.h"

#include "advice/calibration.h"
#include "estimate.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace vramplan::ui {
namespace {

double bytesPerUnit(Unit unit)
{
    return unitBytes(unit);
}

} // namespace

CalibrationDialog::CalibrationDialog(const Scenario &scenario, Unit unit, QWidget *parent)
    : QDialog(parent), m_scenario(scenario), m_unit(unit), m_metric(new QComboBox(this)),
      m_value(new QDoubleSpinBox(this)), m_modelled(new QLabel(this)), m_result(new QLabel(this)),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setWindowTitle(tr("Calibrate from My Run"));
    m_scenario.calibration = {};

    auto *intro = new QLabel(
        tr("Enter the peak your run of this scenario measured. vramplan fits its overhead terms "
           "(allocator slack, memory beside the allocator) and, where those cannot explain the "
           "difference, scales its activations, so that the estimate reproduces your number. "
           "The calibration is saved with the scenario and carries over to nearby settings."),
        this);
    intro->setWordWrap(true);

    m_metric->addItem(tr("torch.cuda.max_memory_allocated()"), int(MemoryMetric::Allocated));
    m_metric->addItem(tr("torch.cuda.max_memory_reserved()"), int(MemoryMetric::Reserved));
    m_metric->addItem(tr("nvidia-smi (memory used by the process)"), int(MemoryMetric::Device));
    m_metric->setCurrentIndex(1);
    m_value->setRange(0.01, 1.0e6);
    m_value->setDecimals(2);
    m_value->setSuffix(QLatin1Char(' ') + unitName(unit));
    m_value->setAccelerated(true);
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::PlainText);

    auto *form = new QFormLayout;
    form->addRow(tr("What you measured:"), m_metric);
    form->addRow(tr("Peak:"), m_value);
    form->addRow(tr("vramplan estimates:"), m_modelled);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_result);
    layout->addWidget(m_buttons);

    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_metric, &QComboBox::currentIndexChanged, this, &CalibrationDialog::metricChanged);
    connect(m_value, &QDoubleSpinBox::valueChanged, this, &CalibrationDialog::refit);

    // Start from what the scenario was last calibrated to, or else from the estimate itself.
    if (scenario.calibration.present) {
        m_metric->setCurrentIndex(m_metric->findData(int(scenario.calibration.metric)));
        metricChanged();
        m_value->setValue(scenario.calibration.measuredBytes / bytesPerUnit(unit));
    } else {
        metricChanged();
    }
    m_value->selectAll();
    m_value->setFocus();
}

void CalibrationDialog::metricChanged()
{
    const auto metric = static_cast<MemoryMetric>(m_metric->currentData().toInt());
    const double modelled = measuredValue(estimate(m_scenario).peak, metric);
    m_modelled->setText(formatSize(modelled, m_unit));
    const QSignalBlocker blocker(m_value);
    m_value->setValue(modelled / bytesPerUnit(m_unit));
    refit();
}

void CalibrationDialog::setMeasurement(MemoryMetric metric, double valueInUnit)
{
    m_metric->setCurrentIndex(m_metric->findData(int(metric)));
    m_value->setValue(valueInUnit);
    refit();
}

void CalibrationDialog::refit()
{
    const auto metric = static_cast<MemoryMetric>(m_metric->currentData().toInt());
    const auto fitted = fitCalibration(m_scenario, metric, m_value->value() * bytesPerUnit(m_unit));
    QPushButton *ok = m_buttons->button(QDialogButtonBox::Ok);
    if (!fitted) {
        m_result->setText(tr("Cannot calibrate: %1.").arg(QString::fromStdString(fitted.error)));
        m_result->setStyleSheet(QStringLiteral("color: #c62828"));
        ok->setEnabled(false);
        fitText();
        return;
    }
    m_fitted = *fitted.value;
    QStringList parts;
    // Only what shows at two decimals: a fit of a few bytes is no fit, and reads "- 0.00 GiB".
    if (std::abs(toUnit(m_fitted.overheadBytes, m_unit)) >= 0.005)
        parts << tr("%1 %2 of overhead %3")
                     .arg(m_fitted.overheadBytes > 0 ? QStringLiteral("+") : QStringLiteral("-"),
                          formatSize(std::abs(m_fitted.overheadBytes), m_unit),
                          metric == MemoryMetric::Reserved ? tr("in the allocator's slack")
                                                           : tr("beside the allocator"));
    if (std::abs(m_fitted.activationScale - 1.0) >= 0.0005)
        parts << tr("activations, logits and temporaries x %1")
                     .arg(m_fitted.activationScale, 0, 'f', 3);
    m_result->setText(parts.isEmpty() ? tr("The estimate already matches: nothing to fit.")
                                      : tr("Fit: %1.").arg(parts.join(tr("; "))));
    m_result->setStyleSheet(QString());
    ok->setEnabled(true);
    fitText();
}

void CalibrationDialog::fitText()
{
    // A QDialog keeps the height it was shown at: a result that wraps to more lines than
    // before would be clipped at the bottom. Grow to what the layout needs at this width.
    if (!layout())
        return;
    layout()->activate();
    const int needed = layout()->hasHeightForWidth() ? layout()->totalHeightForWidth(width())
                                                     : layout()->totalMinimumSize().height();
    if (needed > height())
        resize(width(), needed);
}

QString CalibrationDialog::resultText() const
{
    return m_result->text();
}

bool CalibrationDialog::canAccept() const
{
    return m_buttons->button(QDialogButtonBox::Ok)->isEnabled();
}

} // namespace vramplan::ui
