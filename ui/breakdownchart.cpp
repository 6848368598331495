#include "breakdownchart.h"

#include "calibration.h"

#include "chartstyle.h"

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

namespace {

constexpr double barKey = 1.0;
constexpr double barWidth = 0.8;
// The bar sits left of centre: the right side carries the headroom or the overflow.
constexpr double keyLower = 0.3;
constexpr double keyUpper = 2.4;
constexpr double gapKey = barKey + barWidth / 2 + 0.12;
constexpr double bandKey = barKey - barWidth / 2 - 0.08; // the likely-range whisker, left of it
constexpr double balancedEnd = gapKey - 0.03; // the balanced marker: across the bar and a stub
constexpr int toolTipItems = 10; // plus a heading and a "more" line: about 12 lines
constexpr int maxFormulaLength = 48;

// The balanced-experts marker: the teal of the curves' expert-imbalance band.
const QColor imbalanceColor(0x00, 0x83, 0x8f);

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

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// Sizes in a tooltip range from kilobytes (a norm weight) to tens of gigabytes; "0.00 GiB" says
// nothing, so small ones drop to MiB/MB.
QString formatItemSize(double bytes, Unit unit)
{
    if (toUnit(bytes, unit) >= 0.1)
        return formatSize(bytes, unit, 2);
    const bool binary = unit == Unit::GiB;
    const double mega = binary ? 1048576.0 : 1.0e6;
    return QString::number(bytes / mega, 'f', 2) +
           (binary ? QStringLiteral(" MiB") : QStringLiteral(" MB"));
}

QString formatCount(double count)
{
    return count == std::floor(count) && std::abs(count) < 1e15 ? QString::number(qint64(count))
                                                                : QString::number(count, 'g', 4);
}

} // namespace

BreakdownChart::BreakdownChart(QWidget *parent) : QWidget(parent), m_plot(new QCustomPlot(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);

    m_plot->setBackground(Qt::white);
    m_plot->setAntialiasedElements(QCP::aePlottables | QCP::aeItems | QCP::aeLegendItems);
    m_plot->setMouseTracking(true); // hover tooltips without a pressed button

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
    m_measuredHeading = new QCPTextElement(m_plot, QStringLiteral("Peak as measured"));
    m_measuredNames =
        new QCPTextElement(m_plot, QStringLiteral("allocated\nreserved\ndevice\nlikely device"));
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

    m_capacityLine = new QCPItemStraightLine(m_plot);
    m_capacityLine->setPen(QPen(capacityColor(), 1.5, Qt::DashLine));
    m_capacityLine->setSelectable(false);

    m_capacityLabel = new QCPItemText(m_plot);
    m_capacityLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    // setType converts the old coordinates through the axis rect, which has no size yet
    // (NaN): start from finite ones.
    m_capacityLabel->position->setCoords(0, 0);
    m_capacityLabel->setColor(capacityColor());
    m_capacityLabel->setPadding(QMargins(2, 1, 2, 1));

    m_totalLabel = new QCPItemText(m_plot);
    m_totalLabel->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
    m_totalLabel->setPadding(QMargins(2, 1, 2, 3));

    m_gapLine = new QCPItemLine(m_plot);
    m_gapLine->setHead(QCPLineEnding(QCPLineEnding::esBar, 8));
    m_gapLine->setTail(QCPLineEnding(QCPLineEnding::esBar, 8));
    m_gapLabel = new QCPItemText(m_plot);
    m_gapLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    m_gapLabel->setTextAlignment(Qt::AlignLeft);
    m_gapLabel->setPadding(QMargins(4, 1, 2, 1));

    // Where the measured device total is likely to fall: the 10th to 90th percentile of
    // measured / estimated over the published runs (core calibration.h).
    m_bandLine = new QCPItemLine(m_plot);
    m_bandLine->setHead(QCPLineEnding(QCPLineEnding::esBar, 10));
    m_bandLine->setTail(QCPLineEnding(QCPLineEnding::esBar, 10));
    m_bandLine->setPen(QPen(QColor(0x42, 0x42, 0x42), 1.5));

    // Where the device total would be with perfectly balanced expert routing: a teal line
    // across the bar, its label right of it, hanging below it.
    m_balancedLine = new QCPItemLine(m_plot);
    m_balancedLine->setPen(QPen(imbalanceColor, 2, Qt::DashLine));
    m_balancedLabel = new PlacedText(m_plot, [this] { placeBalancedLabel(); });
    m_balancedLabel->setColor(imbalanceColor);
    m_balancedLabel->position->setType(QCPItemPosition::ptAbsolute);
    m_balancedLabel->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_balancedLabel->setTextAlignment(Qt::AlignLeft);
    m_balancedLabel->setPadding(QMargins(4, 1, 2, 1));

    for (int i = 0; i < m_plot->itemCount(); ++i)
        m_plot->item(i)->setSelectable(false);

    arrange(false);
    applyFonts();
    connect(m_plot, &QCustomPlot::mouseMove, this,
            [this](QMouseEvent *event) { updateToolTip(event); });

    setEstimate(Estimate{}, Unit::GiB);
}

void BreakdownChart::setEstimate(const Estimate &e, Unit unit,
                                 std::optional<double> balancedDeviceBytes)
{
    m_estimate = e;
    m_unit = unit;
    m_hovered = -1;

    double total = 0;      // in the unit
    double totalBytes = 0; // what the bar adds up to: peak.device, as drawn
    for (int i = 0; i < componentCount; ++i) {
        m_values[i] = sanitized(toUnit(e.perGpu[i], unit));
        total += m_values[i];
        totalBytes += sanitized(e.perGpu[i]);
        m_bars[i]->data()->set({QCPBarsData(barKey, m_values[i])}, true);
    }
    m_capacity = sanitized(toUnit(e.capacityBytes, unit));
    m_likely = {total * validationErrorBand.low, total * validationErrorBand.high};
    m_bandLine->setVisible(total > 0);
    m_bandLine->start->setCoords(bandKey, m_likely.first);
    m_bandLine->end->setCoords(bandKey, m_likely.second);
    const double top = std::max(m_likely.second, m_capacity);
    m_plot->yAxis->setRange(0, top > 0 ? top * 1.15 : 1.0);
    m_plot->yAxis->setLabel(QStringLiteral("Memory per GPU (%1)").arg(unitName(unit)));

    auto *ticker = static_cast<QCPAxisTickerText *>(m_plot->xAxis->ticker().data());
    ticker->clear();
    // Two lines: one would be wider than a narrow plot, and QCustomPlot drops a tick label that
    // does not fit rather than clip it.
    ticker->addTick(barKey,
                    QStringLiteral("at the peak:\n%1").arg(fromView(phaseLabel(e.peak.phase))));

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
    m_capacityLabel->setText(
        QStringLiteral("GPU capacity: %1").arg(formatSize(sanitized(e.capacityBytes), unit)));

    m_totalLabel->position->setCoords(barKey, total);
    m_totalLabel->setText(QStringLiteral("device %1").arg(formatSize(totalBytes, unit)));

    const double gap = std::abs(total - m_capacity);
    m_gapLine->setVisible(hasCapacity && gap > 0);
    m_gapLabel->setVisible(hasCapacity);
    m_gapLine->start->setCoords(gapKey, std::min(total, m_capacity));
    m_gapLine->end->setCoords(gapKey, std::max(total, m_capacity));
    m_gapLabel->position->setCoords(gapKey, (total + m_capacity) / 2);
    const QColor gapColor = overflow ? overflowColor() : capacityColor();
    m_gapLine->setPen(QPen(gapColor, 1.5));
    m_gapLabel->setColor(gapColor);
    const double gapBytes = std::abs(totalBytes - sanitized(e.capacityBytes));
    m_gapText = overflow ? QStringLiteral("over by %1").arg(formatSize(gapBytes, unit, 1))
                         : QStringLiteral("headroom %1").arg(formatSize(gapBytes, unit, 1));
    updateGapLabel();

    const bool balanced = balancedDeviceBytes && std::isfinite(*balancedDeviceBytes) &&
                          *balancedDeviceBytes > 0 && total > 0;
    m_total = total;
    m_balanced =
        balanced ? toUnit(*balancedDeviceBytes, unit) : std::numeric_limits<double>::quiet_NaN();
    m_balancedText =
        balanced
            ? QStringLiteral("balanced experts: %1").arg(formatSize(*balancedDeviceBytes, unit))
            : QString();
    m_balancedLine->setVisible(balanced);
    m_balancedLabel->setVisible(balanced);
    m_balancedLine->start->setCoords(barKey - barWidth / 2, balanced ? m_balanced : 0);
    m_balancedLine->end->setCoords(balancedEnd, balanced ? m_balanced : 0);
    m_balancedLabel->setText(m_balancedText); // wrapped and placed as it is drawn

    const double likelyLow = sanitized(e.peak.device) * validationErrorBand.low;
    const double likelyHigh = sanitized(e.peak.device) * validationErrorBand.high;
    m_measuredHeading->setText(e.calibrated ? QStringLiteral("Peak, calibrated to your run")
                                            : QStringLiteral("Peak as measured"));
    QString names = QStringLiteral("allocated\nreserved\ndevice\nlikely device");
    QString values = QStringLiteral("%1\n%2\n%3\n%4 to %5")
                         .arg(formatSize(sanitized(e.peak.allocated), unit),
                              formatSize(sanitized(e.peak.reserved), unit),
                              formatSize(sanitized(e.peak.device), unit),
                              formatSize(likelyLow, unit, 1), formatSize(likelyHigh, unit, 1));
    if (balanced) {
        names += QStringLiteral("\nbalanced experts");
        values += QLatin1Char('\n') + formatSize(*balancedDeviceBytes, unit);
    }
    m_measuredNames->setText(names);
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

void BreakdownChart::updateGapLabel()
{
    // On one line where the plot leaves room right of the bar, else on two. The axis rect's
    // margins are those of the last layout, close enough for this.
    const QMargins margins = m_plot->axisRect()->margins();
    int axisWidth = m_plot->width() - margins.left() - margins.right();
    if (!m_below)
        axisWidth -= m_side->minimumOuterSizeHint().width();
    const double room = axisWidth * (keyUpper - gapKey) / (keyUpper - keyLower) - 8;
    // A margin for the bold face and the label's padding, which the metrics leave out.
    const bool fits = QFontMetrics(m_gapLabel->font()).horizontalAdvance(m_gapText) + 24 <= room;
    QString text = m_gapText;
    if (!fits)
        text.replace(text.lastIndexOf(QLatin1Char(' '), text.lastIndexOf(QLatin1Char(' ')) - 1), 1,
                     QLatin1Char('\n'));
    m_gapLabel->setText(text);
}

void BreakdownChart::placeBalancedLabel()
{
    // Called as the label is drawn (on screen or into an export), when the layout is final:
    // every size here is in pixels of that drawing.
    const QCPAxis *x = m_plot->xAxis;
    const QCPAxis *y = m_plot->yAxis;
    const QRectF axis = m_plot->axisRect()->rect();
    const double left = x->coordToPixel(gapKey);
    // On one line where there is room right of the bar, else "balanced experts:" over the size.
    const QFontMetricsF metrics(m_balancedLabel->font());
    const QMargins padding = m_balancedLabel->padding();
    QString text = m_balancedText;
    if (metrics.horizontalAdvance(text) + padding.left() + padding.right() > axis.right() - left)
        text.replace(QStringLiteral(": "), QStringLiteral(":\n"));
    m_balancedLabel->setText(text);
    const QRectF box =
        metrics.boundingRect(QRectF(), Qt::TextDontClip | Qt::AlignLeft, text)
            .adjusted(-padding.left(), -padding.top(), padding.right(), padding.bottom());

    // Right of the bar, where the headroom or overflow label and the capacity's label also
    // live: hanging below the marker, else above it, else under the capacity's label, else
    // under the headroom's, whichever first overlaps none of them and stays in the plot.
    std::vector<QRectF> taken;
    for (const QCPItemText *label : {m_gapLabel, m_capacityLabel, m_totalLabel}) {
        if (label->visible())
            taken.push_back(
                QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition())
                    .normalized());
    }
    auto fits = [&](double top) {
        const QRectF at(left, top, box.width(), box.height());
        return at.top() >= axis.top() && at.bottom() <= axis.bottom() &&
               std::none_of(taken.begin(), taken.end(),
                            [&](const QRectF &t) { return t.intersects(at); });
    };
    const double marker = y->coordToPixel(m_balanced);
    std::vector<double> tops{marker, marker - box.height()};
    if (m_capacityLabel->visible() && m_total > m_capacity)
        tops.push_back(m_capacityLabel->bottom->pixelPosition().y() + 2);
    if (m_gapLabel->visible())
        tops.push_back(m_gapLabel->bottom->pixelPosition().y() + 2);
    const auto top = std::find_if(tops.begin(), tops.end(), fits);
    m_balancedLabel->position->setCoords(left, top != tops.end() ? *top : marker);
}

void BreakdownChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    const bool below = width() < 1.25 * height() || width() < 420;
    if (below != m_below)
        arrange(below);
    updateGapLabel();
    // QCustomPlot has already redrawn for its new size, laid out as before: draw again.
    m_plot->replot(QCustomPlot::rpQueuedReplot);
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

void BreakdownChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        applyFonts();
        updateGapLabel();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void BreakdownChart::applyFonts()
{
    const QFont base = font();
    QFont bold = base;
    bold.setBold(true);
    applyBaseFonts(m_plot, base);
    const int h = QFontMetrics(base).height();
    m_plot->legend->setIconSize(h, h);
    // QCustomPlot sizes an entry to the font's height and clips it there, which shaves off
    // antialiased descenders; a pixel above and below keeps "g" and "y" whole.
    for (int i = 0; i < m_plot->legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = m_plot->legend->item(i)) // empty cells of a wrapped grid
            item->setMargins(QMargins(0, 1, 0, 1));
    }
    m_capacityLabel->setFont(base);
    m_balancedLabel->setFont(base);
    m_totalLabel->setFont(bold);
    m_gapLabel->setFont(bold);
    for (QCPTextElement *text : {m_measuredHeading, m_measuredNames, m_measuredValues})
        text->setFont(base);
}

void BreakdownChart::updateToolTip(QMouseEvent *event)
{
    const QPointF pos = event->position();
    const double key = m_plot->xAxis->pixelToCoord(pos.x());
    const double value = m_plot->yAxis->pixelToCoord(pos.y());
    int hit = -1;
    double base = 0;
    if (std::abs(key - barKey) <= barWidth / 2) {
        for (int i = 0; i < componentCount; ++i) {
            if (m_values[i] > 0 && value >= base && value < base + m_values[i]) {
                hit = i;
                break;
            }
            base += m_values[i];
        }
    }
    if (hit < 0) {
        if (m_hovered >= 0)
            QToolTip::hideText();
        m_hovered = -1;
        return;
    }
    if (hit == m_hovered && QToolTip::isVisible())
        return;
    m_hovered = hit;
    // Given the segment's rectangle, Qt hides the tip by itself once the cursor leaves it.
    const QRectF segment(QPointF(m_plot->xAxis->coordToPixel(barKey - barWidth / 2),
                                 m_plot->yAxis->coordToPixel(base + m_values[hit])),
                         QPointF(m_plot->xAxis->coordToPixel(barKey + barWidth / 2),
                                 m_plot->yAxis->coordToPixel(base)));
    QToolTip::showText(event->globalPosition().toPoint(), toolTipText(static_cast<Component>(hit)),
                       m_plot, segment.normalized().toAlignedRect());
}

QString BreakdownChart::toolTipText(Component c) const
{
    const Phase peak = m_estimate.peak.phase;
    std::vector<const Item *> items;
    for (const Item &item : m_estimate.items) {
        if (item.component == c && item.aliveIn(peak) && sanitized(item.bytes()) > 0)
            items.push_back(&item);
    }
    std::sort(items.begin(), items.end(),
              [](const Item *a, const Item *b) { return a->bytes() > b->bytes(); });

    QStringList lines;
    lines << QStringLiteral("%1: %2 at %3")
                 .arg(componentName(c), formatSize(sanitized(m_estimate.componentBytes(c)), m_unit),
                      fromView(phaseLabel(peak)));
    const int shown = std::min(int(items.size()), toolTipItems);
    for (int i = 0; i < shown; ++i) {
        const Item &item = *items[size_t(i)];
        QString line = fromView(item.name);
        if (!item.formula.empty()) {
            // Some formulas spell out every optimizer's case; a tooltip line as wide as the
            // screen is unreadable, so long ones are cut.
            QString formula = fromView(item.formula);
            if (formula.size() > maxFormulaLength)
                formula = formula.left(maxFormulaLength - 1).trimmed() + QStringLiteral("…");
            line += QStringLiteral(" — ") + formula;
            // The same formula with this scenario's numbers put in, where it has symbols.
            const std::string worked = formulaWithNumbers(item.formula, m_estimate.symbols);
            if (const auto eq = worked.find(" = ");
                eq != std::string::npos && formula.size() <= maxFormulaLength)
                line += QStringLiteral(" = ") + QString::fromStdString(worked.substr(eq + 3));
        }
        line += QStringLiteral(" — ") + formatItemSize(sanitized(item.perUnit), m_unit);
        if (item.count != 1)
            line += QStringLiteral(" ×") + formatCount(item.count);
        lines << line;
    }
    if (int(items.size()) > shown) {
        double rest = 0;
        for (size_t i = size_t(shown); i < items.size(); ++i)
            rest += sanitized(items[i]->bytes());
        lines << QStringLiteral("… %1 more, %2 together")
                     .arg(int(items.size()) - shown)
                     .arg(formatItemSize(rest, m_unit));
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace vramplan::ui
