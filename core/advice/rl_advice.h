#pragma once
// "Make it fit" for post-training with a rollout engine (a scenario with an `rl` section,
// docs/rl.md): the knobs verl, TRL, OpenRLHF and ms-swift have, each tried on a complete copy of
// the scenario re-estimated with estimate(), so every proposal's peak is the largest phase's.
//
// The knobs, cheapest first: the engine's gpu_memory_utilization, its sleep level, the offload
// of the reference, of the policy's optimizer states and of its parameters, the log-prob
// micro-batch, the PPO micro-batch (the global batch kept by accumulation), the group size, the
// response length, LoRA, and the engine on GPUs of its own. A numeric knob proposes its most
// generous value that fits (the highest utilization, the largest micro-batch, the longest
// response). A knob is proposed only where it lowers the peak: the planner sizes memory per
// trainer GPU, so a knob that moves none of it (the group size: the micro-batch is per GPU)
// never shows. When no knob alone fits, the knobs are taken together, cheapest first, each kept
// where it lowers the peak, until the plan fits (one suggestion) or the least over is the nearest.
//
// The step time is not priced for RL plans (Suggestion::relativeStepTime 0, "unknown"): each
// suggestion's cost_basis says in one sentence what the change costs instead.

#include "advice/advisor.h"
#include "rl_plan.h"
#include "scenario.h"

#include <nlohmann/json.hpp>

#include <string>

namespace vramplan {

// The advice for `scenario` (which has an `rl` section). options.maxSuggestions and
// options.cancel are honoured; options.hardware false leaves out the separate engine GPUs.
Advice adviseRl(const Scenario &scenario, const AdviceOptions &options = {});

// adviceToJson(advice) with, for an RL plan, each suggestion's (and the nearest's) phase that
// peaks: "rl_peak_phase": "generation" | "experience" | "training".
nlohmann::json rlAdviceToJson(const Advice &advice);

// One line per suggestion for `vramplan-cli advise --format table`: its kind, peak, headroom,
// the phase that peaks, the changes and what it costs.
std::string rlAdviceTable(const Advice &advice, const Scenario &scenario);

} // namespace vramplan
