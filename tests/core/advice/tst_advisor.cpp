// The advisor (core/advisor.h): every suggestion fits when estimated on its own, uses only its
// framework's knobs, keeps the model, the sequence and (unless it changes the hardware) the
// global batch; on small grids a brute-force search agrees on whether anything fits.

#include "advice/advisor.h"
#include "training/capabilities.h"
#include "catalog.h"
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

} // namespace

class TestAdvisor : public QObject
{
    Q_OBJECT

private slots:
    void suggestionsFitOnTheirOwn_data();
    void suggestionsFitOnTheirOwn();
    void agreesWithBruteForce_data();
    void agreesWithBruteForce();
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
        // Kind by kind (same semantics first), fastest first within a kind.
        if (int(sg.kind) != lastKind)
            lastTime = 0;
        QVERIFY(int(sg.kind) >= lastKind);
        QVERIFY(sg.relativeStepTime >= lastTime * 0.995);
        lastTime = sg.relativeStepTime;
        lastKind = int(sg.kind);
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
    // The advisor may find more (other layouts); it must not miss what brute force finds.
    if (bruteFits)
        QVERIFY2(a.fitsNow || !a.suggestions.empty(), "brute force fits, the advisor found nothing");
    if (!a.fitsNow && a.suggestions.empty())
        QVERIFY(!bruteFits);
    Q_UNUSED(advisorFits);
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
                                "headroom_bytes", "kind", "relative_step_time", "cost_basis"})
            QVERIFY2(sg.contains(key), key);
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
