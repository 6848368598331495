#pragma once
// The serving advice's wording that the search shares with the JSON and the table
// (serving_advice_text.cpp). Internal to advice/.

#include "advice/serving_advice.h"
#include "scenario.h"

#include <string>

namespace vramplan::serving_advice_internal {

// One sentence: the cost and the numbers behind it (ServingSuggestion::basis).
std::string basisOf(const Scenario &base, const ServingSuggestion &c, const ServingTarget &t);

} // namespace vramplan::serving_advice_internal
