#pragma once
// The bounds and the section readers that the scenario_*.cpp files share (scenario_json.cpp
// reads a whole file with them; scenario_json.h is the public API). Internal to formats/.

#include "formats/json_reader.h"
#include "scenario.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace vramplan::scenario_json_internal {

// Bounds that keep every product in the estimator finite and every count inside int64
// (layers * experts * 3 * hidden * ffn stays below 2^63 at these limits).
constexpr int64_t maxLayers = 2048;
constexpr int64_t maxHidden = int64_t(1) << 18;
constexpr int64_t maxHeads = int64_t(1) << 14;
constexpr int64_t maxFfn = int64_t(1) << 20;
constexpr int64_t maxVocab = int64_t(1) << 24;
constexpr int64_t maxPositions = int64_t(1) << 24;
constexpr int64_t maxExperts = 1024;
constexpr int64_t maxBatch = int64_t(1) << 20;
constexpr int64_t maxSequence = int64_t(1) << 24;
constexpr int64_t maxGpus = int64_t(1) << 20;
constexpr int64_t maxParallel = int64_t(1) << 14;

// Whether document[key] is given (absent and null are the same).
bool present(const nlohmann::json &document, const char *key);

// The section readers: each reads document[SECTION] into its part of the scenario, and returns
// false with `error` set to one line naming the field. readModel is in scenario_model_reader.cpp,
// the others in scenario_section_readers.cpp.
bool readModel(const nlohmann::json &document, ModelConfig &m, std::string &error);
bool readTraining(const nlohmann::json &document, TrainingConfig &t, std::string &error);
bool readParallelism(const nlohmann::json &document, ParallelConfig &p, std::string &error);
bool readGpu(const nlohmann::json &document, GpuConfig &g, std::string &error);
bool readCalibration(const nlohmann::json &document, Calibration &c, std::string &error);
// The `rl` section (scenario_rl_reader.cpp): read when present, and written back.
bool readRl(const nlohmann::json &document, RlConfig &rl, std::string &error);
nlohmann::json rlToJson(const RlConfig &rl);

// The layer-kind extension of the model section (scenario_layer_kinds.cpp): its fields read
// into `m`, the checks between them ("" when consistent), and written back.
bool readLayerKinds(JsonReader &r, ModelConfig &m, std::string &error);
std::string layerKindConsistency(const ModelConfig &m);
void writeLayerKinds(const ModelConfig &m, nlohmann::json &model);

// The checks between fields that scenarioFromJson and checkScenario share.
std::string modelConsistency(const ModelConfig &m);
bool checkLayout(const Scenario &s, std::string &error);

} // namespace vramplan::scenario_json_internal
