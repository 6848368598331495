#pragma once
// How a memory component looks and how sizes read, the same in every chart: one colour per
// component, GiB (2^30 bytes) by default or GB (10^9) as the user chooses.

#include "estimate.h"

#include <QColor>
#include <QString>

namespace vramplan::ui {

enum class Unit
{
    GiB,
    GB
};

QColor componentColor(Component component);
QString componentName(Component component); // "Optimizer states"
QColor capacityColor();                     // the GPU capacity line
QColor overflowColor();                     // red, for what does not fit

double unitBytes(Unit unit); // 2^30 or 1e9
QString unitName(Unit unit); // "GiB" / "GB"
double toUnit(double bytes, Unit unit);
QString formatSize(double bytes, Unit unit, int decimals = 2); // "12.34 GiB"

} // namespace vramplan::ui
