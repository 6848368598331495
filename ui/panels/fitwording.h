#pragma once
// How the "Make it fit" panel words the advisor's answers (core advisor.h): a short phrase per
// changed knob ("ZeRO 0 → 3", "recompute: full", "2 × H100 80GB", "micro-batch 4 → 1 ×4 accum",
// "LoRA r16"), the relative step time, the change kinds, and the solvers' answers with
// "nothing fits" where a solver found nothing (the same cases as `vramplan-cli max-batch`,
// `max-sequence` and `min-gpus`).

#include "advice/advisor.h"
#include "scenario.h"

#include <QColor>
#include <QString>
#include <QStringList>

namespace vramplan::ui {

// One phrase per knob `s` changes from `from`, in the order of its changes (related paths, such
// as the micro-batch and its accumulation, in one phrase).
QStringList changePhrases(const Scenario &from, const Suggestion &s);
// A chip's title: the first three phrases, then "+N" for the rest.
QString chipTitle(const QStringList &phrases);
// The titles of chips shown together, each as chipTitle() unless two would read the same: then
// the hidden phrases that tell them apart are shown too, in their order, and "+N" counts only
// the rest ("ZeRO 0 → 3, optimizer → CPU, TP 2, recompute: full +1"), so no two different
// suggestions share a title (issue 21 #19).
QStringList chipTitles(const QList<QStringList> &phrases);
// "1.3× time", "0.69× time": the step time per token relative to the scenario's own; the
// number alone ("1.3×"), empty where it is unknown.
QString relativeTimeText(double relative);
QString relativeTimeNumber(double relative);
// "same training", "numerics", "method", "hardware", and one sentence on what that means. For an
// inference server (`serving`) the layout-only kind is "same model": nothing trains.
QString kindName(ChangeKind kind, bool serving = false);
QString kindMeaning(ChangeKind kind, bool serving = false);
QColor kindColor(ChangeKind kind);
// "H100 80GB" for "H100 80GB (HBM3)", "H200" for "NVIDIA H200".
QString shortGpuName(const std::string &name);
// A whole number with thousands separators, as the panel shows counts: "12,288".
QString groupedNumber(int64_t n);

// The solvers' answers for the scenario as it is: "Largest micro-batch: 6", "Longest sequence:
// 12,288", "Fewest GPUs: 2", or where a solver found nothing "Fewest GPUs: nothing fits up to
// 1,048,576 GPUs" (the largest count of whole model-parallel groups the solver tries), or, for
// training without ZeRO/FSDP, that more GPUs do not lower the memory per GPU.
QString largestMicroBatchText(const Advice &advice);
QString longestSequenceText(const Advice &advice);
QString fewestGpusText(const Advice &advice, const Scenario &scenario);

} // namespace vramplan::ui
