// The peak of one stage's estimate: phases of the step, the peak and its phase, allocator slack
// and what lies outside the allocator.

#include "estimate_peak.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace vramplan {
namespace {

constexpr double MiB = 1024.0 * 1024.0;
constexpr double GiB = 1024.0 * MiB;

// CUDA context and kernel images as nvidia-smi shows them for a process that has touched the
// GPU. Volta: 1343 MiB measured by the transformers docs (perf_train_gpu_one, V100, eager
// module loading). Newer cards run CUDA >= 11.7 with lazy module loading, where torch 2.x
// shows about 500 MiB after the first kernels.
double cudaContextBytes(const std::string &architecture)
{
    if (architecture == "volta")
        return 1343 * MiB;
    return 500 * MiB;
}
// NCCL's communicator buffers (NCCL_BUFFSIZE 4 MiB per channel and peer, rings and trees,
// several communicators for DP/TP/PP) live outside the caching allocator.
constexpr double ncclBytes = 512 * MiB;
// The caching allocator's slack (reserved minus allocated): blocks freed by transient tensors
// of other sizes stay reserved. Modelled as a share of the transient bytes at the peak plus a
// share of everything, from the published reserved-vs-allocated pairs (0.2 to 2 GB,
// shared/validation README) and torchtune's logs (peak active vs reserved).
constexpr double slackOfTransient = 0.08;
constexpr double slackOfAll = 0.02;

constexpr double maxReportable = 4.0e18; // bytes; beyond this a number is clamped

// For each set of phases (a bit per phase), 1 in the lanes of its phases and 0 elsewhere.
constexpr auto phaseLanes = [] {
    std::array<std::array<double, phaseCount>, 1u << phaseCount> lanes{};
    for (unsigned set = 0; set < lanes.size(); ++set)
        for (int i = 0; i < phaseCount; ++i)
            lanes[set][size_t(i)] = (set >> i) & 1u ? 1.0 : 0.0;
    return lanes;
}();

} // namespace

void finishEstimate(Estimate &e, const Scenario &s, double fragmentedBytes)
{
    // Phase totals from what is alive in each phase (inside the caching allocator), kept lane by
    // lane (one double per phase): each item adds its bytes times its phase set's 0/1 lanes to
    // every phase at once, which the compiler turns into a few vector operations instead of a
    // loop over the item's phases (issue 20; each phase's sum is still in item order). The bytes
    // are kept finite first so that a lane of 0 adds 0 (inf * 0 is NaN); a total that reaches
    // the largest double is clamped below all the same.
    std::array<double, phaseCount> allocated{};
    std::array<std::array<double, phaseCount>, componentCount> byComponent{};
    // What lies outside the caching allocator (paged optimizer states, an engine's non-torch
    // memory), by component and phase: in the bar, not in the allocated totals.
    std::array<std::array<double, phaseCount>, componentCount> outsideByComponent{};
    // What a collective's own stream holds in each phase (Item::streamPooled).
    std::array<double, phaseCount> pooled{};
    unsigned present = 0;
    for (const auto &item : e.items) {
        const unsigned alive = item.phases & ((1u << phaseCount) - 1);
        // Validation and generation are moments of interest only where the framework has
        // them: an item of their own, not only the steady states that live everywhere.
        // The initialisation likewise, where an item lives in it alone.
        present |= alive & ~(evaluationPhases | initialisationPhase);
        if ((item.phases & trainingPhases) == 0)
            present |= alive & evaluationPhases;
        if ((item.phases & allPhases) == 0)
            present |= alive & initialisationPhase;
        const double bytes = std::min(item.bytes(), std::numeric_limits<double>::max());
        const auto &lanes = phaseLanes[alive];
        if (item.outsideAllocator) {
            auto &component = outsideByComponent[static_cast<int>(item.component)];
            for (int i = 0; i < phaseCount; ++i)
                component[i] += bytes * lanes[i];
            continue;
        }
        auto &component = byComponent[static_cast<int>(item.component)];
        for (int i = 0; i < phaseCount; ++i) {
            const double here = bytes * lanes[i];
            allocated[i] += here;
            component[i] += here;
        }
        if (item.streamPooled)
            for (int i = 0; i < phaseCount; ++i)
                pooled[i] += bytes * lanes[i];
    }
    for (int i = 0; i < phaseCount; ++i) {
        auto &ph = e.phases[i];
        ph.phase = static_cast<Phase>(i);
        ph.allocated = allocated[i];
        for (int c = 0; c < componentCount; ++c)
            ph.byComponent[c] = byComponent[c][i];
    }
    for (auto &ph : e.phases)
        ph.present = (present & phaseBit(ph.phase)) != 0;
    // Inference runs forward only: the training step's other moments do not happen.
    if (s.training.mode == Mode::Inference)
        for (auto &ph : e.phases)
            ph.present = ph.present && ph.phase == Phase::Forward;
    Phase peakPhase = Phase::Forward;
    double peakAllocated = -1;
    for (int i = 0; i < phaseCount; ++i) {
        const auto &ph = e.phases[i];
        if (ph.present && ph.allocated > peakAllocated) {
            peakAllocated = ph.allocated;
            peakPhase = ph.phase;
        }
    }
    e.peak.phase = peakPhase;
    e.peak.allocated = std::max(0.0, peakAllocated);

    // The bar at the peak: what each component holds then, inside the allocator and beside it.
    const int at = static_cast<int>(peakPhase);
    double outside = 0;
    for (int c = 0; c < componentCount; ++c) {
        e.perGpu[size_t(c)] = byComponent[c][at] + outsideByComponent[c][at];
        outside += outsideByComponent[c][at];
    }
    const double paged = outsideByComponent[static_cast<int>(Component::OptimizerStates)][at];

    // Blocks of a collective's stream stay reserved for it at the most it ever holds (from one
    // step to the next), whatever it holds in a phase.
    double pool = 0;
    for (const auto &ph : e.phases)
        if (ph.present)
            pool = std::max(pool, pooled[int(ph.phase)]);

    // Reserved never shrinks: its peak is the largest allocated-plus-slack over the phases,
    // and blocks freed by the loss stay cached from then on.
    double reserved = 0;
    for (const auto &ph : e.phases) {
        if (!ph.present)
            continue;
        const double idlePool = pool - pooled[int(ph.phase)];
        const double transient = ph.byComponent[int(Component::Activations)] +
                                 ph.byComponent[int(Component::LogitsAndLoss)] +
                                 ph.byComponent[int(Component::Temporary)];
        const bool afterLoss = ph.phase != Phase::Forward && ph.phase != Phase::Initialisation &&
                               !(evaluationPhases & phaseBit(ph.phase));
        reserved =
            std::max(reserved, ph.allocated + slackOfTransient * transient +
                                   slackOfAll * ph.allocated + (afterLoss ? fragmentedBytes : 0.0) +
                                   idlePool);
    }
    // A calibration's overhead moves the allocator slack (fitted to a reserved figure) or what
    // lies beside the allocator (fitted to nvidia-smi), never below zero.
    const Calibration &cal = s.calibration;
    const double slackOverhead =
        cal.present && cal.metric == MemoryMetric::Reserved ? cal.overheadBytes : 0.0;
    const double outsideOverhead =
        cal.present && cal.metric == MemoryMetric::Device ? cal.overheadBytes : 0.0;
    // A serving engine sizes its own pools (serving.h): no slack beyond them, and its NCCL
    // buffers are in its non-torch term.
    const bool engine = s.training.mode == Mode::Inference && s.serving.present;
    const double modelledSlack = engine ? 0.0 : std::max(0.0, reserved - e.peak.allocated);
    const double slack = std::max(0.0, modelledSlack + slackOverhead);
    const double context = cudaContextBytes(s.gpu.architecture);
    const double nccl = s.parallelism.gpus > 1 && !engine ? ncclBytes : 0.0;
    const double calibratedOutside = std::max(-(context + nccl), outsideOverhead);
    e.peak.reserved = e.peak.allocated + slack;
    e.peak.device = e.peak.reserved + context + nccl + calibratedOutside + outside;

    ItemSink sink(e.items);
    constexpr auto F = Component::Framework;
    sink.add(F, "caching allocator slack (reserved - allocated)",
             "8% of transient + 2% of allocated at the peak + freed 16-bit logits block",
             "measured pairs, see docs/accuracy.md", slack, 1, phaseBit(peakPhase));
    // A negative fit shrinks the modelled context (then NCCL); a positive one is its own item.
    const double contextShown = std::max(0.0, context + std::min(0.0, calibratedOutside));
    const double ncclShown = nccl + std::min(0.0, calibratedOutside) + (context - contextShown);
    sink.add(F, "CUDA context and kernels", "per architecture", "transformers perf docs; torch 2.x",
             contextShown, 1, allPhases, true);
    sink.add(F, "NCCL buffers", "communicators of a multi-GPU job", "NCCL_BUFFSIZE defaults",
             ncclShown, 1, allPhases, true);
    sink.add(F, "overhead fitted to your run (beside the allocator)",
             "measured nvidia-smi - modelled", "calibration", calibratedOutside, 1, allPhases, true);
    e.perGpu[static_cast<int>(F)] += slack + context + nccl + calibratedOutside;

    bool clamped = false;
    auto clamp = [&](double &v) {
        if (!std::isfinite(v) || v > maxReportable) {
            v = maxReportable;
            clamped = true;
        }
    };
    clamp(e.peak.allocated);
    clamp(e.peak.reserved);
    clamp(e.peak.device);
    for (auto &v : e.perGpu)
        clamp(v);
    // Clamped, the components still add up to the device total the bar and the table show: each
    // is scaled down by what the sum exceeds it by.
    if (clamped) {
        double sum = 0;
        for (const double v : e.perGpu)
            sum += v;
        if (sum > e.peak.device)
            for (auto &v : e.perGpu)
                v *= e.peak.device / sum;
    }

    e.calibrated = s.calibration.present;
    e.capacityBytes = std::max(0.0, s.gpu.memoryGiB) * GiB;
    // Paged optimizer states (bitsandbytes' paged optimizers allocate them with
    // cudaMallocManaged: bitsandbytes/functional.py get_paged) are evicted to host memory by the
    // driver when the device runs short, and paged back for the optimizer step, so they never
    // fail a step: what must fit is everything else, and the device holds what it can of them
    // (torchtune's low-memory recipe runs Llama-2-7B's 54 GB of paged AdamW states on a 24 GB
    // RTX 4090: tt-07 in tests/data/measured).
    const double spill = std::clamp(e.peak.device - e.capacityBytes, 0.0, paged);
    if (spill > 0) {
        e.peak.device -= spill;
        e.perGpu[static_cast<int>(Component::OptimizerStates)] -= spill;
        e.warnings.push_back({WarningCode::PagedStatesSpill, spill});
    }
    e.headroomBytes = e.capacityBytes - e.peak.device;
    e.fits = e.headroomBytes >= 0;
    if (clamped)
        e.warnings.push_back({WarningCode::Clamped, maxReportable});
    if (!e.fits)
        e.warnings.push_back({WarningCode::DoesNotFit, -e.headroomBytes});
}

} // namespace vramplan
