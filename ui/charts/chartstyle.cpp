#include "charts/chartstyle.h"

#include "charts/componentstyle.h"

#include <QMouseEvent>
#include <QToolTip>

#include <qcustomplot.h>

namespace vramplan::ui {

void styleAxes(QCustomPlot *plot)
{
    const QPen gridPen(QColor(0xe0, 0xe0, 0xe0), 0);
    const QPen axisPen(QColor(0x75, 0x75, 0x75), 0);
    for (QCPAxis *axis : {plot->xAxis, plot->yAxis}) {
        axis->grid()->setPen(gridPen);
        axis->grid()->setSubGridVisible(false);
        axis->setBasePen(axisPen);
        axis->setTickPen(axisPen);
        axis->setSubTickPen(axisPen);
    }
}

std::array<QCPBars *, componentCount> addComponentBars(QCPAxis *key, QCPAxis *value, double width)
{
    std::array<QCPBars *, componentCount> out{};
    QCPBars *below = nullptr;
    for (int i = 0; i < componentCount; ++i) {
        const auto c = static_cast<Component>(i);
        auto *bars = new QCPBars(key, value);
        bars->setName(componentName(c));
        bars->setWidth(width);
        bars->setBrush(componentColor(c));
        // A thin white edge keeps neighbouring segments apart where two colours are close.
        bars->setPen(QPen(Qt::white, 1));
        bars->setSelectable(QCP::stNone);
        if (below)
            bars->moveAbove(below);
        below = bars;
        out[size_t(i)] = bars;
    }
    return out;
}

void applyBaseFonts(QCustomPlot *plot, const QFont &base)
{
    for (QCPAxis *axis : {plot->xAxis, plot->yAxis}) {
        axis->setLabelFont(base);
        axis->setTickLabelFont(base);
    }
    plot->legend->setFont(base);
}

void showPlotToolTip(QCustomPlot *plot, const QMouseEvent *event, const QString &text,
                     QString &shown)
{
    if (text.isEmpty()) {
        if (!shown.isEmpty())
            QToolTip::hideText();
    } else if (text != shown || !QToolTip::isVisible()) {
        QToolTip::showText(event->globalPosition().toPoint(), text, plot);
    }
    shown = text;
}

} // namespace vramplan::ui
