#pragma once
// What hovering a segment of the breakdown bar lists: the component's size at the peak, then its
// largest items, each with its formula (worked with this scenario's numbers where it has
// symbols) and its size, the rest summed up in one line.

#include "charts/units.h"
#include "estimate.h"

#include <QString>

namespace vramplan::ui {

QString breakdownToolTip(const vramplan::Estimate &estimate, vramplan::Component component,
                         Unit unit);

} // namespace vramplan::ui
