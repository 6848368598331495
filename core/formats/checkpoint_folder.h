#pragma once
// A local checkpoint folder (SPEC §3 `model.checkpoint`, `vramplan-cli params DIR`): its
// config.json, and the tensors its safetensors files hold, read from their JSON headers only
// (the weights are never read), or, without them, the totals its model.safetensors.index.json
// states. The tensors are counted exactly and sorted by name into the parts of a model.
//
// Example: a folder with config.json and model-00001-of-00002.safetensors ... gives
// {"total": 1881825088, "source": "safetensors headers (2 files, 437 tensors)", parts ...}.

#include "parsed.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vramplan {

// Parameters by the part of the model a tensor's name places it in.
struct CheckpointParts
{
    int64_t embedding = 0, outputHead = 0, attention = 0, linearAttention = 0, mamba = 0,
            shortConv = 0, mlp = 0, routedExperts = 0, sharedExperts = 0, router = 0, norms = 0,
            vision = 0, mtp = 0, other = 0;
};

struct CheckpointTensor
{
    std::string name;
    int64_t elements = 0;
    std::string dtype; // safetensors dtype: BF16, F32, F8_E4M3, U8, ...
};

struct Checkpoint
{
    nlohmann::json config;                // config.json
    std::vector<CheckpointTensor> tensors; // empty when only an index was read
    int64_t total = 0;                     // parameters (elements of every tensor)
    int64_t bytes = 0;                     // what the tensors take on disk
    bool exact = false;                    // counted tensor by tensor (else an index's total)
    std::string source;                    // where the figures come from, for people
    CheckpointParts parts;
};

// The tensors a safetensors file's beginning (its 8-byte length and JSON header) lists, added
// to `out`; "" or the problem, naming `name`.
std::string safetensorsTensors(std::string_view start, const std::string &name,
                               std::vector<CheckpointTensor> &out);
// Reads `folder`; errors name the file and what is wrong with it.
Parsed<Checkpoint> readCheckpointFolder(const std::string &folder);
// The part of the model a tensor name places it in ("model.layers.3.mlp.experts.7.up_proj.weight"
// -> routed experts).
CheckpointParts classifyTensors(const std::vector<CheckpointTensor> &tensors);
// The parts as JSON, for `params` and the window.
nlohmann::json checkpointPartsJson(const CheckpointParts &parts);

} // namespace vramplan
