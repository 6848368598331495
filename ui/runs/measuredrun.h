#pragma once
// A measured run as the window holds it (SPEC §3 "Measured runs"): the files of one run, each
// read once into the core's RunSource (core/runs/run_source.h). The comparison with the plan is
// made again from these whenever the scenario changes; the files are not read again.

#include "runs/run_source.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace vramplan::ui {

struct MeasuredRun
{
    QStringList paths;                        // as opened
    std::vector<vramplan::RunSource> sources; // each file's figures, named by its file name
    int device = 0;                           // cuda:N read from the snapshots
};

struct RunLoadResult
{
    std::optional<MeasuredRun> run;
    QString error;          // "step.pickle: offset 2: GLOBAL ...": the file, then the core's line
    bool cancelled = false; // the reader was told to stop
    std::uint64_t bytesRead = 0;
    std::uint64_t bytesTotal = 0; // of all the files, from their sizes
};

// Told the bytes read of all the files and their total when each file begins and every few MiB
// of it; false stops the reading (the result is then `cancelled`, with no run and no error).
using RunLoadProgress = std::function<bool(std::uint64_t done, std::uint64_t total)>;

// Reads the files of one run, piece by piece (a snapshot of gigabytes is never held whole),
// as `vramplan-cli run-report` does; the first bad file ends the load with its error. Blocking:
// the window calls it on a thread of its own (MeasuredRunLoader).
RunLoadResult loadMeasuredRun(const QStringList &paths, int device,
                              const RunLoadProgress &progress = {});

// How often a reader reports its progress (and can be stopped).
constexpr std::uint64_t runLoadProgressStep = std::uint64_t(4) << 20;

} // namespace vramplan::ui
