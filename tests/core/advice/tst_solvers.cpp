// The solvers (core/solvers.h) against estimate() itself: each answer fits, and the next step
// past it does not, so a solver is neither conservative nor off by one.

#include "estimate.h"
#include "formats/scenario_json.h"
#include "advice/solvers.h"
#include "testhelpers.h"

#include <QObject>
#include <QTest>

#include <string>

using namespace vramplan;
using vramplan::test::parseOrFail;

namespace {

// A scenario document from its model, training, parallelism and gpu members.
std::string scenarioText(const char *model, const char *training, const char *parallelism,
                         const char *gpu, const char *framework = "transformers")
{
    return std::string(R"({"format": "vramplan-scenario", "version": 1, "model": )") + model +
           R"(, "training": )" + training + R"(, "parallelism": )" + parallelism + R"(, "gpu": )" +
           gpu + R"(, "framework": ")" + framework + "\"}";
}

bool fitsWithBatch(Scenario s, int64_t batch)
{
    s.training.microBatchSize = batch;
    return estimate(s).fits;
}

bool fitsWithSequence(Scenario s, int64_t sequence)
{
    s.training.sequenceLength = sequence;
    return estimate(s).fits;
}

bool fitsWithGpus(Scenario s, int64_t gpus)
{
    s.parallelism.gpus = gpus;
    return checkScenario(s).empty() && estimate(s).fits;
}

constexpr int64_t batchLimit = int64_t(1) << 20;
constexpr int64_t sequenceLimit = int64_t(1) << 24;
constexpr int64_t gpuLimit = int64_t(1) << 20;

} // namespace

class TestSolvers : public QObject
{
    Q_OBJECT

private slots:
    void maxMicroBatchSize_data();
    void maxMicroBatchSize();
    void maxSequenceLength_data();
    void maxSequenceLength();
    void minGpuCount_data();
    void minGpuCount();
    void solversLeaveTheScenarioAlone();
};

void TestSolvers::maxMicroBatchSize_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<bool>("fitsAtOne");

    QTest::newRow("gpt2 on rtx-4090")
        << QString::fromStdString(scenarioText(
               R"({"preset": "gpt2"})",
               R"({"sequence_length": 1024, "precision": "amp_bf16", "attention": "sdpa"})",
               R"({"gpus": 1})", R"({"preset": "rtx-4090"})"))
        << true;
    QTest::newRow("llama-2-7b LoRA bf16 on a100-80gb")
        << QString::fromStdString(scenarioText(R"({"preset": "llama-2-7b"})",
                                               R"({"sequence_length": 2048, "precision": "bf16",
                   "finetune": {"method": "lora", "lora_rank": 16}})",
                                               R"({"gpus": 1})", R"({"preset": "a100-80gb"})"))
        << true;
    QTest::newRow("tinyllama-1.1b full bf16_mixed on h100-80gb")
        << QString::fromStdString(scenarioText(R"({"preset": "tinyllama-1.1b"})",
                                               R"({"sequence_length": 2048,
                                                   "precision": "bf16_mixed"})",
                                               R"({"gpus": 1})", R"({"preset": "h100-80gb"})"))
        << true;
    QTest::newRow("llama-2-70b full fp32 on rtx-3090: not even 1")
        << QString::fromStdString(scenarioText(R"({"preset": "llama-2-70b"})",
                                               R"({"sequence_length": 4096, "precision": "fp32"})",
                                               R"({"gpus": 1})", R"({"preset": "rtx-3090"})"))
        << false;
}

void TestSolvers::maxMicroBatchSize()
{
    QFETCH(QString, scenario);
    QFETCH(bool, fitsAtOne);

    const Scenario s = parseOrFail(scenario.toStdString());
    const int64_t b = vramplan::maxMicroBatchSize(s);
    QVERIFY(b >= 0 && b <= batchLimit);
    QCOMPARE(b > 0, fitsAtOne);
    if (b > 0)
        QVERIFY2(fitsWithBatch(s, b), std::to_string(b).c_str());
    if (b < batchLimit)
        QVERIFY2(!fitsWithBatch(s, b + 1), std::to_string(b + 1).c_str());
}

void TestSolvers::maxSequenceLength_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<int>("granularity");
    QTest::addColumn<bool>("fitsAtOneStep");

    const std::string gpt2 =
        scenarioText(R"({"preset": "gpt2"})",
                     R"({"micro_batch_size": 8, "precision": "amp_bf16", "attention": "sdpa"})",
                     R"({"gpus": 1})", R"({"preset": "rtx-4090"})");
    const std::string lora =
        scenarioText(R"({"preset": "llama-2-7b"})",
                     R"({"precision": "bf16", "finetune": {"method": "lora", "lora_rank": 16}})",
                     R"({"gpus": 1})", R"({"preset": "a100-80gb"})");
    const std::string tiny =
        scenarioText(R"({"preset": "tinyllama-1.1b"})", R"({"precision": "bf16_mixed"})",
                     R"({"gpus": 1})", R"({"preset": "h100-80gb"})");
    const std::string eager = scenarioText(R"({"preset": "tinyllama-1.1b"})",
                                           R"({"precision": "bf16_mixed", "attention": "eager"})",
                                           R"({"gpus": 1})", R"({"preset": "h100-80gb"})");
    const std::string huge =
        scenarioText(R"({"preset": "llama-2-70b"})", R"({"precision": "fp32"})", R"({"gpus": 1})",
                     R"({"preset": "rtx-3090"})");

    QTest::newRow("gpt2 on rtx-4090") << QString::fromStdString(gpt2) << 256 << true;
    QTest::newRow("llama-2-7b LoRA bf16 on a100-80gb")
        << QString::fromStdString(lora) << 256 << true;
    QTest::newRow("tinyllama-1.1b full on h100-80gb")
        << QString::fromStdString(tiny) << 256 << true;
    QTest::newRow("tinyllama-1.1b eager on h100-80gb")
        << QString::fromStdString(eager) << 256 << true;
    QTest::newRow("tinyllama-1.1b full, granularity 1000")
        << QString::fromStdString(tiny) << 1000 << true;
    QTest::newRow("llama-2-70b fp32 on rtx-3090: none")
        << QString::fromStdString(huge) << 256 << false;
}

void TestSolvers::maxSequenceLength()
{
    QFETCH(QString, scenario);
    QFETCH(int, granularity);
    QFETCH(bool, fitsAtOneStep);

    const Scenario s = parseOrFail(scenario.toStdString());
    const int64_t length = vramplan::maxSequenceLength(s, granularity);
    QVERIFY(length >= 0 && length <= sequenceLimit);
    QCOMPARE(length % granularity, int64_t(0));
    QCOMPARE(length > 0, fitsAtOneStep);
    if (length > 0)
        QVERIFY2(fitsWithSequence(s, length), std::to_string(length).c_str());
    if (length + granularity <= sequenceLimit)
        QVERIFY2(!fitsWithSequence(s, length + granularity),
                 std::to_string(length + granularity).c_str());
}

void TestSolvers::minGpuCount_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<int>("unit"); // GPUs per data-parallel replica (tp x pp x cp [x ep])
    QTest::addColumn<bool>("fits");

    QTest::newRow("llama-2-7b full bf16_mixed zero 3 on a100-80gb")
        << QString::fromStdString(scenarioText(R"({"preset": "llama-2-7b"})",
                                               R"({"micro_batch_size": 1, "sequence_length": 4096,
                                "precision": "bf16_mixed"})",
                                               R"({"gpus": 8, "zero_stage": 3})",
                                               R"({"preset": "a100-80gb"})"))
        << 1 << true;
    QTest::newRow("llama-2-70b full bf16_mixed tp 8 zero 1 on h100-80gb, megatron")
        << QString::fromStdString(scenarioText(
               R"({"preset": "llama-2-70b"})",
               R"({"micro_batch_size": 1, "sequence_length": 4096, "precision": "bf16_mixed",
                   "activation_recompute": "selective"})",
               R"({"gpus": 8, "tensor_parallel": 8, "sequence_parallel": true, "zero_stage": 1})",
               R"({"preset": "h100-80gb"})", "megatron"))
        << 8 << true;
    QTest::newRow("llama-2-13b full fp32 adam zero 3 on rtx-3090")
        << QString::fromStdString(scenarioText(
               R"({"preset": "llama-2-13b"})",
               R"({"micro_batch_size": 1, "sequence_length": 1024, "precision": "fp32",
                   "optimizer": "adam", "activation_recompute": "full"})",
               R"({"gpus": 1, "zero_stage": 3})", R"({"preset": "rtx-3090"})", "deepspeed"))
        << 1 << true;
    QTest::newRow("sequence 16M, eager attention, zero 3: never")
        << QString::fromStdString(
               scenarioText(R"({"preset": "llama-2-7b"})",
                            R"({"micro_batch_size": 1, "sequence_length": 16000000,
                                "precision": "bf16_mixed", "attention": "eager"})",
                            R"({"gpus": 1, "zero_stage": 3})", R"({"preset": "rtx-3090"})"))
        << 1 << false;
}

void TestSolvers::minGpuCount()
{
    QFETCH(QString, scenario);
    QFETCH(int, unit);
    QFETCH(bool, fits);

    const Scenario s = parseOrFail(scenario.toStdString());
    const int64_t n = vramplan::minGpuCount(s);
    if (!fits) {
        QCOMPARE(n, int64_t(0));
        QVERIFY(!fitsWithGpus(s, gpuLimit));
        return;
    }
    QVERIFY2(n > 0, "no GPU count fits");
    QVERIFY(n <= gpuLimit);
    QCOMPARE(n % unit, int64_t(0));
    QVERIFY2(fitsWithGpus(s, n), std::to_string(n).c_str());
    // The previous valid count does not fit.
    int64_t previous = n - 1;
    while (previous > 0) {
        Scenario t = s;
        t.parallelism.gpus = previous;
        if (checkScenario(t).empty())
            break;
        --previous;
    }
    if (previous > 0)
        QVERIFY2(!fitsWithGpus(s, previous), std::to_string(previous).c_str());
}

// The solvers work on a copy: the scenario passed in is unchanged.
void TestSolvers::solversLeaveTheScenarioAlone()
{
    const Scenario s =
        parseOrFail(scenarioText(R"({"preset": "tinyllama-1.1b"})", R"({"micro_batch_size": 3})",
                                 R"({"gpus": 2})", R"({"preset": "h100-80gb"})"));
    const std::string before = scenarioToJson(s).dump();
    Scenario copy = s;
    vramplan::maxMicroBatchSize(copy);
    vramplan::maxSequenceLength(copy);
    vramplan::minGpuCount(copy);
    QCOMPARE(scenarioToJson(copy).dump(), before);
}

QTEST_APPLESS_MAIN(TestSolvers)
#include "tst_solvers.moc"
