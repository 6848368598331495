#pragma once
// A comparison of scenarios (`*.vramplan-comparison.json`): an ordered list of labelled
// scenarios, stored inline, and the inputs that differ between them.
//
// Example file:
//   {"format": "vramplan-comparison", "version": 1,
//    "scenarios": [{"label": "ZeRO-2", "scenario": {...}}, {"label": "ZeRO-3", "scenario": {...}}]}

#include "parsed.h"
#include "scenario.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace vramplan {

struct ComparisonEntry
{
    std::string label;
    Scenario scenario;
};

struct Comparison
{
    std::vector<ComparisonEntry> entries;
};

constexpr size_t maxComparedScenarios = 64;

Parsed<Comparison> comparisonFromText(std::string_view text);
nlohmann::json comparisonToJson(const Comparison &comparison);

// The dotted input paths ("training.micro_batch_size") whose values are not the same in every
// scenario, in file order, each with the values as text per scenario.
struct DifferingInput
{
    std::string path;
    std::vector<std::string> values;
};
std::vector<DifferingInput> differingInputs(const std::vector<Scenario> &scenarios);

// The entries' labels, each once: a label given twice is numbered ("vLLM, 1 x H100 (2)"), so
// that a table's columns (the CSV's headings) name one scenario each (issue 21 #8).
std::vector<std::string> uniqueLabels(const Comparison &comparison);

enum class TableFormat;
// The comparison as a table: CSV (a row per component, a column per scenario, bytes), JSON
// (each scenario's estimate) or Markdown (differing inputs, then components in GiB). Where an
// entry is an inference server, CSV and Markdown end with its KV-cache tokens and its
// concurrency (requests of max_model_len at once; empty, or "-", for a training run).
std::string comparisonTable(const Comparison &comparison, TableFormat format);

} // namespace vramplan
