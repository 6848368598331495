#include "charts/chartstyle.h"

#include "charts/componentstyle.h"

#include <QMouseEvent>
#include <QPalette>
#include <QToolTip>

#include <qcustomplot.h>

namespace vramplan::ui {

namespace {

// `share` of the way from `from` to `to`.
QColor mix(const QColor &from, const QColor &to, double share)
{
    return QColor::fromRgbF(float(from.redF() + share * (to.redF() - from.redF())),
                            float(from.greenF() + share * (to.greenF() - from.greenF())),
                            float(from.blueF() + share * (to.blueF() - from.blueF())));
}

} // namespace

QColor ChartColors::labelBrush(int alpha) const
{
    QColor c = background;
    c.setAlpha(alpha);
    return c;
}

QColor ChartColors::signal(const QColor &onWhite) const
{
    return dark ? onWhite.lighter(150) : onWhite;
}

ChartColors chartColors(const QPalette &palette)
{
    ChartColors c;
    c.background = palette.color(QPalette::Base);
    c.text = palette.color(QPalette::Text);
    c.dark = c.background.lightnessF() < c.text.lightnessF();
    c.ink = mix(c.text, c.background, 0.13);
    c.muted = mix(c.text, c.background, 0.38);
    c.axis = mix(c.text, c.background, 0.46);
    c.grid = mix(c.text, c.background, 0.88);
    return c;
}

void applyChartColors(QCustomPlot *plot, const ChartColors &colors)
{
    plot->setBackground(colors.background);
    for (QCPAxis *axis : {plot->xAxis, plot->yAxis}) {
        const QPen axisPen(colors.axis, 0);
        axis->setBasePen(axisPen);
        axis->setTickPen(axisPen);
        axis->setSubTickPen(axisPen);
        axis->grid()->setPen(QPen(colors.grid, 0));
        axis->setTickLabelColor(colors.text);
        axis->setLabelColor(colors.text);
    }
    plot->legend->setTextColor(colors.text);
    // The thin edge between stacked segments is the background showing through.
    for (int i = 0; i < plot->plottableCount(); ++i)
        if (auto *bars = qobject_cast<QCPBars *>(plot->plottable(i)))
            bars->setPen(QPen(colors.background, 1));
}

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
