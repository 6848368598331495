#include "charts/plotlayout.h"

#include <qcustomplot.h>

#include <algorithm>
#include <memory>
#include <vector>

namespace vramplan::ui {

void adaptToLayout(QCustomPlot *plot, std::function<bool()> adapt)
{
    auto busy = std::make_shared<bool>(false);
    QObject::connect(plot, &QCustomPlot::afterLayout, plot, [plot, adapt = std::move(adapt), busy] {
        if (*busy)
            return;
        *busy = true;
        // Labels that changed change the margins, which can change the room for labels: settle
        // in a few rounds (two in practice).
        for (int round = 0; round < 3 && adapt(); ++round) {
            QCPLayoutGrid *layout = plot->plotLayout();
            layout->update(QCPLayoutElement::upPreparation);
            layout->update(QCPLayoutElement::upMargins);
            layout->update(QCPLayoutElement::upLayout);
        }
        *busy = false;
    });
}

int fittingColumns(const QCPLegend *legend, int width)
{
    std::vector<int> widths;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (QCPAbstractLegendItem *item = legend->item(i))
            widths.push_back(item->minimumOuterSizeHint().width());
    return fittingColumns(legend, widths, width);
}

int legendEntryWidth(const QCPLegend *legend, const QString &name)
{
    // As QCPPlottableLegendItem::minimumOuterSizeHint measures it.
    const QFontMetrics metrics(legend->font());
    return legend->iconSize().width() + legend->iconTextPadding() +
           metrics.boundingRect(0, 0, 0, legend->iconSize().height(), Qt::TextDontClip, name)
               .width();
}

int fittingColumns(const QCPLegend *legend, const std::vector<int> &widths, int width)
{
    const QMargins margins = legend->margins();
    const int room = width - margins.left() - margins.right();
    int columns = std::max<int>(1, int(widths.size()));
    for (; columns > 1; --columns) {
        int total = legend->columnSpacing() * (columns - 1);
        for (int c = 0; c < columns; ++c) {
            int widest = 0;
            for (size_t i = size_t(c); i < widths.size(); i += size_t(columns))
                widest = std::max(widest, widths[i]);
            total += widest;
        }
        if (total <= room)
            break;
    }
    return columns;
}

bool setLegendColumns(QCPLegend *legend, int columns)
{
    if (legend->wrap() == columns && legend->fillOrder() == QCPLegend::foColumnsFirst)
        return false;
    legend->setWrap(columns);
    legend->setFillOrder(QCPLegend::foColumnsFirst, true);
    return true;
}

QCPTextElement *titleAndLegendAbove(QCustomPlot *plot, const QString &title)
{
    plot->axisRect()->insetLayout()->take(plot->legend);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, plot->legend);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    auto *text = new QCPTextElement(plot, title);
    text->setMargins(QMargins(5, 2, 5, 0));
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, text);
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->legend->setVisible(true);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->legend->setBrush(Qt::NoBrush);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    return text;
}

} // namespace vramplan::ui
