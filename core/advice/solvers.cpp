#include "advice/solvers.h"

#include "estimate.h"
#include "formats/scenario_json.h"

namespace vramplan {
namespace {

// Largest value in [lo, hi] with fits(value), given fits is true up to some point and false
// after it; lo - 1 when fits(lo) is false.
template <typename Fits> int64_t lastFitting(int64_t lo, int64_t hi, Fits fits)
{
    if (!fits(lo))
        return lo - 1;
    int64_t step = 1;
    int64_t good = lo;
    // Gallop up, then bisect: O(log n) estimates.
    while (good < hi) {
        const int64_t next = std::min(hi, good + step);
        if (!fits(next)) {
            int64_t bad = next;
            while (bad - good > 1) {
                const int64_t mid = good + (bad - good) / 2;
                (fits(mid) ? good : bad) = mid;
            }
            return good;
        }
        good = next;
        step *= 2;
    }
    return good;
}

} // namespace

int64_t maxMicroBatchSize(const Scenario &scenario)
{
    Scenario s = scenario;
    const int64_t best = lastFitting(1, int64_t(1) << 20, [&](int64_t b) {
        s.training.microBatchSize = b;
        return estimate(s).fits;
    });
    return std::max<int64_t>(0, best);
}

int64_t maxSequenceLength(const Scenario &scenario, int64_t granularity)
{
    Scenario s = scenario;
    granularity = std::max<int64_t>(1, granularity);
    const int64_t steps = lastFitting(1, (int64_t(1) << 24) / granularity, [&](int64_t k) {
        s.training.sequenceLength = k * granularity;
        return estimate(s).fits;
    });
    return std::max<int64_t>(0, steps) * granularity;
}

int64_t minGpuCount(const Scenario &scenario)
{
    Scenario s = scenario;
    const auto &p = scenario.parallelism;
    const int64_t unit = p.tensorParallel * p.pipelineParallel * p.contextParallel *
                         std::max<int64_t>(1, p.expertParallel);
    const int64_t maxUnits = (int64_t(1) << 20) / unit;
    for (int64_t k = 1; k <= maxUnits; k = (k < 8 ? k + 1 : k * 2)) {
        s.parallelism.gpus = k * unit;
        if (!checkScenario(s).empty())
            continue;
        if (estimate(s).fits) {
            // Between the last power tried and this one, find the smallest that fits.
            int64_t lo = k < 8 ? k : k / 2 + 1;
            for (int64_t j = lo; j < k; ++j) {
                s.parallelism.gpus = j * unit;
                if (checkScenario(s).empty() && estimate(s).fits)
                    return j * unit;
            }
            return k * unit;
        }
    }
    return 0;
}

} // namespace vramplan
