// The advisor (core/advisor.h): every suggestion fits when estimated on its own, uses only its
// framework's knobs, keeps the model, the sequence and (unless it changes the hardware) the
// global batch; on small grids a brute-force search agrees on whether anything fits, and on
// whether anything fits without changing the tensor/pipeline layout (issue 22). Fits inside the
// estimate's likely range are marked and rank after those clear of it, and no change of one knob
// that fits is crowded out by changes of several (issue 21 #9).

#include "advice/advisor.h"
#include "advice/calibration.h"
#include "advice/step_time.h"
#include "training/capabilities.h"
#include "catalog.h"
#include "formats/scenario_json.h"
#include "testhelpers.h"

#include <QTest>

using namespace vramplan;

namespace {

Scenario defaultScenario()
{
    return test::parseOrFail(std::string(Catalog::builtin().defaultScenarioText()));
}

int64_t globalBatch(const Scenario &s)
{
    return s.training.microBatchSize * s.training.gradientAccumulationSteps *
           s.parallelism.dataParallel();
}

// Brute force over the knobs the advisor varies without expert/pipeline layouts or hardware:
// does any combination fit?
bool bruteForceFits(const Scenario &base)
{
    Scenario s = base;
    const int64_t global = base.training.microBatchSize * base.training.gradientAccumulationSteps;
    const std::pair<Recompute, int64_t> recomputes[] = {{Recompute::None, -1},
                                                        {Recompute::Selective, -1},
                                                        {Recompute::Full, base.model.layers / 2},
                                                        {Recompute::Full, -1}};
    const std::pair<Offload, Offload> offloads[] = {{Offload::None, Offload::None},
                                                    {Offload::Cpu, Offload::None},
                                                    {Offload::Nvme, Offload::None},
                                                    {Offload::Cpu, Offload::Cpu},
                                                    {Offload::Nvme, Offload::Nvme}};
    for (const auto &[mode, layers] : recomputes)
        for (int64_t zero = 0; zero <= 3; ++zero)
            for (const auto &[opt, params] : offloads)
                for (int64_t m = 1; m <= global; m *= 2) {
                    if (global % m)
                        continue;
                    s.training.recompute = mode;
                    s.training.recomputeLayers = layers;
                    s.parallelism.zeroStage = zero;
                    s.parallelism.offloadOptimizer = opt;
                    s.parallelism.offloadParameters = params;
                    s.training.microBatchSize = m;
                    s.training.gradientAccumulationSteps = global / m;
                    Knob missing[knobCount];
                    if (!checkScenario(s).empty() || missingCapabilities(s, missing) > 0)
                        continue;
                    if (estimate(s).fits)
                        return true;
                }
    return false;
}

// Issue 21 #9: Qwen3-8B full fine-tune at 8k on 4 x A100-80GB with FSDP (ZeRO-3), HF Trainer.
const char *qwen3FsdpDocument =
    R"({"format":"vramplan-scenario","model":{"preset":"qwen3-8b"},"training":{"micro_batch_size":1,"sequence_length":8192,"gradient_accumulation_steps":8},"parallelism":{"gpus":4,"zero_stage":3},"framework":"transformers","gpu":{"preset":"a100-80gb"}})";

// The same on GPUs of 62 GiB: recomputation alone fits inside the likely range.
const std::string qwen3On62 = [] {
    std::string doc = qwen3FsdpDocument;
    const std::string preset = R"("gpu":{"preset":"a100-80gb"})";
    return doc.replace(doc.find(preset), preset.size(), R"("gpu":{"memory_gib":62})");
}();

double perToken(const Scenario &s)
{
    const StepTime t = stepTime(s);
    return t.seconds / std::max(1.0, t.tokens);
}

} // namespace

class TestAdvisor : public QObject
{
    Q_OBJECT

private slots:
    void suggestionsFitOnTheirOwn_data();
    void suggestionsFitOnTheirOwn();
    void agreesWithBruteForce_data();
    void agreesWithBruteForce();
    void oneKnobFitsAreOffered_data();
    void oneKnobFitsAreOffered();
    void recomputeAloneIsOffered();
    void optimizerPrecisionIsProposed_data();
    void optimizerPrecisionIsProposed();
    void nothingFitsGivesTheNearest();
    void jsonFollowsTheContract();
};

void TestAdvisor::suggestionsFitOnTheirOwn_data()
{
    QTest::addColumn<QString>("document");
    const auto doc = [](const std::string &body) {
        return QString::fromStdString(R"({"format":"vramplan-scenario",)" + body + "}");
    };
    QTest::newRow("default: Llama-3.1-8B full fine-tune, 1 x H100")
        << QString::fromStdString(std::string(Catalog::builtin().defaultScenarioText()));
    QTest::newRow("Llama-2-7B on 8 x A100-40GB, transformers")
        << doc(R"("model":{"preset":"llama-2-7b"},"training":{"micro_batch_size":8,"sequence_length":4096,"gradient_accumulation_steps":4},"parallelism":{"gpus":8},"framework":"transformers","gpu":{"preset":"a100-40gb"})");
    QTest::newRow("Llama-3.1-70B on 16 x H100, megatron")
        << doc(R"("model":{"preset":"llama-3.1-70b"},"training":{"micro_batch_size":2,"sequence_length":8192,"gradient_accumulation_steps":16},"parallelism":{"gpus":16},"framework":"megatron","gpu":{"preset":"h100-80gb"})");
    QTest::newRow("Qwen3-30B-A3B on 8 x H100, torchtitan")
        << doc(R"("model":{"preset":"qwen3-30b-a3b"},"training":{"micro_batch_size":4,"sequence_length":4096,"gradient_accumulation_steps":2},"parallelism":{"gpus":8},"framework":"torchtitan","gpu":{"preset":"h100-80gb"})");
    QTest::newRow("Qwen3-8B LoRA at 32k on a 24 GB card, litgpt")
        << doc(R"("model":{"preset":"qwen3-8b"},"training":{"micro_batch_size":1,"sequence_length":32768,"finetune":{"method":"lora"}},"parallelism":{"gpus":1},"framework":"litgpt","gpu":{"preset":"rtx-4090"})");
    QTest::newRow("Qwen3-8B at 8k on 4 x A100-80GB, FSDP, transformers")
        << QString::fromLatin1(qwen3FsdpDocument);
    QTest::newRow("the same on 4 x 62 GiB") << QString::fromStdString(qwen3On62);
}

void TestAdvisor::suggestionsFitOnTheirOwn()
{
    QFETCH(QString, document);
    const Scenario s = test::parseOrFail(document.toStdString());
    const Advice a = advise(s);
    QVERIFY(a.searched >= a.estimated && a.estimated > 0);
    QVERIFY2(!a.suggestions.empty() || a.hasNearest, "neither a suggestion nor the nearest");
    double lastTime = 0;
    int lastKind = 0;
    bool lastInBand = false;
    for (const Suggestion &sg : a.suggestions) {
        const std::string where = sg.costBasis;
        // Fits on its own, with the peak the advice reports.
        const Estimate e = estimate(sg.scenario);
        QVERIFY2(e.fits, where.c_str());
        QCOMPARE(e.peak.device, sg.peakDeviceBytes);
        QVERIFY(!sg.changes.empty());
        QVERIFY(!sg.costBasis.empty());
        // Its framework has every knob it uses.
        Knob missing[knobCount];
        QCOMPARE(missingCapabilities(sg.scenario, missing), 0);
        // The model and the sequence are kept; the global batch too unless the GPUs change.
        QCOMPARE(sg.scenario.model.layers, s.model.layers);
        QCOMPARE(sg.scenario.training.sequenceLength, s.training.sequenceLength);
        if (sg.kind != ChangeKind::Hardware)
            QCOMPARE(globalBatch(sg.scenario), globalBatch(s));
        // Inside the likely range exactly when the peak times the band's high end passes the
        // capacity.
        QCOMPARE(sg.withinBand, e.peak.device * validationErrorBand.high > e.capacityBytes);
        // Kind by kind (same semantics first); within a kind the fits clear of the band first,
        // then fastest first.
        if (int(sg.kind) != lastKind || sg.withinBand != lastInBand)
            lastTime = 0;
        QVERIFY(int(sg.kind) >= lastKind);
        if (int(sg.kind) == lastKind)
            QVERIFY2(sg.withinBand || !lastInBand, "a clear fit ranked after one inside the band");
        QVERIFY(sg.relativeStepTime >= lastTime * 0.995);
        lastTime = sg.relativeStepTime;
        lastKind = int(sg.kind);
        lastInBand = sg.withinBand;
        QVERIFY(std::isfinite(sg.relativeStepTime) && sg.relativeStepTime > 0);
    }
}

void TestAdvisor::agreesWithBruteForce_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("framework");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<double>("memoryGiB");
    for (const char *framework : {"transformers", "deepspeed", "megatron", "litgpt"})
        for (double gib : {12.0, 24.0, 40.0, 80.0})
            QTest::addRow("llama-2-7b %s 2 GPUs %.0f GiB", framework, gib)
                << "llama-2-7b" << framework << 2 << gib;
    QTest::newRow("qwen3-0.6b torchtune 1 GPU 4 GiB") << "qwen3-0.6b" << "torchtune" << 1 << 4.0;
    QTest::newRow("gemma-2-2b transformers 1 GPU 16 GiB") << "gemma-2-2b" << "transformers" << 1
                                                          << 16.0;
}

void TestAdvisor::agreesWithBruteForce()
{
    QFETCH(QString, preset);
    QFETCH(QString, framework);
    QFETCH(int, gpus);
    QFETCH(double, memoryGiB);
    const Scenario s = test::parseOrFail(
        R"({"format":"vramplan-scenario","model":{"preset":")" + preset.toStdString() +
        R"("},"training":{"micro_batch_size":4,"sequence_length":2048,"gradient_accumulation_steps":2},"parallelism":{"gpus":)" +
        std::to_string(gpus) + R"(},"framework":")" + framework.toStdString() +
        R"(","gpu":{"memory_gib":)" + std::to_string(memoryGiB) + "}}");
    AdviceOptions options;
    options.hardware = false;
    const Advice a = advise(s, options);
    // Same-semantics layouts within the same GPUs, no method change: what brute force covers.
    bool advisorFits = a.fitsNow;
    for (const auto &sg : a.suggestions)
        advisorFits = advisorFits || (sg.kind == ChangeKind::SameSemantics &&
                                      sg.scenario.parallelism.tensorParallel ==
                                          s.parallelism.tensorParallel &&
                                      sg.scenario.parallelism.pipelineParallel ==
                                          s.parallelism.pipelineParallel);
    const bool bruteFits = bruteForceFits(s);
    // The advisor may find more (other layouts); it must not miss what brute force finds, and
    // since brute force keeps the tensor/pipeline layout, neither may the advisor's offer.
    if (bruteFits) {
        QVERIFY2(a.fitsNow || !a.suggestions.empty(), "brute force fits, the advisor found nothing");
        QVERIFY2(advisorFits, "a fit exists without changing TP/PP, the advisor offers none");
    }
    if (!a.fitsNow && a.suggestions.empty())
        QVERIFY(!bruteFits);
}

void TestAdvisor::oneKnobFitsAreOffered_data()
{
    QTest::addColumn<QString>("document");
    QTest::addColumn<int>("fittingSingles"); // how many of the one-knob changes tried fit
    QTest::newRow("Qwen3-8B at 8k on 4 x A100-80GB, FSDP, transformers")
        << QString::fromLatin1(qwen3FsdpDocument) << 1;
    QTest::newRow("the same on 4 x 62 GiB: recompute alone is a tight fit")
        << QString::fromStdString(qwen3On62) << 1;
    // Megatron's native fused cross-entropy at 32k tokens on Llama-3.1-8B, 8 GPUs.
    const auto fusedLoss = [](int tp, int gib) {
        return QString::fromStdString(
            R"({"format":"vramplan-scenario","model":{"preset":"llama-3.1-8b"},
            "training":{"micro_batch_size":1,"sequence_length":32768,"gradient_accumulation_steps":8,
                        "precision":"bf16_mixed","activation_recompute":"full","loss":"fused"},
            "parallelism":{"gpus":8,"tensor_parallel":)" +
            std::to_string(tp) +
            R"(,"sequence_parallel":true,"zero_stage":1},
            "framework":"megatron","gpu":{"memory_gib":)" +
            std::to_string(gib) + "}}");
    };
    // One fp32 block of the logits (4 GiB at TP 4) over a 35 GiB card; the unfused loss (or
    // TE's kernel) fits, as do ZeRO-2 and 3.
    QTest::newRow("Megatron fused loss at 32k on 35 GiB") << fusedLoss(4, 35) << 3;
    // On TP 8 of 8 GPUs the distributed optimizer has no data-parallel ranks to shard over, and
    // a change that keeps it (the loss alone) is still offered.
    QTest::newRow("Megatron fused loss at 32k, TP 8 of 8 GPUs, 24 GiB") << fusedLoss(8, 24) << 1;
    QTest::newRow("default: Llama-3.1-8B full fine-tune, 1 x H100")
        << QString::fromStdString(std::string(Catalog::builtin().defaultScenarioText())) << 0;
}

// Each change of one knob (a recomputation, a ZeRO stage, a loss) that fits on its own is
// offered, or another one-knob change of its kind as fast with no more memory is.
void TestAdvisor::oneKnobFitsAreOffered()
{
    QFETCH(QString, document);
    const Scenario s = test::parseOrFail(document.toStdString());
    const Advice a = advise(s);
    const double base = perToken(s);
    std::vector<Scenario> singles;
    for (const auto &[mode, layers] : {std::pair{Recompute::Selective, int64_t(-1)},
                                       std::pair{Recompute::Full, int64_t(-1)}}) {
        Scenario t = s;
        t.training.recompute = mode;
        t.training.recomputeLayers = layers;
        singles.push_back(t);
    }
    for (int64_t zero = 1; zero <= 3; ++zero) {
        Scenario t = s;
        t.parallelism.zeroStage = zero;
        singles.push_back(t);
    }
    for (LossKind loss :
         {LossKind::Standard, LossKind::Chunked, LossKind::FusedLinear, LossKind::Fused}) {
        Scenario t = s;
        t.training.loss = loss;
        singles.push_back(t);
    }
    int checked = 0;
    for (const Scenario &t : singles) {
        Knob missing[knobCount];
        if (!checkScenario(t).empty() || missingCapabilities(t, missing) > 0 ||
            scenarioToJson(t) == scenarioToJson(s))
            continue;
        const Estimate e = estimate(t);
        if (!e.fits)
            continue;
        ++checked;
        const double relative = perToken(t) / base;
        const bool inBand = fitsWithinBand(e.peak.device, e.capacityBytes);
        const bool offered = std::any_of(
            a.suggestions.begin(), a.suggestions.end(), [&](const Suggestion &sg) {
                const bool oneKnob =
                    sg.changes.size() == 1 ||
                    (sg.changes.size() == 2 &&
                     sg.changes[0].first == "training.activation_recompute" &&
                     sg.changes[1].first == "training.recompute_layers");
                return oneKnob && sg.kind == ChangeKind::SameSemantics &&
                       sg.relativeStepTime <= relative * 1.005 + 0.001 &&
                       sg.peakDeviceBytes <= e.peak.device + 0.01 * e.capacityBytes &&
                       (!sg.withinBand || inBand);
            });
        QVERIFY2(offered, qPrintable(QStringLiteral("not offered: recompute %1, ZeRO %2, loss %3")
                                         .arg(int(t.training.recompute))
                                         .arg(t.parallelism.zeroStage)
                                         .arg(int(t.training.loss))));
    }
    QFETCH(int, fittingSingles);
    QCOMPARE(checked, fittingSingles);
}

// Issue 21 #9 as reported: "recompute: full" alone fits (with about 21.7 GiB to spare) and is
// offered, clear of the likely range.
// Issue 22: the advisor proposes the optimizer precision the framework has (Megatron's
// precision-aware optimizer and DeepSpeed's bf16 optimizer states: bf16 exp_avg and exp_avg_sq;
// torchao's 4-bit AdamW where the framework can call it), alone, on a GPU just too small for
// the scenario as it is; and never where the framework lacks it (LitGPT).
void TestAdvisor::optimizerPrecisionIsProposed_data()
{
    QTest::addColumn<QString>("framework");
    QTest::addColumn<QString>("dtype"); // the states' dtype proposed; empty: none proposed
    QTest::newRow("megatron: bf16 states") << "megatron" << "bf16";
    // (DeepSpeed has bf16 optimizer states too, but bitsandbytes' 8-bit AdamW, which it also
    // runs, saves more in the same time, and the advisor keeps only the better of two one-knob
    // changes of a kind.)
    QTest::newRow("torchtune: torchao int4 states") << "torchtune" << "int4";
    QTest::newRow("transformers: torchao int4 states") << "transformers" << "int4";
    QTest::newRow("litgpt: none") << "litgpt" << "";
}

void TestAdvisor::optimizerPrecisionIsProposed()
{
    QFETCH(QString, framework);
    QFETCH(QString, dtype);
    const std::string body =
        R"({"format":"vramplan-scenario","model":{"preset":"qwen3-1.7b"},"training":{"micro_batch_size":1,"sequence_length":1024},"framework":")" +
        framework.toStdString() + R"(","gpu":{"memory_gib":MEM}})";
    const auto withMemory = [&](double gib) {
        std::string text = body;
        text.replace(text.find("MEM"), 3, std::to_string(gib));
        return test::parseOrFail(text);
    };
    // A GPU that misses the scenario by a quarter of its optimizer states.
    const Estimate big = estimate(withMemory(1024));
    const double states = big.componentBytes(Component::OptimizerStates);
    const double gib = (big.peak.device - 0.25 * states) / (1024.0 * 1024 * 1024);
    const Scenario s = withMemory(gib);
    QVERIFY(!estimate(s).fits);
    const Advice a = advise(s);
    const auto proposed = std::find_if(
        a.suggestions.begin(), a.suggestions.end(), [](const Suggestion &sg) {
            return !sg.changes.empty() &&
                   std::all_of(sg.changes.begin(), sg.changes.end(), [](const auto &c) {
                       return c.first.starts_with("training.optimizer_precision.");
                   });
        });
    if (dtype.isEmpty()) {
        QVERIFY(std::none_of(a.suggestions.begin(), a.suggestions.end(), [](const Suggestion &sg) {
            return std::any_of(sg.changes.begin(), sg.changes.end(), [](const auto &c) {
                return c.first.starts_with("training.optimizer_precision.");
            });
        }));
        return;
    }
    QVERIFY(proposed != a.suggestions.end());
    QCOMPARE(proposed->changes.size(), size_t(2));
    QCOMPARE(proposed->changes[0].first, std::string("training.optimizer_precision.exp_avg"));
    QCOMPARE(proposed->changes[0].second.get<std::string>(), dtype.toStdString());
    QCOMPARE(proposed->changes[1].first, std::string("training.optimizer_precision.exp_avg_sq"));
    QCOMPARE(int(proposed->kind), int(ChangeKind::Numerics));
    const Estimate e = estimate(proposed->scenario);
    QVERIFY(e.fits);
    // 16-bit states: 4 of the 12 bytes per parameter (states and master copy) saved.
    QVERIFY(e.componentBytes(Component::OptimizerStates) < 0.7 * states);
}

void TestAdvisor::recomputeAloneIsOffered()
{
    const Scenario s = test::parseOrFail(qwen3FsdpDocument);
    QVERIFY(!estimate(s).fits);
    const Advice a = advise(s);
    const auto alone = std::find_if(a.suggestions.begin(), a.suggestions.end(),
                                    [](const Suggestion &sg) {
                                        return sg.changes.size() == 1 &&
                                               sg.changes[0].first ==
                                                   "training.activation_recompute" &&
                                               sg.changes[0].second == "full";
                                    });
    QVERIFY(alone != a.suggestions.end());
    QVERIFY(!alone->withinBand);
    QVERIFY(alone->headroomBytes > 20.0 * 1024 * 1024 * 1024);
    QVERIFY(!adviceToJson(a)["suggestions"][size_t(alone - a.suggestions.begin())]["within_band"]
                 .get<bool>());

    // On 62 GiB it fits by less than the likely range: still offered (several-knob changes that
    // save more do not crowd it out), marked, and ranked after the clear fits of its kind.
    const Advice tight = advise(test::parseOrFail(qwen3On62));
    const auto it = std::find_if(tight.suggestions.begin(), tight.suggestions.end(),
                                 [](const Suggestion &sg) {
                                     return sg.changes.size() == 1 &&
                                            sg.changes[0].first == "training.activation_recompute";
                                 });
    QVERIFY(it != tight.suggestions.end());
    QVERIFY(it->withinBand);
    QVERIFY(adviceToJson(tight)["suggestions"][size_t(it - tight.suggestions.begin())]["within_band"]
                .get<bool>());
    QVERIFY(std::any_of(tight.suggestions.begin(), it, [&](const Suggestion &sg) {
        return sg.kind == it->kind && !sg.withinBand && sg.relativeStepTime <= it->relativeStepTime;
    }));
}

void TestAdvisor::nothingFitsGivesTheNearest()
{
    // Llama-3.1-405B full fine-tune on one 24 GB card, no other hardware allowed.
    const Scenario s = test::parseOrFail(
        R"({"format":"vramplan-scenario","model":{"preset":"llama-3.1-405b"},"training":{"micro_batch_size":1,"sequence_length":4096},"parallelism":{"gpus":1},"framework":"deepspeed","gpu":{"preset":"rtx-4090"}})");
    AdviceOptions options;
    options.hardware = false;
    const Advice a = advise(s, options);
    QVERIFY(!a.fitsNow);
    QVERIFY(a.suggestions.empty());
    QVERIFY(a.hasNearest);
    QVERIFY(a.nearest.headroomBytes < 0);
    QCOMPARE(a.maxMicroBatch, int64_t(0));
    // The nearest is the least over of everything estimated: offloading everything to NVMe
    // (to the CPU or NVMe: the GPU holds neither) with full recomputation.
    QCOMPARE(a.nearest.scenario.training.recompute, Recompute::Full);
    QVERIFY(a.nearest.scenario.parallelism.offloadParameters != Offload::None);
}

void TestAdvisor::jsonFollowsTheContract()
{
    const Advice a = advise(defaultScenario());
    const nlohmann::json j = adviceToJson(a);
    QCOMPARE(QString::fromStdString(j["format"].get<std::string>()), QStringLiteral("vramplan-advice"));
    QCOMPARE(j["version"].get<int>(), 1);
    QCOMPARE(j["fits_now"].get<bool>(), false);
    QVERIFY(j["searched"].get<int64_t>() > 0);
    QVERIFY(!j["suggestions"].empty());
    for (const auto &sg : j["suggestions"]) {
        for (const char *key : {"changes", "scenario", "fits", "peak_device_bytes",
                                "headroom_bytes", "kind", "relative_step_time", "cost_basis",
                                "within_band"})
            QVERIFY2(sg.contains(key), key);
        QCOMPARE(sg["within_band"].get<bool>(),
                 sg["peak_device_bytes"].get<double>() * validationErrorBand.high >
                     sg["peak_device_bytes"].get<double>() + sg["headroom_bytes"].get<double>());
        // The scenario is a complete scenario file that parses on its own.
        QVERIFY(scenarioFromJson(sg["scenario"]));
        for (const auto &[path, value] : sg["changes"].items())
            QVERIFY2(path.find('.') != std::string::npos, path.c_str());
        const std::string kind = sg["kind"];
        QVERIFY(kind == "same_semantics" || kind == "numerics" || kind == "method" ||
                kind == "hardware");
    }
}

QTEST_APPLESS_MAIN(TestAdvisor)
#include "tst_advisor.moc"
