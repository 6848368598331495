#include "charts/curvesamples.h"

#include "charts/componentstyle.h"
#include "charts/curvechart.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace vramplan::ui {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
// Room above the highest of the current point and the capacity line, for the markers' labels.
constexpr double headroom = 1.15;

double sanitized(double v)
{
    return std::isfinite(v) && v > 0 ? v : 0.0;
}

} // namespace

QString formatX(double x, bool shortPowers)
{
    if (shortPowers && x >= 1024 && std::fmod(x, 1024) == 0)
        return QString::number(qint64(x / 1024)) + QLatin1Char('k');
    if (x == std::floor(x) && std::abs(x) < 1e15)
        return QString::number(qint64(x));
    return QString::number(x, 'g', 4);
}

CurveSamples CurveSamples::from(const CurveData &data, Unit unit)
{
    CurveSamples s;
    const size_t n = std::min(data.x.size(), data.components.size());
    s.x.assign(n, nan);
    s.drawn.assign(n, false);
    s.totals.assign(n, nan);
    s.components.assign(n, {});
    for (auto &edge : s.edges)
        edge.assign(n, nan);
    const bool band = data.bandHigh > data.bandLow && data.bandLow > 0;
    const bool imbalance = !data.balancedBytes.empty() && data.balancedBytes.size() >= n;
    double last = -std::numeric_limits<double>::infinity();
    for (size_t i = 0; i < n; ++i) {
        const double x = data.x[i];
        if (!std::isfinite(x) || (data.logX && x <= 0) || x <= last)
            continue;
        last = x;
        s.x[i] = x;
        s.lowest = std::min(s.lowest, x);
        s.highest = std::max(s.highest, x);
        if (i < data.valid.size() && !data.valid[i])
            continue;
        double total = 0;
        for (int c = 0; c < componentCount; ++c) {
            s.components[i][size_t(c)] = sanitized(toUnit(data.components[i][size_t(c)], unit));
            total += s.components[i][size_t(c)];
        }
        s.totals[i] = total;
        if (band) {
            s.edges[LikelyLow][i] = total * data.bandLow;
            s.edges[LikelyHigh][i] = total * data.bandHigh;
        }
        if (imbalance) {
            const double balanced = data.balancedBytes[i];
            s.edges[Balanced][i] =
                std::isfinite(balanced) ? sanitized(toUnit(balanced, unit)) : total;
            s.edges[Imbalanced][i] = total;
        }
        s.drawn[i] = true;
    }
    return s;
}

size_t CurveSamples::at(double value) const
{
    for (size_t i = 0; i < x.size(); ++i)
        if (std::abs(x[i] - value) <= 1e-9 * std::max(1.0, std::abs(value)))
            return i;
    return x.size();
}

double CurveSamples::top(double current, double capacity) const
{
    // A sweep over powers of two ends far above the GPU (micro-batch 256 needs terabytes), and a
    // model far too large starts far above it: scaled to the whole sweep the capacity line would
    // hug the axis, scaled to the capacity the current point would be off the chart.
    double top = capacity;
    if (const size_t i = at(current); i < size() && drawn[i]) {
        top = std::max(top, totals[i]);
        for (const auto &edge : edges)
            top = std::max(top, sanitized(edge[i]));
    }
    if (top <= 0)
        for (double total : totals)
            top = std::max(top, sanitized(total));
    return top > 0 ? top * headroom : 1.0;
}

QString CurveSamples::offTheTop(double top, const QString &xName, Unit unit) const
{
    double first = nan, last = nan, most = 0;
    for (size_t i = 0; i < size(); ++i) {
        if (drawn[i] && totals[i] > top) {
            first = std::isnan(first) ? x[i] : first;
            last = x[i];
            most = std::max(most, totals[i]);
        }
    }
    if (std::isnan(first))
        return {};
    const QString what = xName.isEmpty() ? QString() : xName + QLatin1Char(' ');
    const QString range =
        first == last ? formatX(first, false)
                      : QObject::tr("%1 to %2").arg(formatX(first, false), formatX(last, false));
    return QObject::tr("Off the top: %1%2 (up to %3)")
        .arg(what, range, formatSize(most * unitBytes(unit), unit));
}

std::vector<CurveGraphs::Run> CurveSamples::runs() const
{
    std::vector<CurveGraphs::Run> out;
    const size_t n = size();
    for (size_t i = 0; i < n;) {
        if (!drawn[i]) {
            ++i;
            continue;
        }
        size_t end = i;
        while (end < n && drawn[end])
            ++end;
        CurveGraphs::Run run;
        run.x.assign(x.begin() + long(i), x.begin() + long(end));
        for (int c = 0; c < componentCount; ++c) {
            // Graph c draws the sum of components 0..c: the top edge of component c.
            for (size_t k = i; k < end; ++k) {
                double sum = 0;
                for (int below = 0; below <= c; ++below)
                    sum += components[k][size_t(below)];
                run.values[size_t(c)].push_back(sum);
            }
        }
        const std::pair<Edge, size_t> graphs[] = {{LikelyLow, CurveGraphs::bandLow},
                                                  {LikelyHigh, CurveGraphs::bandHigh},
                                                  {Balanced, CurveGraphs::balanced},
                                                  {Imbalanced, CurveGraphs::imbalanced}};
        for (const auto &[edge, graph] : graphs)
            if (end - i > 1 && !std::isnan(edges[edge][i]))
                run.values[graph].assign(edges[edge].begin() + long(i),
                                         edges[edge].begin() + long(end));
        out.push_back(std::move(run));
        i = end;
    }
    return out;
}

QString CurveSamples::describe(size_t i, double value, const QString &xName, Unit unit) const
{
    const double bytes = unitBytes(unit);
    QString head = formatX(x[i], false);
    if (!xName.isEmpty())
        head = xName + QLatin1Char(' ') + head;
    if (!drawn[i])
        return QObject::tr("%1: no estimate (the scenario is not valid there)").arg(head);
    QStringList lines{QObject::tr("%1: %2 per GPU").arg(head, formatSize(totals[i] * bytes, unit))};
    if (!std::isnan(edges[LikelyHigh][i]))
        lines << QObject::tr("likely %1 to %2")
                     .arg(formatSize(edges[LikelyLow][i] * bytes, unit, 1),
                          formatSize(edges[LikelyHigh][i] * bytes, unit, 1));
    if (!std::isnan(edges[Balanced][i]))
        lines << QObject::tr("balanced experts: %1")
                     .arg(formatSize(edges[Balanced][i] * bytes, unit));
    // The component under the cursor.
    double below = 0;
    for (int c = 0; c < componentCount; ++c) {
        const double size = components[i][size_t(c)];
        if (size > 0 && value >= below && value < below + size) {
            lines << QObject::tr("%1: %2").arg(componentName(Component(c)),
                                               formatSize(size * bytes, unit));
            break;
        }
        below += size;
    }
    return lines.join(QLatin1Char('\n'));
}

} // namespace vramplan::ui
