#pragma once
// What every chart shares: quiet grey axes and grid, the seven component bars stacked in one
// order and colour, and fonts that follow the widget's.

#include "estimate.h"

#include <array>

class QCPAxis;
class QCPBars;
class QCustomPlot;
class QFont;
class QMouseEvent;
class QString;

namespace vramplan::ui {

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
