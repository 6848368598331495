#pragma once
// The samples of a curve as the chart draws them, in the chart's unit: which can be placed
// (finite, ascending, positive on a log axis) and drawn (valid), their components and totals,
// and at each the edges of the likely range and of the expert-imbalance band. What the chart
// says about them comes from here too: the top of its value axis, what runs off it, the runs of
// graphs, and a sample's tooltip.

#include "charts/curvegraphs.h"
#include "charts/units.h"
#include "estimate.h"

#include <QString>

#include <array>
#include <limits>
#include <vector>

namespace vramplan::ui {

struct CurveData;

struct CurveSamples
{
    enum Edge
    {
        LikelyLow,
        LikelyHigh,
        Balanced,
        Imbalanced,
        EdgeCount
    };

    std::vector<double> x;      // NaN where a sample cannot be placed
    std::vector<bool> drawn;    // placed and valid
    std::vector<double> totals; // NaN where not drawn (never handed to QCustomPlot)
    std::vector<std::array<double, vramplan::componentCount>> components;
    std::array<std::vector<double>, EdgeCount> edges;        // NaN where not drawn
    double lowest = std::numeric_limits<double>::infinity(); // x range of the placed samples
    double highest = -std::numeric_limits<double>::infinity();

    static CurveSamples from(const CurveData &data, Unit unit);

    size_t size() const { return x.size(); }
    size_t at(double x) const; // the index of sample x, or size()
    // The value axis's top: the current point (with its likely range and imbalance band) and
    // the capacity, with room above for the markers' labels; the whole sweep when there is
    // neither.
    double top(double current, double capacity) const;
    // "Off the top: micro-batch 3 to 256 (up to 5.54 TiB)"; empty when every total is below.
    QString offTheTop(double top, const QString &xName, Unit unit) const;
    // One run per stretch of drawn samples: the components stacked, and the bands where a run
    // has two samples to make one.
    std::vector<CurveGraphs::Run> runs() const;
    // What hovering sample `i` at `value` (on the value axis) shows.
    QString describe(size_t i, double value, const QString &xName, Unit unit) const;
};

// "12", "0.5", "4096"; with `shortPowers`, 2^10 and up read "1k", "32k" as context lengths do.
QString formatX(double x, bool shortPowers);

} // namespace vramplan::ui
