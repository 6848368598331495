#pragma once
// A Hugging Face config.json, read into the model fields of a scenario (SPEC §3, "model").
//
// Example: {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32, ...} gives
// {"family": "llama", "hidden_size": 4096, "layers": 32, "ffn_type": "swiglu", ...}; the
// scenario parser then overlays any fields the user gave explicitly.

#include "parsed.h"

#include <nlohmann/json.hpp>

#include <string>

namespace vramplan {

// path names the config in error messages ("model.hf_config" or a file name).
Parsed<nlohmann::json> modelFieldsFromHfConfig(const nlohmann::json &config,
                                               const std::string &path);

// The model_type values understood, for messages: "gpt2, bert, llama, ...".
std::string supportedHfModelTypes();

// The block size of a checkpoint stored in block-scaled fp8 (quantization_config
// {"quant_method": "fp8", "weight_block_size": [128, 128]}), or 0.
int64_t hfFp8BlockSize(const nlohmann::json &config);

// What of a multimodal config vramplan leaves out ("vision tower and projector ..."), or "".
std::string hfLeftOut(const nlohmann::json &config);

} // namespace vramplan
