#pragma once
// "Calibrate from my run": fit the terms a formula cannot know (allocator slack, what lies beside
// the allocator, how far a framework's activations differ from the inventory) to one number the
// user measured for the scenario, and the spread the estimator shows on the validation set.
//
// Example: a run measured 17.2 GB reserved where vramplan says 15.8 GiB:
//
//     auto fitted = fitCalibration(s, MemoryMetric::Reserved, 17.2e9);
//     if (fitted) s.calibration = *fitted.value;   // estimate(s).peak.reserved == 17.2e9

#include "estimate.h"
#include "parsed.h"
#include "scenario.h"

namespace vramplan {

// The number a metric names in an estimate.
double measuredValue(const Peak &peak, MemoryMetric metric);

// Fits `scenario`'s calibration to `measuredBytes` of `metric` (the scenario's own calibration,
// if any, is ignored). Positive residuals go to the overhead term of the metric (allocator slack
// for reserved, beside the allocator for nvidia-smi); what the overhead cannot absorb without
// going below zero, and any residual of allocated, scales the activations. Fails with a sentence
// when the number cannot come from this scenario (below its weights and states).
Parsed<Calibration> fitCalibration(const Scenario &scenario, MemoryMetric metric,
                                   double measuredBytes);

// measured / estimated over the published runs (tests/data/measured, uncalibrated): the 10th and
// 90th percentiles, drawn as the error band around every estimate. tst_validation recomputes them
// and fails when these constants fall out of step with the data.
struct ErrorBand
{
    double low = 1, high = 1;
};
constexpr ErrorBand validationErrorBand{0.96, 1.14};

} // namespace vramplan
