#include "charts/servingcurvechart.h"

#include "charts/chartstyle.h"
#include "charts/componentstyle.h"
#include "charts/curvesamples.h"
#include "charts/plotlayout.h"
#include "charts/units.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace vramplan::ui {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
// Room above the highest sample for the current point's label.
constexpr double headroom = 1.2;
// The one-request label's distance from the plot's end, as a share of its width.
constexpr double oneRequestInset = 0.01;
// Below the one-request line on a log axis: room for its label under it.
constexpr double floorRoom = 1.6;
// A sweep of requests spanning more than this factor is drawn on a log axis.
constexpr double logSpan = 8;

QRectF drawnRect(const QCPItemText *item)
{
    if (!item->visible())
        return {};
    return QRectF(item->topLeft->pixelPosition(), item->bottomRight->pixelPosition()).normalized();
}

// The KV cache's colour, as in the breakdown, darkened to read as a line on white.
QColor lineColor()
{
    return componentColor(Component::KvCache).darker(130);
}

// Token counts read "450k", not "450000", "4.5e+05" or "450.0 K".
class CountTicker : public QCPAxisTicker
{
protected:
    QString getTickLabel(double tick, const QLocale &, QChar, int) override
    {
        return formatTickCount(tick);
    }
};

} // namespace

ServingCurveChart::ServingCurveChart(QWidget *parent)
    : QWidget(parent), m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);
    m_plot->setAntialiasedElements(QCP::aePlottables | QCP::aeItems);
    m_plot->setMouseTracking(true);
    m_plot->setMinimumSize(160, 160);
    m_title = new QCPTextElement(m_plot);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_title);
    styleAxes(m_plot);

    m_line = m_plot->addGraph();
    m_line->setPen(QPen(lineColor(), 2));
    m_line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, lineColor(), 5));
    // Where the engine would not start, the same samples in red over the line.
    m_refused = m_plot->addGraph();
    m_refused->setLineStyle(QCPGraph::lsNone);
    m_refused->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssDisc, overflowColor(), overflowColor(), 6));

    m_oneRequest = new QCPItemStraightLine(m_plot);
    m_oneRequest->setPen(QPen(overflowColor(), 1, Qt::DashLine));
    m_oneRequestText = new QCPItemText(m_plot);
    m_oneRequestText->setColor(overflowColor());
    m_oneRequestText->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    m_oneRequestText->position->setCoords(0, 0);
    m_oneRequestText->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_oneRequestText->setText(tr("1 request: the engine's minimum"));

    m_currentLine = new QCPItemStraightLine(m_plot);
    m_currentText = new QCPItemText(m_plot);
    m_currentText->setPadding(QMargins(4, 1, 4, 1));

    adaptToLayout(m_plot, [this] { return placeLabels(); });
    connect(m_plot, &QCustomPlot::mouseMove, this,
            [this](QMouseEvent *event) { showToolTip(event); });
    applyFonts();
    applyColors();
    setCurve(ServingCurve{});
}

void ServingCurveChart::setCurve(const ServingCurve &curve)
{
    m_curve = curve;
    const size_t n = std::min(curve.x.size(), curve.y.size());
    const bool requests = curve.measure == ServingCurve::Measure::Requests;
    double top = 0, bottom = std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < n; ++i)
        if (std::isfinite(curve.y[i])) {
            top = std::max(top, curve.y[i]);
            bottom = std::min(bottom, curve.y[i]);
        }
    // Requests at once fall as the inverse of the context: over a wide sweep a linear axis
    // leaves the long contexts, where the choice is made, flat on the floor. A log axis keeps
    // each doubling the same height, where every sample is above zero.
    const bool logY = requests && curve.logX && bottom > 0 && top > logSpan * bottom;
    QVector<double> keys, values, refusedKeys, refusedValues;
    for (size_t i = 0; i < n; ++i) {
        if (!std::isfinite(curve.y[i]))
            continue;
        keys << curve.x[i];
        values << curve.y[i];
        if (i < curve.starts.size() && !curve.starts[i]) {
            refusedKeys << curve.x[i];
            refusedValues << curve.y[i];
        }
    }
    m_line->setData(keys, values, true);
    m_refused->setData(refusedKeys, refusedValues, true);

    QCPAxis *y = m_plot->yAxis;
    y->setLabel(curve.yLabel);
    if (logY) {
        QSharedPointer<QCPAxisTickerLog> ticks(new QCPAxisTickerLog);
        ticks->setSubTickCount(0);
        y->setTicker(ticks);
        y->setNumberFormat(QStringLiteral("g"));
        y->setScaleType(QCPAxis::stLogarithmic);
        // The one-request line stays in view below the samples.
        y->setRange(std::min(bottom, 1.0) / floorRoom, top * headroom * headroom);
    } else {
        if (requests)
            top = std::max(top, 1.0); // the one-request line stays in view
        y->setScaleType(QCPAxis::stLinear);
        y->setTicker(requests ? QSharedPointer<QCPAxisTicker>(new QCPAxisTicker)
                              : QSharedPointer<QCPAxisTicker>(new CountTicker));
        y->setRange(0, top > 0 ? top * headroom : 1);
    }

    QCPAxis *x = m_plot->xAxis;
    x->setLabel(curve.xLabel);
    double lo = keys.isEmpty() ? 1 : keys.front();
    double hi = keys.isEmpty() ? 1 : keys.back();
    if (curve.logX) {
        // Ticks at the powers of two, read as the settings are written ("32k").
        QSharedPointer<QCPAxisTickerText> ticks(new QCPAxisTickerText);
        for (double v = std::exp2(std::floor(std::log2(std::max(1.0, lo)))); v <= hi; v *= 2)
            ticks->addTick(v, formatX(v, curve.shortPowers));
        // Every other power when they would crowd (a context sweep spans a dozen or more).
        if (ticks->ticks().size() > 8) {
            QSharedPointer<QCPAxisTickerText> sparse(new QCPAxisTickerText);
            int i = 0;
            for (auto it = ticks->ticks().cbegin(); it != ticks->ticks().cend(); ++it, ++i)
                if (i % 2 == 0)
                    sparse->addTick(it.key(), it.value());
            ticks = sparse;
        }
        ticks->setSubTickCount(0);
        x->setTicker(ticks);
        x->setScaleType(QCPAxis::stLogarithmic);
        const double pad = std::max(0.04 * std::log2(std::max(hi / lo, 1.0)), 0.15);
        x->setRange(lo / std::exp2(pad), hi * std::exp2(pad));
    } else {
        x->setTicker(QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        x->setScaleType(QCPAxis::stLinear);
        const double pad = hi > lo ? 0.02 * (hi - lo) : 0.5;
        x->setRange(lo - pad, hi + pad);
    }

    // Straight lines through two points inside the axes' ranges (a log axis has no 0).
    const QCPRange xs = x->range(), ys = y->range();
    const double current = currentMarker();
    const bool shown = std::isfinite(current);
    // The label leans away from the nearer edge, so that it stays inside the plot, and sits
    // on the side of the point the curve leaves empty: below it to the left of a falling curve,
    // above it to the left of a rising one. The one-request line's label is at the right end,
    // above its line, where a falling curve is lowest but still above 1 when the engine starts.
    const double middle = curve.logX ? std::sqrt(lo * hi) : (lo + hi) / 2;
    const bool currentRight = shown && current > middle;
    const bool falling = values.size() > 1 && values.front() > values.back();
    m_oneRequest->setVisible(requests);
    m_oneRequestText->setVisible(requests);
    m_oneRequest->point1->setCoords(xs.lower, 1);
    m_oneRequest->point2->setCoords(xs.upper, 1);
    m_oneRequestText->position->setTypeY(QCPItemPosition::ptPlotCoords);
    m_oneRequestText->position->setCoords(1 - oneRequestInset, 1);
    m_oneRequestText->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);

    m_currentLine->setVisible(shown);
    m_currentText->setVisible(shown && std::isfinite(valueAt(current)));
    if (shown) {
        m_currentLine->point1->setCoords(current, ys.lower);
        m_currentLine->point2->setCoords(current, ys.upper);
        const double v = valueAt(current);
        m_currentText->setText(currentLabel());
        m_preferred = (currentRight ? Qt::AlignRight : Qt::AlignLeft) |
                      (falling == currentRight ? Qt::AlignTop : Qt::AlignBottom);
        m_currentText->setPositionAlignment(m_preferred);
        m_currentText->position->setCoords(current, std::isfinite(v) ? v : ys.lower);
    }
    m_title->setText(curve.title);
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

double ServingCurveChart::currentMarker() const
{
    const double c = m_curve.current;
    return std::isfinite(c) && (!m_curve.logX || c > 0) ? c : nan;
}

QString ServingCurveChart::currentLabel() const
{
    const double c = currentMarker();
    if (!std::isfinite(c))
        return {};
    const auto it = std::find(m_curve.x.begin(), m_curve.x.end(), c);
    return it == m_curve.x.end() ? QString() : describe(size_t(it - m_curve.x.begin()), true);
}

QString ServingCurveChart::title() const
{
    return m_title->text();
}

QRectF ServingCurveChart::currentLabelRect() const
{
    return drawnRect(m_currentText);
}

QRectF ServingCurveChart::oneRequestLabelRect() const
{
    return drawnRect(m_oneRequestText);
}

QString ServingCurveChart::describe(size_t i, bool brief) const
{
    if (i >= m_curve.y.size() || !std::isfinite(m_curve.y[i]))
        return {};
    const QString x = formatX(m_curve.x[i], m_curve.shortPowers);
    const double y = m_curve.y[i];
    const QString value = m_curve.measure == ServingCurve::Measure::Tokens
                              ? tr("%1 tokens").arg(formatCount(y))
                              : tr("%1 requests").arg(QString::number(y, 'f', 2));
    const bool starts = i < m_curve.starts.size() && m_curve.starts[i];
    // On the plot the axis says what x is; the tooltip says it all.
    if (brief)
        return starts ? tr("%1: %2").arg(x, value) : tr("%1: does not start").arg(x);
    return starts ? tr("%1 %2: %3").arg(m_curve.xName, x, value)
                  : tr("%1 %2: %3 (the engine would not start)").arg(m_curve.xName, x, value);
}

bool ServingCurveChart::placeLabels()
{
    // The first of the places in order of preference where the point's label lies inside the
    // plot and apart from the one-request line's: the point's label on its preferred side,
    // then mirrored across its line, then across its point; the line's at the right end above
    // the line, at the left end, then below it.
    const QRect area = m_plot->axisRect()->rect();
    const Qt::Alignment h = m_preferred & Qt::AlignHorizontal_Mask;
    const Qt::Alignment v = m_preferred & Qt::AlignVertical_Mask;
    const Qt::Alignment otherH = h & Qt::AlignRight ? Qt::AlignLeft : Qt::AlignRight;
    const Qt::Alignment otherV = v & Qt::AlignTop ? Qt::AlignBottom : Qt::AlignTop;
    const std::array<Qt::Alignment, 4> points = {h | v, otherH | v, h | otherV, otherH | otherV};
    struct LinePlace
    {
        double x;
        Qt::Alignment align;
    };
    const std::array<LinePlace, 4> lines = {
        LinePlace{1 - oneRequestInset, Qt::AlignRight | Qt::AlignBottom},
        LinePlace{oneRequestInset, Qt::AlignLeft | Qt::AlignBottom},
        LinePlace{1 - oneRequestInset, Qt::AlignRight | Qt::AlignTop},
        LinePlace{oneRequestInset, Qt::AlignLeft | Qt::AlignTop}};
    const auto inside = [&](const QCPItemText *item) {
        return area.contains(drawnRect(item).toAlignedRect());
    };
    const bool line = m_oneRequestText->visible();
    for (Qt::Alignment point : points) {
        m_currentText->setPositionAlignment(point);
        if (m_currentText->visible() && !inside(m_currentText))
            continue;
        for (const LinePlace &place : lines) {
            m_oneRequestText->position->setCoords(place.x, 1);
            m_oneRequestText->setPositionAlignment(place.align);
            if (!line || (inside(m_oneRequestText) &&
                          !drawnRect(m_oneRequestText).intersects(drawnRect(m_currentText))))
                return false;
        }
    }
    // Nowhere apart (a plot too small for both): the preferred places.
    m_currentText->setPositionAlignment(points.front());
    m_oneRequestText->position->setCoords(lines.front().x, 1);
    m_oneRequestText->setPositionAlignment(lines.front().align);
    return false; // text items take no room from the layout
}

void ServingCurveChart::showToolTip(QMouseEvent *event)
{
    QString text;
    double nearest = 12; // pixels: a sample within this of the cursor is hovered
    for (size_t i = 0; i < std::min(m_curve.x.size(), m_curve.y.size()); ++i) {
        if (!std::isfinite(m_curve.y[i]))
            continue;
        const QPointF at(m_plot->xAxis->coordToPixel(m_curve.x[i]),
                         m_plot->yAxis->coordToPixel(m_curve.y[i]));
        const double d = QLineF(at, event->position()).length();
        if (d < nearest) {
            nearest = d;
            text = describe(i, false);
        }
    }
    showPlotToolTip(m_plot, event, text, m_shownTip);
}

void ServingCurveChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        applyFonts();
    else if (event->type() == QEvent::PaletteChange)
        applyColors();
}

void ServingCurveChart::applyColors()
{
    const ChartColors c = chartColors(palette());
    applyChartColors(m_plot, c);
    m_title->setTextColor(c.text);
    m_line->setPen(QPen(c.signal(lineColor()), 2));
    m_line->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, c.signal(lineColor()), 5));
    const QColor refused = c.signal(overflowColor());
    m_refused->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, refused, refused, 6));
    m_oneRequest->setPen(QPen(refused, 1, Qt::DashLine));
    m_oneRequestText->setColor(refused);
    m_currentLine->setPen(QPen(c.ink, 1.2, Qt::DashLine));
    m_currentText->setColor(c.ink);
    m_currentText->setBrush(c.labelBrush(220));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ServingCurveChart::applyFonts()
{
    applyBaseFonts(m_plot, font());
    QFont bold = font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_currentText->setFont(font());
    m_oneRequestText->setFont(font());
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace vramplan::ui
