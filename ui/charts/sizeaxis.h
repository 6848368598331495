#pragma once
// A memory axis: the chart's values stay in its unit (GiB or GB) while the tick labels read as
// plain numbers ("750", "1.5", never "1.25*10^6") in the unit that keeps them below a thousand
// (TiB for a sweep into terabytes), which the axis label names.

#include "charts/units.h"

#include <QString>

class QCPAxis;

namespace vramplan::ui {

// "Memory per GPU", in the window's language: the memory charts' value axis, which a short
// chart shortens to "GiB per GPU".
QString memoryPerGpuLabel();

// The value axis 0..top (top in `unit`), labelled "<what> (<unit shown>)": "Memory per GPU
// (TiB)". Returns the unit the ticks are shown in.
ScaledUnit setSizeAxis(QCPAxis *axis, double top, Unit unit, const QString &what);

// Plain tick labels on any axis: as many decimals as the tick step needs.
// After a layout: where "Memory per GPU (GiB)" is longer than the plot is high (a short chart
// in a small window), the axis says "GiB per GPU", else "GiB", so its title is never cut; the
// whole title again once there is room. True when the title changed.
bool fitSizeAxisLabel(QCPAxis *axis);

void setPlainTicks(QCPAxis *axis);

} // namespace vramplan::ui
