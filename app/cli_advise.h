#pragma once
// The `advise` command of vramplan-cli (cli_advise.cpp).

#include "scenario.h"

#include <cstdint>
#include <string>

namespace vramplan {

// Prints the advice for `s` as JSON (SPEC §3) or, with format "table", for people; returns the
// exit status (0: the scenario was valid).
int commandAdvise(const Scenario &s, const std::string &format, double mfu, bool hardware);

// An inference scenario with a `serving` section: the cheapest GPU / TP / quantisation that
// serves `requests` concurrent requests of `tokens` tokens (0: from the scenario;
// serving_advice.h), as the advice JSON with a `serving` block per suggestion or a table.
int commandAdviseServing(const Scenario &s, const std::string &format, int64_t requests,
                         int64_t tokens, bool hardware);

} // namespace vramplan
