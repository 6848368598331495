#pragma once
// What one file of a measured run tells (SPEC §3 "Measured runs"): a torch memory snapshot
// (pickle or JSON), MemTracker's peak, torch.cuda.memory_stats() or an nvidia-smi CSV log.
// Every figure a file cannot give stays empty (null in the report), never guessed.
//
// Example: readRunSource("step.pickle", bytes, 0) gives kind "torch_snapshot", the peaks
// replayed from its trace, its timeline and its components by rule.

#include "parsed.h"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace vramplan {

// The components a run report gives, in the order of its per_component_bytes.
enum class RunComponent
{
    Parameters,
    Gradients,
    OptimizerStates,
    Activations,
    Temporary,
    Framework,
    Unknown // bytes no rule placed (reported apart, as unknown_bytes)
};
constexpr int runComponentCount = 6;              // without Unknown
std::string_view runComponentKey(RunComponent c); // "optimizer_states"

// One moment of the run; t_us from the file's clock (relative to its first moment).
struct RunPoint
{
    int64_t tUs = 0;
    std::optional<int64_t> allocated, reserved, device;
};

// Bytes a rule placed in a component, at the peak.
struct RuleShare
{
    RunComponent component = RunComponent::Unknown;
    std::string rule;
    int64_t bytes = 0;
    int64_t allocations = 0;
};

struct RunSource
{
    std::string file;
    std::string kind; // torch_snapshot, mem_tracker, memory_stats, nvidia_smi
    std::optional<int64_t> allocated, reserved, device; // peaks
    std::optional<std::string> phase;                   // of the allocated peak
    std::array<std::optional<int64_t>, runComponentCount> components;
    std::optional<int64_t> unknownBytes;
    std::vector<RuleShare> rules;
    std::vector<RunPoint> timeline;
    nlohmann::json details = nlohmann::json::object(); // what else the file told
};

// At most this many timeline points per file (the largest of each bucket of moments is kept).
constexpr std::size_t maxTimelinePoints = 2000;

// The file's kind from its first bytes, then its figures for `device` (cuda:N), reading the
// file piece by piece. `name` is the file as the user named it; errors do not repeat it
// ("offset 12: truncated: ...").
class ByteSource;
Parsed<RunSource> readRunSource(const std::string &name, ByteSource &bytes, int device);
Parsed<RunSource> readRunSource(const std::string &name, std::string_view bytes, int device);

// --- the readers by kind (run_source.cpp detects which)
class DataDoc;
Parsed<RunSource> snapshotSource(const DataDoc &doc, int device);
Parsed<RunSource> memTrackerSource(const DataDoc &doc, int device);
Parsed<RunSource> memoryStatsSource(const DataDoc &doc, int device);
Parsed<RunSource> nvidiaSmiSource(std::string_view csv, int device);

} // namespace vramplan
