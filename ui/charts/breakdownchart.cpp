#include "charts/breakdownchart.h"


#include "charts/breakdowngeometry.h"

#include "advice/calibration.h"
#include "charts/chartstyle.h"
#include "charts/componentstyle.h"
#include "charts/plotlayout.h"
#include "charts/sizeaxis.h"
#include "charts/ticklabels.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QResizeEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <vector>

namespace vramplan::ui {

using namespace breakdown;

namespace {

// A text item that places itself just before it is drawn, once the layout of that drawing
// (the widget, or an export at another size) is known.
class PlacedText : public QCPItemText
{
public:
    PlacedText(QCustomPlot *plot, std::function<void()> place)
        : QCPItemText(plot), m_place(std::move(place))
    {
    }

protected:
    void draw(QCPPainter *painter) override
    {
        m_place();
        QCPItemText::draw(painter);
    }

private:
    std::function<void()> m_place;
};

// QCustomPlot must only ever see finite numbers: a NaN poisons its range and tick computations.
// Negative sizes do not exist either; one would overlap the segment below it.
double sanitized(double v)
{
    return std::isfinite(v) && v > 0 ? v : 0.0;
}

} // namespace

QStringList BreakdownChart::measuredNames()
{
    // The three numbers a run reports, and where the device total is likely to fall.
    return {tr("allocated"), tr("reserved"), tr("device"), tr("likely device")};
}

BreakdownChart::BreakdownChart(QWidget *parent) : QWidget(parent), m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);

    m_plot->setAntialiasedElements(QCP::aePlottables | QCP::aeItems | QCP::aeLegendItems);
    m_plot->setMouseTracking(true); // hover tooltips without a pressed button
    // Smaller than its layout would ask for: in a small window the legend rearranges itself.
    m_plot->setMinimumSize(160, 160);

    // The legend and the measured numbers live outside the plot, so they never cover the bar or
    // its labels; arrange() puts them beside or below it.
    // A layout grid learns its plot when it joins the plot's layout: add each before filling it.
    m_side = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 1, m_side);
    m_spacer = new QCPLayoutElement(m_plot);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->legend->setVisible(true);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setBrush(Qt::NoBrush);
    m_measured = new QCPLayoutGrid;
    m_side->addElement(2, 0, m_measured);
    m_measured->setMargins(QMargins(6, 0, 6, 4));
    m_measured->setColumnSpacing(10);
    // The three numbers a run reports: what the allocator handed out, what its cache holds, and
    // what nvidia-smi shows (the cache plus the CUDA context, NCCL and memory outside PyTorch).
    m_measuredHeading = new QCPTextElement(m_plot, tr("Peak as measured"));
    m_measuredNames = new QCPTextElement(m_plot, measuredNames().join(QLatin1Char('\n')));
    m_measuredValues = new QCPTextElement(m_plot);
    m_measuredHeading->setTextFlags(Qt::AlignLeft | Qt::AlignVCenter);
    m_measuredNames->setTextFlags(Qt::AlignLeft | Qt::AlignTop);
    m_measuredValues->setTextFlags(Qt::AlignRight | Qt::AlignTop);
    m_measuredHeading->setTextColor(QColor(0x61, 0x61, 0x61));
    for (QCPTextElement *text : {m_measuredNames, m_measuredValues})
        text->setMargins(QMargins(0, 1, 0, 1));
    m_measuredHeading->setMargins(QMargins(6, 8, 6, 1));
    m_side->addElement(1, 0, m_measuredHeading);
    m_measured->addElement(0, 0, m_measuredNames);
    m_measured->addElement(0, 1, m_measuredValues);
    // A third, empty column takes the spare width, keeping the values next to their names.
    m_measured->expandTo(1, 3);
    m_measured->setColumnStretchFactor(0, 0.001);
    m_measured->setColumnStretchFactor(1, 0.001);

    QCPAxis *x = m_plot->xAxis;
    QCPAxis *y = m_plot->yAxis;
    x->setRange(keyLower, keyUpper);
    x->grid()->setVisible(false);
    x->setTickLength(0, 0);
    x->setSubTicks(false);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    x->setTicker(ticker);
    styleAxes(m_plot);
    m_bars = addComponentBars(x, y, barWidth);
    // Legend rows top-down in the order the segments stack, so each name sits level with its
    // colour's place in the bar.
    m_plot->legend->clearItems();
    for (int i = componentCount - 1; i >= 0; --i)
        m_bars[i]->addToLegend();
    addBandToLegend();
    m_legendComponents = (1u << componentCount) - 1;

    m_capacityLine = new QCPItemStraightLine(m_plot);
    m_capacityLine->setSelectable(false);

    m_capacityLabel = new QCPItemText(m_plot);
    m_capacityLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    // setType converts the old coordinates through the axis rect, which has no size yet
    // (NaN): start from finite ones.
    m_capacityLabel->position->setCoords(0, 0);
    m_capacityLabel->setPadding(QMargins(2, 1, 2, 1));

    m_totalLabel = new QCPItemText(m_plot);
    m_totalLabel->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    m_totalLabel->setPadding(QMargins(2, 1, 2, 3));

    m_gapLine = new QCPItemLine(m_plot);
    m_gapLine->setHead(QCPLineEnding(QCPLineEnding::esBar, 8));
    m_gapLine->setTail(QCPLineEnding(QCPLineEnding::esBar, 8));
    m_gapLabel = new QCPItemText(m_plot);
    // Placed in pixels once the plot is laid out (placeGapLabel): x at the bracket, y on its
    // side of the capacity line.
    m_gapLabel->position->setTypeY(QCPItemPosition::ptAbsolute);
    m_gapLabel->position->setCoords(gapKey, 0);
    m_gapLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_gapLabel->setTextAlignment(Qt::AlignLeft);
    m_gapLabel->setPadding(QMargins(4, 1, 2, 1));

    // Where the measured device total is likely to fall: the 10th to 90th percentile of
    // measured / estimated over the published runs (core calibration.h).
    m_bandLine = new QCPItemLine(m_plot);
    // x in pixels, left of the bar and of the total's label over it (placeGapLabel); finite
    // coordinates first (setType converts through an axis rect that has no size yet).
    for (QCPItemPosition *end : {m_bandLine->start, m_bandLine->end}) {
        end->setCoords(0, 0);
        end->setTypeX(QCPItemPosition::ptAbsolute);
    }
    m_bandLine->setHead(QCPLineEnding(QCPLineEnding::esBar, 10));
    m_bandLine->setTail(QCPLineEnding(QCPLineEnding::esBar, 10));
    m_bandLine->setPen(m_bandPen);

    // Where the device total would be with perfectly balanced expert routing: a teal line
    // across the bar, its label right of it, hanging below it.
    m_balancedLine = new QCPItemLine(m_plot);
    m_balancedLine->setPen(QPen(imbalanceColor(), 2, Qt::DashLine));
    m_balancedLabel = new PlacedText(m_plot, [this] { placeBalancedLabel(); });
    m_balancedLabel->setColor(imbalanceColor());
    m_balancedLabel->position->setType(QCPItemPosition::ptAbsolute);
    m_balancedLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_balancedLabel->setTextAlignment(Qt::AlignLeft);
    m_balancedLabel->setPadding(QMargins(4, 1, 2, 1));

    addPreviewItems();
    addServingItems();

    for (int i = 0; i < m_plot->itemCount(); ++i)
        m_plot->item(i)->setSelectable(false);

    arrange(false);
    applyFonts();
    applyColors();
    adaptToLayout(m_plot, [this] {
        // Beside the plot in a wide drawing; below it in a tall or narrow one (the window's
        // side panel, a portrait export), where a column of legend would leave the bar no room.
        const QRect viewport = m_plot->viewport();
        const bool below = viewport.width() < 1.25 * viewport.height() || viewport.width() < 420;
        bool rearranged = below != m_below;
        if (rearranged)
            arrange(below);
        if (below) {
            // Top-down in stacking order, in as many columns as the width holds.
            const int columns = fittingColumns(m_plot->legend, viewport.width());
            const int rows = (m_plot->legend->itemCount() + columns - 1) / columns;
            if (rows != m_plot->legend->wrap()) {
                m_plot->legend->setWrap(rows);
                m_plot->legend->setFillOrder(QCPLegend::foRowsFirst, true);
                rearranged = true;
            }
        }
        placeGapLabel();
        placeBudgetLabel();
        const bool rescaled = makeRoomForTotalLabel();
        // On screen (an export lays the plot out at another size): what the text around the
        // plot takes, plus room for its labels.
        if (viewport.size() == m_plot->size()) {
            const int wanted = below ? height() - m_plot->axisRect()->height() +
                                           7 * QFontMetrics(m_capacityLabel->font()).height()
                                     : 0;
            if (wanted != m_wantedHeight) {
                m_wantedHeight = wanted;
                // Not while the plot is being drawn: the page lays itself out again.
                QMetaObject::invokeMethod(this, &BreakdownChart::wantedHeightChanged,
                                          Qt::QueuedConnection);
            }
        }
        return fitSizeAxisLabel(m_plot->yAxis) || rescaled || rearranged;
    });
    connect(m_plot, &QCustomPlot::mouseMove, this,
            [this](QMouseEvent *event) { updateToolTip(event); });

    setEstimate(Estimate{}, Unit::GiB);
}

void BreakdownChart::setEstimate(const Estimate &e, Unit unit,
                                 std::optional<double> balancedDeviceBytes)
{
    m_current = e;
    m_currentBalanced = balancedDeviceBytes;
    m_unit = unit;
    m_preview.clear(); // a new estimate: whatever was previewed was a change to the old one
    draw(e, balancedDeviceBytes);
    markPreview();
}

void BreakdownChart::draw(const Estimate &e, std::optional<double> balancedDeviceBytes)
{
    const Unit unit = m_unit;
    m_estimate = e;
    m_hovered = -1;

    double total = 0;      // in the unit
    double totalBytes = 0; // what the bar adds up to: peak.device, as drawn
    for (int i = 0; i < componentCount; ++i) {
        m_values[i] = sanitized(toUnit(e.perGpu[i], unit));
        total += m_values[i];
        totalBytes += sanitized(e.perGpu[i]);
        m_bars[i]->data()->set({QCPBarsData(barKey, m_values[i])}, true);
    }
    // The KV cache is an inference server's (docs/serving.md): named only where there is one.
    // A server has no gradients, optimizer states or loss, so its legend names only what its
    // bar holds; a training bar names every training component, zero or not, so that the
    // legend stays put while a slider moves.
    const bool server = m_values[int(Component::KvCache)] > 0;
    unsigned shown = 0;
    for (int i = 0; i < componentCount; ++i)
        if (server ? m_values[i] > 0 : Component(i) != Component::KvCache)
            shown |= 1u << i;
    if (shown != m_legendComponents) {
        m_legendComponents = shown;
        m_plot->legend->clearItems();
        for (int i = componentCount - 1; i >= 0; --i)
            if (shown & (1u << i))
                m_bars[i]->addToLegend();
        addBandToLegend();
        applyFonts();
    }
    m_capacity = sanitized(toUnit(e.capacityBytes, unit));
    m_likely = {total * validationErrorBand.low, total * validationErrorBand.high};
    m_bandLine->setVisible(total > 0);
    // x in pixels, placed with the labels (placeGapLabel).
    m_bandLine->start->setCoords(m_bandLine->start->coords().x(), m_likely.first);
    m_bandLine->end->setCoords(m_bandLine->end->coords().x(), m_likely.second);
    double top = std::max(m_likely.second, m_capacity);
    // A preview keeps the scale of the current drawing, so the bar visibly shrinks or grows,
    // and the current total's line stays in view.
    if (!m_preview.isEmpty())
        top = std::max(top, toUnit(currentTotalBytes(), unit) * validationErrorBand.high);
    m_axisTop = top > 0 ? top * 1.15 : 1.0;
    setSizeAxis(m_plot->yAxis, m_axisTop, unit, memoryPerGpuLabel());

    auto *ticker = static_cast<QCPAxisTickerText *>(m_plot->xAxis->ticker().data());
    ticker->clear();
    // Two lines: one would be wider than a narrow plot, and QCustomPlot drops a tick label that
    // does not fit rather than clip it.
    ticker->addTick(barKey, tr("at the peak:\n%1").arg(phaseName(e.peak.phase)));

    const bool hasCapacity = m_capacity > 0;
    m_capacityLine->setVisible(hasCapacity);
    m_capacityLabel->setVisible(hasCapacity);
    m_capacityLine->point1->setCoords(0, m_capacity);
    m_capacityLine->point2->setCoords(1, m_capacity);
    const bool overflow = total > m_capacity;
    // Above the line, unless the overflow bracket lives there: then below, out of its way.
    m_capacityLabel->position->setCoords(0.99, m_capacity);
    m_capacityLabel->setPositionAlignment(Qt::AlignRight |
                                          (overflow ? Qt::AlignTop : Qt::AlignBottom));
    const QString capacity = formatSize(sanitized(e.capacityBytes), unit);
    m_capacityText = tr("GPU capacity: %1").arg(capacity);
    m_capacityLines = tr("GPU capacity:\n%1", "on two lines").arg(capacity);
    m_capacityLabel->setText(m_capacityText); // on two lines where narrow: placeGapLabel

    m_totalLabel->position->setCoords(barKey, total);
    m_totalText = tr("device %1").arg(formatSize(totalBytes, unit));
    m_totalLines = tr("device\n%1", "on two lines").arg(formatSize(totalBytes, unit));
    m_totalLabel->setText(m_totalText);

    const double gap = std::abs(total - m_capacity);
    m_gapLine->setVisible(hasCapacity && gap > 0);
    m_gapLabel->setVisible(hasCapacity);
    m_gapLine->start->setCoords(gapKey, std::min(total, m_capacity));
    m_gapLine->end->setCoords(gapKey, std::max(total, m_capacity));

    const ChartColors colors = chartColors(palette());
    const QColor gapColor = overflow ? colors.signal(overflowColor()) : colors.ink;
    m_gapLine->setPen(QPen(gapColor, 1.5));
    m_gapLabel->setColor(gapColor);
    const double gapBytes = std::abs(totalBytes - sanitized(e.capacityBytes));
    m_gapText = overflow ? tr("over by %1").arg(formatSize(gapBytes, unit, 1))
                         : tr("headroom %1").arg(formatSize(gapBytes, unit, 1));
    m_overflow = overflow;
    drawServing(e); // a server's budget line, and its refusal to start drawn as a failure

    const bool balanced = balancedDeviceBytes && std::isfinite(*balancedDeviceBytes) &&
                          *balancedDeviceBytes > 0 && total > 0;
    m_total = total;
    m_balanced =
        balanced ? toUnit(*balancedDeviceBytes, unit) : std::numeric_limits<double>::quiet_NaN();
    m_balancedText = balanced
                         ? tr("balanced experts: %1").arg(formatSize(*balancedDeviceBytes, unit))
                         : QString();
    m_balancedLine->setVisible(balanced);
    m_balancedLabel->setVisible(balanced);
    m_balancedLine->start->setCoords(barKey - barWidth / 2, balanced ? m_balanced : 0);
    m_balancedLine->end->setCoords(balancedEnd, balanced ? m_balanced : 0);
    m_balancedLabel->setText(m_balancedText); // wrapped and placed as it is drawn

    const double likelyLow = sanitized(e.peak.device) * validationErrorBand.low;
    const double likelyHigh = sanitized(e.peak.device) * validationErrorBand.high;
    m_measuredHeading->setText(e.calibrated ? tr("Peak, calibrated to your run")
                                            : tr("Peak as measured"));
    QStringList names = measuredNames();
    QString values = tr("%1\n%2\n%3\n%4 to %5")
                         .arg(formatSize(sanitized(e.peak.allocated), unit),
                              formatSize(sanitized(e.peak.reserved), unit),
                              formatSize(sanitized(e.peak.device), unit),
                              formatSize(likelyLow, unit, 1), formatSize(likelyHigh, unit, 1));
    if (balanced) {
        names << tr("balanced experts");
        values += QLatin1Char('\n') + formatSize(*balancedDeviceBytes, unit);
    }
    m_measuredNames->setText(names.join(QLatin1Char('\n')));
    m_measuredValues->setText(values);

    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void BreakdownChart::arrange(bool below)
{
    // Beside the plot in a wide widget; below it in a tall or narrow one (the window's side
    // panel), where a column of legend would leave the bar no room.
    m_below = below;
    QCPLayoutGrid *grid = m_plot->plotLayout();
    grid->take(m_side);
    grid->simplify();
    for (QCPLayoutElement *element : {static_cast<QCPLayoutElement *>(m_plot->legend),
                                      static_cast<QCPLayoutElement *>(m_measuredHeading),
                                      static_cast<QCPLayoutElement *>(m_measured), m_spacer}) {
        if (element->layout() == m_side)
            m_side->take(element);
    }
    m_side->simplify();
    // Legend rows top-down in stacking order; below the plot, in two columns of up to four.
    m_plot->legend->setWrap(below ? 4 : 0);
    m_plot->legend->setFillOrder(QCPLegend::foRowsFirst, true);
    m_side->addElement(0, 0, m_plot->legend);
    m_side->addElement(1, 0, m_measuredHeading);
    m_side->addElement(2, 0, m_measured);
    if (below) {
        grid->addElement(1, 0, m_side);
        grid->setRowStretchFactor(0, 1);
        grid->setRowStretchFactor(1, 0.001);
    } else {
        // The spacer takes the height left over, keeping the rest at the top.
        m_side->addElement(3, 0, m_spacer);
        for (int row = 0; row < 3; ++row)
            m_side->setRowStretchFactor(row, 0.001);
        m_side->setRowStretchFactor(3, 1);
        grid->addElement(0, 1, m_side);
        grid->setColumnStretchFactor(0, 1);
        grid->setColumnStretchFactor(1, 0.001);
    }
}

double BreakdownChart::barValue(Component c) const
{
    return m_values[static_cast<size_t>(c)];
}

std::pair<double, double> BreakdownChart::likelyRange() const
{
    return m_likely;
}

double BreakdownChart::balancedValue() const
{
    return m_balanced;
}

QString BreakdownChart::balancedText() const
{
    return m_balancedLabel->visible() ? m_balancedText : QString();
}

QStringList BreakdownChart::measuredRows() const
{
    const QStringList names = m_measuredNames->text().split(QLatin1Char('\n'));
    const QStringList values = m_measuredValues->text().split(QLatin1Char('\n'));
    QStringList rows;
    for (qsizetype i = 0; i < std::min(names.size(), values.size()); ++i)
        rows << names[i] + QStringLiteral(": ") + values[i];
    return rows;
}

double BreakdownChart::capacityValue() const
{
    return m_capacity;
}

QCustomPlot *BreakdownChart::plot() const
{
    return m_plot;
}

} // namespace vramplan::ui
