#pragma once
// Chart details that depend on the size of a drawing (how many tick labels fit, where a label
// has room, whether the legend goes beside or below) are chosen once QCustomPlot has laid the
// plot out for that drawing: on screen, or into an export at another size, which a hidden
// window's widgets (`vramplan --export`) know nothing about.

#include <functional>
#include <vector>

class QString;

class QCPLegend;
class QCPTextElement;
class QCustomPlot;

namespace vramplan::ui {

// Runs `adapt` each time `plot` has been laid out for a drawing, before anything is drawn
// (QCustomPlot::afterLayout, which replot() and toPainter() both emit). When `adapt` returns
// true it changed something that takes room (tick labels, the legend's place) and the plot is
// laid out again, so the drawing uses it; a few rounds at most.
void adaptToLayout(QCustomPlot *plot, std::function<bool()> adapt);

// How many columns of `legend`'s entries, filled row by row, fit in `width` pixels: each column
// as wide as its widest entry. At least one.
int fittingColumns(const QCPLegend *legend, int width);
// The same for entries of these widths (legendEntryWidth), before they are in the legend.
int fittingColumns(const QCPLegend *legend, const std::vector<int> &widths, int width);
// The width a plottable's entry named `name` takes in `legend`, with no margins of its own.
int legendEntryWidth(const QCPLegend *legend, const QString &name);

// A chart whose plot needs the full width: its title in the top row, the legend (borderless,
// filled column by column) under it, the plot below; returns the title element.
QCPTextElement *titleAndLegendAbove(QCustomPlot *plot, const QString &title);

// Rearranges the legend into that many columns, row by row; false when it already had them.
bool setLegendColumns(QCPLegend *legend, int columns);

} // namespace vramplan::ui
