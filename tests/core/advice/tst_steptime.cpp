// The step-time model (core/advice/step_time.h) against published training throughput
// (tests/data/measured/throughput.json: torchtitan, Megatron, LitGPT, torchtune, Answer.AI,
// Llama 3, DeepSeek-V3): each figure converted to tokens per second per GPU and compared with
// the model's at its default MFU. Prints the table; the bounds are ratchets at the figures
// reached (docs/step_time.md).

#include "advice/step_time.h"
#include "testhelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>

using namespace vramplan;

// Ratchets: the median |error| reached so far (docs/step_time.md); they only ever tighten.
constexpr double ratchetAll = 0.36;
constexpr double ratchetHigh = 0.38;

class TestStepTime : public QObject
{
    Q_OBJECT

private slots:
    void againstPublishedThroughput();
    void costsMoveTheRightWay();
    void catalogPeaks_data();
    void catalogPeaks();
};

// Published throughput as tokens per second per GPU, from whichever figure the source gave.
static double publishedTokensPerGpu(const nlohmann::json &run, const Scenario &s,
                                    const StepTime &st)
{
    const auto &p = run["published"];
    const std::string metric = p.value("metric", "");
    const double value = p.value("value", 0.0);
    const double gpus = double(std::max<int64_t>(1, s.parallelism.gpus));
    if (metric == "tokens_per_second_per_gpu")
        return value;
    if (metric == "tflops_per_gpu") // the model's FLOPs per token turn TFLOP/s into tokens
        return st.flopsPerToken > 0 ? value * 1e12 / st.flopsPerToken : 0;
    if (metric == "mfu") {
        const double peak = gpuThroughput(s).tflops * 1e12;
        return st.flopsPerToken > 0 ? value / (value > 1 ? 100.0 : 1.0) * peak / st.flopsPerToken
                                    : 0;
    }
    if (metric == "seconds_per_step") {
        const double tokens = p.contains("global_batch_tokens") && p["global_batch_tokens"].is_number()
                                  ? p["global_batch_tokens"].get<double>()
                                  : st.tokens;
        return value > 0 ? tokens / value / gpus : 0;
    }
    if (metric == "samples_per_second")
        return value * double(s.training.sequenceLength) / gpus;
    return 0;
}

void TestStepTime::againstPublishedThroughput()
{
    const auto doc = nlohmann::json::parse(
        test::readFile(test::dataPath("measured/throughput.json")), nullptr, false);
    QVERIFY2(doc.is_object() && doc.contains("runs"), "throughput.json: no runs");
    std::vector<double> errors, reliable;
    std::printf("%-22s %-8s %12s %12s %8s\n", "run", "rel.", "published", "model", "error");
    for (const auto &run : doc["runs"]) {
        const auto parsed = scenarioFromJson(run["scenario"]);
        QVERIFY2(parsed, (run.value("id", "?") + ": " + parsed.error).c_str());
        const StepTime st = stepTime(*parsed.value);
        const double gpus = double(std::max<int64_t>(1, parsed.value->parallelism.gpus));
        const double model = st.seconds > 0 ? st.tokens / st.seconds / gpus : 0;
        const double published = publishedTokensPerGpu(run, *parsed.value, st);
        if (!(published > 0) || !(model > 0))
            continue;
        const double error = model / published - 1;
        errors.push_back(std::fabs(error));
        const std::string reliability = run.value("reliability", "");
        if (reliability == "high")
            reliable.push_back(std::fabs(error));
        std::printf("%-22s %-8s %12.0f %12.0f %+7.0f%%\n", run.value("id", "?").c_str(),
                    reliability.c_str(), published, model, error * 100);
    }
    QVERIFY(errors.size() >= 100);
    const auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        return v.empty() ? 0.0 : v[v.size() / 2];
    };
    std::printf("tokens/s per GPU: %zu figures, median |error| %.0f%%; %zu of high reliability, "
                "median %.0f%%\n",
                errors.size(), median(errors) * 100, reliable.size(), median(reliable) * 100);
    QVERIFY2(median(errors) <= ratchetAll, "median error over all figures grew");
    QVERIFY2(median(reliable) <= ratchetHigh, "median error over high-reliability figures grew");
}

// What the advisor relies on: recomputation, offload and ZeRO-3 never make a step faster; more
// GPUs of the same kind never make a token slower; LoRA does less work per token.
void TestStepTime::costsMoveTheRightWay()
{
    const Scenario base = test::parseOrFail(
        R"({"format":"vramplan-scenario","model":{"preset":"llama-3.1-8b"},"training":{"micro_batch_size":2,"sequence_length":4096,"gradient_accumulation_steps":4},"parallelism":{"gpus":8,"zero_stage":2},"framework":"transformers","gpu":{"preset":"h100-80gb"}})");
    const double t0 = stepTime(base).seconds;
    QVERIFY(t0 > 0 && std::isfinite(t0));
    Scenario s = base;
    s.training.recompute = Recompute::Full;
    QVERIFY(stepTime(s).seconds > t0);
    s = base;
    s.parallelism.offloadOptimizer = Offload::Cpu;
    QVERIFY(stepTime(s).seconds > t0);
    s = base;
    s.parallelism.zeroStage = 3;
    QVERIFY(stepTime(s).seconds >= t0);
    s = base;
    s.training.finetune.method = FinetuneMethod::Lora;
    QVERIFY(stepTime(s).seconds < t0);
    s = base;
    s.parallelism.gpus = 16;
    const StepTime more = stepTime(s);
    QVERIFY(more.seconds / more.tokens <= stepTime(base).seconds / stepTime(base).tokens);
}

QTEST_APPLESS_MAIN(TestStepTime)
// The peaks the step-time model takes from the catalog for the GPUs added in issue 21
// (dense, from the datasheets that tests/data/gpu_specs.json cites): none falls back to its
// architecture's class value (an H20 is not an H100, an RTX PRO 6000 not a B200).
void TestStepTime::catalogPeaks_data()
{
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<double>("bf16");
    QTest::addColumn<double>("fp8");
    QTest::addColumn<double>("memoryGBs");
    QTest::addColumn<double>("nodeLinkGBs");
    QTest::newRow("A800: A100 compute, NVLink 400 GB/s") << "a800-80gb" << 312.0 << 0.0 << 2039.0 << 200.0;
    QTest::newRow("H800: H100 compute, NVLink 400 GB/s") << "h800-80gb" << 989.4 << 1978.9 << 3350.0 << 200.0;
    QTest::newRow("H20") << "h20-96gb" << 148.0 << 296.0 << 4000.0 << 450.0;
    QTest::newRow("L20") << "l20-48gb" << 119.5 << 239.0 << 864.0 << 32.0;
    QTest::newRow("RTX 4090 D (derived)") << "rtx-4090d" << 147.1 << 294.2 << 1008.0 << 32.0;
    QTest::newRow("A40") << "a40-48gb" << 149.7 << 0.0 << 696.0 << 56.25;
    QTest::newRow("MI325X") << "mi325x-256gb" << 1307.4 << 2614.9 << 6000.0 << 448.0;
    QTest::newRow("B300") << "b300-288gb" << 2250.0 << 4500.0 << 8000.0 << 900.0;
    QTest::newRow("GB200, one GPU") << "gb200-186gb" << 2500.0 << 5000.0 << 8000.0 << 900.0;
    QTest::newRow("RTX PRO 6000 Blackwell Server") << "rtx-pro-6000-96gb" << 503.8 << 1007.6 << 1597.0 << 64.0;
}

void TestStepTime::catalogPeaks()
{
    QFETCH(QString, gpu);
    QFETCH(double, bf16);
    QFETCH(double, fp8);
    QFETCH(double, memoryGBs);
    QFETCH(double, nodeLinkGBs);
    const Scenario s = test::parseOrFail(
        R"({"format":"vramplan-scenario","model":{"preset":"llama-3.1-8b"},"gpu":{"preset":")" +
        gpu.toStdString() + R"("}})");
    const GpuThroughput t = gpuThroughput(s);
    QCOMPARE(t.tflops, bf16);
    QCOMPARE(t.fp8Tflops, fp8);
    QCOMPARE(t.memoryGBs, memoryGBs);
    QCOMPARE(t.nodeLinkGBs, nodeLinkGBs);
}

#include "tst_steptime.moc"
