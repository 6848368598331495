#include "charts/curvechart.h"

#include "charts/chartstyle.h"
#include "charts/componentstyle.h"
#include "charts/curvegraphs.h"
#include "charts/curvemarkers.h"
#include "charts/curvesamples.h"
#include "charts/plotlayout.h"
#include "charts/sizeaxis.h"
#include "charts/ticklabels.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace vramplan::ui {

namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
double sanitized(double v)
{
    return std::isfinite(v) && v > 0 ? v : 0.0;
}

} // namespace

CurveChart::CurveChart(QWidget *parent)
    : QWidget(parent), m_plot(new QCustomPlot(this)), m_logTicker(new QCPAxisTickerText),
      m_linearTicker(new QCPAxisTicker)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);

    m_plot->setAntialiasedElements(QCP::aePlottables | QCP::aeItems | QCP::aeFills |
                                   QCP::aeLegendItems);
    m_plot->setMouseTracking(true); // hover tooltips without a pressed button
    // Smaller than its layout would ask for: in a small window the legend rearranges itself.
    m_plot->setMinimumSize(160, 160);

    // The legend goes right of the plot, top-aligned, so it never covers the curves (below it
    // in a narrow drawing: placeLegend); the title and the note above the plot, in rows of
    // their own (setHeader).
    m_side = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 1, m_side);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_side->addElement(0, 0, m_plot->legend);
    m_side->addElement(1, 0, new QCPLayoutElement(m_plot));
    m_side->setRowStretchFactor(0, 0.001);
    m_plot->legend->setVisible(true);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setBrush(Qt::NoBrush);
    m_title = new QCPTextElement(m_plot);
    m_note = new QCPTextElement(m_plot);
    m_note->setMargins(QMargins(5, 0, 5, 2));

    m_logTicker->setSubTickCount(0);
    styleAxes(m_plot);
    m_graphs = std::make_unique<CurveGraphs>(m_plot);
    m_markers = std::make_unique<CurveMarkers>(m_plot);

    vramplan::ui::adaptToLayout(m_plot, [this] { return adaptToLayout(); });
    connect(m_plot, &QCustomPlot::mouseMove, this,
            [this](QMouseEvent *event) { showToolTip(event); });
    applyFonts();
    applyColors();
    setCurve(CurveData{}, Unit::GiB);
}

CurveChart::~CurveChart() = default;

void CurveChart::setCurve(const CurveData &data, Unit unit)
{
    m_logX = data.logX;
    m_unit = unit;
    m_xName = data.xName;
    m_samples = CurveSamples::from(data, unit);
    m_capacity = sanitized(toUnit(data.capacityBytes, unit));
    m_current = std::isfinite(data.current) && (!m_logX || data.current > 0) ? data.current : nan;
    m_largestFitting = std::isfinite(data.largestFitting) && data.largestFitting >= 0 &&
                               (!m_logX || data.largestFitting > 0)
                           ? data.largestFitting
                           : -1;

    // The value axis shows the current point, its likely range and the capacity line together;
    // what runs off the top is said above the plot.
    m_top = m_samples.top(m_current, m_capacity);
    setSizeAxis(m_plot->yAxis, m_top, unit, memoryPerGpuLabel());
    m_noteText = m_samples.offTheTop(m_top, data.xName, unit);
    m_graphs->set(m_samples.runs(), m_top, m_logX,
                  tr("Expert imbalance 1–%1×").arg(QString::number(data.imbalance, 'g', 3)));

    double lo = m_samples.lowest;
    double hi = m_samples.highest;
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
    xAxis->setLabel(data.xLabel);
    setHeader(data.title, m_noteText);

    m_markers->set(m_capacity,
                   tr("GPU capacity: %1").arg(formatSize(sanitized(data.capacityBytes), unit)),
                   m_current, m_largestFitting,
                   tr("%1: %2", "a marker: what, where")
                       .arg(data.fitLabel.isEmpty() ? tr("largest that fits") : data.fitLabel,
                            formatX(m_largestFitting, false)),
                   lo, hi);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void CurveChart::setHeader(const QString &title, const QString &note)
{
    m_title->setText(title);
    if (note.isEmpty() || note.simplified() != m_note->text().simplified())
        m_note->setText(note); // broken over lines for the drawing's width as it is laid out
    const bool hasTitle = !title.isEmpty();
    const bool hasNote = !note.isEmpty();
    // An element out of the layout is still drawn, at its last place: hide what is empty.
    m_title->setVisible(hasTitle);
    m_note->setVisible(hasNote);
    auto *header =
        qobject_cast<QCPLayoutGrid *>(m_title->layout() ? m_title->layout() : m_note->layout());
    const bool had = header != nullptr;
    if (had && (m_title->layout() != nullptr) == hasTitle &&
        (m_note->layout() != nullptr) == hasNote)
        return;
    // A hidden layout element still takes its row: what is empty leaves the layout.
    QCPLayoutGrid *grid = m_plot->plotLayout();
    if (!header) {
        header = new QCPLayoutGrid;
        grid->insertRow(0);
        grid->addElement(0, 0, header);
        header->setRowSpacing(0);
    }
    for (QCPTextElement *element : {m_title, m_note})
        if (element->layout() == header)
            header->take(element);
    header->simplify();
    int row = 0;
    if (hasTitle)
        header->addElement(row++, 0, m_title);
    if (hasNote)
        header->addElement(row++, 0, m_note);
    if (row == 0) {
        grid->remove(header);
        grid->simplify();
    }
}

bool CurveChart::adaptToLayout()
{
    // The legend beside the plot where that leaves the plot most of the width, else below it
    // in as many columns as fit; the note broken over lines where it is wider than the plot.
    const QRect viewport = m_plot->viewport();
    const bool below = m_plot->legend->minimumOuterSizeHint().width() > viewport.width() * 0.3;
    bool changed = below != m_legendBelow;
    if (changed)
        placeLegend(below);
    if (below)
        changed =
            setLegendColumns(m_plot->legend, fittingColumns(m_plot->legend, viewport.width())) ||
            changed;
    // The note's room: the plot's column, the legend's (if beside it) left out.
    const int room = viewport.width() - (below ? 0 : m_side->outerRect().width()) -
                     m_note->margins().left() - m_note->margins().right();
    // No note, no text: fittedLabel never returns an empty label (a tick label must not be), and
    // its lone "..." would be drawn where the note last stood.
    const QString note =
        m_noteText.isEmpty()
            ? QString()
            : fittedLabel(m_noteText, QFontMetrics(m_note->font()), std::max(room, 40), 3);
    if (note != m_note->text()) {
        m_note->setText(note);
        changed = true;
    }
    changed = (m_logX && updateLogTicks()) || changed;
    changed = fitSizeAxisLabel(m_plot->yAxis) || changed;
    m_markers->place();
    return changed;
}

void CurveChart::placeLegend(bool below)
{
    m_legendBelow = below;
    QCPLayoutGrid *grid = m_plot->plotLayout();
    QCPLegend *legend = m_plot->legend;
    if (legend->layout())
        legend->layout()->take(legend);
    if (m_side->layout())
        grid->take(m_side);
    grid->simplify();
    // The axis rect is in the last row, under the title and the note.
    const int row = grid->rowCount() - 1;
    if (below) {
        grid->addElement(row + 1, 0, legend);
        grid->setRowStretchFactor(row + 1, 0.001);
    } else {
        m_side->addElement(0, 0, legend);
        grid->addElement(row, 1, m_side);
        grid->setColumnStretchFactor(1, 0.001);
        setLegendColumns(legend, 1);
    }
}

bool CurveChart::updateLogTicks()
{
    // Every power of two in range, or every second, third, ... so the labels never touch, for
    // the width of the axis in this drawing.
    const double axisWidth = std::max(m_plot->axisRect()->width(), 1);
    const std::array<double, 3> key{m_xLower, m_xUpper, axisWidth};
    if (key == m_tickKey) // a slider step rarely changes the range or the width
        return false;
    m_tickKey = key;
    const int first = int(std::ceil(std::log2(m_xLower) - 1e-9));
    const int last = int(std::floor(std::log2(m_xUpper) + 1e-9));
    const QFontMetrics metrics(m_plot->xAxis->tickLabelFont());
    int widest = 0;
    for (int p = first; p <= last; ++p)
        widest = std::max(widest, metrics.horizontalAdvance(formatX(std::exp2(p), true)));
    const double perPower = axisWidth / std::max(std::log2(m_xUpper / m_xLower), 1e-9);
    const double needed = widest + 2 * metrics.averageCharWidth();
    const int step = std::max(1, int(std::ceil(needed / perPower)));
    const auto before = m_logTicker->ticks();
    m_logTicker->clear();
    for (int p = first; p <= last; p += step)
        m_logTicker->addTick(std::exp2(p), formatX(std::exp2(p), true));
    return m_logTicker->ticks() != before;
}

double CurveChart::totalAt(double x) const
{
    const size_t i = m_samples.at(x);
    return i < m_samples.size() ? m_samples.totals[i] : nan;
}

double CurveChart::edgeAt(CurveSamples::Edge edge, double x) const
{
    const size_t i = m_samples.at(x);
    return i < m_samples.size() ? m_samples.edges[edge][i] : nan;
}

double CurveChart::likelyHighAt(double x) const
{
    return edgeAt(CurveSamples::LikelyHigh, x);
}

double CurveChart::balancedAt(double x) const
{
    return edgeAt(CurveSamples::Balanced, x);
}

double CurveChart::imbalancedAt(double x) const
{
    return edgeAt(CurveSamples::Imbalanced, x);
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

double CurveChart::valueTop() const
{
    return m_top;
}

QString CurveChart::note() const
{
    return m_noteText;
}

QCustomPlot *CurveChart::plot() const
{
    return m_plot;
}

QString CurveChart::toolTipAt(const QPointF &position) const
{
    if (!m_plot->axisRect()->rect().contains(position.toPoint()))
        return {};
    // The sample nearest the cursor along the axis.
    size_t best = m_samples.size();
    double bestDistance = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < m_samples.size(); ++i) {
        if (!std::isfinite(m_samples.x[i]))
            continue;
        const double d = std::abs(m_plot->xAxis->coordToPixel(m_samples.x[i]) - position.x());
        if (d < bestDistance) {
            bestDistance = d;
            best = i;
        }
    }
    if (best == m_samples.size())
        return {};
    return m_samples.describe(best, m_plot->yAxis->pixelToCoord(position.y()), m_xName, m_unit);
}

void CurveChart::showToolTip(QMouseEvent *event)
{
    showPlotToolTip(m_plot, event, toolTipAt(event->position()), m_shownTip);
}

void CurveChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        applyFonts();
        m_tickKey = {};
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    } else if (event->type() == QEvent::PaletteChange) {
        applyColors();
    }
}

void CurveChart::applyColors()
{
    const ChartColors c = chartColors(palette());
    applyChartColors(m_plot, c);
    m_title->setTextColor(c.text);
    m_note->setTextColor(c.muted);
    m_markers->applyColors(c);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void CurveChart::applyFonts()
{
    const QFont base = font();
    QFont bold = base;
    bold.setBold(true);
    applyBaseFonts(m_plot, base);
    m_title->setFont(bold);
    m_note->setFont(base);
    const int h = QFontMetrics(base).height();
    m_plot->legend->setIconSize(int(h * 1.4), h);
    m_graphs->applyFonts();
    m_markers->applyFonts(base);
}

} // namespace vramplan::ui
