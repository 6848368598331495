#include "charts/timelinechart.h"

#include "charts/chartstyle.h"
#include "charts/componentstyle.h"
#include "charts/plotlayout.h"
#include "charts/sizeaxis.h"
#include "charts/ticklabels.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <vector>

namespace vramplan::ui {

namespace {

constexpr double barWidth = 0.62;
// The device line, dotted: red where it is over the capacity, green where it fits, as the
// status bar's verdict.
const QColor deviceOverColor(0xb7, 0x1c, 0x1c);
const QColor deviceFitsColor(0x2e, 0x7d, 0x32);

double sanitized(double v)
{
    return std::isfinite(v) && v > 0 ? v : 0.0;
}

} // namespace

TimelineChart::TimelineChart(QWidget *parent)
    : QWidget(parent), m_plot(new QCustomPlot(this)), m_ticker(new QCPAxisTickerText)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);

    m_plot->setAntialiasedElements(QCP::aePlottables | QCP::aeItems | QCP::aeLegendItems);
    m_plot->setMouseTracking(true); // hover tooltips without a pressed button
    // Smaller than its layout would ask for: in a small window the legend rearranges itself.
    m_plot->setMinimumSize(160, 160);

    // Six bars need the full width for their labels: the legend goes above the plot, in rows,
    // under the title (which the curves above it have too: a chart says what it shows).
    m_title = titleAndLegendAbove(m_plot, tr("Memory through one training step"));
    m_plot->legend->setMargins(QMargins(6, 4, 6, 0));

    QCPAxis *x = m_plot->xAxis;
    QCPAxis *y = m_plot->yAxis;
    x->setTicker(m_ticker);
    x->grid()->setVisible(false);
    x->setTickLength(0, 0);
    x->setSubTicks(false);
    styleAxes(m_plot);
    m_bars = addComponentBars(x, y, barWidth);
    m_plot->legend->clearItems();

    m_plot->addLayer(QStringLiteral("markers"), m_plot->layer(QStringLiteral("main")),
                     QCustomPlot::limAbove);
    m_plot->setCurrentLayer(QStringLiteral("markers"));

    m_capacityLine = new QCPItemStraightLine(m_plot);
    m_deviceLine = new QCPItemStraightLine(m_plot);
    // The two lines are named in the legend, not beside them: in the plot a label would sit on
    // some bar's total whatever its place (six bars, labels over each).
    m_capacityEntry = m_plot->addGraph();
    m_deviceEntry = m_plot->addGraph();
    for (QCPGraph *entry : {m_capacityEntry, m_deviceEntry}) {
        entry->setSelectable(QCP::stNone);
        entry->removeFromLegend();
    }

    for (QCPItemText *&label : m_totalLabels) {
        label = new QCPItemText(m_plot);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setPadding(QMargins(2, 1, 2, 2));
    }

    // The peak's label sits at the top of the plot, clear of the neighbours' totals, with an
    // arrow down to its bar.
    m_peakLabel = new QCPItemText(m_plot);
    // x in pixels of the drawing, set by placePeakLabel(); y a share of the plot's height.
    m_peakLabel->position->setTypeX(QCPItemPosition::ptAbsolute);
    m_peakLabel->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_peakLabel->position->setCoords(0, 0);
    m_peakLabel->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_peakLabel->setPadding(QMargins(4, 1, 4, 1));
    m_peakArrow = new QCPItemLine(m_plot);
    m_peakArrow->start->setType(QCPItemPosition::ptAbsolute);
    m_peakArrow->start->setParentAnchor(m_peakLabel->bottom);
    m_peakArrow->start->setCoords(0, 0);
    m_peakArrow->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 7, 9));

    m_plot->setCurrentLayer(QStringLiteral("main"));
    for (int i = 0; i < m_plot->itemCount(); ++i)
        m_plot->item(i)->setSelectable(false);

    adaptToLayout(m_plot, [this] {
        const bool relabelled = updateTickLabels();
        const bool rewrapped = wrapLegend();
        const bool rescaled = makeRoomForLabels();
        placePeakLabel(); // text items take no room: no new layout
        const bool retitled = fitSizeAxisLabel(m_plot->yAxis);
        return relabelled || rewrapped || rescaled || retitled;
    });
    connect(m_plot, &QCustomPlot::mouseMove, this,
            [this](QMouseEvent *event) { showToolTip(event); });
    applyFonts();
    applyColors();
    setEstimate(Estimate{}, Unit::GiB);
}

void TimelineChart::setEstimate(const Estimate &e, Unit unit)
{
    m_unit = unit;
    std::array<QVector<QCPBarsData>, componentCount> data;
    std::array<bool, componentCount> used{};
    m_phaseCount = 0;
    m_totals.fill(0);
    m_peakIndex = -1;
    double top = 0;
    // The model load comes before the step it precedes; the step's phases follow in order.
    std::array<const PhaseTotals *, vramplan::phaseCount> ordered{};
    ordered[0] = &e.phases[size_t(Phase::Initialisation)];
    for (int i = 0, n = 1; i < vramplan::phaseCount; ++i)
        if (Phase(i) != Phase::Initialisation)
            ordered[size_t(n++)] = &e.phases[size_t(i)];
    for (const PhaseTotals *ordering : ordered) {
        const PhaseTotals &phase = *ordering;
        if (!phase.present)
            continue;
        const int index = m_phaseCount++;
        const double key = index + 1;
        double total = 0;
        for (int c = 0; c < componentCount; ++c) {
            const double value = sanitized(toUnit(phase.byComponent[size_t(c)], unit));
            data[size_t(c)].append(QCPBarsData(key, value));
            m_values[size_t(index)][size_t(c)] = value;
            used[size_t(c)] = used[size_t(c)] || value > 0;
            total += value;
        }
        m_totals[size_t(index)] = total;
        top = std::max(top, total);
        m_phases[size_t(index)] = phase.phase;
        if (phase.phase == e.peak.phase)
            m_peakIndex = index;

        QCPItemText *label = m_totalLabels[size_t(index)];
        label->position->setCoords(key, total);
        label->setText(formatSize(total * unitBytes(unit), unit, 1));
    }
    for (int c = 0; c < componentCount; ++c)
        m_bars[size_t(c)]->data()->set(data[size_t(c)], true);
    for (int i = 0; i < vramplan::phaseCount; ++i)
        m_totalLabels[size_t(i)]->setVisible(i < m_phaseCount && i != m_peakIndex);
    m_capacity = sanitized(toUnit(e.capacityBytes, unit));
    m_device = m_phaseCount > 0 ? sanitized(toUnit(e.peak.device, unit)) : 0;
    m_used = used;
    updateLegend();
    // More room above the tallest bar than the other charts leave: it holds the bar's total and,
    // above that, the peak's label.
    m_top = std::max({top, m_capacity, m_device});
    setSizeAxis(m_plot->yAxis, m_top > 0 ? m_top * 1.25 : 1.0, unit, memoryPerGpuLabel());
    m_plot->xAxis->setRange(0.4, std::max(m_phaseCount, 1) + 0.6);

    m_capacityLine->setVisible(m_capacity > 0);
    m_capacityLine->point1->setCoords(0, m_capacity);
    m_capacityLine->point2->setCoords(1, m_capacity);
    m_capacityEntry->setName(tr("capacity %1").arg(formatSize(sanitized(e.capacityBytes), unit)));
    m_deviceLine->setVisible(m_device > 0);
    m_deviceLine->point1->setCoords(0, m_device);
    m_deviceLine->point2->setCoords(1, m_device);
    m_deviceLine->setPen(QPen(chartColors(palette()).signal(m_device > m_capacity ? deviceOverColor
                                                                                  : deviceFitsColor),
                              1.5, Qt::DotLine));
    m_deviceEntry->setPen(m_deviceLine->pen());
    m_deviceEntry->setName(deviceLabel());

    const bool showPeak = m_peakIndex >= 0;
    m_peakText =
        showPeak ? tr("peak: %1 allocated").arg(formatSize(sanitized(e.peak.allocated), unit, 1))
                 : QString();
    m_peakLabel->setVisible(showPeak);
    m_peakArrow->setVisible(showPeak);
    if (showPeak) {
        const double key = m_peakIndex + 1;
        m_peakLabel->setText(m_peakText); // placed over its bar once laid out: placePeakLabel
        m_peakArrow->end->setCoords(key, m_totals[size_t(m_peakIndex)]);
    }

    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

bool TimelineChart::updateLegend()
{
    // Only what some bar holds (the CUDA context is never allocated, for one), then the lines;
    // rebuilt only when that set changes, so a slider drag does not relayout the legend on every
    // step.
    std::array<bool, componentCount + 2> key{};
    for (int c = 0; c < componentCount; ++c)
        key[size_t(c)] = m_used[size_t(c)] && !m_compactLegend;
    key[componentCount] = m_capacity > 0;
    key[componentCount + 1] = m_device > 0;
    if (key == m_legendKey && m_plot->legend->itemCount() > 0)
        return false;
    m_legendKey = key;
    m_plot->legend->clearItems();
    // Row by row in stacking order, the top segment first.
    for (int c = componentCount - 1; c >= 0; --c) {
        if (key[size_t(c)])
            m_bars[size_t(c)]->addToLegend();
    }
    if (key[componentCount])
        m_capacityEntry->addToLegend();
    if (key[componentCount + 1])
        m_deviceEntry->addToLegend();
    // QCustomPlot sizes an entry to the font's height and clips it there, which shaves off
    // antialiased descenders; a pixel above and below keeps "g" and "y" whole.
    for (int i = 0; i < m_plot->legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = m_plot->legend->item(i)) // empty cells of a wrapped grid
            item->setMargins(QMargins(0, 1, 0, 1));
    }
    return true;
}

bool TimelineChart::updateTickLabels()
{
    // For the axis of the layout just made: each name within its bar's slot.
    // The bars stand one key apart on a range a little wider than their count.
    const int slot = int(m_plot->axisRect()->width() / std::max(m_plot->xAxis->range().size(), 1.0));
    // A slider step rarely changes the phases or the width: skip measuring the labels then.
    if (slot == m_tickSlot && m_phaseCount == m_tickCount && m_phases == m_tickPhases)
        return false;
    m_tickSlot = slot;
    m_tickCount = m_phaseCount;
    m_tickPhases = m_phases;
    const QFontMetrics metrics(m_plot->xAxis->tickLabelFont());
    // Half a character apart at least: a whole one cut "backward" to "backw..." at 1024x640.
    const int width = std::max(slot - metrics.averageCharWidth() / 2, 1);
    m_ticker->clear();
    for (int i = 0; i < m_phaseCount; ++i)
        m_ticker->addTick(i + 1, phaseTickLabel(m_phases[size_t(i)], metrics, width));
    return true;
}

bool TimelineChart::wrapLegend()
{
    // As many columns as the drawing's width holds, so that no entry is cut at the edge. Where
    // the rows would take more than a third of a short chart (a small window), the legend
    // names only the two lines: the components' colours are those of every chart, and the
    // breakdown's legend beside it names them.
    QCPLegend *legend = m_plot->legend;
    const QRect viewport = m_plot->viewport();
    std::vector<int> widths;
    for (int c = componentCount - 1; c >= 0; --c)
        if (m_used[size_t(c)])
            widths.push_back(legendEntryWidth(legend, m_bars[size_t(c)]->name()));
    for (const QCPGraph *line : {m_capacityEntry, m_deviceEntry})
        widths.push_back(legendEntryWidth(legend, line->name()));
    const int columns = fittingColumns(legend, widths, viewport.width());
    const int rowHeight = QFontMetrics(legend->font()).height() + 2 + legend->rowSpacing();
    const int rows = (int(widths.size()) + columns - 1) / columns;
    // A quarter dropped the components already at 1024x640 (three rows in a 224 px chart).
    m_compactLegend = rows * rowHeight > viewport.height() / 3;
    const bool rebuilt = updateLegend();
    return setLegendColumns(legend, fittingColumns(legend, viewport.width())) || rebuilt;
}

bool TimelineChart::makeRoomForLabels()
{
    // Above the tallest bar (or line) the peak's label stands over its neighbours' totals: two
    // rows of text and the arrow, in pixels of this drawing, whatever its height.
    if (m_top <= 0)
        return false;
    const int axisHeight = std::max(m_plot->axisRect()->height(), 1);
    const double rows = 2.0 * (QFontMetrics(m_peakLabel->font()).height() + 6) + 10;
    const double room = std::clamp(rows / axisHeight, 0.2, 0.6);
    const double upper = m_top / (1.0 - room);
    if (std::abs(upper - m_plot->yAxis->range().upper) <= 1e-9 * upper)
        return false;
    setSizeAxis(m_plot->yAxis, upper, m_unit, memoryPerGpuLabel());
    return true;
}

void TimelineChart::placePeakLabel()
{
    // Centred over its bar where it stays inside the plot; over the first or the last bar a
    // label wider than the bar's slot would start or end outside it (": 60.3 GiB allocated"),
    // so it moves in from that edge, its arrow still pointing down from above the bar.
    if (m_peakIndex < 0)
        return;
    const QRect axis = m_plot->axisRect()->rect();
    const QMargins padding = m_peakLabel->padding();
    const double width = QFontMetrics(m_peakLabel->font())
                             .boundingRect(QRect(), Qt::TextDontClip, m_peakText)
                             .width() +
                         padding.left() + padding.right();
    const double bar = m_plot->xAxis->coordToPixel(m_peakIndex + 1);
    const double lowest = axis.left() + 1 + width / 2;
    const double centre = std::clamp(bar, lowest, std::max(lowest, axis.right() - 1 - width / 2));
    m_peakLabel->position->setCoords(centre, 0.01);
    m_peakArrow->start->setCoords(bar - centre, 0);
}

int TimelineChart::phaseCount() const
{
    return m_phaseCount;
}

double TimelineChart::phaseTotal(int index) const
{
    return index >= 0 && index < m_phaseCount ? m_totals[size_t(index)] : 0.0;
}

QString TimelineChart::peakLabel() const
{
    return m_peakText;
}

double TimelineChart::capacityValue() const
{
    return m_capacity;
}

double TimelineChart::deviceValue() const
{
    return m_device;
}

QString TimelineChart::deviceLabel() const
{
    return m_device > 0 ? tr("device %1").arg(formatSize(m_device * unitBytes(m_unit), m_unit, 1))
                        : QString();
}

QCustomPlot *TimelineChart::plot() const
{
    return m_plot;
}

QString TimelineChart::toolTipAt(const QPointF &position) const
{
    const double key = m_plot->xAxis->pixelToCoord(position.x());
    const int index = int(std::lround(key)) - 1;
    if (index < 0 || index >= m_phaseCount || std::abs(key - (index + 1)) > barWidth / 2)
        return {};
    const double bytes = unitBytes(m_unit);
    QStringList lines{tr("%1: %2 allocated")
                          .arg(phaseName(m_phases[size_t(index)]),
                               formatSize(m_totals[size_t(index)] * bytes, m_unit))};
    if (index == m_peakIndex)
        lines << tr("the peak of the step; the device holds %1")
                     .arg(formatSize(m_device * bytes, m_unit));
    const double value = m_plot->yAxis->pixelToCoord(position.y());
    double below = 0;
    for (int c = 0; c < componentCount; ++c) {
        const double size = m_values[size_t(index)][size_t(c)];
        if (size > 0 && value >= below && value < below + size) {
            lines << tr("%1: %2").arg(componentName(Component(c)),
                                      formatSize(size * bytes, m_unit));
            break;
        }
        below += size;
    }
    return lines.join(QLatin1Char('\n'));
}

void TimelineChart::showToolTip(QMouseEvent *event)
{
    showPlotToolTip(m_plot, event, toolTipAt(event->position()), m_shownTip);
}

void TimelineChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        applyFonts();
        m_tickSlot = -1;
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    } else if (event->type() == QEvent::PaletteChange) {
        applyColors();
    }
}

void TimelineChart::applyColors()
{
    const ChartColors c = chartColors(palette());
    applyChartColors(m_plot, c);
    m_title->setTextColor(c.text);
    m_capacityLine->setPen(QPen(c.ink, 1.5, Qt::DashLine));
    m_capacityEntry->setPen(m_capacityLine->pen());
    m_deviceLine->setPen(QPen(c.signal(m_device > m_capacity ? deviceOverColor : deviceFitsColor),
                              1.5, Qt::DotLine));
    m_deviceEntry->setPen(m_deviceLine->pen());
    for (QCPItemText *label : m_totalLabels) {
        label->setColor(c.muted);
        // A bar ending near the capacity puts its total on the dashed line: keep it legible.
        label->setBrush(c.labelBrush(200));
    }
    m_peakLabel->setColor(c.text);
    m_peakLabel->setBrush(c.labelBrush(220));
    m_peakArrow->setPen(QPen(c.ink, 1.2));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineChart::applyFonts()
{
    const QFont base = font();
    QFont bold = base;
    bold.setBold(true);
    applyBaseFonts(m_plot, base);
    const int h = QFontMetrics(base).height();
    m_plot->legend->setIconSize(h, h);
    m_legendKey = {};
    for (QCPItemText *label : m_totalLabels)
        label->setFont(base);
    m_peakLabel->setFont(bold);
    m_title->setFont(bold);
}

} // namespace vramplan::ui
