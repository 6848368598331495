// BreakdownChart, continued: the preview of a "Make it fit" suggestion. The suggestion's
// estimate is drawn in place of the current one (its segments, its gap to the capacity, its
// measured numbers), paler, so that it reads as "if applied"; a dashed line across the bar
// keeps the current total in view for comparison.

#include "charts/breakdownchart.h"

#include "charts/breakdowngeometry.h"
#include "charts/componentstyle.h"
#include "charts/ticklabels.h"

#include <qcustomplot.h>

#include <cmath>
#include <limits>

namespace vramplan::ui {

using namespace breakdown;

namespace {

// Pale enough to read as a preview, dark enough that each segment keeps its colour.
constexpr int previewAlpha = 120;

} // namespace

void BreakdownChart::addPreviewItems()
{
    // While a suggestion is previewed: where the current total stands, across the bar.
    m_nowLine = new QCPItemLine(m_plot);
    m_nowLabel = new QCPItemText(m_plot);
    m_nowLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
    m_nowLabel->setTextAlignment(Qt::AlignLeft);
    m_nowLabel->setPadding(QMargins(3, 1, 3, 1));
    m_nowLine->setVisible(false);
    m_nowLabel->setVisible(false);
}

double BreakdownChart::currentTotalBytes() const
{
    double total = 0;
    for (double bytes : m_current.perGpu)
        total += std::isfinite(bytes) && bytes > 0 ? bytes : 0.0;
    return total;
}

void BreakdownChart::setPreview(const Estimate &preview, const QString &what)
{
    m_preview = what.isEmpty() ? tr("preview") : what;
    draw(preview, std::nullopt);
    markPreview();
}

void BreakdownChart::clearPreview()
{
    if (m_preview.isEmpty())
        return;
    m_preview.clear();
    draw(m_current, m_currentBalanced);
    markPreview();
}

double BreakdownChart::nowValue() const
{
    if (!m_nowLine->visible())
        return std::numeric_limits<double>::quiet_NaN();
    return m_nowLine->start->coords().y();
}

void BreakdownChart::markPreview()
{
    const bool on = !m_preview.isEmpty();
    for (int i = 0; i < componentCount; ++i) {
        QColor color = componentColor(static_cast<Component>(i));
        if (on)
            color.setAlpha(previewAlpha);
        m_bars[size_t(i)]->setBrush(color);
    }
    const double nowBytes = currentTotalBytes();
    const double now = toUnit(nowBytes, m_unit);
    m_nowLine->setVisible(on);
    m_nowLabel->setVisible(on);
    m_nowLine->start->setCoords(barKey - barWidth / 2 - 0.04, now);
    m_nowLine->end->setCoords(barKey + barWidth / 2 + 0.04, now);
    // Left on the bar, just above its line: the total's label is centred above the bar.
    m_nowLabel->position->setCoords(barKey - barWidth / 2, now);
    m_nowLabel->setText(tr("now %1").arg(formatSize(nowBytes, m_unit)));
    if (on) {
        auto *ticker = static_cast<QCPAxisTickerText *>(m_plot->xAxis->ticker().data());
        ticker->clear();
        ticker->addTick(barKey,
                        tr("preview, at the peak:\n%1").arg(phaseName(m_estimate.peak.phase)));
        m_measuredHeading->setText(tr("Peak if applied"));
    }
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace vramplan::ui
