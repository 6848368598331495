#pragma once
// The estimate as JSON (SPEC §3, "vramplan-estimate") and as a table for people.

#include "estimate.h"
#include "scenario.h"

#include <nlohmann/json.hpp>

#include <string>

namespace vramplan {

nlohmann::json estimateToJson(const Estimate &estimate, const Scenario &scenario);
std::string warningText(const Warning &warning);

enum class SizeUnit
{
    GiB,
    GB
};
// "12.34 GiB" (2^30 bytes) or "13.25 GB" (10^9 bytes).
std::string formatBytes(double bytes, SizeUnit unit = SizeUnit::GiB);
std::string estimateTable(const Estimate &estimate, const Scenario &scenario,
                          SizeUnit unit = SizeUnit::GiB);

} // namespace vramplan
