#include "panels/fitwording.h"
#include "panels/fitwording_rl.h"

#include "formats/enum_names.h"
#include "formats/numeric_fields.h"
#include "panels/enumlabels.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>
#include <cmath>
#include <set>

namespace vramplan::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::FitWording)
};

QString arrow(int64_t from, int64_t to)
{
    return QStringLiteral("%1 → %2").arg(from).arg(to);
}

QString place(Offload o)
{
    switch (o) {
    case Offload::None:
        return QStringLiteral("GPU");
    case Offload::Cpu:
        return QStringLiteral("CPU");
    case Offload::Nvme:
        return QStringLiteral("NVMe");
    }
    return QStringLiteral("GPU");
}

QString recomputePhrase(const Scenario &s)
{
    const auto &t = s.training;
    switch (t.recompute) {
    case Recompute::None:
        return Words::tr("recompute: none");
    case Recompute::Selective:
        return Words::tr("recompute: selective");
    case Recompute::Full:
        break;
    }
    if (t.recomputeLayers < 0 || t.recomputeLayers >= s.model.layers)
        return Words::tr("recompute: full");
    return Words::tr("recompute: %1 of %2 layers").arg(t.recomputeLayers).arg(s.model.layers);
}

// "optimizer states: bf16" (both moments alike, as the advisor proposes them), else each
// field that is set.
QString optimizerPrecisionPhrase(const OptimizerPrecision &o)
{
    QStringList parts;
    if (o.expAvg != StateDtype::Auto && o.expAvg == o.expAvgSq)
        parts << Words::tr("optimizer states: %1").arg(QString::fromLatin1(toString(o.expAvg)));
    else {
        if (o.expAvg != StateDtype::Auto)
            parts << QStringLiteral("exp_avg: %1").arg(QString::fromLatin1(toString(o.expAvg)));
        if (o.expAvgSq != StateDtype::Auto)
            parts << QStringLiteral("exp_avg_sq: %1")
                         .arg(QString::fromLatin1(toString(o.expAvgSq)));
    }
    if (o.masterWeights != MasterDtype::Auto)
        parts << Words::tr("master weights: %1")
                     .arg(QString::fromLatin1(toString(o.masterWeights)));
    if (o.gradients != GradientDtype::Auto)
        parts << Words::tr("gradients: %1").arg(QString::fromLatin1(toString(o.gradients)));
    return parts.join(QStringLiteral(", "));
}

QString optimizerPhrase(Optimizer o)
{
    switch (o) {
    case Optimizer::Adamw8bit:
        return QStringLiteral("8-bit AdamW");
    case Optimizer::PagedAdamw8bit:
        return Words::tr("paged 8-bit AdamW");
    default:
        return Words::tr("optimizer: %1").arg(enumLabel(o));
    }
}

QString lossPhrase(LossKind l)
{
    switch (l) {
    case LossKind::Standard:
        return Words::tr("standard loss");
    case LossKind::Chunked:
        return Words::tr("chunked loss");
    case LossKind::FusedLinear:
        return Words::tr("fused linear loss");
    case LossKind::Fused:
        return Words::tr("fused cross-entropy kernel");
    }
    return Words::tr("standard loss");
}

QString methodPhrase(const Scenario &s)
{
    const auto &f = s.training.finetune;
    switch (f.method) {
    case FinetuneMethod::Lora:
        return QStringLiteral("LoRA r%1").arg(f.loraRank);
    case FinetuneMethod::Qlora:
        return QStringLiteral("QLoRA r%1").arg(f.loraRank);
    default:
        return Words::tr("full fine-tune");
    }
}

// A path the phrases below do not know, as the command line prints it: "zero_stage 3".
QString plainPhrase(const std::string &path, const nlohmann::json &value)
{
    const std::string leaf = path.substr(path.find('.') + 1);
    return QString::fromStdString(leaf + " " +
                                  (value.is_string() ? value.get<std::string>() : value.dump()));
}

} // namespace

QStringList changePhrases(const Scenario &from, const Suggestion &s)
{
    const Scenario &to = s.scenario;
    std::set<std::string> changed;
    for (const auto &[path, value] : s.changes)
        changed.insert(path);
    const auto has = [&](const char *path) { return changed.count(path) > 0; };

    QStringList out;
    std::vector<std::pair<int, QString>> ranked;
    std::set<std::string> said; // paths already in a phrase
    const auto rankOf = [](std::string_view path) {
        if (path == "parallelism.gpus" || path == "gpu.preset")
            return 0;
        if (path == "training.finetune.method")
            return 1;
        return path == "training.optimizer" || path.starts_with("training.optimizer_precision.")
                   ? 2
                   : 3;
    };
    std::string_view current; // the path being worded
    const auto say = [&](std::initializer_list<const char *> paths, const QString &phrase) {
        for (const char *p : paths)
            said.insert(p);
        ranked.emplace_back(rankOf(current), phrase);
    };
    for (const auto &[path, value] : s.changes) {
        if (said.count(path))
            continue;
        current = path;
        const auto &ft = from.training, &tt = to.training;
        const auto &fp = from.parallelism, &tp = to.parallelism;
        if (path == "training.micro_batch_size" || path == "training.gradient_accumulation_steps") {
            // The global batch stays: a smaller micro-batch takes more accumulation steps.
            if (has("training.micro_batch_size"))
                say({"training.micro_batch_size", "training.gradient_accumulation_steps"},
                    Words::tr("micro-batch %1 ×%2 accum")
                        .arg(arrow(ft.microBatchSize, tt.microBatchSize))
                        .arg(tt.gradientAccumulationSteps));
            else
                say({"training.gradient_accumulation_steps"},
                    Words::tr("accumulation %1")
                        .arg(arrow(ft.gradientAccumulationSteps, tt.gradientAccumulationSteps)));
        } else if (path == "training.activation_recompute" || path == "training.recompute_layers") {
            say({"training.activation_recompute", "training.recompute_layers"},
                recomputePhrase(to));
        } else if (path == "training.optimizer") {
            say({"training.optimizer"}, optimizerPhrase(tt.optimizer));
        } else if (path.starts_with("training.optimizer_precision.")) {
            say({"training.optimizer_precision.master_weights",
                 "training.optimizer_precision.gradients", "training.optimizer_precision.exp_avg",
                 "training.optimizer_precision.exp_avg_sq"},
                optimizerPrecisionPhrase(tt.optimizerPrecision));
        } else if (path == "training.loss") {
            say({"training.loss"}, lossPhrase(tt.loss));
        } else if (path == "training.finetune.method") {
            say({"training.finetune.method"}, methodPhrase(to));
        } else if (path == "parallelism.gpus" || path == "gpu.preset") {
            // A GPU of no preset is the user's ("custom" in the file), by its capacity.
            const bool custom =
                to.gpu.preset.empty() && (to.gpu.name.empty() || to.gpu.name == "custom");
            say({"parallelism.gpus", "gpu.preset"},
                QStringLiteral("%1 × %2").arg(tp.gpus).arg(
                    custom ? Words::tr("%1 GiB GPU", "a GPU of no preset: its capacity")
                                 .arg(QString::number(to.gpu.memoryGiB, 'g', 4))
                           : shortGpuName(to.gpu.name)));
        } else if (path == "parallelism.tensor_parallel") {
            say({"parallelism.tensor_parallel", "parallelism.sequence_parallel"},
                QStringLiteral("TP %1%2")
                    .arg(tp.tensorParallel)
                    .arg(tp.sequenceParallel ? QStringLiteral(" + SP") : QString()));
        } else if (path == "parallelism.sequence_parallel") {
            say({"parallelism.sequence_parallel"}, tp.sequenceParallel
                                                       ? Words::tr("sequence parallel")
                                                       : Words::tr("no sequence parallel"));
        } else if (path == "parallelism.pipeline_parallel" ||
                   path == "parallelism.virtual_pipeline_parallel") {
            say({"parallelism.pipeline_parallel", "parallelism.virtual_pipeline_parallel"},
                tp.virtualPipelineParallel > 1 ? Words::tr("PP %1 ×%2 virtual")
                                                     .arg(tp.pipelineParallel)
                                                     .arg(tp.virtualPipelineParallel)
                                               : QStringLiteral("PP %1").arg(tp.pipelineParallel));
        } else if (path == "parallelism.context_parallel") {
            say({"parallelism.context_parallel"}, QStringLiteral("CP %1").arg(tp.contextParallel));
        } else if (path == "parallelism.expert_parallel") {
            say({"parallelism.expert_parallel"}, QStringLiteral("EP %1").arg(tp.expertParallel));
        } else if (path == "parallelism.zero_stage") {
            say({"parallelism.zero_stage"},
                QStringLiteral("ZeRO %1").arg(arrow(fp.zeroStage, tp.zeroStage)));
        } else if (path == "parallelism.offload_optimizer" ||
                   path == "parallelism.offload_parameters") {
            const bool optimizer = has("parallelism.offload_optimizer");
            const bool parameters = has("parallelism.offload_parameters");
            if (optimizer && parameters && tp.offloadOptimizer == tp.offloadParameters)
                say({"parallelism.offload_optimizer", "parallelism.offload_parameters"},
                    Words::tr("optimizer + weights → %1").arg(place(tp.offloadOptimizer)));
            else if (path == "parallelism.offload_optimizer")
                say({"parallelism.offload_optimizer"},
                    Words::tr("optimizer → %1").arg(place(tp.offloadOptimizer)));
            else
                say({"parallelism.offload_parameters"},
                    Words::tr("weights → %1").arg(place(tp.offloadParameters)));
        } else if (const QString rl = path.starts_with("rl.") ? rlChangePhrase(path, from, to)
                                                                : QString();
                   !rl.isEmpty()) {
            if (path == "rl.rollout.placement" || path == "rl.rollout.gpus")
                say({"rl.rollout.placement", "rl.rollout.gpus"}, rl);
            else
                say({}, rl);
            said.insert(path);
        } else {
            say({}, plainPhrase(path, value));
            said.insert(path);
        }
    }
    // What makes the suggestion's kind first (the hardware, then the method, then the
    // numerics): a chip too narrow for every phrase still says what kind of change it is.
    std::stable_sort(ranked.begin(), ranked.end(),
                     [](const auto &a, const auto &b) { return a.first < b.first; });
    for (const auto &[rank, phrase] : ranked)
        out << phrase;
    return out;
}

QString chipTitle(const QStringList &phrases)
{
    constexpr qsizetype shown = 3; // what a chip's one line holds beside the panel's width
    if (phrases.size() <= shown)
        return phrases.join(QStringLiteral(", "));
    return phrases.first(shown).join(QStringLiteral(", ")) +
           QStringLiteral(" +%1").arg(phrases.size() - shown);
}

QStringList chipTitles(const QList<QStringList> &phrases)
{
    constexpr qsizetype first = 3; // as chipTitle()
    std::vector<std::vector<bool>> shown;
    for (const QStringList &p : phrases) {
        std::vector<bool> s(size_t(p.size()), false);
        for (qsizetype i = 0; i < p.size() && i < first; ++i)
            s[size_t(i)] = true;
        shown.push_back(std::move(s));
    }
    const auto titleOf = [&](qsizetype c) {
        QStringList parts;
        for (qsizetype i = 0; i < phrases[c].size(); ++i)
            if (shown[size_t(c)][size_t(i)])
                parts << phrases[c][i];
        const qsizetype hidden = phrases[c].size() - parts.size();
        return parts.join(QStringLiteral(", ")) +
               (hidden > 0 ? QStringLiteral(" +%1").arg(hidden) : QString());
    };
    QStringList titles;
    for (qsizetype c = 0; c < phrases.size(); ++c)
        titles << titleOf(c);
    // Each pass shows, on every chip whose title another shares, its first hidden phrase that
    // one of those others lacks; a phrase is shown once, so the passes end.
    for (bool changed = true; changed;) {
        changed = false;
        for (qsizetype c = 0; c < phrases.size(); ++c) {
            QList<qsizetype> twins;
            for (qsizetype d = 0; d < phrases.size(); ++d)
                if (d != c && titles[d] == titles[c])
                    twins << d;
            if (twins.isEmpty())
                continue;
            for (qsizetype i = 0; i < phrases[c].size(); ++i) {
                if (shown[size_t(c)][size_t(i)])
                    continue;
                const bool tells = std::any_of(twins.begin(), twins.end(), [&](qsizetype d) {
                    return !phrases[d].contains(phrases[c][i]);
                });
                if (tells) {
                    shown[size_t(c)][size_t(i)] = true;
                    changed = true;
                    break;
                }
            }
        }
        for (qsizetype c = 0; c < phrases.size(); ++c)
            titles[c] = titleOf(c);
    }
    return titles;
}

QString relativeTimeNumber(double relative)
{
    if (!std::isfinite(relative) || relative <= 0)
        return QString();
    // Two significant digits: 0.12×, 0.69×, 1.3×, 12×.
    const int decimals = relative < 1 ? 2 : relative < 10 ? 1 : 0;
    return QString::number(relative, 'f', decimals) + QChar(0xd7);
}

QString relativeTimeText(double relative)
{
    if (!std::isfinite(relative) || relative <= 0)
        return Words::tr("time unknown");
    return Words::tr("%1 time", "1.3× time").arg(relativeTimeNumber(relative));
}

QString kindName(ChangeKind kind, bool serving)
{
    switch (kind) {
    case ChangeKind::SameSemantics:
        return serving ? Words::tr("same model") : Words::tr("same training");
    case ChangeKind::Numerics:
        return Words::tr("numerics");
    case ChangeKind::Method:
        return Words::tr("method");
    case ChangeKind::Hardware:
        return Words::tr("hardware");
    }
    return QString();
}

QString kindMeaning(ChangeKind kind, bool serving)
{
    switch (kind) {
    case ChangeKind::SameSemantics:
        return serving ? Words::tr("The same model and weights, on other GPUs or split "
                                   "differently.")
                       : Words::tr("The same training, laid out or scheduled differently.");
    case ChangeKind::Numerics:
        return serving ? Words::tr("Quantised weights or an fp8 KV cache: the answers can "
                                   "change slightly.")
                       : Words::tr("The same method with other numerics (8-bit optimizer "
                                   "states).");
    case ChangeKind::Method:
        return Words::tr("Another training method: the model learns differently.");
    case ChangeKind::Hardware:
        return Words::tr("More GPUs or another GPU.");
    }
    return QString();
}

QColor kindColor(ChangeKind kind)
{
    // Apart from the breakdown's component colours and from the overflow red.
    switch (kind) {
    case ChangeKind::SameSemantics:
        return QColor(0x2e, 0x7d, 0x32); // green: nothing about the training changes
    case ChangeKind::Numerics:
        return QColor(0xb2, 0x6a, 0x00); // amber
    case ChangeKind::Method:
        return QColor(0x7b, 0x1f, 0xa2); // purple
    case ChangeKind::Hardware:
        return QColor(0x15, 0x65, 0xc0); // blue
    }
    return QColor(Qt::gray);
}

QString shortGpuName(const std::string &name)
{
    QString out = QString::fromStdString(name);
    const qsizetype paren = out.indexOf(QLatin1String(" ("));
    if (paren > 0)
        out.truncate(paren);
    for (const char *prefix : {"NVIDIA ", "Tesla ", "AMD "})
        if (out.startsWith(QLatin1String(prefix)))
            out.remove(0, qsizetype(qstrlen(prefix)));
    return out.isEmpty() ? QString::fromStdString(name) : out;
}

QString groupedNumber(int64_t n)
{
    // Comma grouping whatever the system's locale, as English and Chinese both write it.
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(qlonglong(n));
}

QString largestMicroBatchText(const Advice &advice)
{
    if (advice.maxMicroBatch > 0)
        return Words::tr("Largest micro-batch: %1").arg(groupedNumber(advice.maxMicroBatch));
    const NumericField *field = findNumericField("training.micro_batch_size");
    return Words::tr("Largest micro-batch: nothing fits, not even %1")
        .arg(groupedNumber(int64_t(field ? field->min : 1)));
}

QString longestSequenceText(const Advice &advice)
{
    if (advice.maxSequence > 0)
        return Words::tr("Longest sequence: %1").arg(groupedNumber(advice.maxSequence));
    return Words::tr("Longest sequence: nothing fits, not even the shortest");
}

QString fewestGpusText(const Advice &advice, const Scenario &scenario)
{
    if (advice.minGpus > 0)
        return Words::tr("Fewest GPUs: %1").arg(groupedNumber(advice.minGpus));
    const auto &p = scenario.parallelism;
    // Without ZeRO/FSDP every data-parallel rank holds the whole weights, gradients and states:
    // more GPUs leave the memory per GPU as it is, so the search's bound says nothing useful.
    if (scenario.training.mode == Mode::Train && p.zeroStage == 0)
        return Words::tr("Fewest GPUs: more do not help without ZeRO/FSDP");
    // Inference without an engine: every GPU holds the whole model unless it is split.
    if (scenario.training.mode != Mode::Train && p.tensorParallel * p.pipelineParallel <= 1 &&
        p.zeroStage < 3)
        return Words::tr("Fewest GPUs: more do not help without splitting the model (TP or PP)");
    // The solver tries whole model-parallel groups up to the GPU count a scenario may have
    // (the same bound `vramplan-cli min-gpus` names).
    const int64_t group =
        std::max<int64_t>(1, p.tensorParallel * p.pipelineParallel * p.contextParallel *
                                 std::max<int64_t>(1, p.expertParallel));
    const NumericField *field = findNumericField("parallelism.gpus");
    const int64_t most = field ? int64_t(field->max) : p.gpus;
    return Words::tr("Fewest GPUs: nothing fits up to %1 GPUs")
        .arg(groupedNumber(group * std::max<int64_t>(1, most / group)));
}

} // namespace vramplan::ui
