#pragma once
// What every chart shares: quiet grey axes and grid, the seven component bars stacked in one
// order and colour, and fonts and colours that follow the widget's (a dark palette draws dark
// charts; the components keep their colours, mid-tones that read on either background).

#include "estimate.h"

#include <QColor>

#include <array>

class QCPAxis;
class QCPBars;
class QCustomPlot;
class QFont;
class QMouseEvent;
class QPalette;
class QString;

namespace vramplan::ui {

// The colours a chart draws with, from the palette of its widget: the greys of the light
// theme (#212121 ink, #616161 notes, #757575 axes, #e0e0e0 grid on white) as shares of the way
// from the palette's text to its base, so that a dark palette gives their dark counterparts.
struct ChartColors
{
    QColor background; // the palette's base, as a list or text view draws its content on
    QColor text;       // titles, tick labels, the legend, totals
    QColor ink;        // the capacity line and its label, markers
    QColor muted;      // notes, headings, the likely-range whisker
    QColor axis, grid;
    bool dark = false;
    // Behind a label over bars or lines: the background, see-through.
    QColor labelBrush(int alpha) const;
    // A signal colour (red over, green fits, teal) chosen for white, lighter on a dark
    // background so that it still reads there.
    QColor signal(const QColor &onWhite) const;
};
ChartColors chartColors(const QPalette &palette);

// The plot's background, axes, grid, tick and axis labels and legend text in these colours.
void applyChartColors(QCustomPlot *plot, const ChartColors &colors);

// Light grid without sub-grid, grey axis, tick and sub-tick pens on both axes.
void styleAxes(QCustomPlot *plot);

// One QCPBars per component on the given axes, stacked Parameters (bottom) to Framework (top),
// with a thin white edge between segments.
std::array<QCPBars *, componentCount> addComponentBars(QCPAxis *key, QCPAxis *value, double width);

// QCustomPlot copies the widget font into each element when it is created; this follows later
// changes (system font, zoom) for the axes and the legend.
void applyBaseFonts(QCustomPlot *plot, const QFont &base);

// Shows `text` as the plot's tooltip at the mouse (hides it for an empty text); `shown` holds
// what is up, so that moving within one item does not make the tip flicker.
void showPlotToolTip(QCustomPlot *plot, const QMouseEvent *event, const QString &text,
                     QString &shown);

} // namespace vramplan::ui
