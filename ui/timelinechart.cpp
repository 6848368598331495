#include "timelinechart.h"

#include "chartstyle.h"

#include <qcustomplot.h>

#include <QEvent>
#include <QResizeEvent>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace vramplan::ui {

namespace {

constexpr double barWidth = 0.62;

double sanitized(double v)
{
    return std::isfinite(v) && v > 0 ? v : 0.0;
}

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// Six phase names share the width of one chart: a name that does not fit its bar's slot breaks
// at the space that balances its lines ("start of backward (loss)" -> "start of" / "backward
// (loss)"), and where even that is too wide, word by word.
QString wrapLabel(const QString &label, const QFontMetrics &metrics, int width)
{
    if (metrics.horizontalAdvance(label) <= width)
        return label;
    int best = -1;
    int bestWidth = 0;
    for (int i = 0; i < label.size(); ++i) {
        if (label[i] != QLatin1Char(' '))
            continue;
        const int w = std::max(metrics.horizontalAdvance(label.left(i)),
                               metrics.horizontalAdvance(label.mid(i + 1)));
        if (best < 0 || w < bestWidth) {
            bestWidth = w;
            best = i;
        }
    }
    if (best < 0)
        return label;
    if (bestWidth <= width)
        return label.left(best) + QLatin1Char('\n') + label.mid(best + 1);
    QStringList lines;
    for (const QString &word : label.split(QLatin1Char(' '))) {
        if (!lines.isEmpty() &&
            metrics.horizontalAdvance(lines.back() + QLatin1Char(' ') + word) <= width)
            lines.back() += QLatin1Char(' ') + word;
        else
            lines << word;
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace

TimelineChart::TimelineChart(QWidget *parent)
    : QWidget(parent), m_plot(new QCustomPlot(this)), m_ticker(new QCPAxisTickerText)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_plot);

    m_plot->setBackground(Qt::white);
    m_plot->setAntialiasedElements(QCP::aePlottables | QCP::aeItems | QCP::aeLegendItems);

    // Six bars need the full width for their labels: the legend goes above the plot, in rows.
    m_plot->axisRect()->insetLayout()->take(m_plot->legend);
    m_plot->plotLayout()->insertRow(0);
    m_plot->plotLayout()->addElement(0, 0, m_plot->legend);
    m_plot->plotLayout()->setRowStretchFactor(0, 0.001);
    m_plot->legend->setVisible(true);
    m_plot->legend->setBorderPen(Qt::NoPen);
    m_plot->legend->setBrush(Qt::NoBrush);
    m_plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    m_plot->legend->setWrap(4);
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
    m_capacityLine->setPen(QPen(capacityColor(), 1.5, Qt::DashLine));
    m_capacityLabel = new QCPItemText(m_plot);
    m_capacityLabel->position->setTypeX(QCPItemPosition::ptAxisRectRatio);
    // setType converts the old coordinates through the axis rect, which has no size yet
    // (NaN): start from finite ones.
    m_capacityLabel->position->setCoords(0, 0);
    m_capacityLabel->setColor(capacityColor());
    m_capacityLabel->setBrush(QColor(255, 255, 255, 200));
    m_capacityLabel->setPadding(QMargins(3, 1, 3, 1));

    for (QCPItemText *&label : m_totalLabels) {
        label = new QCPItemText(m_plot);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setPadding(QMargins(2, 1, 2, 2));
        label->setColor(QColor(0x42, 0x42, 0x42));
        // A bar ending near the capacity puts its total on the dashed line: keep it legible.
        label->setBrush(QColor(255, 255, 255, 200));
    }

    // The peak's label sits at the top of the plot, clear of the neighbours' totals, with an
    // arrow down to its bar.
    m_peakLabel = new QCPItemText(m_plot);
    m_peakLabel->position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    m_peakLabel->position->setCoords(0, 0);
    m_peakLabel->setPositionAlignment(Qt::AlignHCenter | Qt::AlignTop);
    m_peakLabel->setBrush(QColor(255, 255, 255, 220));
    m_peakLabel->setPadding(QMargins(4, 1, 4, 1));
    m_peakArrow = new QCPItemLine(m_plot);
    m_peakArrow->start->setType(QCPItemPosition::ptAbsolute);
    m_peakArrow->start->setParentAnchor(m_peakLabel->bottom);
    m_peakArrow->start->setCoords(0, 0);
    m_peakArrow->setHead(QCPLineEnding(QCPLineEnding::esSpikeArrow, 7, 9));
    m_peakArrow->setPen(QPen(QColor(0x21, 0x21, 0x21), 1.2));

    m_plot->setCurrentLayer(QStringLiteral("main"));
    for (int i = 0; i < m_plot->itemCount(); ++i)
        m_plot->item(i)->setSelectable(false);

    applyFonts();
    setEstimate(Estimate{}, Unit::GiB);
}

void TimelineChart::setEstimate(const Estimate &e, Unit unit)
{
    std::array<QVector<QCPBarsData>, componentCount> data;
    std::array<bool, componentCount> used{};
    m_phaseCount = 0;
    m_totals.fill(0);
    m_phaseNames.fill(QString());
    int peakIndex = -1;
    double top = 0;
    for (const PhaseTotals &phase : e.phases) {
        if (!phase.present)
            continue;
        const int index = m_phaseCount++;
        const double key = index + 1;
        double total = 0;
        for (int c = 0; c < componentCount; ++c) {
            const double value = sanitized(toUnit(phase.byComponent[size_t(c)], unit));
            data[size_t(c)].append(QCPBarsData(key, value));
            used[size_t(c)] = used[size_t(c)] || value > 0;
            total += value;
        }
        m_totals[size_t(index)] = total;
        top = std::max(top, total);
        m_phaseNames[size_t(index)] = fromView(phaseLabel(phase.phase));
        if (phase.phase == e.peak.phase)
            peakIndex = index;

        QCPItemText *label = m_totalLabels[size_t(index)];
        label->position->setCoords(key, total);
        label->setText(formatSize(total * unitBytes(unit), unit, 1));
    }
    for (int c = 0; c < componentCount; ++c)
        m_bars[size_t(c)]->data()->set(data[size_t(c)], true);
    updateTickLabels();
    for (int i = 0; i < vramplan::phaseCount; ++i)
        m_totalLabels[size_t(i)]->setVisible(i < m_phaseCount && i != peakIndex);
    updateLegend(used);

    const double capacity = sanitized(toUnit(e.capacityBytes, unit));
    // More room above the tallest bar than the other charts leave: it holds the bar's total and,
    // above that, the peak's label.
    const double yTop = std::max(top, capacity);
    m_plot->yAxis->setRange(0, yTop > 0 ? yTop * 1.25 : 1.0);
    m_plot->yAxis->setLabel(QStringLiteral("Allocated memory (%1)").arg(unitName(unit)));
    m_plot->xAxis->setRange(0.4, std::max(m_phaseCount, 1) + 0.6);

    m_capacityLine->setVisible(capacity > 0);
    m_capacityLabel->setVisible(capacity > 0);
    m_capacityLine->point1->setCoords(0, capacity);
    m_capacityLine->point2->setCoords(1, capacity);
    // On the side away from the peak, whose label and arrow reach up past the line.
    const bool peakOnLeft = peakIndex >= 0 && peakIndex < m_phaseCount / 2;
    m_capacityLabel->position->setCoords(peakOnLeft ? 0.99 : 0.01, capacity);
    m_capacityLabel->setPositionAlignment((peakOnLeft ? Qt::AlignRight : Qt::AlignLeft) |
                                          Qt::AlignBottom);
    m_capacityLabel->setText(
        QStringLiteral("GPU capacity: %1").arg(formatSize(sanitized(e.capacityBytes), unit)));

    const bool showPeak = peakIndex >= 0;
    m_peakText = showPeak ? QStringLiteral("peak: %1 allocated")
                                .arg(formatSize(sanitized(e.peak.allocated), unit, 1))
                          : QString();
    m_peakLabel->setVisible(showPeak);
    m_peakArrow->setVisible(showPeak);
    if (showPeak) {
        const double key = peakIndex + 1;
        m_peakLabel->setText(m_peakText);
        m_peakLabel->position->setCoords(key, 0.01);
        m_peakArrow->end->setCoords(key, m_totals[size_t(peakIndex)]);
    }

    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineChart::updateLegend(const std::array<bool, componentCount> &shown)
{
    // Only what some bar holds (the CUDA context is never allocated, for one); rebuilt only when
    // that set changes, so a slider drag does not relayout the legend on every step.
    if (shown == m_inLegend && m_plot->legend->itemCount() > 0)
        return;
    m_inLegend = shown;
    m_plot->legend->clearItems();
    // Row by row in stacking order, the top segment first.
    for (int c = componentCount - 1; c >= 0; --c) {
        if (shown[size_t(c)])
            m_bars[size_t(c)]->addToLegend();
    }
    // QCustomPlot sizes an entry to the font's height and clips it there, which shaves off
    // antialiased descenders; a pixel above and below keeps "g" and "y" whole.
    for (int i = 0; i < m_plot->legend->itemCount(); ++i) {
        if (QCPAbstractLegendItem *item = m_plot->legend->item(i)) // empty cells of a wrapped grid
            item->setMargins(QMargins(0, 1, 0, 1));
    }
}

void TimelineChart::updateTickLabels()
{
    // Called before QCustomPlot lays out the next frame (in replot): the axis rect of the last
    // layout, grown or shrunk by what the widget's width has changed since.
    const int last = m_plot->plotLayout()->outerRect().width();
    const int now = m_plot->width();
    const int axis = last > 0 ? m_plot->axisRect()->width() + now - last : now * 4 / 5;
    const int slot = axis / std::max(m_phaseCount, 1);
    // A slider step rarely changes the phases or the width: skip measuring the labels then.
    if (slot == m_tickSlot && m_phaseNames == m_tickNames)
        return;
    m_tickSlot = slot;
    m_tickNames = m_phaseNames;
    const QFontMetrics metrics(m_plot->xAxis->tickLabelFont());
    const int width = std::max(slot - metrics.averageCharWidth(), 4 * metrics.averageCharWidth());
    m_ticker->clear();
    for (int i = 0; i < m_phaseCount; ++i)
        m_ticker->addTick(i + 1, wrapLabel(m_phaseNames[size_t(i)], metrics, width));
}

void TimelineChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    updateTickLabels();
    // QCustomPlot has already redrawn for its new size, with the old labels: draw again.
    m_plot->replot(QCustomPlot::rpQueuedReplot);
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

QCustomPlot *TimelineChart::plot() const
{
    return m_plot;
}

void TimelineChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        applyFonts();
        m_tickSlot = -1;
        updateTickLabels();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
}

void TimelineChart::applyFonts()
{
    const QFont base = font();
    QFont bold = base;
    bold.setBold(true);
    applyBaseFonts(m_plot, base);
    const int h = QFontMetrics(base).height();
    m_plot->legend->setIconSize(h, h);
    m_capacityLabel->setFont(base);
    for (QCPItemText *label : m_totalLabels)
        label->setFont(base);
    m_peakLabel->setFont(bold);
}

} // namespace vramplan::ui
