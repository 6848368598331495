#include "document/scenarioname.h"

#include "catalog.h"
#include "document/importedmodels.h"
#include "charts/units.h"
#include "formats/enum_names.h"
#include "model/model_weights.h"

#include "panels/enumlabels.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace vramplan::ui {
namespace {

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// A name is made in the window's language, or in English to recognise a name made before the
// language changed (a bundled scenario's, a file saved under the other language).
class Words
{
public:
    explicit Words(bool translated) : m_translated(translated) {}
    // `source` is a QT_TRANSLATE_NOOP of this file's context, for lupdate.
    QString operator()(const char *source, const char *comment = nullptr) const
    {
        return m_translated
                   ? QCoreApplication::translate("vramplan::ui::ScenarioName", source, comment)
                   : QString::fromUtf8(source);
    }
    // A QT_TRANSLATE_NOOP3 of this file's context: {source, comment}.
    struct Text
    {
        const char *source;
        const char *comment;
    };
    QString operator()(Text text) const { return (*this)(text.source, text.comment); }
    template <typename E> QString choice(E value) const
    {
        return m_translated ? enumLabel(value) : qs(toString(value));
    }

private:
    bool m_translated;
};

QString modelName(const ModelConfig &model, const Words &say)
{
    if (const QString id = presetModelId(model); !id.isEmpty())
        return id;
    // An imported model is named as its config names it.
    if (const QString imported = importedNameOf(model); !imported.isEmpty())
        return imported;
    return say(QT_TRANSLATE_NOOP("vramplan::ui::ScenarioName", "%1 custom model"))
        .arg(formatCount(double(countParameters(model).total)));
}

QString optimizerName(Optimizer optimizer, const Words &say)
{
    switch (optimizer) {
    case Optimizer::Sgd:
        return QStringLiteral("SGD");
    case Optimizer::SgdMomentum:
        return say(QT_TRANSLATE_NOOP("vramplan::ui::ScenarioName", "SGD with momentum"));
    case Optimizer::Adam:
        return QStringLiteral("Adam");
    case Optimizer::Adamw:
        return QStringLiteral("AdamW");
    case Optimizer::Adamw8bit:
        return QStringLiteral("8-bit AdamW");
    case Optimizer::PagedAdamw:
        return say(QT_TRANSLATE_NOOP("vramplan::ui::ScenarioName", "paged AdamW"));
    case Optimizer::PagedAdamw8bit:
        return say(QT_TRANSLATE_NOOP("vramplan::ui::ScenarioName", "paged 8-bit AdamW"));
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

QString method(const FinetuneConfig &f, const Words &say)
{
    if (f.method == FinetuneMethod::Full)
        return say(QT_TRANSLATE_NOOP("vramplan::ui::ScenarioName", "full fine-tune"));
    QStringList targets;
    for (const auto &t : f.loraTargets)
        targets << QString::fromStdString(t);
    const QString on =
        targets == QStringList{QStringLiteral("all-linear")}
            ? say(QT_TRANSLATE_NOOP("vramplan::ui::ScenarioName", "all linear layers"))
            : targets.join(QStringLiteral(", "));
    return say(QT_TRANSLATE_NOOP3("vramplan::ui::ScenarioName", "%1 on %2",
                                  "LoRA on all linear layers"))
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

QString nameIn(const Scenario &s, const Words &say)
{
    const TrainingConfig &t = s.training;
    const ParallelConfig &p = s.parallelism;
    const bool training = t.mode == Mode::Train;
    QStringList parts{modelName(s.model, say)};
    parts << (training ? method(t.finetune, say)
                       : say(QT_TRANSLATE_NOOP("vramplan::ui::ScenarioName", "inference")));
    if (t.sequenceLength != 4096)
        parts << say(QT_TRANSLATE_NOOP("vramplan::ui::ScenarioName", "%1 context"))
                     .arg(tokens(t.sequenceLength));
    if (t.microBatchSize != 1)
        parts << say(QT_TRANSLATE_NOOP("vramplan::ui::ScenarioName", "micro-batch %1"))
                     .arg(t.microBatchSize);
    if (training && t.recompute != Recompute::None)
        parts << say(QT_TRANSLATE_NOOP("vramplan::ui::ScenarioName", "%1 recompute"))
                     .arg(say.choice(t.recompute));
    parts << say.choice(t.precision).replace(QLatin1Char('_'), QLatin1Char(' '));
    if (training)
        parts << optimizerName(t.optimizer, say);
    if (training && p.zeroStage > 0)
        parts << QStringLiteral("ZeRO-%1").arg(p.zeroStage);
    if (training && p.offloadOptimizer != Offload::None)
        parts << say(QT_TRANSLATE_NOOP("vramplan::ui::ScenarioName", "optimizer offload"));
    const std::pair<const char *, int64_t> layout[] = {{"TP", p.tensorParallel},
                                                       {"PP", p.pipelineParallel},
                                                       {"CP", p.contextParallel},
                                                       {"EP", p.expertParallel}};
    for (const auto &[name, size] : layout)
        if (size > 1)
            parts << QStringLiteral("%1 %2").arg(QLatin1String(name)).arg(size);
    parts << QStringLiteral("%1 x %2").arg(p.gpus).arg(gpuName(s.gpu));
    return parts.join(
        say(QT_TRANSLATE_NOOP3("vramplan::ui::ScenarioName", ", ", "between the parts of a name")));
}

} // namespace

QString generatedName(const Scenario &s)
{
    return nameIn(s, Words(true));
}

QString shownName(const Scenario &scenario)
{
    return followsSettings(scenario) ? generatedName(scenario)
                                     : QString::fromStdString(scenario.name);
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
    if (scenario.name.empty())
        return true;
    const QString name = QString::fromStdString(scenario.name);
    return name == generatedName(scenario) || name == nameIn(scenario, Words(false));
}

Scenario withFollowingName(const Scenario &before, Scenario after)
{
    if (after.name == before.name && followsSettings(before))
        after.name = generatedName(after).toStdString();
    return after;
}

QString presetModelId(const ModelConfig &model)
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
    return {};
}

} // namespace vramplan::ui
