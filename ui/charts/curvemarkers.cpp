#include "charts/curvemarkers.h"

#include "charts/chartstyle.h"
#include "charts/componentstyle.h"
#include "charts/ticklabels.h"

#include <qcustomplot.h>

#include <QCoreApplication>

#include <cmath>

namespace vramplan::ui {
namespace {

// The marker of the current scenario is neutral (the palette's ink); the one of the largest
// fitting value is green, the usual "this is fine" next to overflowColor()'s red.
const QColor fittingColor(0x2e, 0x7d, 0x32);
constexpr int gap = 3; // pixels between a line and its label

QRectF labelRect(const QCPItemText *label)
{
    if (!label->visible())
        return {};
    return QRectF(label->topLeft->pixelPosition(), label->bottomRight->pixelPosition())
        .normalized();
}

} // namespace

CurveMarkers::CurveMarkers(QCustomPlot *plot) : m_plot(plot)
{
    // Colours: applyColors.
    m_capacityLine = new QCPItemStraightLine(plot);
    m_capacityLabel = new QCPItemText(plot);
    m_currentLine = new QCPItemStraightLine(plot);
    m_currentLabel = new QCPItemText(plot);
    m_currentLabel->setText(QCoreApplication::translate("vramplan::ui::CurveMarkers", "current"));
    m_fittingLine = new QCPItemStraightLine(plot);
    m_fittingLabel = new QCPItemText(plot);

    for (QCPItemText *label : {m_capacityLabel, m_currentLabel, m_fittingLabel}) {
        // Pixels of the drawing, set by place(); finite from the start (setType converts the
        // old coordinates through an axis rect that has no size yet).
        label->position->setType(QCPItemPosition::ptAbsolute);
        label->position->setCoords(0, 0);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setPadding(QMargins(3, 1, 3, 1));
    }
    // Lines and labels go on a layer of their own above the graphs, which graphs added later
    // (one set per gap) would otherwise paint over.
    plot->addLayer(QStringLiteral("markers"), plot->layer(QStringLiteral("main")),
                   QCustomPlot::limAbove);
    for (QCPAbstractItem *item :
         std::initializer_list<QCPAbstractItem *>{m_capacityLine, m_capacityLabel, m_currentLine,
                                                  m_currentLabel, m_fittingLine, m_fittingLabel}) {
        item->setLayer(QStringLiteral("markers"));
        item->setSelectable(false);
    }
}

void CurveMarkers::set(double capacity, const QString &capacityText, double current, double fitting,
                       const QString &fittingText, double lower, double upper)
{
    m_capacity = capacity;
    m_current = current;
    m_fitting = fitting;
    m_capacityLine->setVisible(capacity > 0);
    m_capacityLabel->setVisible(capacity > 0);
    // Point coordinates of a straight line must be valid on a log axis too: use lower and upper.
    m_capacityLine->point1->setCoords(lower, capacity);
    m_capacityLine->point2->setCoords(upper, capacity);
    m_capacityText = capacityText;
    m_capacityLabel->setText(capacityText);

    const bool showCurrent = std::isfinite(current);
    m_currentLine->setVisible(showCurrent);
    m_currentLabel->setVisible(showCurrent);
    m_currentLine->point1->setCoords(showCurrent ? current : lower, 0);
    m_currentLine->point2->setCoords(showCurrent ? current : lower, 1);
    const bool showFitting = fitting >= 0;
    m_fittingLine->setVisible(showFitting);
    m_fittingLabel->setVisible(showFitting);
    m_fittingLine->point1->setCoords(showFitting ? fitting : lower, 0);
    m_fittingLine->point2->setCoords(showFitting ? fitting : lower, 1);
    m_fittingLabel->setText(fittingText);
}

void CurveMarkers::placeBeside(QCPItemText *label, double x, int row)
{
    const QRect axis = m_plot->axisRect()->rect();
    const QFontMetrics metrics(label->font());
    const QMargins padding = label->padding();
    const int width = metrics.horizontalAdvance(label->text()) + padding.left() + padding.right();
    const int height = metrics.height() + padding.top() + padding.bottom();
    const double line = m_plot->xAxis->coordToPixel(x);
    // Right of the line where it fits, else left of it, else as far as the plot allows.
    double left = line + gap;
    if (left + width > axis.right() - 1)
        left = line - gap - width;
    left = std::clamp(left, double(axis.left() + 1),
                      double(std::max(axis.left() + 1, axis.right() - 1 - width)));
    label->position->setCoords(left, axis.top() + 1 + row * (height + 2));
}

void CurveMarkers::place()
{
    const bool showCurrent = m_currentLabel->visible();
    const bool showFitting = m_fittingLabel->visible();
    if (showCurrent)
        placeBeside(m_currentLabel, m_current, 0);
    if (showFitting) {
        placeBeside(m_fittingLabel, m_fitting, 0);
        if (showCurrent && labelRect(m_fittingLabel).intersects(labelRect(m_currentLabel)))
            placeBeside(m_fittingLabel, m_fitting, 1);
    }
    if (m_capacityLabel->visible()) {
        // Right-aligned at the plot's right edge, above the line unless that covers a marker's
        // label or leaves the plot; then below it.
        // On two lines where one is wider than the plot.
        const QRect axis = m_plot->axisRect()->rect();
        const QFontMetrics metrics(m_capacityLabel->font());
        const QMargins padding = m_capacityLabel->padding();
        QString text = m_capacityText;
        if (metrics.horizontalAdvance(text) + padding.left() + padding.right() > axis.width() - 8)
            text = brokenAfterColon(text);
        m_capacityLabel->setText(text);
        const QRect box = metrics.boundingRect(QRect(), 0, text);
        const int width = box.width() + padding.left() + padding.right();
        const int height = box.height() + padding.top() + padding.bottom();
        const double line = m_plot->yAxis->coordToPixel(m_capacity);
        const double left = std::max(double(axis.left() + 1), double(axis.right() - 4 - width));
        QRectF above(left, line - 1 - height, width, height);
        bool covers = above.top() < axis.top();
        for (const QCPItemText *label : {m_currentLabel, m_fittingLabel})
            covers = covers || labelRect(label).intersects(above);
        m_capacityLabel->position->setCoords(left, covers ? line + 2 : above.top());
    }
}

void CurveMarkers::applyFonts(const QFont &font)
{
    for (QCPItemText *label : {m_capacityLabel, m_currentLabel, m_fittingLabel})
        label->setFont(font);
}

void CurveMarkers::applyColors(const ChartColors &colors)
{
    m_capacityLine->setPen(QPen(colors.ink, 1.5, Qt::DashLine));
    m_capacityLabel->setColor(colors.ink);
    m_currentLine->setPen(QPen(colors.ink, 1.5));
    m_currentLabel->setColor(colors.ink);
    m_fittingLine->setPen(QPen(colors.signal(fittingColor), 1.5, Qt::DashLine));
    m_fittingLabel->setColor(colors.signal(fittingColor));
    for (QCPItemText *label : {m_capacityLabel, m_currentLabel, m_fittingLabel})
        label->setBrush(colors.labelBrush(200)); // legible over the areas
}

QString CurveMarkers::fittingText() const
{
    return m_fittingLabel->text();
}

QRectF CurveMarkers::fittingLabelRect() const
{
    return labelRect(m_fittingLabel);
}

QRectF CurveMarkers::currentLabelRect() const
{
    return labelRect(m_currentLabel);
}

QRectF CurveMarkers::capacityLabelRect() const
{
    return labelRect(m_capacityLabel);
}

} // namespace vramplan::ui
