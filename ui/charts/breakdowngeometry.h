#pragma once
// Where the breakdown chart puts things on its key axis, shared by the chart and the placing of
// its labels.

namespace vramplan::ui::breakdown {

constexpr double barKey = 1.0;
constexpr double barWidth = 0.8;
// The bar sits left of centre: the right side carries the headroom or the overflow.
constexpr double keyLower = 0.3;
constexpr double keyUpper = 2.4;
constexpr double gapKey = barKey + barWidth / 2 + 0.12;
constexpr double balancedEnd = gapKey - 0.03; // the balanced marker: across the bar and a stub

} // namespace vramplan::ui::breakdown
