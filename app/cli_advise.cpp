// `vramplan-cli advise FILE [--format json|table] [--mfu X] [--no-hardware]`: what to change so
// the scenario fits (SPEC §3), as the advice JSON or a table for people. On an inference
// scenario with a `serving` section (`--requests N --tokens L`): the cheapest GPU / TP /
// quantisation that serves N concurrent requests of L tokens (serving_advice.h). On a scenario
// with an `rl` section: the RL frameworks' knobs (rl_advice.h), the same JSON with each
// suggestion's `rl_peak_phase`.

#include "cli_advise.h"

#include "advice/advisor.h"
#include "advice/rl_advice.h"
#include "formats/estimate_json.h"
#include "advice/serving_advice.h"

#include <cstdio>
#include <iostream>
#include <string>

namespace vramplan {
namespace {

std::string changesText(const Suggestion &s)
{
    std::string out;
    for (const auto &[path, value] : s.changes) {
        if (!out.empty())
            out += ", ";
        out += path.substr(path.find('.') + 1) + " " +
               (value.is_string() ? value.get<std::string>() : value.dump());
    }
    return out;
}

void printTable(const Advice &a, const Scenario &s)
{
    std::cout << (s.name.empty() ? std::string("scenario") : s.name) << '\n'
              << (a.fitsNow ? "fits as it is" : "does not fit as it is") << "; searched "
              << a.searched << " candidates (" << a.estimated << " estimated)\n\n";
    if (a.suggestions.empty()) {
        std::cout << "nothing fits";
        if (a.hasNearest)
            std::cout << ": the nearest is over by "
                      << formatBytes(-a.nearest.headroomBytes) << " (" << changesText(a.nearest)
                      << ")";
        if (!a.smallestGpu.empty())
            std::cout << "; it fits on a " << a.smallestGpu;
        std::cout << '\n';
    } else {
        std::printf("%-15s %9s %12s %12s  %s\n", "kind", "time", "peak", "headroom", "changes");
        for (const auto &sg : a.suggestions)
            std::printf("%-15s %8.2fx %12s %12s  %s\n", std::string(changeKindKey(sg.kind)).c_str(),
                        sg.relativeStepTime, formatBytes(sg.peakDeviceBytes).c_str(),
                        formatBytes(sg.headroomBytes).c_str(), changesText(sg).c_str());
    }
    std::cout << "\nlargest micro-batch " << a.maxMicroBatch << ", longest sequence "
              << a.maxSequence << ", fewest GPUs " << a.minGpus
              << " (0: nothing fits)\ntime: relative to the scenario's own step, per token of "
                 "the global batch (docs/step_time.md)\n";
}

} // namespace

int commandAdvise(const Scenario &s, const std::string &format, double mfu, bool hardware)
{
    AdviceOptions options;
    options.time.mfu = mfu;
    options.hardware = hardware;
    if (s.rl.present()) {
        const Advice a = adviseRl(s, options);
        if (format == "table")
            std::cout << rlAdviceTable(a, s);
        else
            std::cout << rlAdviceToJson(a).dump(2) << '\n';
        return 0;
    }
    const Advice a = advise(s, options);
    if (format == "table")
        printTable(a, s);
    else
        std::cout << adviceToJson(a).dump(2) << '\n';
    return 0;
}

int commandAdviseServing(const Scenario &s, const std::string &format, int64_t requests,
                         int64_t tokens, bool hardware)
{
    ServingAdviceOptions options;
    options.hardware = hardware;
    const ServingAdvice a = adviseServing(s, {requests, tokens}, options);
    if (format == "table")
        std::cout << servingAdviceTable(a, s);
    else
        std::cout << servingAdviceToJson(a).dump(2) << '\n';
    return 0;
}

} // namespace vramplan
