#include "curvechart.h"

#include "chartstyle.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace vramplan::ui {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
// The marker of the current scenario is neutral; the one of the largest fitting value is green,
// the usual "this is fine" next to overflowColor()'s red.
const QColor currentColor(0x37, 0x47, 0x4f);
const QColor fittingColor(0x2e, 0x7d, 0x32);
// The expert-imbalance band: teal hatching, apart from the grey veil of the likely range and
// from every component's colour.
const QColor imbalanceColor(0x00, 0x83, 0x8f);

double sanitized(double v)
{
    return std::isfinite(v) && v > 0 ? v : 0.0;
}

// "12", "0.5", "4096"; tick labels at 2^10 and up read "1k", "32k" as context lengths do.
QString formatX(double x, bool shortPowers)
{
    if (shortPowers && x >= 1024 && std::fmod(x, 1024) == 0)
        return QString::number(qint64(x / 1024)) + QLatin1Char('k');
    if (x == std::floor(x) && std::abs(x) < 1e15)
        return QString::number(qint64(x));
    return QString::number(x, 'g', 4);
}

} // namespace

CurveChart::CurveChart(QWidget *parent)
    : QWidget(parent), m_plot(new QCustomPlot(this)), m_logTicker(new QCPAxisTickerText),
      m_linearTicker(new QCPAxisTicker)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);

    m_plot->setBackground(Qt::white);
    m_plot->setAntialiasedElements(QCP::aePlottables | QCP::aeItems | QCP::aeFills |
                                   QCP::aeLegendItems);

    m_title = new QCPTextElement(m_plot);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_title);

    // The legend goes right of the plot, top-aligned, so it never covers the curves.
    auto *side = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(1, 1, side);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    side->addElement(0, 0, m_plot->legend);
    side->addElement(1, 0, new QCPLayoutElement(m_plot));
    side->setRowStretchFactor(0, 0.001);
    m_plot->legend->setVisible(true);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setBrush(Qt::NoBrush);

    m_logTicker->setSubTickCount(0);
    m_plot->yAxis->setLabel(QStringLiteral("Memory per GPU (GiB)"));
    styleAxes(m_plot);

    m_capacityLine = new QCPItemStraightLine(m_plot);
    m_capacityLine->setPen(QPen(capacityColor(), 1.5, Qt::DashLine));
    m_capacityLabel = new QCPItemText(m_plot);
    m_capacityLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    // setType converts the old coordinates through the axis rect, which has no size yet
    // (NaN): start from finite ones.
    m_capacityLabel->position->setCoords(0, 0);
    m_capacityLabel->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_capacityLabel->setColor(capacityColor());
    m_capacityLabel->setBrush(QColor(255, 255, 255, 200));
    m_capacityLabel->setPadding(QMargins(3, 1, 3, 1));

    m_currentLine = new QCPItemStraightLine(m_plot);
    m_currentLine->setPen(QPen(currentColor, 1.5));
    m_currentLabel = new QCPItemText(m_plot);
    m_currentLabel->setColor(currentColor);
    m_currentLabel->setText(QStringLiteral("current"));

    m_fittingLine = new QCPItemStraightLine(m_plot);
    m_fittingLine->setPen(QPen(fittingColor, 1.5, Qt::DashLine));
    m_fittingLabel = new QCPItemText(m_plot);
    m_fittingLabel->setColor(fittingColor);

    for (QCPItemText *label : {m_currentLabel, m_fittingLabel}) {
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(0, 0);
        label->setBrush(QColor(255, 255, 255, 200));
        label->setPadding(QMargins(3, 1, 3, 1));
    }
    // Lines and labels go on a layer of their own above the graphs, which bands added later
    // (one per gap) would otherwise paint over.
    m_plot->addLayer(QStringLiteral("markers"), m_plot->layer(QStringLiteral("main")),
                     QCustomPlot::limAbove);
    for (int i = 0; i < m_plot->itemCount(); ++i) {
        m_plot->item(i)->setLayer(QStringLiteral("markers"));
        m_plot->item(i)->setSelectable(false);
    }

    band(0); // the legend's entries; never holds data
    applyFonts();
    setCurve(CurveData{}, Unit::GiB);
}

CurveChart::Band &CurveChart::band(size_t index)
{
    while (m_bands.size() <= index) {
        Band band{};
        for (int i = 0; i < componentCount; ++i) {
            const auto c = static_cast<Component>(i);
            auto *graph = m_plot->addGraph();
            graph->setName(componentName(c));
            QColor fill = componentColor(c);
            fill.setAlpha(220);
            graph->setBrush(fill);
            graph->setPen(QPen(componentColor(c).darker(125), 1));
            graph->setSelectable(QCP::stNone);
            // Each band fills down to the one below it: the areas stack like the bars do.
            if (i > 0)
                graph->setChannelFillGraph(band[size_t(i - 1)]);
            graph->removeFromLegend();
            band[size_t(i)] = graph;
        }
        // The likely range: dashed edges and a light veil between them, over the areas.
        for (size_t edge : {bandLowGraph, bandHighGraph}) {
            auto *graph = m_plot->addGraph();
            graph->setPen(QPen(QColor(0x42, 0x42, 0x42), 1, Qt::DashLine));
            graph->setSelectable(QCP::stNone);
            graph->removeFromLegend();
            band[edge] = graph;
        }
        band[bandHighGraph]->setName(QStringLiteral("Likely range"));
        band[bandHighGraph]->setBrush(QColor(0x42, 0x42, 0x42, 40));
        band[bandHighGraph]->setChannelFillGraph(band[bandLowGraph]);
        // The expert-imbalance band: from the balanced total (a solid teal edge) up to the
        // total, hatched.
        for (size_t edge : {balancedGraph, imbalancedGraph}) {
            auto *graph = m_plot->addGraph();
            graph->setPen(QPen(imbalanceColor, edge == balancedGraph ? 1.5 : 1));
            graph->setSelectable(QCP::stNone);
            graph->removeFromLegend();
            band[edge] = graph;
        }
        band[imbalancedGraph]->setBrush(QBrush(imbalanceColor, Qt::BDiagPattern));
        band[imbalancedGraph]->setChannelFillGraph(band[balancedGraph]);
        if (m_bands.empty()) {
            // Legend rows top-down in stacking order, level with each colour's place.
            for (int i = componentCount - 1; i >= 0; --i)
                band[size_t(i)]->addToLegend();
            band[bandHighGraph]->addToLegend();
        }
        m_bands.push_back(band);
    }
    return m_bands[index];
}

void CurveChart::setCurve(const CurveData &data, Unit unit)
{
    m_logX = data.logX;
    const size_t n = std::min(data.x.size(), data.components.size());
    m_x.assign(n, nan);
    m_totals.assign(n, nan);

    // Which samples can be drawn: finite, ascending, positive on a log axis, and valid.
    std::vector<bool> usable(n, false);
    double lastX = -std::numeric_limits<double>::infinity();
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    double top = 0;
    for (size_t i = 0; i < n; ++i) {
        const double x = data.x[i];
        if (!std::isfinite(x) || (m_logX && x <= 0) || x <= lastX)
            continue;
        lastX = x;
        m_x[i] = x;
        lo = std::min(lo, x);
        hi = std::max(hi, x);
        if (i < data.valid.size() && !data.valid[i])
            continue;
        double total = 0;
        for (double bytes : data.components[i])
            total += sanitized(toUnit(bytes, unit));
        m_totals[i] = total;
        top = std::max(top, total * std::max(1.0, data.bandHigh));
        if (i < data.balancedBytes.size() && std::isfinite(data.balancedBytes[i]))
            top = std::max(top, sanitized(toUnit(data.balancedBytes[i], unit)));
        usable[i] = true;
    }

    // The expert-imbalance band, where the controller found a sample it changes.
    const bool showImbalance = !data.balancedBytes.empty() && data.balancedBytes.size() >= n;
    bool drewImbalance = false;

    // One band per run of usable samples, from band 1 on: band 0 only speaks for the legend,
    // whose icons would otherwise take the dots of a one-sample run.
    size_t bandCount = 1;
    QVector<QCPGraphData> points;
    for (size_t i = 0; i < n;) {
        if (!usable[i]) {
            ++i;
            continue;
        }
        size_t end = i;
        while (end < n && usable[end])
            ++end;
        Band &b = band(bandCount++);
        for (int c = 0; c < componentCount; ++c) {
            points.clear();
            for (size_t k = i; k < end; ++k) {
                // Graph c draws the sum of components 0..c: the top edge of component c.
                double sum = 0;
                for (int below = 0; below <= c; ++below)
                    sum += sanitized(toUnit(data.components[k][size_t(below)], unit));
                points.append(QCPGraphData(m_x[k], sum));
            }
            QCPGraph *graph = b[size_t(c)];
            graph->data()->set(points, true);
            graph->setVisible(true);
            // A run of one sample has no area: show it as dots so it is not lost.
            graph->setScatterStyle(end - i == 1 ? QCPScatterStyle(QCPScatterStyle::ssDisc, 6)
                                                : QCPScatterStyle(QCPScatterStyle::ssNone));
        }
        const bool showBand = data.bandHigh > data.bandLow && data.bandLow > 0 && end - i > 1;
        for (size_t edge : {bandLowGraph, bandHighGraph}) {
            const double factor = edge == bandLowGraph ? data.bandLow : data.bandHigh;
            points.clear();
            for (size_t k = i; showBand && k < end; ++k)
                points.append(QCPGraphData(m_x[k], m_totals[k] * factor));
            b[edge]->data()->set(points, true);
            b[edge]->setVisible(showBand);
        }
        // From the balanced total up to the total (the same where a sample has no balanced one).
        const bool imbalanceRun = showImbalance && end - i > 1;
        for (size_t edge : {balancedGraph, imbalancedGraph}) {
            points.clear();
            for (size_t k = i; imbalanceRun && k < end; ++k) {
                const double balanced = data.balancedBytes[k];
                const bool low = edge == balancedGraph && std::isfinite(balanced);
                points.append(
                    QCPGraphData(m_x[k], low ? sanitized(toUnit(balanced, unit)) : m_totals[k]));
            }
            b[edge]->data()->set(points, true);
            b[edge]->setVisible(!points.isEmpty());
            drewImbalance = drewImbalance || !points.isEmpty();
        }
        i = end;
    }
    // Its legend entry names the imbalance.
    QCPGraph *imbalanceEntry = m_bands[0][imbalancedGraph];
    imbalanceEntry->setName(
        QStringLiteral("Expert imbalance 1–%1×").arg(QString::number(data.imbalance, 'g', 3)));
    if (drewImbalance)
        imbalanceEntry->addToLegend(); // does nothing when the entry is there already
    else
        imbalanceEntry->removeFromLegend();
    setLegendMargins();
    for (size_t k = bandCount; k < m_bands.size(); ++k) {
        for (QCPGraph *graph : m_bands[k]) {
            graph->data()->clear();
            graph->setVisible(false);
        }
    }

    m_capacity = sanitized(toUnit(data.capacityBytes, unit));
    m_current = std::isfinite(data.current) && (!m_logX || data.current > 0) ? data.current : nan;
    m_fitLabel = data.fitLabel;
    m_largestFitting = std::isfinite(data.largestFitting) && data.largestFitting >= 0 &&
                               (!m_logX || data.largestFitting > 0)
                           ? data.largestFitting
                           : -1;
    if (std::isfinite(m_current)) {
        lo = std::min(lo, m_current);
        hi = std::max(hi, m_current);
    }
    if (m_largestFitting >= 0) {
        lo = std::min(lo, m_largestFitting);
        hi = std::max(hi, m_largestFitting);
    }
    if (!(lo <= hi)) // no sample at all
        lo = hi = 1;

    QCPAxis *xAxis = m_plot->xAxis;
    if (m_logX) {
        // A little room either side, so markers at the first or last sample stay visible.
        const double pad = std::max(0.03 * std::log2(hi / lo), 0.05);
        lo = lo / std::exp2(pad);
        hi = hi * std::exp2(pad);
        xAxis->setScaleType(QCPAxis::stLogarithmic);
        xAxis->setTicker(m_logTicker);
    } else {
        const double pad = hi > lo ? 0.02 * (hi - lo) : 0.5;
        lo -= pad;
        hi += pad;
        xAxis->setScaleType(QCPAxis::stLinear);
        xAxis->setTicker(m_linearTicker);
    }
    xAxis->setRange(lo, hi);
    m_xLower = lo;
    m_xUpper = hi;
    if (m_logX)
        updateLogTicks();
    xAxis->setLabel(data.xLabel);
    m_title->setText(data.title);
    // A hidden layout element still takes its row: without a title, take it out of the layout.
    const bool hasTitle = !data.title.isEmpty();
    if (hasTitle != (m_title->layout() != nullptr)) {
        QCPLayoutGrid *grid = m_plot->plotLayout();
        if (hasTitle) {
            grid->insertRow(0);
            grid->addElement(0, 0, m_title);
        } else {
            grid->take(m_title);
            grid->simplify();
        }
    }

    // A sweep over powers of two ends far above the GPU (micro-batch 256 needs terabytes); scaled
    // to that, the capacity line would hug the axis and the crossing, the point of the chart,
    // would vanish. Beyond four capacities the areas run off the top instead.
    const double yTop = m_capacity > 0 ? std::max(m_capacity, std::min(top, 4 * m_capacity)) : top;
    m_plot->yAxis->setRange(0, yTop > 0 ? yTop * 1.15 : 1.0);
    m_plot->yAxis->setLabel(QStringLiteral("Memory per GPU (%1)").arg(unitName(unit)));

    m_capacityLine->setVisible(m_capacity > 0);
    m_capacityLabel->setVisible(m_capacity > 0);
    // Point coordinates of a straight line must be valid on a log axis too: use lo and hi.
    m_capacityLine->point1->setCoords(lo, m_capacity);
    m_capacityLine->point2->setCoords(hi, m_capacity);
    m_capacityLabel->position->setCoords(0.99, m_capacity);
    m_capacityLabel->setText(
        QStringLiteral("GPU capacity: %1").arg(formatSize(sanitized(data.capacityBytes), unit)));

    const bool showCurrent = std::isfinite(m_current);
    m_currentLine->setVisible(showCurrent);
    m_currentLabel->setVisible(showCurrent);
    m_currentLine->point1->setCoords(showCurrent ? m_current : lo, 0);
    m_currentLine->point2->setCoords(showCurrent ? m_current : lo, 1);
    const bool showFitting = m_largestFitting >= 0;
    m_fittingLine->setVisible(showFitting);
    m_fittingLabel->setVisible(showFitting);
    m_fittingLine->point1->setCoords(showFitting ? m_largestFitting : lo, 0);
    m_fittingLine->point2->setCoords(showFitting ? m_largestFitting : lo, 1);
    m_fittingLabel->setText(
        QStringLiteral("%1: %2").arg(m_fitLabel, formatX(m_largestFitting, false)));
    placeMarkerLabels();

    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

double CurveChart::expectedAxisWidth() const
{
    // Called before QCustomPlot lays out the next frame (which happens in replot): the axis
    // rect of the last layout, grown or shrunk by what the widget's width has changed since.
    // The legend's column keeps its width, so this is exact unless the fonts changed.
    const int last = m_plot->plotLayout()->outerRect().width();
    const int now = m_plot->width();
    const int axis = last > 0 ? m_plot->axisRect()->width() + now - last : now * 2 / 3;
    return std::max(axis, 1);
}

void CurveChart::updateLogTicks()
{
    // Every power of two in range, or every second, third, ... so the labels never touch.
    const int first = int(std::ceil(std::log2(m_xLower) - 1e-9));
    const int last = int(std::floor(std::log2(m_xUpper) + 1e-9));
    const double axisWidth = expectedAxisWidth();
    // A slider step rarely changes the range or the width: skip measuring the labels then.
    const std::array<double, 3> key{m_xLower, m_xUpper, axisWidth};
    if (key == m_tickKey)
        return;
    m_tickKey = key;
    const QFontMetrics metrics(m_plot->xAxis->tickLabelFont());
    int widest = 0;
    for (int p = first; p <= last; ++p)
        widest = std::max(widest, metrics.horizontalAdvance(formatX(std::exp2(p), true)));
    const double perPower = axisWidth / std::max(std::log2(m_xUpper / m_xLower), 1e-9);
    const double needed = widest + 2 * metrics.averageCharWidth();
    const int step = std::max(1, int(std::ceil(needed / perPower)));
    m_logTicker->clear();
    for (int p = first; p <= last; p += step)
        m_logTicker->addTick(std::exp2(p), formatX(std::exp2(p), true));
}

double CurveChart::axisFraction(double x) const
{
    const QCPRange range = m_plot->xAxis->range();
    if (m_logX)
        return std::log(x / range.lower) / std::log(range.upper / range.lower);
    return (x - range.lower) / range.size();
}

void CurveChart::placeMarkerLabels()
{
    const bool showCurrent = std::isfinite(m_current);
    const bool showFitting = m_largestFitting >= 0;
    if (showCurrent)
        placeMarkerLabel(m_currentLabel, m_current, 0);
    if (!showFitting)
        return;
    placeMarkerLabel(m_fittingLabel, m_largestFitting, 0);
    if (!showCurrent)
        return;
    // Same row as "current" unless the two would touch; then one row down.
    const double width = expectedAxisWidth();
    const QFontMetrics metrics(m_currentLabel->font());
    auto span = [&](QCPItemText *label, double x) {
        const double at = axisFraction(x) * width;
        const double w = metrics.horizontalAdvance(label->text()) + 12;
        return (label->positionAlignment() & Qt::AlignRight) ? std::pair(at - w, at)
                                                             : std::pair(at, at + w);
    };
    const auto a = span(m_currentLabel, m_current);
    const auto b = span(m_fittingLabel, m_largestFitting);
    // The axis width is a guess until the chart has been laid out (a hidden tab), so markers
    // within a third of the axis of each other always take separate rows.
    const bool near = std::abs(axisFraction(m_current) - axisFraction(m_largestFitting)) < 0.35;
    if (near || (a.first < b.second && b.first < a.second))
        placeMarkerLabel(m_fittingLabel, m_largestFitting, 1);
}

void CurveChart::placeMarkerLabel(QCPItemText *label, double x, int row)
{
    // Right of the line, unless that runs off the plot.
    const bool right = axisFraction(x) < 0.75;
    label->setPositionAlignment((right ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignTop);
    if (row == 0) {
        label->position->setParentAnchorY(nullptr);
        label->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
        label->position->setCoords(x, 0);
    } else {
        // Below the "current" label, whatever its height in this font.
        label->position->setTypeY(QCPItemPosition::ptAbsolute);
        label->position->setParentAnchorY(m_currentLabel->bottom);
        label->position->setCoords(x, 0);
    }
}

double CurveChart::totalAt(double x) const
{
    for (size_t i = 0; i < m_x.size(); ++i) {
        if (std::abs(m_x[i] - x) <= 1e-9 * std::max(1.0, std::abs(x)))
            return m_totals[i];
    }
    return nan;
}

double CurveChart::likelyHighAt(double x) const
{
    return edgeAt(bandHighGraph, x);
}

double CurveChart::edgeAt(size_t graph, double x) const
{
    for (size_t b = 1; b < m_bands.size(); ++b) {
        const QCPGraph *edge = m_bands[b][graph];
        if (!edge->visible())
            continue;
        for (auto it = edge->data()->constBegin(); it != edge->data()->constEnd(); ++it)
            if (it->key == x)
                return it->value;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

double CurveChart::balancedAt(double x) const
{
    return edgeAt(balancedGraph, x);
}

double CurveChart::imbalancedAt(double x) const
{
    return edgeAt(imbalancedGraph, x);
}

double CurveChart::capacityValue() const
{
    return m_capacity;
}

double CurveChart::currentMarker() const
{
    return m_current;
}

double CurveChart::largestFittingMarker() const
{
    return m_largestFitting;
}

QCustomPlot *CurveChart::plot() const
{
    return m_plot;
}

void CurveChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        applyFonts();
        m_tickKey = {};
        if (m_logX)
            updateLogTicks();
        placeMarkerLabels();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void CurveChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    if (m_logX)
        updateLogTicks();
    placeMarkerLabels();
    // QCustomPlot has already redrawn for its new size, with the old ticks: draw again.
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void CurveChart::setLegendMargins()
{
    // QCustomPlot sizes an entry to the font's height and clips it there, which shaves off
    // antialiased descenders; a pixel above and below keeps "g" and "y" whole.
    for (int i = 0; i < m_plot->legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = m_plot->legend->item(i)) // empty cells of a wrapped grid
            item->setMargins(QMargins(0, 1, 0, 1));
    }
}

void CurveChart::applyFonts()
{
    const QFont base = font();
    QFont bold = base;
    bold.setBold(true);
    applyBaseFonts(m_plot, base);
    m_title->setFont(bold);
    const int h = QFontMetrics(base).height();
    m_plot->legend->setIconSize(int(h * 1.4), h);
    setLegendMargins();
    for (QCPItemText *label : {m_capacityLabel, m_currentLabel, m_fittingLabel})
        label->setFont(base);
}

} // namespace vramplan::ui
