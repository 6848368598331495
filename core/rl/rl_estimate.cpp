// estimateRl (declared in estimate.h): the three phases of one RL step on a trainer GPU, the
// phase that peaks and what holds it; the Estimate's overall peak, per-GPU bytes and fit are
// the largest phase's, its items the policy update's (core/estimate.cpp on the trainer's
// scenario). docs/rl.md describes the model and its sources.

#include "estimate.h"
#include "rl/rl_setup.h"
#include "training/capabilities.h"

#include <algorithm>

namespace vramplan {

Estimate estimateRl(const Scenario &s)
{
    const RlSetup r = resolveRl(s);
    Estimate e = r.policyStep;
    // The update's items, with the logits of the RL loss in place of the fused loss's.
    ItemList stepItems;
    for (const auto &item : e.items)
        if (item.component != Component::LogitsAndLoss)
            stepItems.push_back(item);
    ItemSink(stepItems).add(Component::LogitsAndLoss, updateLogitsName, updateLogitsFormula,
                            updateLogitsSource, updateLogitsBytes(r), 1,
                            phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward));
    e.items = stepItems;
    RlPlan &plan = e.rl;
    plan.present = true;
    for (int i = 0; i < rlPhaseCount; ++i)
        plan.phases[i].kind = static_cast<RlPhaseKind>(i);

    Phase stepPhase = e.peak.phase;
    RlPhase &generation = plan.phases[int(RlPhaseKind::Generation)];
    generation.present = !r.offline;
    if (generation.present) {
        RlPhaseSink sink(generation);
        addGeneration(r, sink);
        sink.finish(0);
    }
    {
        RlPhaseSink sink(plan.phases[int(RlPhaseKind::Experience)]);
        addExperience(r, sink);
        sink.finish(0);
    }
    {
        RlPhaseSink sink(plan.phases[int(RlPhaseKind::Training)]);
        sink.finish(addTraining(r, sink, stepPhase));
    }
    if (r.engineOwnWeights) {
        plan.engineBudgetBytes = r.engine.budgetBytes;
        if (r.sleepLevel > 0)
            plan.sleepFreedBytes = r.engine.weightsBytes + std::max(0.0, r.engine.kvCacheBytes);
        if (r.sleepLevel == 1)
            plan.sleepCpuBytes = r.engine.weightsBytes;
    }
    plan.engineStarts = !r.engineOwnWeights || r.engine.status == ServingStatus::Ok;

    const RlPhase *peak = nullptr;
    for (const auto &phase : plan.phases)
        if (phase.present && (!peak || phase.device > peak->device))
            peak = &phase;
    plan.peak = peak->kind;
    e.peak.allocated = peak->allocated;
    e.peak.reserved = peak->reserved;
    e.peak.device = peak->device;
    e.peak.phase = peak->kind == RlPhaseKind::Generation   ? Phase::Generation
                   : peak->kind == RlPhaseKind::Experience ? Phase::Forward
                                                           : stepPhase;
    e.firstStage = e.lastStage = e.peak;
    e.perGpu = peak->byComponent;
    e.headroomBytes = e.capacityBytes - e.peak.device;
    e.fits = e.headroomBytes >= 0;
    // The update step's own fit is replaced by the plan's.
    StaticVector<Warning, 12> kept;
    for (const auto &w : e.warnings)
        // The fused loss stands in for the RL loss (rl_setup.cpp), not a knob the user set.
        if (w.code != WarningCode::DoesNotFit &&
            !(w.code == WarningCode::FrameworkLacks &&
              w.value == double(int(Knob::FusedLinearLoss))))
            kept.push_back(w);
    if (!e.fits)
        kept.push_back({WarningCode::DoesNotFit, -e.headroomBytes});
    // A rollout engine whose budget leaves no KV cache for one request refuses to start (as a
    // server would: serving/), whatever the phases' totals say.
    if (!plan.engineStarts)
        kept.push_back({WarningCode::ServingFails});
    e.warnings = kept;
    return e;
}

} // namespace vramplan
