// Terms that depend on how a framework's code runs, each against the value worked by hand from
// that code: FSDP's gathered root unit, SDPA's math path under lit-gpt's multi-query attention,
// autocast's per-call copies of frozen weights in LitGPT's chunked head, GPT-2's gelu_new and
// loss under autocast (also CPU-measured, tests/data/measured), and 4-bit dequantisation.

#include "estimate.h"
#include "formats/estimate_json.h"
#include "testhelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace vramplan;
using test::itemBytes;
using test::scenarioText;

namespace {

// Llama 2 7B: vocabulary 32000, hidden 4096, 32 layers of 4 * 4096^2 + 3 * 4096 * 11008 linear
// weights.
constexpr double llamaEmbedding = 32000.0 * 4096;
constexpr double llamaLinear = 32.0 * (4 * 4096.0 * 4096 + 3 * 4096.0 * 11008);

Estimate estimateOf(const std::string &model, const std::string &training,
                    const std::string &parallelism, const std::string &framework)
{
    return estimate(test::parseOrFail(scenarioText(model, training, parallelism, framework)));
}

} // namespace

class TestFrameworkTerms : public QObject
{
    Q_OBJECT

private slots:
    void fsdpRootUnitGatheredWhole_data();
    void fsdpRootUnitGatheredWhole();
    void sdpaMathPathForBroadcastKey_data();
    void sdpaMathPathForBroadcastKey();
    void autocastCopiesOfFrozenHead_data();
    void autocastCopiesOfFrozenHead();
    void gpt2UnderAutocast();
    void qloraDequantisesOneMatrixAtATime_data();
    void qloraDequantisesOneMatrixAtATime();
    void frameworkLacksKnob_data();
    void frameworkLacksKnob();
    void publishedRunsUseTheirFrameworksKnobs();
};

void TestFrameworkTerms::fsdpRootUnitGatheredWhole_data()
{
    QTest::addColumn<QString>("framework");
    QTest::addColumn<QString>("version");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<QString>("finetune");
    QTest::addColumn<bool>("split"); // embeddings and [norm, output] as units of their own
    QTest::newRow("transformers LoRA, 2 GPUs") << "transformers" << "" << 2 << "lora" << false;
    QTest::newRow("transformers QLoRA, 2 GPUs") << "transformers" << "" << 2 << "qlora" << false;
    QTest::newRow("torchtitan 0.0.2 full, 8 GPUs") << "torchtitan" << "0.0.2" << 8 << "full" << false;
    QTest::newRow("torchtitan 0.1 full, 128 GPUs") << "torchtitan" << "0.1" << 128 << "full" << false;
    QTest::newRow("torchtitan 0.2 full, 8 GPUs") << "torchtitan" << "0.2" << 8 << "full" << true;
    QTest::newRow("torchtitan (current) full, 128 GPUs") << "torchtitan" << "" << 128 << "full" << true;
}

void TestFrameworkTerms::fsdpRootUnitGatheredWhole()
{
    QFETCH(QString, framework);
    QFETCH(QString, version);
    QFETCH(int, gpus);
    QFETCH(QString, finetune);
    QFETCH(bool, split);
    // The all-gather writes the whole unsharded root (embeddings, final norm, head) into a
    // buffer of its own beside the local shard: the gathered bytes do not shrink with the GPUs.
    auto json = nlohmann::json::parse(scenarioText(
        "\"preset\":\"llama-2-7b\"",
        "\"micro_batch_size\":1,\"sequence_length\":512,\"precision\":\"bf16\","
        "\"activation_recompute\":\"full\",\"finetune\":{\"method\":\"" +
            finetune.toStdString() + "\"}",
        "\"gpus\":" + std::to_string(gpus) + ",\"zero_stage\":3", framework.toStdString()));
    if (!version.isEmpty())
        json["framework_version"] = version.toStdString();
    const Estimate e = estimate(test::parseOrFail(json.dump()));
    if (split) {
        // torchtitan from 0.2: norm and output gathered at the loss, the embeddings only for
        // their own backward at the end.
        QCOMPARE(itemBytes(e, "gathered embeddings and head (root unit)"), 0.0);
        QCOMPARE(itemBytes(e, "gathered norm and output head (their own FSDP unit)"),
                 (llamaEmbedding + 4096) * 2);
        QCOMPARE(itemBytes(e, "gathered token embeddings (their own FSDP unit)"),
                 llamaEmbedding * 2);
    } else {
        QCOMPARE(itemBytes(e, "gathered embeddings and head (root unit)"),
                 (2 * llamaEmbedding + 4096) * 2);
    }
}

void TestFrameworkTerms::sdpaMathPathForBroadcastKey_data()
{
    QTest::addColumn<QString>("framework");
    QTest::addColumn<QString>("attention");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<bool>("mathPath");
    // Falcon-7B: 71 query heads, one key/value head.
    QTest::newRow("litgpt sdpa, one kv head") << "litgpt" << "sdpa" << 1 << true;
    QTest::newRow("litgpt flash-attn, one kv head") << "litgpt" << "flash" << 1 << false;
    QTest::newRow("litgpt sdpa, grouped kv heads (expanded)") << "litgpt" << "sdpa" << 71 << false;
    QTest::newRow("transformers sdpa (repeat_kv)") << "transformers" << "sdpa" << 1 << false;
}

void TestFrameworkTerms::sdpaMathPathForBroadcastKey()
{
    QFETCH(QString, framework);
    QFETCH(QString, attention);
    QFETCH(int, kvHeads);
    QFETCH(bool, mathPath);
    const Estimate e = estimateOf(
        "\"preset\":\"falcon-7b\",\"kv_heads\":" + std::to_string(kvHeads),
        "\"micro_batch_size\":1,\"sequence_length\":1079,\"precision\":\"bf16\","
        "\"attention\":\"" + attention.toStdString() +
            "\",\"finetune\":{\"method\":\"lora\",\"lora_rank\":8}",
        "\"gpus\":1", framework.toStdString());
    // 32 layers * 71 heads * 1079^2 probabilities in bf16, kept for softmax's and the second
    // matmul's backward; no logsumexp then.
    const double probabilities = 32.0 * 71 * 1079.0 * 1079 * 2;
    QCOMPARE(itemBytes(e, "attention probabilities (SDPA math path, broadcast key)"),
             mathPath ? probabilities : 0.0);
    QCOMPARE(itemBytes(e, "softmax logsumexp per row") == 0, mathPath);
}

void TestFrameworkTerms::autocastCopiesOfFrozenHead_data()
{
    QTest::addColumn<QString>("framework");
    QTest::addColumn<QString>("finetune");
    QTest::addColumn<int>("sequence");
    QTest::addColumn<double>("expected");
    // LitGPT's LoRA scripts run the head in chunks of 128 tokens; each chunk casts the frozen
    // fp32 head again and its linear keeps that copy: ceil(s / 128) copies.
    QTest::newRow("litgpt LoRA, 1034 tokens")
        << "litgpt" << "lora" << 1034 << (llamaLinear + 9 * llamaEmbedding) * 2;
    QTest::newRow("litgpt LoRA, 128 tokens")
        << "litgpt" << "lora" << 128 << (llamaLinear + llamaEmbedding) * 2;
    // A trainable head's copy is cached: one copy.
    QTest::newRow("litgpt full, 1034 tokens")
        << "litgpt" << "full" << 1034 << (llamaLinear + llamaEmbedding) * 2;
    QTest::newRow("transformers LoRA, 1034 tokens")
        << "transformers" << "lora" << 1034 << (llamaLinear + llamaEmbedding) * 2;
    // bitsandbytes' 4-bit linears keep no 16-bit copy; LitGPT quantises the head too.
    QTest::newRow("litgpt QLoRA, 1034 tokens") << "litgpt" << "qlora" << 1034 << 0.0;
    QTest::newRow("transformers QLoRA, 1034 tokens (16-bit head)")
        << "transformers" << "qlora" << 1034 << llamaEmbedding * 2;
}

void TestFrameworkTerms::autocastCopiesOfFrozenHead()
{
    QFETCH(QString, framework);
    QFETCH(QString, finetune);
    QFETCH(int, sequence);
    QFETCH(double, expected);
    const Estimate e = estimateOf(
        "\"preset\":\"llama-2-7b\"",
        "\"micro_batch_size\":1,\"sequence_length\":" + std::to_string(sequence) +
            ",\"precision\":\"amp_bf16\",\"finetune\":{\"method\":\"" + finetune.toStdString() +
            "\"}",
        "\"gpus\":1", framework.toStdString());
    QCOMPARE(itemBytes(e, "autocast 16-bit weight copies"), expected);
}

void TestFrameworkTerms::gpt2UnderAutocast()
{
    const Estimate e = estimateOf("\"preset\":\"gpt2\"",
                                  "\"micro_batch_size\":2,\"sequence_length\":256,"
                                  "\"precision\":\"amp_bf16\",\"attention\":\"sdpa\"",
                                  "\"gpus\":1", "transformers");
    // gelu_new: pow (fp32 list) keeps an fp32 x; tanh and 1 + tanh follow into fp32; 0.5*x is
    // 16-bit. Per layer: 2 * 256 * 3072 elements.
    const double ffnElements = 12.0 * 2 * 256 * 3072;
    QCOMPARE(itemBytes(e, "fc1 output in fp32 (pow's input under autocast)"), ffnElements * 4);
    QCOMPARE(itemBytes(e, "gelu_new intermediates (tanh, 1+tanh in fp32; 0.5x)"),
             ffnElements * (4 + 4 + 2));
    // The loss: the returned 16-bit logits and cross_entropy's fp32 log-softmax stay.
    QCOMPARE(itemBytes(e, "logits (compute dtype) and fp32 log-softmax (autocast)"),
             2.0 * 256 * 50257 * (2 + 4));
}

void TestFrameworkTerms::qloraDequantisesOneMatrixAtATime_data()
{
    QTest::addColumn<QString>("framework");
    QTest::addColumn<double>("dequantised");
    QTest::addColumn<double>("quantisedHead");
    // transformers keeps the head in 16 bits: the largest 4-bit matrix is an MLP projection.
    QTest::newRow("transformers") << "transformers" << 4096.0 * 11008 * 2 << 0.0;
    // LitGPT's Fabric plugin quantises every linear, the head (32000 x 4096) included.
    QTest::newRow("litgpt") << "litgpt" << llamaEmbedding * 2 << llamaEmbedding;
}

void TestFrameworkTerms::qloraDequantisesOneMatrixAtATime()
{
    QFETCH(QString, framework);
    QFETCH(double, dequantised);
    QFETCH(double, quantisedHead);
    const Estimate e = estimateOf(
        "\"preset\":\"llama-2-7b\"",
        "\"micro_batch_size\":1,\"sequence_length\":512,\"precision\":\"bf16\","
        "\"finetune\":{\"method\":\"qlora\",\"lora_rank\":8}",
        "\"gpus\":1", framework.toStdString());
    QCOMPARE(itemBytes(e, "4-bit weight dequantised for its matmul"), dequantised);
    const double nf4 = 0.5 + 1.0 / 64 + 4.0 / (64 * 256);
    QVERIFY(test::relativelyClose(itemBytes(e, "frozen base linear weights (quantised)"),
                                  (llamaLinear + quantisedHead) * nf4, 1e-12));
}

void TestFrameworkTerms::frameworkLacksKnob_data()
{
    QTest::addColumn<QString>("framework");
    QTest::addColumn<QString>("training");
    QTest::addColumn<QString>("parallelism");
    QTest::addColumn<QString>("warning"); // empty: none of the framework kind
    QTest::newRow("megatron, ZeRO-3 parameter offload")
        << "megatron" << "" << "\"gpus\":8,\"zero_stage\":3,\"offload_parameters\":\"cpu\""
        << "megatron has no parameter offload to the CPU: the estimate shows what it would "
           "take, but the run cannot be set up this way";
    QTest::newRow("torchtitan, NVMe optimizer offload")
        << "torchtitan" << "" << "\"gpus\":8,\"zero_stage\":3,\"offload_optimizer\":\"nvme\""
        << "torchtitan has no optimizer offload to NVMe: the estimate shows what it would take, "
           "but the run cannot be set up this way";
    QTest::newRow("deepspeed, NVMe optimizer offload")
        << "deepspeed" << "" << "\"gpus\":8,\"zero_stage\":3,\"offload_optimizer\":\"nvme\""
        << "";
    QTest::newRow("litgpt, tensor parallelism")
        << "litgpt" << "" << "\"gpus\":8,\"tensor_parallel\":2"
        << "litgpt has no tensor parallelism: the estimate shows what it would take, but the run "
           "cannot be set up this way";
    QTest::newRow("torchtitan, LoRA")
        << "torchtitan" << "\"finetune\":{\"method\":\"lora\"}" << "\"gpus\":1"
        << "torchtitan has no LoRA: the estimate shows what it would take, but the run cannot be "
           "set up this way";
    QTest::newRow("megatron, 8-bit Adam")
        << "megatron" << "\"optimizer\":\"adamw_8bit\"" << "\"gpus\":1"
        << "megatron has no 8-bit optimizer states: the estimate shows what it would take, but "
           "the run cannot be set up this way";
    // The knob's name reads after "has no" without an article ("has no a ..." before).
    QTest::newRow("litgpt, fused linear cross-entropy")
        << "litgpt" << "\"loss\":\"fused_linear\"" << "\"gpus\":1"
        << "litgpt has no fused linear cross-entropy: the estimate shows what it would take, but "
           "the run cannot be set up this way";
    QTest::newRow("megatron, everything it has")
        << "megatron" << "\"activation_recompute\":\"selective\",\"precision\":\"fp8_mixed\""
        << "\"gpus\":64,\"tensor_parallel\":2,\"sequence_parallel\":true,"
           "\"pipeline_parallel\":4,\"virtual_pipeline_parallel\":2,\"context_parallel\":2,"
           "\"zero_stage\":1"
        << "";
    QTest::newRow("transformers, QLoRA with ZeRO-3 and paged AdamW")
        << "transformers"
        << "\"optimizer\":\"paged_adamw\",\"finetune\":{\"method\":\"qlora\"}"
        << "\"gpus\":2,\"zero_stage\":3" << "";
}

void TestFrameworkTerms::frameworkLacksKnob()
{
    QFETCH(QString, framework);
    QFETCH(QString, training);
    QFETCH(QString, parallelism);
    QFETCH(QString, warning);
    const Estimate e = estimate(test::parseOrFail(test::scenarioText(
        "\"preset\":\"llama-2-7b\"", training.toStdString(), parallelism.toStdString(),
        framework.toStdString())));
    QStringList lacks;
    for (const auto &w : e.warnings)
        if (w.code == WarningCode::FrameworkLacks)
            lacks << QString::fromStdString(warningText(w));
    QCOMPARE(lacks, warning.isEmpty() ? QStringList() : QStringList{warning});
}

// The published runs were set up with their frameworks: none asks for a knob it lacks.
void TestFrameworkTerms::publishedRunsUseTheirFrameworksKnobs()
{
    const auto doc = nlohmann::json::parse(
        test::readFile(test::dataPath("measured/shared_published.json")), nullptr, false);
    QVERIFY(doc.is_array() && doc.size() >= 40);
    for (const auto &run : doc) {
        const auto parsed = scenarioFromJson(run["scenario"]);
        QVERIFY(parsed);
        for (const auto &w : estimate(*parsed.value).warnings)
            QVERIFY2(w.code != WarningCode::FrameworkLacks,
                     (run.value("id", "?") + ": " + warningText(w)).c_str());
    }
}

QTEST_APPLESS_MAIN(TestFrameworkTerms)
#include "tst_frameworkterms.moc"
