#pragma once
// The phases of an RL estimate (Estimate::rl, docs/rl.md) as JSON (`rl_phases`, `rl` in the
// estimate) and as a table, one block per phase, for `vramplan-cli estimate --format table`.

#include "formats/estimate_json.h"
#include "rl_plan.h"

#include <nlohmann/json.hpp>

#include <string>

namespace vramplan {

// [{"name": "generation", "allocated_bytes": ..., "components": {...}, "items": [...],
//   "holder": {"name": "rollout engine", "bytes": ...}, "peak": false}, ...]
nlohmann::json rlPhasesJson(const RlPlan &plan);
// {"peak_phase": "training", "sleep_freed_bytes": ..., "sleep_cpu_bytes": ..., ...}
nlohmann::json rlSummaryJson(const RlPlan &plan);
std::string rlPhasesTable(const RlPlan &plan, SizeUnit unit);

} // namespace vramplan
