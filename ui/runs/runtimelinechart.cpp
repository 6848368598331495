#include "runs/runtimelinechart.h"

#include "charts/chartstyle.h"
#include "charts/plotlayout.h"
#include "charts/sizeaxis.h"
#include "charts/ticklabels.h"
#include "runs/timelinebuckets.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QVBoxLayout>

#include <algorithm>

namespace vramplan::ui {
namespace {

// Measured lines solid, in colours apart from the components' (the plan's line is the ink's).
const QColor allocatedColor(0x15, 0x65, 0xc0);
const QColor reservedColor(0x00, 0x89, 0x7b);

QVector<double> xs(const QList<QPointF> &points)
{
    QVector<double> out;
    out.reserve(points.size());
    for (const QPointF &p : points)
        out << p.x();
    return out;
}

QVector<double> ys(const QList<QPointF> &points)
{
    QVector<double> out;
    out.reserve(points.size());
    for (const QPointF &p : points)
        out << p.y();
    return out;
}

// The phases of the plan in the estimated timeline's order: the model load first, the step's
// phases after it.
std::vector<const PhaseTotals *> orderedPhases(const Estimate &e)
{
    std::vector<const PhaseTotals *> out;
    if (e.phases[size_t(Phase::Initialisation)].present)
        out.push_back(&e.phases[size_t(Phase::Initialisation)]);
    for (int i = 0; i < vramplan::phaseCount; ++i)
        if (Phase(i) != Phase::Initialisation && e.phases[size_t(i)].present)
            out.push_back(&e.phases[size_t(i)]);
    return out;
}

} // namespace

RunTimelineChart::RunTimelineChart(QWidget *parent)
    : QWidget(parent), m_plot(new QCustomPlot(this)), m_phaseTicker(new QCPAxisTickerText)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setAntialiasedElements(QCP::aePlottables | QCP::aeItems | QCP::aeLegendItems);
    m_plot->setMinimumSize(200, 180);

    // The legend above the plot, under the title, as the estimated timeline has it.
    m_title = titleAndLegendAbove(m_plot, tr("Measured through the run, over the planned step"));
    m_plot->legend->setWrap(2);
    styleAxes(m_plot);
    // The plan's phases named along the top, over their slots.
    m_plot->xAxis2->setVisible(true);
    m_plot->xAxis2->setTicker(m_phaseTicker);
    m_plot->xAxis2->setTickLength(0, 0);
    m_plot->xAxis2->setSubTicks(false);
    m_plot->xAxis2->grid()->setVisible(false);

    m_planned = m_plot->addGraph();
    m_planned->setName(tr("planned allocated, by phase"));
    m_planned->setLineStyle(QCPGraph::lsStepLeft);
    m_reserved = m_plot->addGraph();
    m_reserved->setName(tr("measured reserved"));
    m_allocated = m_plot->addGraph();
    m_allocated->setName(tr("measured allocated"));
    m_plannedReserved = new QCPItemStraightLine(m_plot);
    m_plannedReservedEntry = m_plot->addGraph();
    m_plannedReservedEntry->setName(tr("planned reserved peak"));
    for (int i = 0; i < m_plot->graphCount(); ++i)
        m_plot->graph(i)->setSelectable(QCP::stNone);
    applyBaseFonts(m_plot, font());
    applyColors();
}

void RunTimelineChart::setRun(const nlohmann::json &report, const Estimate &planned, Unit unit)
{
    const double perUnit = unitBytes(unit);
    // The clock of the snapshot that gave the timeline: microseconds, or the entry's index
    // where the trace has no times.
    bool timed = false;
    for (const auto &s : report.value("sources", nlohmann::json::array()))
        if (s.value("t_us_from", std::string()) == "time_us")
            timed = true;
    m_plot->xAxis->setLabel(timed ? tr("Time (ms)") : tr("Trace entry"));
    m_allocatedPoints.clear();
    m_reservedPoints.clear();
    double top = 0;
    for (const auto &p : report.value("timeline", nlohmann::json::array())) {
        const double t = p.value("t_us", 0.0) / (timed ? 1000.0 : 1.0);
        if (p["allocated_bytes"].is_number())
            m_allocatedPoints << QPointF(t, p["allocated_bytes"].get<double>() / perUnit);
        if (p["reserved_bytes"].is_number())
            m_reservedPoints << QPointF(t, p["reserved_bytes"].get<double>() / perUnit);
    }
    for (const QList<QPointF> *line : {&m_allocatedPoints, &m_reservedPoints})
        for (const QPointF &p : *line)
            top = std::max(top, p.y());
    // No timeline (MemTracker or memory_stats alone): the measured peaks as flat lines over
    // the step, so that they still stand beside the plan.
    const nlohmann::json peak = report.value("peak", nlohmann::json::object());
    double from = 0, to = 1;
    if (!m_allocatedPoints.isEmpty() || !m_reservedPoints.isEmpty()) {
        const QList<QPointF> &line = m_allocatedPoints.isEmpty() ? m_reservedPoints
                                                                 : m_allocatedPoints;
        from = line.front().x();
        to = std::max(line.back().x(), from + 1e-9);
    } else {
        for (auto [key, points] : {std::pair{"allocated_bytes", &m_allocatedPoints},
                                   std::pair{"reserved_bytes", &m_reservedPoints}})
            if (peak.value(key, nlohmann::json())
                    .is_number()) {
                const double v = peak[key].get<double>() / perUnit;
                *points = {QPointF(from, v), QPointF(to, v)};
                top = std::max(top, v);
            }
        m_plot->xAxis->setLabel(tr("One step (no timeline in these files)"));
    }

    // The plan: one slot per phase across the measured span.
    const auto phases = orderedPhases(planned);
    m_plannedSteps.clear();
    QVector<double> keys, values;
    m_phaseTicker->clear();
    const double slot = (to - from) / std::max<size_t>(phases.size(), 1);
    for (size_t i = 0; i < phases.size(); ++i) {
        const double v = std::max(phases[i]->allocated, 0.0) / perUnit;
        m_plannedSteps << v;
        keys << from + slot * double(i);
        values << v;
        m_phaseTicker->addTick(from + slot * (double(i) + 0.5), phaseShortName(phases[i]->phase));
        top = std::max(top, v);
    }
    if (!phases.empty()) {
        keys << to;
        values << values.back();
    }
    m_planned->setData(keys, values, true);
    const double plannedReserved = std::max(planned.peak.reserved, 0.0) / perUnit;
    m_plannedReserved->setVisible(!phases.empty() && plannedReserved > 0);
    m_plannedReserved->point1->setCoords(from, plannedReserved);
    m_plannedReserved->point2->setCoords(to, plannedReserved);
    m_plannedReservedEntry->setName(
        tr("planned reserved peak %1").arg(formatSize(planned.peak.reserved, unit)));
    m_plannedReservedEntry->removeFromLegend();
    if (m_plannedReserved->visible())
        m_plannedReservedEntry->addToLegend();
    top = std::max(top, plannedReserved);

    m_plot->xAxis->setRange(from, to);
    m_plot->xAxis2->setRange(from, to);
    setSizeAxis(m_plot->yAxis, top > 0 ? top * 1.12 : 1.0, unit, memoryPerGpuLabel());
    m_buckets = 0;
    drawBuckets();
}

void RunTimelineChart::drawBuckets()
{
    // One bucket per pixel of the plot's width (the widget's, before the first layout).
    const int buckets = std::max(m_plot->axisRect()->width() > 10 ? m_plot->axisRect()->width()
                                                                   : width(),
                                 100);
    if (buckets == m_buckets)
        return;
    m_buckets = buckets;
    const QList<QPointF> allocated = minMaxBuckets(m_allocatedPoints, buckets);
    const QList<QPointF> reserved = minMaxBuckets(m_reservedPoints, buckets);
    m_allocated->setData(xs(allocated), ys(allocated), true);
    m_reserved->setData(xs(reserved), ys(reserved), true);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

qsizetype RunTimelineChart::drawnPoints() const
{
    return m_allocated->data()->size();
}

double RunTimelineChart::measuredTop() const
{
    double top = 0;
    for (const QList<QPointF> *line : {&m_allocatedPoints, &m_reservedPoints})
        for (const QPointF &p : *line)
            top = std::max(top, p.y());
    return top;
}

QString RunTimelineChart::timeAxisLabel() const
{
    return m_plot->xAxis->label();
}

void RunTimelineChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    drawBuckets();
}

void RunTimelineChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        applyBaseFonts(m_plot, font());
    else if (event->type() == QEvent::PaletteChange)
        applyColors();
}

void RunTimelineChart::applyColors()
{
    const ChartColors c = chartColors(palette());
    applyChartColors(m_plot, c);
    m_title->setTextColor(c.text);
    QFont bold = font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_allocated->setPen(QPen(c.signal(allocatedColor), 1.6));
    m_reserved->setPen(QPen(c.signal(reservedColor), 1.4));
    m_planned->setPen(QPen(c.ink, 1.4, Qt::DashLine));
    QColor fill = c.muted;
    fill.setAlpha(40);
    m_planned->setBrush(fill);
    m_plannedReserved->setPen(QPen(c.ink, 1.2, Qt::DotLine));
    m_plannedReservedEntry->setPen(m_plannedReserved->pen());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace vramplan::ui
