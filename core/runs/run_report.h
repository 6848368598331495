#pragma once
// A measured run as the "vramplan-run" JSON of SPEC §3 ("Measured runs"), from the files it
// wrote (run_source.h), and as a table for people; with an estimate beside it, the difference
// of each figure (measured minus planned).
//
// Several files of one run are merged: each peak is the largest any file saw (each file saw
// real memory, so the largest is the best lower bound, and memory_stats' is exact); the
// components come from MemTracker where given (it tracks tensors exactly), else from the
// snapshot of the allocated peak; the timeline from that snapshot, and nvidia-smi's samples
// as `device_timeline` (another clock). Each file's own figures stay under `sources`.

#include "formats/estimate_json.h"
#include "runs/run_source.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace vramplan {

// `estimate`: the estimate JSON (estimateToJson) of the scenario to compare with, or null.
nlohmann::json runReportJson(const std::vector<RunSource> &sources, int device,
                             const nlohmann::json *estimate = nullptr);

// The report (as runReportJson wrote it) for people: the peaks, the components at the peak
// with the rule of each, and, against a plan, each difference in words ("activations 3.10 GiB
// more than planned").
std::string runReportTable(const nlohmann::json &report, SizeUnit unit = SizeUnit::GiB);

} // namespace vramplan
