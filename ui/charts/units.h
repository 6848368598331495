#pragma once
// How sizes and counts read, the same everywhere in the window: GiB (2^30 bytes) by default or GB
// (10^9) as the user chooses, stepping up to TiB/TB (and PiB/PB) where the number would reach a
// thousand, and parameter counts in K, M, B and T.

#include <QString>

#include <cstdint>

namespace vramplan::ui {

enum class Unit
{
    GiB,
    GB
};

double unitBytes(Unit unit); // 2^30 or 1e9
QString unitName(Unit unit); // "GiB" / "GB"
double toUnit(double bytes, Unit unit);

// A unit for showing `bytes` and larger (an axis whose top is `bytes`): the chosen unit, or the
// next ones up (x1024 for GiB, x1000 for GB) while the number would reach that step.
struct ScaledUnit
{
    double bytes = 1073741824.0; // of one unit
    QString name = QStringLiteral("GiB");
};
ScaledUnit scaledUnit(double bytes, Unit unit);

// "12.34 GiB", "989.00 TiB", "1.25 TB"; never "-0.00".
QString formatSize(double bytes, Unit unit, int decimals = 2);

// Three significant digits with K, M, B or T: "124 M", "8.03 B", "7.00 M", "1.03 T"; below a
// thousand the count itself.
QString formatCount(double count);
// An axis tick's count (issue 21 #26): as few digits as the tick needs, "60k", "62.5k", "1.5M",
// "2B"; a tick is a round number, and "60.0 K" reads as a measurement.
QString formatTickCount(double count);

} // namespace vramplan::ui
