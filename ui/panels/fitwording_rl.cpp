// The "Make it fit" phrases of the RL knobs, in the words of the RL group's controls.

#include "panels/fitwording_rl.h"

#include <QCoreApplication>

namespace vramplan::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::FitWording)
};

// A utilization as the controls show it; 0 is the framework's default.
QString share(double utilization)
{
    return utilization > 0 ? QString::number(utilization, 'f', 2)
                           : Words::tr("default", "the framework's default engine share");
}

} // namespace

QString rlChangePhrase(const std::string &path, const Scenario &from, const Scenario &to)
{
    const RlConfig &f = from.rl, &t = to.rl;
    if (path == "rl.rollout.gpu_memory_utilization")
        return Words::tr("engine share %1 → %2")
            .arg(share(f.rollout.gpuMemoryUtilization), share(t.rollout.gpuMemoryUtilization));
    if (path == "rl.rollout.sleep_level")
        return Words::tr("engine sleep level %1").arg(t.rollout.sleepLevel);
    if (path == "rl.offload.reference")
        return Words::tr("reference → CPU");
    if (path == "rl.offload.policy_optimizer")
        return Words::tr("optimizer → CPU between phases");
    if (path == "rl.offload.policy_parameters")
        return Words::tr("weights → CPU between phases");
    if (path == "rl.log_prob_micro_batch_size") {
        const int64_t before =
            f.logProbMicroBatchSize > 0 ? f.logProbMicroBatchSize : from.training.microBatchSize;
        return Words::tr("log-prob batch %1 → %2").arg(before).arg(t.logProbMicroBatchSize);
    }
    if (path == "rl.group_size")
        return Words::tr("group %1 → %2").arg(f.groupSize).arg(t.groupSize);
    if (path == "rl.response_tokens")
        return Words::tr("responses %1 → %2 tokens").arg(f.responseTokens).arg(t.responseTokens);
    if (path == "rl.rollout.placement" || path == "rl.rollout.gpus")
        return t.rollout.placement != RolloutPlacement::Separate
                   ? Words::tr("engine beside the trainer")
               : t.rollout.gpus == 1 ? Words::tr("engine on one GPU of its own")
                                     : Words::tr("engine on %1 GPUs of its own").arg(t.rollout.gpus);
    return {};
}

} // namespace vramplan::ui
