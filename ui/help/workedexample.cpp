// The worked example of the guide, computed by the estimator for the Llama-2-7B preset.

#include "help/workedexample.h"

#include "catalog.h"
#include "charts/componentstyle.h"
#include "charts/ticklabels.h"
#include "charts/units.h"
#include "estimate.h"
#include "formats/scenario_json.h"

#include <QCoreApplication>

#include <nlohmann/json.hpp>

#include <cmath>

namespace vramplan::ui {
namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::WorkedExample)
};

constexpr const char *presetId = "llama-2-7b";
constexpr const char *gpuId = "h100-80gb";

double finite(double v)
{
    return std::isfinite(v) && v > 0 ? v : 0.0;
}

std::optional<Estimate> estimateOf(const std::string &text, QString &error)
{
    const Parsed<Scenario> parsed = scenarioFromText(text);
    if (!parsed) {
        error = QString::fromStdString(parsed.error);
        return std::nullopt;
    }
    return estimate(*parsed.value);
}

// The bytes of a component's items alive in the optimizer step, when weights, gradients and
// every optimizer state exist together; `name` picks one item, `except` leaves one out.
double bytesAtStep(const Estimate &e, Component c, std::string_view name = {},
                   std::string_view except = {})
{
    double sum = 0;
    for (const Item &item : e.items)
        if (item.component == c && item.aliveIn(Phase::OptimizerStep) &&
            (name.empty() || item.name == name) && (except.empty() || item.name != except))
            sum += finite(item.bytes());
    return sum;
}

// The frozen base of a LoRA run: every Parameters item but the adapters.
double frozenBase(const Estimate &e)
{
    return bytesAtStep(e, Component::Parameters, {}, "LoRA adapters");
}

constexpr std::string_view masterName = "fp32 master weights";

QString gib(double bytes)
{
    return formatSize(bytes, Unit::GiB, 2);
}

} // namespace

std::string workedExampleScenarioText(int gpus, int zeroStage, const std::string &method)
{
    const nlohmann::json scenario = {
        {"format", "vramplan-scenario"},
        {"version", 1},
        {"model", {{"preset", presetId}}},
        {"training",
         {{"mode", "train"},
          {"micro_batch_size", 1},
          {"sequence_length", 4096},
          {"precision", "bf16_mixed"},
          {"optimizer", "adamw"},
          {"activation_recompute", "none"},
          {"attention", "flash"},
          {"finetune", {{"method", method}}}}},
        {"parallelism", {{"gpus", gpus}, {"zero_stage", zeroStage}}},
        {"framework", "transformers"},
        {"gpu", {{"preset", gpuId}}}};
    return scenario.dump();
}

WorkedExample workedExample()
{
    WorkedExample x;
    const Catalog &catalog = Catalog::builtin();
    const ModelPreset *preset = catalog.preset(presetId);
    const GpuSpec *gpu = catalog.gpu(gpuId);
    if (!preset || !gpu) {
        x.error = Words::tr("the catalog has no %1 or %2").arg(QLatin1String(presetId), QLatin1String(gpuId));
        return x;
    }
    x.model = QString::fromStdString(preset->name);
    x.gpu = QString::fromStdString(gpu->name);
    const auto one = estimateOf(workedExampleScenarioText(), x.error);
    const auto sharded = estimateOf(workedExampleScenarioText(x.shards, 3), x.error);
    const auto lora = estimateOf(workedExampleScenarioText(1, 0, "lora"), x.error);
    const auto qlora = estimateOf(workedExampleScenarioText(1, 0, "qlora"), x.error);
    if (!one || !sharded || !lora || !qlora)
        return x;
    x.parameters = finite(double(one->parameters.total));
    x.weights = bytesAtStep(*one, Component::Parameters);
    x.gradients = bytesAtStep(*one, Component::Gradients);
    x.master = bytesAtStep(*one, Component::OptimizerStates, masterName);
    x.states = bytesAtStep(*one, Component::OptimizerStates, {}, masterName);
    x.device = finite(one->peak.device);
    x.activations = finite(one->componentBytes(Component::Activations));
    x.capacity = finite(one->capacityBytes);
    x.peakPhase = phaseName(one->peak.phase);
    const Scenario s = *scenarioFromText(workedExampleScenarioText()).value;
    x.microBatch = s.training.microBatchSize;
    x.sequence = s.training.sequenceLength;
    x.shardedWeights = bytesAtStep(*sharded, Component::Parameters);
    x.shardedGradients = bytesAtStep(*sharded, Component::Gradients);
    x.shardedMaster = bytesAtStep(*sharded, Component::OptimizerStates, masterName);
    x.shardedStates = bytesAtStep(*sharded, Component::OptimizerStates, {}, masterName);
    x.shardedDevice = finite(sharded->peak.device);
    x.loraBase = frozenBase(*lora);
    x.qloraBase = frozenBase(*qlora);
    x.adapterParameters = finite(double(lora->trainableParameters));
    if (!(x.parameters > 0))
        x.error = Words::tr("the preset has no parameters");
    return x;
}

QString bytesPerParameterText(double bytes, double parameters)
{
    if (!(parameters > 0) || !std::isfinite(bytes))
        return QStringLiteral("?");
    QString text = QString::number(bytes / parameters, 'f', 2);
    while (text.endsWith(QLatin1Char('0')))
        text.chop(1);
    if (text.endsWith(QLatin1Char('.')))
        text.chop(1);
    return text;
}

QString workedExampleHtml(const WorkedExample &x)
{
    if (!x.error.isEmpty())
        return QStringLiteral("<p>%1</p>")
            .arg(Words::tr("The worked example could not be computed: %1").arg(x.error.toHtmlEscaped()));
    const double n = x.parameters;
    const auto row = [&](const QString &what, double bytes, double sharded, bool bold = false) {
        const QString b = bold ? QStringLiteral("<b>%1</b>") : QStringLiteral("%1");
        return QStringLiteral("<tr><td>%1</td><td align=\"right\">%2</td><td align=\"right\">%3</td>"
                              "<td align=\"right\">%4</td><td align=\"right\">%5</td></tr>")
            .arg(b.arg(what), b.arg(bytesPerParameterText(bytes, n)), b.arg(gib(bytes)),
                 b.arg(bytesPerParameterText(sharded, n)), b.arg(gib(sharded)));
    };
    QString html = QStringLiteral("<p>%1</p>")
                       .arg(Words::tr("%1 has %2 parameters (%3 exactly, counted tensor by tensor). "
                                      "Fully fine-tuned with bf16 mixed precision and AdamW, the "
                                      "estimator holds for each parameter:")
                                .arg(x.model, formatCount(n), QString::number(qint64(n))));
    html += QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\" "
                           "style=\"border-collapse:collapse; border-color:#c8c8c8\">"
                           "<tr style=\"background-color:#e8e8e8\"><th align=\"left\">%1</th>"
                           "<th>%2</th><th>%3</th><th>%4</th><th>%5</th></tr>")
                .arg(Words::tr("Tensor"), Words::tr("bytes per parameter, one GPU"),
                     Words::tr("one GPU (GiB = 2<sup>30</sup> bytes)"),
                     Words::tr("bytes per parameter on each GPU, ZeRO-3 over %1").arg(x.shards),
                     Words::tr("each GPU, ZeRO-3 over %1").arg(x.shards));
    html += row(Words::tr("weights (used by forward and backward)"), x.weights, x.shardedWeights);
    html += row(Words::tr("gradients (from backward to the optimizer step)"), x.gradients,
                x.shardedGradients);
    html += row(Words::tr("AdamW states: first and second moment in fp32"), x.states,
                x.shardedStates);
    html += row(Words::tr("fp32 master weights (the optimizer updates these)"), x.master,
                x.shardedMaster);
    html += row(Words::tr("model states"), x.modelStates(), x.shardedModelStates(), true);
    html += QStringLiteral("</table>");
    // Whether it fits is the estimate's, and why it does not: the model states alone, or with
    // the activations.
    const QString verdict = x.modelStates() > x.capacity ? Words::tr("it does not fit, whatever the batch")
                            : x.device > x.capacity      ? Words::tr("it does not fit")
                                                         : Words::tr("it fits");
    html += QStringLiteral("<p>%1</p>")
                .arg(Words::tr("That is the rule of %1 bytes per parameter for mixed-precision "
                               "Adam (Rajbhandari et al. 2020, ZeRO §3): %2 of model states before "
                               "a single activation. On one %3 at micro-batch %4 and %5 tokens the "
                               "whole estimate peaks at <b>%6</b> (%7), %8 of it activations, "
                               "against %9 of memory: %10.")
                         .arg(bytesPerParameterText(x.modelStates(), n), gib(x.modelStates()), x.gpu,
                              QString::number(x.microBatch), QString::number(x.sequence),
                              gib(x.device), x.peakPhase, gib(x.activations), gib(x.capacity))
                         .arg(verdict));
    html += QStringLiteral("<p>%1</p>")
                .arg(Words::tr("In the first columns the weights and gradients are bf16 (2 bytes) "
                               "and the optimizer keeps its own fp32 copy of the weights beside "
                               "the two fp32 moments. ZeRO-3 (FSDP's full sharding) over %1 GPUs "
                               "gives each GPU 1/%1 of every row (the last columns): %2 of model "
                               "states per GPU, and a device peak of %3 with the layers gathered "
                               "for compute and the communication buffers. Where a row moves "
                               "between the columns, the framework does it: FSDP as transformers "
                               "runs it (through accelerate) keeps its shards in fp32 and steps "
                               "them directly, so the shards are the master weights.")
                         .arg(QString::number(x.shards), gib(x.shardedModelStates()),
                              gib(x.shardedDevice)));
    html += QStringLiteral("<p>%1</p>")
                .arg(Words::tr("LoRA freezes the base: it stays in bf16 (%1 bytes per parameter, "
                               "%2), with no gradients or optimizer states; only the %3 adapter "
                               "parameters train. QLoRA stores the frozen linear layers in 4-bit "
                               "NF4: the base takes %4 bytes per parameter, %5.")
                         .arg(bytesPerParameterText(x.loraBase, n), gib(x.loraBase),
                              formatCount(x.adapterParameters), bytesPerParameterText(x.qloraBase, n),
                              gib(x.qloraBase)));
    return html;
}

} // namespace vramplan::ui
