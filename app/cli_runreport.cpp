// `run-report FILE... [--scenario FILE] [--device N] [--format json|table]`: what a real run
// recorded (SPEC §3 "Measured runs"; core/runs/), beside the estimate of a scenario.

#include "cli_common.h"

#include "estimate.h"
#include "formats/estimate_json.h"
#include "runs/byte_source.h"
#include "runs/run_report.h"
#include "runs/run_source.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

namespace vramplan::cli_internal {

int commandRunReport(const Options &o)
{
    if (o.positional.empty())
        fail("vramplan-cli", "run-report takes one or more FILEs (a torch memory snapshot, "
                             "MemTracker or memory_stats JSON, an nvidia-smi CSV)");
    std::vector<RunSource> sources;
    for (const std::string &path : o.positional) {
        const std::string name = path == "-" ? "<stdin>" : path;
        // Read piece by piece: a snapshot may be far larger than a scenario's 64 MiB, and is
        // never held whole beside what is read from it.
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec))
            fail(path, "is a directory, not a run's file");
        std::ifstream file;
        if (path != "-") {
            file.open(path, std::ios::binary);
            if (!file)
                fail(path, "cannot be opened");
        }
        ByteSource bytes(path == "-" ? std::cin : file);
        auto source = readRunSource(name, bytes, o.device);
        if (!source)
            fail(name, source.error);
        sources.push_back(std::move(*source.value));
    }
    std::optional<nlohmann::json> planned;
    if (!o.scenario.empty()) {
        const Scenario s = loadScenario(o.scenario);
        planned = estimateToJson(estimate(s), s);
    }
    const nlohmann::json report = runReportJson(sources, o.device, planned ? &*planned : nullptr);
    const SizeUnit unit = o.units == "gb" ? SizeUnit::GB : SizeUnit::GiB;
    if (o.format == "table")
        std::cout << runReportTable(report, unit);
    else // file names are printed as given: replace what is not UTF-8 rather than throw
        std::cout << report.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    return 0;
}

} // namespace vramplan::cli_internal
