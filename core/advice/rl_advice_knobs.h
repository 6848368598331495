#pragma once
// The knobs "Make it fit" turns for an RL plan (rl_advice.h), internal to this room: each knob's
// options as complete scenarios, from the most generous to the most severe, with the kind of
// change and one sentence on its cost. The search is rl_advice.cpp.

#include "advice/advisor.h"
#include "estimate.h"
#include "scenario.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace vramplan::rl_advice {

using Changes = std::vector<std::pair<std::string, nlohmann::json>>;

// One value a knob may take: what it changes, how (to apply it again on another scenario) and
// the scenario it was built on with the change made.
struct Option
{
    Changes changes;
    std::function<void(Scenario &)> set;
    Scenario scenario;
};

// A knob: its dotted path (the first it changes), its options, the kind of change it is, and the
// sentence on its cost given the scenario after the change and its estimate.
struct Knob
{
    std::string path;
    ChangeKind kind = ChangeKind::SameSemantics;
    std::vector<Option> options;
    std::function<std::string(const Scenario &, const Estimate &)> cost;
};

// The knobs of `s`, cheapest first; `hardware` false leaves out the separate engine GPUs.
std::vector<Knob> knobsOf(const Scenario &s, bool hardware);

} // namespace vramplan::rl_advice
