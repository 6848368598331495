#pragma once
// How a memory component looks, the same in every chart: one colour and one name per
// component, and the colours of the capacity line and of what does not fit.

#include "estimate.h"

#include <QColor>
#include <QString>

namespace vramplan::ui {

QColor componentColor(Component component);
QString componentName(Component component); // "Optimizer states"
QColor capacityColor();                     // the GPU capacity line
QColor overflowColor();                     // red, for what does not fit
// Teal, apart from every component's colour: the expert-imbalance band of the curves and the
// breakdown's balanced-experts marker.
QColor imbalanceColor();

} // namespace vramplan::ui
