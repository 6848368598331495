// BreakdownChart, continued: where its labels go in the drawing being made (the gap's, the
// capacity's and the total's, the balanced-experts marker's), and the tooltip of the segment
// under the cursor.

#include "charts/breakdownchart.h"

#include "charts/breakdowngeometry.h"
#include "charts/breakdowntooltip.h"
#include "charts/ticklabels.h"

#include <qcustomplot.h>

#include <QToolTip>

#include <algorithm>
#include <cmath>
#include <vector>

namespace vramplan::ui {

using namespace breakdown;

void BreakdownChart::placeGapLabel()
{
    // In pixels of the layout just made. The capacity's and the total's labels on one line
    // where there is room (right of the bar; the bar's width), else on two.
    const QRect axis = m_plot->axisRect()->rect();
    const double barLeft = m_plot->xAxis->coordToPixel(barKey - barWidth / 2);
    const double barRight = m_plot->xAxis->coordToPixel(barKey + barWidth / 2);
    const QFontMetrics capacityMetrics(m_capacityLabel->font());
    m_capacityLabel->setText(capacityMetrics.horizontalAdvance(m_capacityText) + 8 >
                                     axis.right() - barRight
                                 ? m_capacityLines
                                 : m_capacityText);
    const QFontMetrics totalMetrics(m_totalLabel->font());
    m_totalLabel->setText(totalMetrics.horizontalAdvance(m_totalText) > barRight - barLeft + 8
                              ? m_totalLines
                              : m_totalText);
    // The total stands on the bar, unless the capacity line runs through it there (a total
    // just under the capacity): then on the line.
    const double barTop = m_plot->yAxis->coordToPixel(m_total);
    const double capacityLine = m_plot->yAxis->coordToPixel(m_capacity);
    const double totalHeight = totalMetrics.boundingRect(QRect(), 0, m_totalLabel->text()).height() +
                               m_totalLabel->padding().top() + m_totalLabel->padding().bottom();
    const bool struck = m_capacity > 0 && capacityLine < barTop &&
                        capacityLine > barTop - totalHeight - 1;
    m_totalLabel->position->setCoords(
        barKey, struck ? m_plot->yAxis->pixelToCoord(capacityLine - 2) : m_total);
    // The likely range's whisker left of the bar and of the label over it, whichever reaches
    // further left (its end bars are 10 px wide).
    const double labelLeft =
        m_plot->xAxis->coordToPixel(barKey) -
        (totalMetrics.boundingRect(QRect(), 0, m_totalLabel->text()).width() +
         m_totalLabel->padding().left() + m_totalLabel->padding().right()) /
            2.0;
    const double whisker =
        std::max(double(axis.left()) + 6, std::min(barLeft - 8, labelLeft - 8));
    m_bandLine->start->setCoords(whisker, m_likely.first);
    m_bandLine->end->setCoords(whisker, m_likely.second);

    const double left = m_plot->xAxis->coordToPixel(gapKey);
    const QFontMetrics metrics(m_gapLabel->font());
    const QMargins padding = m_gapLabel->padding();
    QString text = m_gapText;
    if (metrics.horizontalAdvance(text) + padding.left() + padding.right() > axis.right() - left)
        text.replace(text.lastIndexOf(QLatin1Char(' '), text.lastIndexOf(QLatin1Char(' ')) - 1), 1,
                     QLatin1Char('\n'));
    m_gapLabel->setText(text);
    const double height =
        metrics.boundingRect(QRect(), 0, text).height() + padding.top() + padding.bottom();
    // Centred on the bracket, but wholly on its side of the capacity line: the capacity's label
    // has the other side (above the line under headroom, below it under an overflow), and the
    // line itself stays clear.
    const double line = m_plot->yAxis->coordToPixel(m_capacity);
    const double middle = (m_plot->yAxis->coordToPixel(m_total) + line) / 2 - height / 2;
    double top = m_overflow ? std::min(middle, line - 2 - height) : std::max(middle, line + 2);
    // Clear of the total's label over the bar, where the two would meet.
    const QRectF total(m_totalLabel->topLeft->pixelPosition(),
                       m_totalLabel->bottomRight->pixelPosition());
    const QRectF box(
        left, top,
        metrics.boundingRect(QRect(), 0, text).width() + padding.left() + padding.right(), height);
    if (m_overflow && box.intersects(total.normalized()))
        top = total.normalized().top() - 2 - height;
    top = std::clamp(top, double(axis.top()), std::max(double(axis.top()), axis.bottom() - height));
    m_gapLabel->position->setCoords(gapKey, top);

    // Under an overflow the capacity's label hangs below its line, unless the line is too near
    // the axis for that (a GPU far too small): then it stands above it, and the gap's label
    // above that.
    const QRectF capacityBox(
        QPointF(0, 0),
        QSizeF(capacityMetrics.boundingRect(QRect(), 0, m_capacityLabel->text()).size()));
    const bool below = m_overflow && line + 2 + capacityBox.height() + 4 <= axis.bottom();
    m_capacityLabel->setPositionAlignment(Qt::AlignRight |
                                          (below ? Qt::AlignTop : Qt::AlignBottom));
    if (m_overflow && !below) {
        const QRectF capacityRect(m_capacityLabel->topLeft->pixelPosition(),
                                  m_capacityLabel->bottomRight->pixelPosition());
        if (QRectF(left, top, box.width(), height).intersects(capacityRect.normalized()))
            m_gapLabel->position->setCoords(
                gapKey, std::max(double(axis.top()), capacityRect.normalized().top() - 2 - height));
    }
}

bool BreakdownChart::makeRoomForTotalLabel()
{
    // The label stands on the bar's top: its height in pixels, on one or two lines as
    // placeGapLabel left it, must fit between the bar and the plot's top edge. Always from the
    // top draw() chose (m_axisTop), never from the range an earlier layout left: a plot laid out
    // short once (a tab not yet shown, a small window) would otherwise keep its axis raised.
    const QRect axis = m_plot->axisRect()->rect();
    const QFontMetrics metrics(m_totalLabel->font());
    const QMargins padding = m_totalLabel->padding();
    const double label = metrics.boundingRect(QRect(), 0, m_totalLabel->text()).height() +
                         padding.top() + padding.bottom() + 2;
    const QCPRange range = m_plot->yAxis->range();
    const double height = axis.height();
    double wanted = m_axisTop;
    if (m_total > range.lower && height > label + 1) {
        // The bar's top at pixel height (total - lower) / (upper - lower) * height must leave
        // `label` pixels above it: upper >= lower + (total - lower) * height / (height - label).
        // Its base: the bar's top, or the capacity line where it stands on that (placeGapLabel).
        const double base = std::max(m_total, m_totalLabel->position->coords().y());
        const double needed = range.lower + (base - range.lower) * height / (height - label);
        // A plot hardly taller than the label cannot make room by scale: past twice the top the
        // bar and the capacity would shrink to a sliver (issue 21 #4: 1,950 GiB for a 159 GiB
        // bar); the label then overlaps the plot's top, and the measured rows say the total.
        wanted = std::clamp(needed, m_axisTop, 2 * m_axisTop);
    }
    if (std::abs(range.upper - wanted) <= 1e-4 * wanted)
        return false;
    m_plot->yAxis->setRangeUpper(wanted);
    return true;
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
        text = brokenAfterColon(text);
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
    QToolTip::showText(event->globalPosition().toPoint(),
                       breakdownToolTip(m_estimate, static_cast<Component>(hit), m_unit), m_plot,
                       segment.normalized().toAlignedRect());
}

} // namespace vramplan::ui
