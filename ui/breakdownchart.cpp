#include "breakdownchart.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <vector>

namespace vramplan::ui {

namespace {

constexpr double barKey = 1.0;
constexpr double barWidth = 0.8;
// The bar sits left of centre: the right side carries the headroom and the measured numbers.
constexpr double keyLower = 0.3;
constexpr double keyUpper = 2.9;
constexpr double gapKey = barKey + barWidth / 2 + 0.12;
constexpr int toolTipItems = 10; // plus a heading and a "more" line: about 12 lines
constexpr int maxFormulaLength = 48;

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

    // The legend goes right of the plot, top-aligned, so it never covers the bar or the labels.
    auto *side = new QCPLayoutGrid;
    m_plot->plotLayout()->addElement(0, 1, side);
    m_plot->plotLayout()->setColumnStretchFactor(1, 0.001);
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    side->addElement(0, 0, m_plot->legend);
    side->addElement(1, 0, new QCPLayoutElement(m_plot));
    side->setRowStretchFactor(0, 0.001);
    m_plot->legend->setVisible(true);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setBrush(Qt::NoBrush);

    QCPAxis *x = m_plot->xAxis;
    QCPAxis *y = m_plot->yAxis;
    x->setRange(keyLower, keyUpper);
    x->grid()->setVisible(false);
    x->setTickLength(0, 0);
    x->setSubTicks(false);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    x->setTicker(ticker);
    y->grid()->setPen(QPen(QColor(0xe0, 0xe0, 0xe0), 0));
    y->grid()->setSubGridVisible(false);
    const QPen axisPen(QColor(0x75, 0x75, 0x75), 0);
    for (QCPAxis *axis : {x, y}) {
        axis->setBasePen(axisPen);
        axis->setTickPen(axisPen);
        axis->setSubTickPen(axisPen);
    }

    QCPBars *below = nullptr;
    for (int i = 0; i < componentCount; ++i) {
        const auto c = static_cast<Component>(i);
        auto *bars = new QCPBars(x, y);
        bars->setName(componentName(c));
        bars->setWidth(barWidth);
        bars->setBrush(componentColor(c));
        // A thin white edge keeps neighbouring segments apart where two colours are close.
        bars->setPen(QPen(Qt::white, 1));
        bars->setSelectable(QCP::stNone);
        if (below)
            bars->moveAbove(below);
        below = bars;
        m_bars[i] = bars;
    }
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
    m_gapLabel->setPadding(QMargins(4, 1, 2, 1));

    m_measuredBox = new QCPItemRect(m_plot);
    m_measuredBox->setPen(QPen(QColor(0xbd, 0xbd, 0xbd), 0));
    m_measuredBox->setBrush(QColor(255, 255, 255, 230));
    m_measuredValues = new QCPItemText(m_plot);
    m_measuredValues->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_measuredValues->position->setCoords(0.97, 0.96);
    m_measuredValues->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    m_measuredValues->setTextAlignment(Qt::AlignRight);
    m_measuredNames = new QCPItemText(m_plot);
    // Anchored positions count in pixels from their anchor.
    m_measuredNames->position->setType(QCPItemPosition::ptAbsolute);
    m_measuredNames->position->setParentAnchor(m_measuredValues->topLeft);
    m_measuredNames->position->setCoords(0, 0);
    m_measuredNames->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    m_measuredNames->setTextAlignment(Qt::AlignLeft);
    m_measuredNames->setPadding(QMargins(6, 4, 8, 0));
    m_measuredNames->setText(QStringLiteral("allocated\nreserved\ndevice"));
    m_measuredValues->setPadding(QMargins(0, 4, 6, 4));
    m_measuredBox->topLeft->setType(QCPItemPosition::ptAbsolute);
    m_measuredBox->topLeft->setParentAnchor(m_measuredNames->topLeft);
    m_measuredBox->topLeft->setCoords(0, 0);
    m_measuredBox->bottomRight->setType(QCPItemPosition::ptAbsolute);
    m_measuredBox->bottomRight->setParentAnchor(m_measuredValues->bottomRight);
    m_measuredBox->bottomRight->setCoords(0, 0);

    for (int i = 0; i < m_plot->itemCount(); ++i)
        m_plot->item(i)->setSelectable(false);

    applyFonts();
    connect(m_plot, &QCustomPlot::mouseMove, this,
            [this](QMouseEvent *event) { updateToolTip(event); });

    setEstimate(Estimate{}, Unit::GiB);
}

void BreakdownChart::setEstimate(const Estimate &e, Unit unit)
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
    const double top = std::max(total, m_capacity);
    m_plot->yAxis->setRange(0, top > 0 ? top * 1.15 : 1.0);
    m_plot->yAxis->setLabel(QStringLiteral("Memory per GPU (%1)").arg(unitName(unit)));

    auto *ticker = static_cast<QCPAxisTickerText *>(m_plot->xAxis->ticker().data());
    ticker->clear();
    ticker->addTick(barKey,
                    QStringLiteral("at the peak: %1").arg(fromView(phaseLabel(e.peak.phase))));

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
    m_gapLabel->setText(overflow
                            ? QStringLiteral("over by %1").arg(formatSize(gapBytes, unit, 1))
                            : QStringLiteral("headroom %1").arg(formatSize(gapBytes, unit, 1)));

    // The three numbers a run reports: what the allocator handed out, what its cache holds, and
    // what nvidia-smi shows (the cache plus the CUDA context, NCCL and memory outside PyTorch).
    m_measuredValues->setText(QStringLiteral("%1\n%2\n%3")
                                  .arg(formatSize(sanitized(e.peak.allocated), unit),
                                       formatSize(sanitized(e.peak.reserved), unit),
                                       formatSize(sanitized(e.peak.device), unit)));

    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

double BreakdownChart::barValue(Component c) const
{
    return m_values[static_cast<size_t>(c)];
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
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void BreakdownChart::applyFonts()
{
    // QCustomPlot copies the widget font into each element when it is created; follow later
    // changes (system font, zoom) by hand.
    const QFont base = font();
    QFont bold = base;
    bold.setBold(true);
    for (QCPAxis *axis : {m_plot->xAxis, m_plot->yAxis}) {
        axis->setLabelFont(base);
        axis->setTickLabelFont(base);
    }
    m_plot->legend->setFont(base);
    const int h = QFontMetrics(base).height();
    m_plot->legend->setIconSize(h, h);
    // QCustomPlot sizes an entry to the font's height and clips it there, which shaves off
    // antialiased descenders; a pixel above and below keeps "g" and "y" whole.
    for (int i = 0; i < m_plot->legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = m_plot->legend->item(i)) // empty cells of a wrapped grid
            item->setMargins(QMargins(0, 1, 0, 1));
    }
    m_capacityLabel->setFont(base);
    m_totalLabel->setFont(bold);
    m_gapLabel->setFont(bold);
    m_measuredNames->setFont(base);
    m_measuredValues->setFont(base);
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
