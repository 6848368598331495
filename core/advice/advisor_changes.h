#pragma once
// What a suggestion changes against the scenario (advisor_changes.cpp): the kind of change, the
// changed knobs and their count, and the sentence on its step time. Internal to advice/.

#include "advice/advisor.h"
#include "advice/step_time.h"
#include "scenario.h"

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace vramplan::advisor_internal {

// Whether two optimizer precisions differ in any field.
bool precisionDiffers(const OptimizerPrecision &a, const OptimizerPrecision &b);
// The kind of change from base to w: hardware before method before numerics (ChangeKind).
ChangeKind kindOf(const Scenario &base, const Scenario &w);
// The knobs that differ, as dotted path -> new value (Suggestion::changes).
std::vector<std::pair<std::string, nlohmann::json>> changesOf(const Scenario &a, const Scenario &b);
// The number of knobs that differ (the frontier's ranking: fewer first).
int changeCount(const Scenario &a, const Scenario &b);
// The number of knobs a user turns to get from a to b: changeCount, with the recomputed layers
// one knob with the recomputation they belong to ("recompute: 16 of 32 layers" is one change).
int knobsTurned(const Scenario &a, const Scenario &b);
// Whether b keeps a's model-parallel layout (tensor, pipeline, context and expert parallel).
bool keepsLayout(const Scenario &a, const Scenario &b);
// One sentence naming the terms of the step time that moved most (Suggestion::costBasis).
std::string costBasis(const StepTime &base, const StepTime &c, const Scenario &from,
                      const Scenario &to);

} // namespace vramplan::advisor_internal
