#include "charts/sizeaxis.h"

#include <qcustomplot.h>

#include <QCoreApplication>
#include <QFontMetrics>
#include <QStringList>

#include <cmath>

namespace vramplan::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::SizeAxis)
};

// QCustomPlot's own ticker with the step chosen in the shown unit and labels written out.
class SizeTicker : public QCPAxisTicker
{
public:
    double divisor = 1; // shown unit / chart unit
    QStringList labels; // the axis title, longest first (fitSizeAxisLabel)

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

QString memoryPerGpuLabel()
{
    return Words::tr("Memory per GPU");
}

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
    ticker->labels = {Words::tr("%1 (%2)", "an axis title: what, unit").arg(what, shown.name)};
    if (what == memoryPerGpuLabel())
        ticker->labels << Words::tr("%1 per GPU", "an axis title: a unit").arg(shown.name);
    ticker->labels << shown.name;
    axis->setLabel(ticker->labels.front());
    return shown;
}

bool fitSizeAxisLabel(QCPAxis *axis)
{
    const auto ticker = axis->ticker().dynamicCast<SizeTicker>();
    if (!ticker || ticker->labels.isEmpty())
        return false;
    const QFontMetrics metrics(axis->labelFont());
    const int length = axis->orientation() == Qt::Vertical ? axis->axisRect()->height()
                                                           : axis->axisRect()->width();
    QString label = ticker->labels.back();
    for (const QString &candidate : ticker->labels)
        if (metrics.horizontalAdvance(candidate) <= length) {
            label = candidate;
            break;
        }
    if (label == axis->label())
        return false;
    axis->setLabel(label);
    return true;
}

void setPlainTicks(QCPAxis *axis)
{
    if (!axis->ticker().dynamicCast<SizeTicker>())
        axis->setTicker(QSharedPointer<SizeTicker>::create());
}

} // namespace vramplan::ui
