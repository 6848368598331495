#pragma once
// The `advise` command of vramplan-cli (cli_advise.cpp).

#include "scenario.h"

#include <string>

namespace vramplan {

// Prints the advice for `s` as JSON (SPEC §3) or, with format "table", for people; returns the
// exit status (0: the scenario was valid).
int commandAdvise(const Scenario &s, const std::string &format, double mfu, bool hardware);

} // namespace vramplan
