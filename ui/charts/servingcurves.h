#pragma once
// What an inference server's settings buy (issue 14, docs/serving.md), as three curves drawn
// from the core's estimate at each sample: how many requests of max_model_len fit at once as
// max_model_len grows, how many tokens the KV cache holds as gpu_memory_utilization grows, and
// the concurrency at each tensor-parallel size the model's heads allow. Each point is the
// estimate of the scenario with that one setting changed, so the point at the scenario's own
// setting is exactly what the breakdown and the Serving group show.

#include "scenario.h"

#include <QString>

#include <cmath>
#include <limits>
#include <vector>

namespace vramplan::ui {

struct ServingCurve
{
    QString title;  // "Concurrency vs context length"
    QString xLabel; // "max_model_len (tokens)", with its unit
    QString yLabel; // "Concurrent requests of max_model_len"
    QString xName;  // what a sample is, in tooltips: "max_model_len"
    // What y counts: requests at once (the engine needs one to start) or KV-cache tokens.
    enum class Measure
    {
        Requests,
        Tokens
    } measure = Measure::Requests;
    bool logX = false;
    bool shortPowers = false; // x ticks read "32k" as context lengths do
    std::vector<double> x;    // ascending
    std::vector<double> y;    // NaN where the scenario is invalid at that x
    // Where the engine refuses to start (its KV cache would be empty or shorter than one
    // request): the same length as x.
    std::vector<bool> starts;
    double current = std::numeric_limits<double>::quiet_NaN(); // x of the scenario itself

    // The value at sample x; NaN when there is none.
    double at(double x) const;
};

struct ServingCurves
{
    bool present = false;        // an inference scenario with a serving section
    ServingCurve context;        // max concurrency vs max_model_len
    ServingCurve utilization;    // KV-cache tokens vs gpu_memory_utilization
    ServingCurve tensorParallel; // max concurrency vs tensor-parallel size
};

// The three curves for an inference scenario with a `serving` section; `present` false (and
// nothing estimated) otherwise.
ServingCurves servingCurves(const Scenario &scenario);

} // namespace vramplan::ui
