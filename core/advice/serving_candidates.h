#pragma once
// The layouts the serving search tries (serving_candidates.cpp): how many GPUs and pipeline
// stages, which GPU kinds, and one candidate's scenario. Internal to advice/.

#include "advice/serving_advice.h"
#include "scenario.h"

#include <cstdint>
#include <vector>

namespace vramplan::serving_advice_internal {

// vLLM places tensor-parallel ranks within one node (8 GPUs in the HGX/DGX boards and in the
// cloud instances of the catalog's cards); wider layouts take pipeline stages across nodes.
constexpr int64_t gpusPerNode = 8;
// Pipeline stages tried: two, at every GPU count where TP alone does not serve (within a node,
// or across two nodes of 8 at TP 8, issue 14's brief); beyond two nodes a deployment is
// planned as such, not searched.
constexpr int64_t pipelineStages = 2;

// The GPU kinds searched (serving_candidates.cpp).
std::vector<GpuConfig> gpuKinds(const Scenario &base, bool hardware);

// The scenario on `onKind`'s GPU at TP x PP, one engine instance, with these weights and KV
// cache dtype, the target applied (withTarget).
Scenario layout(const Scenario &onKind, int64_t tp, int64_t pp, WeightQuantization q,
                KvCacheDtype kv, const ServingTarget &t);

} // namespace vramplan::serving_advice_internal
