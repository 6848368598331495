#pragma once
// The scenario file (SPEC §3, `*.vramplan.json`) to and from a Scenario.
//
// Example: {"format": "vramplan-scenario", "version": 1, "model": {"preset": "llama-2-7b"},
// "training": {"micro_batch_size": 4}} parses to Llama-2-7B with every other field at its
// documented default; {"training": {"micro_batch_size": 0}} fails with
// "training.micro_batch_size: must be >= 1 and <= 1048576, got 0".

#include "parsed.h"
#include "scenario.h"

#include <nlohmann/json.hpp>

#include <string>

namespace vramplan {

constexpr int scenarioFormatVersion = 1;

Parsed<Scenario> scenarioFromJson(const nlohmann::json &document);
// Parses text; errors from the JSON syntax name the line and column.
Parsed<Scenario> scenarioFromText(std::string_view text);

// Parses JSON text for any reader of ours: syntax errors name the line and column, a NUL byte
// or a number beyond double's range is an error, nesting is bounded, and the message is one
// short printable line.
Parsed<nlohmann::json> jsonFromText(std::string_view text);
// The same for a Hugging Face config.json, which Python's json module may have written with
// the non-standard literals NaN, Infinity and -Infinity (Nemotron 3 Super's time_step_limit):
// they read as null.
Parsed<nlohmann::json> hfJsonFromText(std::string_view text);

// Makes a message fit one terminal line: control characters become '?', and it is cut to
// `limit` characters (the input must not be echoed whole).
std::string printableLine(std::string text, size_t limit = 400);
// A release "0.21", "0.21.1", "0.21rc1" or "<name> 0.21" (`framework_version`, and the serving
// section's `engine_version` with the engine's name); the error names `key`.
bool parseReleaseVersion(std::string_view text, std::string_view name, std::string_view key,
                         FrameworkVersion &out, std::string &error);
// The release a window field's text names, parsed as a file's `key` would be: empty text is no
// release (the current one), and text the parser refuses a release marked refused (major -1),
// which checkScenario refuses on that key.
FrameworkVersion releaseOrRefused(std::string_view text, std::string_view name,
                                  std::string_view key);
// A framework release as `framework_version` writes it: "4.57", or "4.57.1" with a patch.
std::string frameworkVersionText(const FrameworkVersion &version);

// The scenario with every field spelled out (presets resolved to their numbers, but the
// preset names kept so a reader sees where they came from).
nlohmann::json scenarioToJson(const Scenario &scenario);

// The constraints between fields (layout against GPU count and heads, kv heads against heads,
// expert parallelism against experts); "" when the scenario is consistent.
std::string checkScenario(const Scenario &scenario);

// The model fields a family implies when a file leaves them out (norm, FFN type, biases, ...).
void applyFamilyDefaults(nlohmann::json &modelFields);

} // namespace vramplan
