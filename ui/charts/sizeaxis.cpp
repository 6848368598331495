#include "charts/sizeaxis.h"

#include <qcustomplot.h>

#include <cmath>

namespace vramplan::ui {
namespace {

// QCustomPlot's own ticker with the step chosen in the shown unit and labels written out.
class SizeTicker : public QCPAxisTicker
{
public:
    double divisor = 1; // shown unit / chart unit

protected:
    double getTickStep(const QCPRange &range) override
    {
        m_step = QCPAxisTicker::getTickStep(QCPRange(range.lower / divisor, range.upper / divisor));
        return m_step * divisor;
    }

    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        // Enough decimals for the step (0.25 needs two), none for whole steps.
        int decimals = 0;
        while (decimals < 6) {
            const double scaled = m_step * std::pow(10.0, decimals);
            if (std::abs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled))
                break;
            ++decimals;
        }
        double value = tick / divisor;
        if (std::abs(value) < 0.5 * std::pow(10.0, -decimals))
            value = 0; // no "-0"
        return QString::number(value, 'f', decimals);
    }

private:
    double m_step = 1; // in the shown unit
};

} // namespace

ScaledUnit setSizeAxis(QCPAxis *axis, double top, Unit unit, const QString &what)
{
    const ScaledUnit shown = scaledUnit(top * unitBytes(unit), unit);
    auto ticker = axis->ticker().dynamicCast<SizeTicker>();
    if (!ticker) {
        ticker = QSharedPointer<SizeTicker>::create();
        axis->setTicker(ticker);
    }
    ticker->divisor = shown.bytes / unitBytes(unit);
    axis->setRange(0, top);
    axis->setLabel(QStringLiteral("%1 (%2)").arg(what, shown.name));
    return shown;
}

void setPlainTicks(QCPAxis *axis)
{
    if (!axis->ticker().dynamicCast<SizeTicker>())
        axis->setTicker(QSharedPointer<SizeTicker>::create());
}

} // namespace vramplan::ui
