#include "charts/units.h"

#include <array>
#include <cmath>

namespace vramplan::ui {

double unitBytes(Unit unit)
{
    return unit == Unit::GiB ? 1073741824.0 : 1.0e9;
}

QString unitName(Unit unit)
{
    return unit == Unit::GiB ? QStringLiteral("GiB") : QStringLiteral("GB");
}

double toUnit(double bytes, Unit unit)
{
    return bytes / unitBytes(unit);
}

ScaledUnit scaledUnit(double bytes, Unit unit)
{
    static const std::array<const char *, 3> binary = {"GiB", "TiB", "PiB"};
    static const std::array<const char *, 3> decimal = {"GB", "TB", "PB"};
    const bool isBinary = unit == Unit::GiB;
    const double step = isBinary ? 1024.0 : 1000.0;
    ScaledUnit out{unitBytes(unit), unitName(unit)};
    double value = std::abs(bytes) / out.bytes;
    for (size_t i = 1; i < binary.size() && std::isfinite(value) && value >= step; ++i) {
        value /= step;
        out.bytes *= step;
        out.name = QString::fromLatin1(isBinary ? binary[i] : decimal[i]);
    }
    return out;
}

QString formatSize(double bytes, Unit unit, int decimals)
{
    const ScaledUnit scaled = scaledUnit(bytes, unit);
    double value = bytes / scaled.bytes;
    // A value that rounds to zero prints as zero, not "-0.00".
    if (std::abs(value) < 0.5 * std::pow(10.0, -decimals))
        value = 0;
    return QString::number(value, 'f', decimals) + QLatin1Char(' ') + scaled.name;
}

QString formatCount(double count)
{
    if (!std::isfinite(count))
        return QStringLiteral("?");
    static const std::array<std::pair<double, const char *>, 4> steps = {
        {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}}};
    for (const auto &[size, name] : steps) {
        // Where the rounded number reaches the next step (999.6 M), that step reads it: 1.00 B.
        const double v = std::abs(count / size);
        if (v < 0.9995)
            continue;
        const int decimals = v < 9.995 ? 2 : v < 99.95 ? 1 : 0;
        return QString::number(count / size, 'f', decimals) + QLatin1Char(' ') +
               QLatin1String(name);
    }
    return QString::number(std::llround(count));
}

QString formatTickCount(double count)
{
    if (!std::isfinite(count))
        return QStringLiteral("?");
    static const std::array<std::pair<double, const char *>, 4> steps = {
        {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "k"}}};
    for (const auto &[size, name] : steps)
        if (std::abs(count) >= size)
            // Up to four significant digits, trailing zeros dropped: 62.5k, 131.1k.
            return QString::number(count / size, 'g', 4) + QLatin1String(name);
    return QString::number(std::llround(count));
}

} // namespace vramplan::ui
