#pragma once
// The `serving` object of a scenario file (SPEC §3 extension) to and from a ServingConfig.
//
// Example: {"engine": "vllm", "gpu_memory_utilization": 0.9, "max_model_len": 8192} parses to
// vLLM at 90% with 8k tokens per request, every other field at the engine's default;
// {"gpu_memory_utilization": 1.5} fails with
// "serving.gpu_memory_utilization: must be > 0 and <= 1, got 1.5".

#include "serving_config.h"

#include <nlohmann/json.hpp>

#include <string>

namespace vramplan {

// Reads document["serving"] when present (sets present = true); false with `error` set (one
// line naming the key) when a value is bad or a key unknown.
bool readServing(const nlohmann::json &document, ServingConfig &out, std::string &error);

// The object as a file holds it: the fields given, engine defaults left out.
nlohmann::json servingToJson(const ServingConfig &serving);

} // namespace vramplan
