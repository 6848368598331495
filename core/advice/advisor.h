#pragma once
// "Make it fit": a search over every knob the scenario's framework has (capabilities.h) for
// complete scenarios that fit, each priced in step time (step_time.h), and the frontier of
// memory against time among them (SPEC §3, `vramplan-cli advise`).
//
// The search prunes only where a law tst_laws holds guarantees the pruned candidates cannot fit:
// memory never falls as the micro-batch grows, and never rises with a higher ZeRO stage or more
// recomputation. Pruned candidates count as searched: their outcome is known.

#include "estimate.h"
#include "scenario.h"
#include "advice/step_time.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <string>
#include <utility>
#include <vector>

namespace vramplan {

// What a suggestion changes about the run (SPEC: same_semantics | numerics | method | hardware).
enum class ChangeKind
{
    SameSemantics, // the same training, laid out or scheduled differently
    Numerics,      // the same method with other numerics (8-bit optimizer states)
    Method,        // another training method (LoRA, QLoRA)
    Hardware,      // more GPUs or another GPU
};
std::string_view changeKindKey(ChangeKind kind);

struct Suggestion
{
    Scenario scenario;
    std::vector<std::pair<std::string, nlohmann::json>> changes; // dotted path -> new value
    double peakDeviceBytes = 0;
    double headroomBytes = 0; // negative: over the capacity
    ChangeKind kind = ChangeKind::SameSemantics;
    double relativeStepTime = 1; // step time over the scenario's own (same global batch)
    std::string costBasis;       // one sentence: where the cost comes from
    // The fit lies inside the estimate's likely range: the peak times the high end of the
    // validation error band (calibration.h validationErrorBand, the 90th percentile of
    // measured / estimated) passes the capacity, so a real run may well not fit. Such fits rank
    // after those clear of the band (issue 21 #9); JSON "within_band".
    bool withinBand = false;
};

// Whether `peakDeviceBytes` on `capacityBytes` fits only inside the likely range (Suggestion).
bool fitsWithinBand(double peakDeviceBytes, double capacityBytes);

struct AdviceOptions
{
    StepTimeOptions time;
    int maxSuggestions = 12;
    bool hardware = true; // also propose more GPUs and larger catalog GPUs
    // Set from another thread to end the search early (the window drops a search whose scenario
    // the user has already changed); read between candidate skeletons, so a search stops within
    // a few hundred estimates. nullptr: runs to the end.
    const std::atomic<bool> *cancel = nullptr;
};

struct Advice
{
    bool fitsNow = false;
    bool cancelled = false; // stopped by AdviceOptions::cancel: no suggestions, no nearest
    int64_t searched = 0;  // candidates whose outcome the search established
    int64_t estimated = 0; // of them, estimated (the others pruned by a law)
    // The frontier, kind by kind; within a kind the fits clear of the likely range first, then
    // fastest first. Every change of one knob that fits is offered unless another one-knob
    // change is as fast with no more memory, and so is the best fit that keeps the tensor and
    // pipeline layout: several-knob changes never crowd them out.
    std::vector<Suggestion> suggestions;
    bool hasNearest = false;
    Suggestion nearest; // the least over, when nothing fits
    // The solvers' answers for the scenario as it is (0: nothing fits).
    int64_t maxMicroBatch = 0, maxSequence = 0, minGpus = 0;
    // When nothing fits: the smallest catalog GPU on which the best same-semantics layout
    // fits ("" when none does).
    std::string smallestGpu;
};

Advice advise(const Scenario &scenario, const AdviceOptions &options = {});

// The advice as SPEC §3's JSON (`vramplan-advice`).
nlohmann::json adviceToJson(const Advice &advice);

} // namespace vramplan
