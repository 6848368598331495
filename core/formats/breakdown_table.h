#pragma once
// The breakdown of an estimate as a table for other tools: CSV (one row per item), Markdown
// (components, then items) or the estimate JSON.
//
// Example row (CSV): activations,query (saved by attention),1073741824,32,33554432,b*s*a*d*c,true

#include "estimate.h"
#include "scenario.h"

#include <optional>
#include <string>
#include <string_view>

namespace vramplan {

enum class TableFormat
{
    Csv,
    Json,
    Markdown
};

// "csv", "json", "md" (also "markdown"); nullopt otherwise.
std::optional<TableFormat> tableFormatFromExtension(std::string_view extension);

std::string breakdownTable(const Estimate &estimate, const Scenario &scenario, TableFormat format);

// One line that says what a chart shows: "Llama-3.1-8B, b=1, s=4096, bf16_mixed, adamw,
// ZeRO 0, 1 x H100 80GB (HBM3): peak 159.17 GiB, does not fit".
std::string scenarioSummary(const Estimate &estimate, const Scenario &scenario);

} // namespace vramplan
