#include "document/scenarioname.h"

#include "catalog.h"
#include "charts/units.h"
#include "formats/enum_names.h"
#include "model/model_weights.h"

#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace vramplan::ui {
namespace {

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// "Llama 3.1 8B" -> "Llama-3.1-8B", "GPT-2 (124M)" -> "GPT-2": the preset's name up to any
// parenthesis or comma, as a model id is written.
QString modelName(const ModelConfig &model)
{
    for (const auto &preset : Catalog::builtin().presets()) {
        if (preset.id != model.preset)
            continue;
        QString name = QString::fromStdString(preset.name);
        const qsizetype cut = name.indexOf(QRegularExpression(QStringLiteral("[(,]")));
        if (cut >= 0)
            name = name.left(cut);
        return name.trimmed().replace(QLatin1Char(' '), QLatin1Char('-'));
    }
    return QStringLiteral("%1 custom model").arg(formatCount(double(countParameters(model).total)));
}

QString optimizerName(Optimizer optimizer)
{
    switch (optimizer) {
    case Optimizer::Sgd:
        return QStringLiteral("SGD");
    case Optimizer::SgdMomentum:
        return QStringLiteral("SGD with momentum");
    case Optimizer::Adam:
        return QStringLiteral("Adam");
    case Optimizer::Adamw:
        return QStringLiteral("AdamW");
    case Optimizer::Adamw8bit:
        return QStringLiteral("8-bit AdamW");
    case Optimizer::PagedAdamw:
        return QStringLiteral("paged AdamW");
    case Optimizer::PagedAdamw8bit:
        return QStringLiteral("paged 8-bit AdamW");
    case Optimizer::Adafactor:
        return QStringLiteral("Adafactor");
    case Optimizer::Lion:
        return QStringLiteral("Lion");
    case Optimizer::Muon:
        return QStringLiteral("Muon");
    case Optimizer::Shampoo:
        return QStringLiteral("Shampoo");
    }
    return qs(toString(optimizer));
}

QString method(const FinetuneConfig &f)
{
    if (f.method == FinetuneMethod::Full)
        return QStringLiteral("full fine-tune");
    QStringList targets;
    for (const auto &t : f.loraTargets)
        targets << QString::fromStdString(t);
    const QString on = targets == QStringList{QStringLiteral("all-linear")}
                           ? QStringLiteral("all linear layers")
                           : targets.join(QStringLiteral(", "));
    return QStringLiteral("%1 on %2")
        .arg(f.method == FinetuneMethod::Qlora ? QStringLiteral("QLoRA") : QStringLiteral("LoRA"),
             on);
}

// "8k" for whole multiples of 1024, else the count.
QString tokens(int64_t n)
{
    return n % 1024 == 0 ? QStringLiteral("%1k").arg(n / 1024) : QString::number(n);
}

QString gpuName(const GpuConfig &gpu)
{
    if (!gpu.preset.empty())
        return QString::fromStdString(gpu.preset).toUpper();
    return QStringLiteral("%1 GiB GPU").arg(QString::number(gpu.memoryGiB, 'g', 4));
}

} // namespace

QString generatedName(const Scenario &s)
{
    const TrainingConfig &t = s.training;
    const ParallelConfig &p = s.parallelism;
    const bool training = t.mode == Mode::Train;
    QStringList parts{modelName(s.model)};
    parts << (training ? method(t.finetune) : QStringLiteral("inference"));
    if (t.sequenceLength != 4096)
        parts << QStringLiteral("%1 context").arg(tokens(t.sequenceLength));
    if (t.microBatchSize != 1)
        parts << QStringLiteral("micro-batch %1").arg(t.microBatchSize);
    if (training && t.recompute != Recompute::None)
        parts << QStringLiteral("%1 recompute").arg(qs(toString(t.recompute)));
    parts << qs(toString(t.precision)).replace(QLatin1Char('_'), QLatin1Char(' '));
    if (training)
        parts << optimizerName(t.optimizer);
    if (training && p.zeroStage > 0)
        parts << QStringLiteral("ZeRO-%1").arg(p.zeroStage);
    if (training && p.offloadOptimizer != Offload::None)
        parts << QStringLiteral("optimizer offload");
    const std::pair<const char *, int64_t> layout[] = {{"TP", p.tensorParallel},
                                                       {"PP", p.pipelineParallel},
                                                       {"CP", p.contextParallel},
                                                       {"EP", p.expertParallel}};
    for (const auto &[name, size] : layout)
        if (size > 1)
            parts << QStringLiteral("%1 %2").arg(QLatin1String(name)).arg(size);
    parts << QStringLiteral("%1 x %2").arg(p.gpus).arg(gpuName(s.gpu));
    return parts.join(QStringLiteral(", "));
}

QString scenarioFileName(const Scenario &scenario)
{
    const QString name =
        scenario.name.empty() ? generatedName(scenario) : QString::fromStdString(scenario.name);
    // Letters of any script stay (a Chinese name is a fine file name); separators, spaces and
    // what Windows or a shell refuses (/\:*?"<>|) do not.
    QString base;
    for (const QChar c : name)
        base +=
            c.isLetterOrNumber() || c == QLatin1Char('.') || c == QLatin1Char('_') ? c : QChar('-');
    base.replace(QRegularExpression(QStringLiteral("-{2,}")), QStringLiteral("-"));
    // A leading dot hides the file; a generated name can run long (file names stop at 255 bytes).
    base = base.left(96);
    base.remove(QRegularExpression(QStringLiteral("^[-.]+|[-.]+$")));
    return (base.isEmpty() ? QStringLiteral("scenario") : base) + QStringLiteral(".vramplan.json");
}

bool followsSettings(const Scenario &scenario)
{
    return scenario.name.empty() ||
           QString::fromStdString(scenario.name) == generatedName(scenario);
}

Scenario withFollowingName(const Scenario &before, Scenario after)
{
    if (after.name == before.name && followsSettings(before))
        after.name = generatedName(after).toStdString();
    return after;
}

} // namespace vramplan::ui
