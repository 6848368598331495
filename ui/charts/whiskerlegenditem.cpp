// The whisker's legend entry, drawn as QCPPlottableLegendItem draws a plottable's: the icon in
// the legend's icon size, the text after the legend's icon padding.

#include "charts/whiskerlegenditem.h"

namespace vramplan::ui {

WhiskerLegendItem::WhiskerLegendItem(QCPLegend *legend, const QString &text)
    : QCPAbstractLegendItem(legend), m_text(text)
{
    setAntialiased(true);
}

void WhiskerLegendItem::draw(QCPPainter *painter)
{
    const QSize icon = mParentLegend->iconSize();
    painter->setFont((selected() ? selectedFont() : font()));
    painter->setPen(QPen((selected() ? selectedTextColor() : textColor())));
    const QRect textRect = painter->fontMetrics().boundingRect(0, 0, 0, icon.height(),
                                                               Qt::TextDontClip, m_text);
    const int height = qMax(textRect.height(), icon.height());
    painter->drawText(mRect.x() + icon.width() + mParentLegend->iconTextPadding(), mRect.y(),
                      textRect.width(), height, Qt::TextDontClip, m_text);
    // The whisker as the chart draws it: a vertical line, a short bar at each end.
    const QRectF box(mRect.topLeft(), icon);
    const double x = box.center().x();
    const double top = box.top() + 2, bottom = box.bottom() - 2;
    const double half = icon.width() / 4.0;
    painter->setPen(m_pen);
    painter->drawLine(QPointF(x, top), QPointF(x, bottom));
    painter->drawLine(QPointF(x - half, top), QPointF(x + half, top));
    painter->drawLine(QPointF(x - half, bottom), QPointF(x + half, bottom));
}

QSize WhiskerLegendItem::minimumOuterSizeHint() const
{
    const QSize icon = mParentLegend->iconSize();
    const QRect textRect =
        QFontMetrics((selected() ? selectedFont() : font())).boundingRect(0, 0, 0, icon.height(), Qt::TextDontClip, m_text);
    return {icon.width() + mParentLegend->iconTextPadding() + textRect.width() + mMargins.left() +
                mMargins.right(),
            qMax(textRect.height(), icon.height()) + mMargins.top() + mMargins.bottom()};
}

} // namespace vramplan::ui
