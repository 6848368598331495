#pragma once
// The advisor's candidates (advisor_candidates.cpp): the option lists of the knobs the search
// varies, and one choice among them set on the working scenario. Internal to advice/.

#include "scenario.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace vramplan {

struct GpuSpec;

namespace advisor_internal {

struct Layout
{
    int64_t tp = 1, pp = 1, cp = 1, ep = 1;
    bool sp = false;
};

struct RecomputeChoice
{
    Recompute mode;
    int64_t layers; // -1: all
};

// An optimizer and the precision of its states (training.optimizer_precision).
struct OptimizerChoice
{
    Optimizer optimizer = Optimizer::Adamw;
    OptimizerPrecision precision;
};

struct OffloadChoice
{
    Offload optimizer, parameters;
};

// Everything one candidate chose, by index into the option lists (kept for the frontier).
struct Choice
{
    int layout = 0, offload = 0, optimizer = 0, method = 0, hardware = 0, loss = 0;
    int recompute = 0, zero = 0;
    int64_t microBatch = 1, accumulation = 1;
};

struct Hardware
{
    int64_t gpuFactor = 1; // times the scenario's GPU count
    const GpuSpec *gpu = nullptr; // nullptr: the scenario's GPU
};

struct Options
{
    std::vector<Layout> layouts;
    std::vector<RecomputeChoice> recomputes;
    std::vector<int64_t> zeros; // from lowest to highest stage
    std::vector<OffloadChoice> offloads;
    std::vector<OptimizerChoice> optimizers;
    std::vector<FinetuneMethod> methods;
    std::vector<Hardware> hardware;
    std::vector<std::pair<int64_t, int64_t>> splits;
    std::vector<LossKind> losses;
};

// The options the search tries for each knob the scenario's framework has
// (advisor_candidates.cpp).
std::vector<Layout> layoutsFor(const Scenario &s);
std::vector<RecomputeChoice> recomputesFor(const Scenario &s);
std::vector<OffloadChoice> offloadsFor(const Scenario &s);
std::vector<OptimizerChoice> optimizersFor(const Scenario &s);
std::vector<FinetuneMethod> methodsFor(const Scenario &s);
std::vector<Hardware> hardwareFor(const Scenario &s, bool allow);
std::vector<std::pair<int64_t, int64_t>> splitsFor(const Scenario &s);

// Sets the candidate's knobs on the working scenario; false when it cannot keep the global
// batch (advisor_candidates.cpp).
bool apply(Scenario &w, const Scenario &base, const Options &o, const Choice &c);

} // namespace advisor_internal
} // namespace vramplan
