#pragma once
// The "Make it fit" phrases of the RL knobs (core/advice/rl_advice_knobs.cpp): "engine share
// 0.50 → 0.65", "engine sleep level 1", "reference → CPU", "responses ≤ 768 tokens", ...
// Internal to fitwording.cpp.

#include "scenario.h"

#include <QString>

#include <string>

namespace vramplan::ui {

// The phrase for one changed `rl.` path, from `from` to `to`; empty for a path it does not know.
QString rlChangePhrase(const std::string &path, const Scenario &from, const Scenario &to);

} // namespace vramplan::ui
