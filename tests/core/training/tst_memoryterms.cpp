// Each memory term against values worked by hand from its source: Korthikanti et al. 2022
// (Table 2 and §4), ZeRO (Rajbhandari et al. 2020, §5), the recipes of SPEC §2.

#include "estimate.h"
#include "training/capabilities.h"
#include "testhelpers.h"

#include <QTest>

using namespace vramplan;
using test::itemBytes;
using test::scenarioText;

namespace {

constexpr double llama2_7b = 6738415616.0;

// Bytes one layer saves: the per-layer inventory items, per layer instance.
double perLayerInventory(const Estimate &e)
{
    double perLayer = 0;
    for (const auto &item : e.items)
        if (item.source == "per-layer saved-tensor inventory")
            perLayer += item.perUnit;
    return perLayer;
}

} // namespace

class TestMemoryTerms : public QObject
{
    Q_OBJECT

private slots:
    void korthikantiLayer_data();
    void korthikantiLayer();
    void modelStates_data();
    void modelStates();
    void kvCacheInference();
    void multiTokenPrediction();
    void fusedLinearLoss();
    void deepspeedZero3GradientPartitions();
    void expertDispatch_data();
    void expertDispatch();
    void logitsAndLoss();
    void fullRecomputeKeepsLayerInputs();
    void mambaScanBackwardMoment_data();
    void mambaScanBackwardMoment();
    void gatedDeltaNetUnderAutocast();
    void slidingWindowMaskUnderSdpa_data();
    void slidingWindowMaskUnderSdpa();
    void firstLayerAtBackwardEnd_data();
    void firstLayerAtBackwardEnd();
    void eagerScoresWarning();
    void qloraBaseBytes();
    void formulasWithNumbers_data();
    void formulasWithNumbers();
    void everyFormulaWorksOut();
    void servingKvFormulaNamesNoHeads();
};

void TestMemoryTerms::korthikantiLayer_data()
{
    QTest::addColumn<int>("s");
    QTest::addColumn<int>("b");
    QTest::addColumn<int>("h");
    QTest::addColumn<int>("a");
    QTest::addColumn<int>("t");
    QTest::addColumn<bool>("sp");
    QTest::addColumn<QString>("attention");
    QTest::addColumn<double>("expected");
    auto sbh = [](double s, double b, double h) { return s * b * h; };
    // Korthikanti et al. 2022 §4.1: 34sbh + 5as^2b per layer; with tensor parallelism
    // sbh(10 + 24/t + 5as/(ht)) (eq. 2); with sequence parallelism sbh/t (34 + 5as/h) (eq. 3).
    QTest::newRow("GPT 2560, s2048 b1") << 2048 << 1 << 2560 << 32 << 1 << false << "eager"
                                        << 34 * sbh(2048, 1, 2560) + 5.0 * 32 * 2048 * 2048 * 1;
    QTest::newRow("GPT 4096, s1024 b4") << 1024 << 4 << 4096 << 32 << 1 << false << "eager"
                                        << 34 * sbh(1024, 4, 4096) + 5.0 * 32 * 1024 * 1024 * 4;
    QTest::newRow("t=2, no SP") << 2048 << 1 << 4096 << 32 << 2 << false << "eager"
                                << sbh(2048, 1, 4096) *
                                       (10 + 24.0 / 2 + 5.0 * 32 * 2048 / (4096 * 2));
    QTest::newRow("GPT-3 175B, t=8, SP")
        << 2048 << 1 << 12288 << 96 << 8 << true << "eager"
        << sbh(2048, 1, 12288) / 8 * (34 + 5.0 * 96 * 2048 / 12288);
    // Flash attention keeps the output and a logsumexp row statistic (4 bytes per head and
    // token) instead of the s^2 terms.
    QTest::newRow("flash, s4096 b2") << 4096 << 2 << 4096 << 32 << 1 << false << "flash"
                                     << 34 * sbh(4096, 2, 4096) + 4.0 * 32 * 4096 * 2;
}

void TestMemoryTerms::korthikantiLayer()
{
    QFETCH(int, s);
    QFETCH(int, b);
    QFETCH(int, h);
    QFETCH(int, a);
    QFETCH(int, t);
    QFETCH(bool, sp);
    QFETCH(QString, attention);
    QFETCH(double, expected);
    const std::string model =
        "\"family\":\"gpt2\",\"layers\":4,\"hidden_size\":" + std::to_string(h) +
        ",\"attention_heads\":" + std::to_string(a) +
        ",\"ffn_hidden_size\":" + std::to_string(4 * h) +
        ",\"vocab_size\":50304,\"max_positions\":" + std::to_string(s);
    const std::string training = "\"micro_batch_size\":" + std::to_string(b) +
                                 ",\"sequence_length\":" + std::to_string(s) +
                                 ",\"precision\":\"fp16_mixed\",\"dropout\":0.1,\"attention\":\"" +
                                 attention.toStdString() + "\"";
    const std::string parallel = "\"gpus\":" + std::to_string(t) +
                                 ",\"tensor_parallel\":" + std::to_string(t) +
                                 ",\"sequence_parallel\":" + (sp ? "true" : "false");
    const Estimate e =
        estimate(test::parseOrFail(scenarioText(model, training, parallel, "megatron")));
    QVERIFY2(test::relativelyClose(perLayerInventory(e), expected, 1e-12),
             qPrintable(QString("per layer %1, expected %2")
                            .arg(perLayerInventory(e), 0, 'f', 0)
                            .arg(expected, 0, 'f', 0)));
}

void TestMemoryTerms::modelStates_data()
{
    QTest::addColumn<QString>("framework");
    QTest::addColumn<QString>("precision");
    QTest::addColumn<QString>("optimizer");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<int>("zero");
    QTest::addColumn<double>("weights"); // bytes per parameter, on this GPU
    QTest::addColumn<double>("gradients");
    QTest::addColumn<double>("states");
    QTest::addColumn<double>("master");
    QTest::addColumn<QString>("optimizerPrecision"); // training.optimizer_precision, if any
    // SPEC §2 recipes: weights / gradients / optimizer states per parameter.
    QTest::newRow("fp32 AdamW") << "pytorch"
                                << "fp32"
                                << "adamw" << 1 << 0 << 4.0 << 4.0 << 8.0 << 0.0 << QString();
    QTest::newRow("AMP bf16 AdamW") << "pytorch"
                                    << "amp_bf16"
                                    << "adamw" << 1 << 0 << 4.0 << 4.0 << 8.0 << 0.0 << QString();
    QTest::newRow("pure bf16 AdamW") << "pytorch"
                                     << "bf16"
                                     << "adamw" << 1 << 0 << 2.0 << 2.0 << 4.0 << 0.0 << QString();
    QTest::newRow("bf16 mixed, DeepSpeed") << "deepspeed"
                                           << "bf16_mixed"
                                           << "adamw" << 1 << 0 << 2.0 << 2.0 << 8.0 << 4.0 << QString();
    QTest::newRow("bf16 mixed, Megatron main_grad")
        << "megatron"
        << "bf16_mixed"
        << "adamw" << 1 << 0 << 2.0 << 4.0 << 8.0 << 4.0 << QString();
    // Megatron's distributed optimizer: 6 + 12/dp (SPEC §2).
    QTest::newRow("Megatron distributed optimizer, dp 8")
        << "megatron"
        << "bf16_mixed"
        << "adamw" << 8 << 1 << 2.0 << 4.0 << 1.0 << 0.5 << QString();
    // ZeRO-3 on 64 GPUs divides every state by 64 (Rajbhandari et al. 2020, §5.3: (2+2+12)/Nd).
    QTest::newRow("ZeRO-3 on 64 GPUs")
        << "deepspeed"
        << "bf16_mixed"
        << "adamw" << 64 << 3 << 2.0 / 64 << 2.0 / 64 << 8.0 / 64 << 4.0 / 64 << QString();
    QTest::newRow("ZeRO-2 on 8 GPUs") << "deepspeed"
                                      << "bf16_mixed"
                                      << "adamw" << 8 << 2 << 2.0 << 2.0 / 8 << 1.0 << 0.5 << QString();
    QTest::newRow("ZeRO-1 on 4 GPUs") << "deepspeed"
                                      << "bf16_mixed"
                                      << "adamw" << 4 << 1 << 2.0 << 2.0 << 2.0 << 1.0 << QString();
    QTest::newRow("SGD") << "pytorch"
                         << "fp32"
                         << "sgd" << 1 << 0 << 4.0 << 4.0 << 0.0 << 0.0 << QString();
    QTest::newRow("SGD momentum") << "pytorch"
                                  << "fp32"
                                  << "sgd_momentum" << 1 << 0 << 4.0 << 4.0 << 4.0 << 0.0 << QString();
    QTest::newRow("Lion, pure bf16") << "pytorch"
                                     << "bf16"
                                     << "lion" << 1 << 0 << 2.0 << 2.0 << 2.0 << 0.0 << QString();
    // SPEC §3 extension training.optimizer_precision. Megatron's precision-aware optimizer
    // (--use-precision-aware-optimizer --main-params-dtype fp16 --exp-avg-dtype bf16
    // --exp-avg-sq-dtype bf16): 16-bit master weights and states, the fp32 main_grad buffer.
    QTest::newRow("Megatron precision-aware, bf16 states, fp16 master")
        << "megatron"
        << "bf16_mixed"
        << "adamw" << 1 << 0 << 2.0 << 4.0 << 4.0 << 2.0
        << R"({"master_weights":"fp16","exp_avg":"bf16","exp_avg_sq":"bf16"})";
    // fp8 states (Transformer Engine's FusedAdam, one scale per tensor) and bf16 main grads.
    QTest::newRow("Megatron precision-aware, fp8 states, bf16 grads")
        << "megatron"
        << "bf16_mixed"
        << "adamw" << 1 << 0 << 2.0 << 2.0 << 2.0 << 4.0
        << R"({"gradients":"bf16","exp_avg":"fp8","exp_avg_sq":"fp8"})";
    // DeepSpeed bf16_master_weights_and_grads + bf16_optimizer_states.
    QTest::newRow("DeepSpeed bf16 master, grads and states")
        << "deepspeed"
        << "bf16_mixed"
        << "adamw" << 1 << 0 << 2.0 << 2.0 << 4.0 << 2.0
        << R"({"master_weights":"bf16","gradients":"bf16","exp_avg":"bf16","exp_avg_sq":"bf16"})";
    // torchao AdamW8bit / AdamW4bit on pure bf16: 1 byte (or half a byte) per state element
    // plus an fp32 scale per 256-element (128-element) block; every Llama-2-7B tensor has at
    // least 4096 elements, so all are quantised.
    QTest::newRow("torchao 8-bit AdamW, pure bf16")
        << "pytorch"
        << "bf16"
        << "adamw" << 1 << 0 << 2.0 << 2.0 << 2 * (1 + 4.0 / 256) << 0.0
        << R"({"exp_avg":"int8","exp_avg_sq":"int8"})";
    QTest::newRow("torchao 4-bit AdamW, pure bf16")
        << "pytorch"
        << "bf16"
        << "adamw" << 1 << 0 << 2.0 << 2.0 << 2 * (0.5 + 4.0 / 128) << 0.0
        << R"({"exp_avg":"int4","exp_avg_sq":"int4"})";
    // Pure bf16 weights with an fp32 master copy; and a mixed run told to keep none.
    QTest::newRow("pure bf16 with fp32 master weights")
        << "pytorch"
        << "bf16"
        << "adamw" << 1 << 0 << 2.0 << 2.0 << 4.0 << 4.0 << R"({"master_weights":"fp32"})";
    QTest::newRow("bf16 mixed, no master copy")
        << "deepspeed"
        << "bf16_mixed"
        << "adamw" << 1 << 0 << 2.0 << 2.0 << 8.0 << 0.0 << R"({"master_weights":"none"})";
}

void TestMemoryTerms::modelStates()
{
    QFETCH(QString, framework);
    QFETCH(QString, precision);
    QFETCH(QString, optimizer);
    QFETCH(int, gpus);
    QFETCH(int, zero);
    QFETCH(double, weights);
    QFETCH(double, gradients);
    QFETCH(double, states);
    QFETCH(double, master);
    QFETCH(QString, optimizerPrecision);
    std::string training = "\"micro_batch_size\":1,\"sequence_length\":512,\"precision\":\"" +
                           precision.toStdString() + "\",\"optimizer\":\"" +
                           optimizer.toStdString() + "\"";
    if (!optimizerPrecision.isEmpty())
        training += ",\"optimizer_precision\":" + optimizerPrecision.toStdString();
    const std::string parallel =
        "\"gpus\":" + std::to_string(gpus) + ",\"zero_stage\":" + std::to_string(zero);
    const Estimate e = estimate(test::parseOrFail(
        scenarioText("\"preset\":\"llama-2-7b\"", training, parallel, framework.toStdString())));
    const double gradientBytes =
        itemBytes(e, "gradients") + itemBytes(e, "main_grad buffer (fp32, persistent)") +
        itemBytes(e, "gradient partitions (flat buffer, persistent)");
    QVERIFY(test::relativelyClose(itemBytes(e, "weights"), weights * llama2_7b, 1e-12));
    QVERIFY(test::relativelyClose(gradientBytes, gradients * llama2_7b, 1e-12));
    QVERIFY(test::relativelyClose(itemBytes(e, "optimizer states"), states * llama2_7b, 1e-12));
    QVERIFY(test::relativelyClose(
        itemBytes(e, "fp32 master weights") + itemBytes(e, "16-bit master weights"),
        master * llama2_7b, 1e-12));
}

// DeepSpeed ZeRO-3's flat buffer of gradient partitions exists from initialisation: at the
// start of backward (where the peak of a full fine-tune usually is) it already holds
// 16-bit x parameters / data-parallel ranks (issue 13: it showed 0 bytes there).
void TestMemoryTerms::deepspeedZero3GradientPartitions()
{
    const Estimate e = estimate(test::parseOrFail(scenarioText(
        "\"preset\":\"llama-2-7b\"", "\"precision\":\"bf16_mixed\"",
        "\"gpus\":8,\"zero_stage\":3", "deepspeed")));
    const double partitions = llama2_7b * 2 / 8;
    QCOMPARE(itemBytes(e, "gradient partitions (flat buffer, persistent)"), partitions);
    const auto &atLoss = e.phases[int(Phase::LossBackward)].byComponent;
    QCOMPARE(atLoss[int(Component::Gradients)], partitions);
}

void TestMemoryTerms::fusedLinearLoss()
{
    // Llama-3.1-8B, 8192 tokens, bf16, full fine-tune: Liger's chunk is
    // next_pow2(ceil(8192 / ceil(128256 / 4096))) = next_pow2(ceil(8192 / 32)) = 256 tokens.
    const auto run = [](const char *loss) {
        return estimate(test::parseOrFail(scenarioText(
            "\"preset\":\"llama-3.1-8b\"",
            std::string("\"micro_batch_size\":1,\"sequence_length\":8192,\"precision\":\"bf16\","
                        "\"loss\":\"") + loss + "\"",
            "\"gpus\":1", "transformers")));
    };
    const Estimate fused = run("fused_linear");
    QCOMPARE(itemBytes(fused, "fused linear cross-entropy: one chunk's logits and gradient (transient)"),
             256.0 * 128256 * 2);
    QCOMPARE(itemBytes(fused, "hidden-state gradient computed in forward (fused loss)"),
             8192.0 * 4096 * 2);
    QCOMPARE(itemBytes(fused, "head weight gradient accumulated in forward (fused loss)"),
             128256.0 * 4096 * 2);
    // No b*s*V tensor is left: the standard loss keeps 16-bit logits, an fp32 copy and the
    // log-softmax; chunked keeps the 16-bit logits and every chunk's fp32 log-softmax.
    const Estimate standard = run("standard"), chunked = run("chunked");
    const double bsv = 8192.0 * 128256;
    QCOMPARE(fused.perGpu[int(Component::LogitsAndLoss)] <
                 standard.perGpu[int(Component::LogitsAndLoss)] / 10,
             true);
    QCOMPARE(itemBytes(chunked, "logits and chunked cross-entropy (fp32 per chunk)"), bsv * 6);
}

void TestMemoryTerms::multiTokenPrediction()
{
    // One MTP module trained beside DeepSeek-V2-Lite (fp32, one GPU): one more MoE layer plus
    // eh_proj (2h x h) and three norms, with a norm for its output (DeepSeek-V3 §2.2), at 4
    // bytes per weight; and one more set of kept logits.
    const auto run = [](int mtp) {
        return estimate(test::parseOrFail(scenarioText(
            "\"preset\":\"deepseek-v2-lite\"",
            "\"micro_batch_size\":1,\"sequence_length\":1024,\"precision\":\"fp32\","
            "\"optimizer\":\"sgd\",\"mtp_layers\":" + std::to_string(mtp),
            "\"gpus\":1", "megatron")));
    };
    const Estimate plain = run(0), mtp = run(1);
    const Scenario s = test::parseOrFail(
        R"({"format":"vramplan-scenario","model":{"preset":"deepseek-v2-lite"}})");
    const double h = 2048;
    const double moduleElements = double(countParameters(s.model).perLayer) + 2 * h * h + 4 * h;
    QCOMPARE(itemBytes(mtp, "weights") - itemBytes(plain, "weights"), moduleElements * 4);
    QCOMPARE(itemBytes(mtp, "multi-token prediction logits and losses (kept for backward)"),
             itemBytes(plain, "logits and vocab-parallel cross-entropy"));
    QVERIFY(itemBytes(mtp, "multi-token prediction layers' saved tensors") > 0);
}

void TestMemoryTerms::expertDispatch_data()
{
    QTest::addColumn<QString>("moe");
    QTest::addColumn<int>("ep");
    QTest::addColumn<double>("factor");
    // Qwen3-30B-A3B under Megatron, one micro-batch of 4096 tokens, top-8 of 128 experts:
    // what this GPU's experts receive, over the balanced share.
    QTest::newRow("no expert parallelism: every routed token stays")
        << "\"imbalance\": 2.0" << 1 << 1.0;
    QTest::newRow("EP 8, balanced") << "\"imbalance\": 1.0" << 8 << 1.0;
    QTest::newRow("EP 8, busiest rank 1.5x") << "\"imbalance\": 1.5" << 8 << 1.5;
    QTest::newRow("EP 8, capacity 1.25 caps 1.5x") << "\"imbalance\": 1.5, \"capacity_factor\": 1.25"
                                                 << 8 << 1.25;
    // At most every token of the group: 2 ranks x top-8, each rank holding 64 experts.
    QTest::newRow("EP 2, imbalance beyond the group") << "\"imbalance\": 9.0" << 2 << 2.0;
}

void TestMemoryTerms::expertDispatch()
{
    QFETCH(QString, moe);
    QFETCH(int, ep);
    QFETCH(double, factor);
    const Estimate e = estimate(test::parseOrFail(scenarioText(
        "\"preset\":\"qwen3-30b-a3b\",\"moe\":{" + moe.toStdString() + "}",
        "\"micro_batch_size\":1,\"sequence_length\":4096,\"activation_recompute\":\"none\"",
        "\"gpus\":8,\"expert_parallel\":" + std::to_string(ep), "megatron")));
    const double tokens = 4096.0 * 8; // b * s * top-k
    QCOMPARE(itemBytes(e, "tokens permuted to this GPU's experts"),
             48 * tokens * 2048 * 2 * factor);
    // Expert weights are sharded over the expert-parallel ranks (the others replicated):
    // per layer 128 experts * 3 * 2048 * 768, the rest of the model 30.53B minus all experts.
    const double experts = 48.0 * 128 * 3 * 2048 * 768;
    QCOMPARE(itemBytes(e, "weights"), (30532122624.0 - experts + experts / ep) * 2);
}

void TestMemoryTerms::kvCacheInference()
{
    // 2 (K and V) * 32 layers * 4096 tokens * 4096 (32 kv heads * 128) * 2 bytes = 2 GiB.
    const Estimate e =
        estimate(test::parseOrFail(scenarioText("\"preset\":\"llama-2-7b\"",
                                                "\"mode\":\"inference\",\"micro_batch_size\":1,"
                                                "\"sequence_length\":4096,\"precision\":\"bf16\"",
                                                "\"gpus\":1", "transformers")));
    QCOMPARE(itemBytes(e, "KV cache"), 2.0 * 32 * 4096 * 4096 * 2);
    // GQA keeps kv heads only: Llama-3.1-8B has 8 of 32, a quarter of the cache per layer.
    const Estimate g =
        estimate(test::parseOrFail(scenarioText("\"preset\":\"llama-3.1-8b\"",
                                                "\"mode\":\"inference\",\"micro_batch_size\":1,"
                                                "\"sequence_length\":4096,\"precision\":\"bf16\"",
                                                "\"gpus\":1", "transformers")));
    QCOMPARE(itemBytes(g, "KV cache"), 2.0 * 32 * 4096 * 1024 * 2);
    QCOMPARE(itemBytes(g, "weights"), 8030261248.0 * 2);

    const auto inference = [](const std::string &preset, const std::string &framework) {
        return estimate(test::parseOrFail(scenarioText(
            "\"preset\":\"" + preset + "\"",
            "\"mode\":\"inference\",\"micro_batch_size\":1,\"sequence_length\":4096,"
            "\"precision\":\"bf16\"",
            "\"gpus\":1", framework)));
    };
    // Multi-head latent attention (DeepSeek-V2 §2.1.2): an engine that caches the latent keeps
    // kv_lora_rank + rope = 512 + 64 per token and layer: 61 layers * 4096 * 576 * 2 bytes.
    const Estimate mla = inference("deepseek-v3", "megatron");
    QCOMPARE(itemBytes(mla, "KV cache (compressed latent and rope key)"), 61.0 * 4096 * 576 * 2);
    // transformers caches the decompressed keys (128 heads * (128 + 64)) and values (128 * 128).
    const Estimate hf = inference("deepseek-v3", "transformers");
    QCOMPARE(itemBytes(hf, "KV cache (decompressed per-head keys and values)"),
             61.0 * 4096 * 128 * (192 + 128) * 2);
    // gpt-oss-20b: 12 full layers keep 4096 tokens, 12 sliding layers 128; 8 kv heads of 64.
    const Estimate oss = inference("gpt-oss-20b", "transformers");
    QCOMPARE(itemBytes(oss, "KV cache"), 2.0 * 12 * 4096 * 512 * 2);
    QCOMPARE(itemBytes(oss, "KV cache of sliding-window layers"), 2.0 * 12 * 128 * 512 * 2);
    // MoE weights at inference: every expert is resident (gpt-oss-20b, bf16).
    QCOMPARE(itemBytes(oss, "weights"), 20914757184.0 * 2);
}

void TestMemoryTerms::logitsAndLoss()
{
    // transformers' loss path at the start of backward: fp32 logits held by the outputs, the
    // log-softmax and its two gradients: 16 bytes per token and vocabulary entry.
    const Estimate e = estimate(test::parseOrFail(
        scenarioText("\"preset\":\"llama-2-7b\"",
                     "\"micro_batch_size\":2,\"sequence_length\":1024,\"precision\":\"bf16\"",
                     "\"gpus\":1", "transformers")));
    QCOMPARE(itemBytes(e, "cross-entropy backward: log-softmax and logits gradients"),
             16.0 * 2 * 1024 * 32000);
    // Megatron's vocab-parallel cross-entropy: 16-bit logits + one fp32 buffer, over t.
    const Estimate m = estimate(test::parseOrFail(
        scenarioText("\"preset\":\"llama-2-7b\"",
                     "\"micro_batch_size\":2,\"sequence_length\":1024,\"precision\":\"bf16_mixed\"",
                     "\"gpus\":4,\"tensor_parallel\":4", "megatron")));
    QCOMPARE(itemBytes(m, "cross-entropy backward: log-softmax and logits gradients"),
             6.0 * 2 * 1024 * 32000 / 4);
    QCOMPARE(itemBytes(m, "logits and vocab-parallel cross-entropy"), 6.0 * 2 * 1024 * 32000 / 4);
    // With --cross-entropy-loss-fusion (training.loss fused), the compiled loss writes
    // exp(logits - max) to an fp32 buffer of its own before copying it back: 4 more bytes per
    // logit at the end of forward only; the same 6 bytes are kept and used in backward.
    const Estimate f = estimate(test::parseOrFail(
        scenarioText("\"preset\":\"llama-2-7b\"",
                     "\"micro_batch_size\":2,\"sequence_length\":1024,\"precision\":\"bf16_mixed\","
                     "\"loss\":\"fused\"",
                     "\"gpus\":4,\"tensor_parallel\":4", "megatron")));
    QCOMPARE(itemBytes(f, "logits and fused vocab-parallel cross-entropy"), 6.0 * 2 * 1024 * 32000 / 4);
    QCOMPARE(itemBytes(f, "fp32 exp(logits - max) of the compiled loss (transient)"),
             4.0 * 2 * 1024 * 32000 / 4);
    QCOMPARE(itemBytes(f, "cross-entropy backward: log-softmax and logits gradients"),
             6.0 * 2 * 1024 * 32000 / 4);
    QVERIFY(f.peak.allocated > m.peak.allocated);
    QVERIFY(std::none_of(f.warnings.begin(), f.warnings.end(),
                         [](const Warning &w) { return w.code == WarningCode::FrameworkLacks; }));
    // Other frameworks have no such kernel: the scenario is estimated with a warning naming it.
    const Estimate hf = estimate(test::parseOrFail(
        scenarioText("\"preset\":\"llama-2-7b\"",
                     "\"micro_batch_size\":2,\"sequence_length\":1024,\"precision\":\"bf16_mixed\","
                     "\"loss\":\"fused\"",
                     "\"gpus\":1", "transformers")));
    QVERIFY(std::any_of(hf.warnings.begin(), hf.warnings.end(), [](const Warning &w) {
        return w.code == WarningCode::FrameworkLacks && int(w.value) == int(Knob::FusedLoss);
    }));
}

void TestMemoryTerms::fullRecomputeKeepsLayerInputs()
{
    // Korthikanti §4.2: full recomputation keeps 2sbh per layer (the layer input in 16 bits).
    const Estimate e = estimate(test::parseOrFail(scenarioText(
        "\"preset\":\"llama-2-7b\"",
        "\"micro_batch_size\":4,\"sequence_length\":2048,\"activation_recompute\":\"full\"",
        "\"gpus\":1", "transformers")));
    QCOMPARE(itemBytes(e, "checkpointed layer inputs"), 32.0 * 4 * 2048 * 4096 * 2);
    // Recompute of 8 of 32 layers keeps 8 inputs and 24 complete layers.
    const Estimate partial = estimate(test::parseOrFail(scenarioText(
        "\"preset\":\"llama-2-7b\"",
        "\"micro_batch_size\":4,\"sequence_length\":2048,\"activation_recompute\":\"full\","
        "\"recompute_layers\":8",
        "\"gpus\":1", "transformers")));
    QCOMPARE(itemBytes(partial, "checkpointed layer inputs"), 8.0 * 4 * 2048 * 4096 * 2);
    QCOMPARE(itemBytes(partial, "query (saved by attention)"), 24.0 * 4 * 2048 * 4096 * 2);
}

void TestMemoryTerms::mambaScanBackwardMoment_data()
{
    QTest::addColumn<int>("sequence");
    QTest::addColumn<QString>("method");
    QTest::addColumn<int>("accumulation");
    // Where the moment falls: the saved tensors left (Mamba2 layers' and MoE layers'), and whose
    // gradients exist (later Mamba2 and MoE layers; the head and final norm).
    QTest::addColumn<int>("mambaSaved");
    QTest::addColumn<int>("moeSaved");
    QTest::addColumn<int>("mambaGrads");
    QTest::addColumn<int>("moeGrads");
    QTest::addColumn<bool>("headGrads");
    // A Nemotron-H pattern M E M. Short sequences: the MoE layer's expert gradients outweigh
    // what the layers after the first free, so the moment is the first layer's (Nemotron 3 Nano
    // on an H200); long ones: the last layer's, every layer's saved tensors left.
    QTest::newRow("128 tokens: first layer") << 128 << "full" << 1 << 1 << 0 << 1 << 1 << true;
    QTest::newRow("1024 tokens: last layer") << 1024 << "full" << 1 << 2 << 1 << 0 << 0 << true;
    // LoRA leaves no weight gradients to count; with accumulation the gradients are alive all
    // step already (model_states.cpp): the moment is the last layer's.
    QTest::newRow("LoRA: last layer") << 128 << "lora" << 1 << 2 << 1 << 0 << 0 << false;
    QTest::newRow("accumulation: last layer") << 128 << "full" << 2 << 2 << 1 << 0 << 0 << false;
}

void TestMemoryTerms::mambaScanBackwardMoment()
{
    QFETCH(int, sequence);
    QFETCH(QString, method);
    QFETCH(int, accumulation);
    QFETCH(int, mambaSaved);
    QFETCH(int, moeSaved);
    QFETCH(int, mambaGrads);
    QFETCH(int, moeGrads);
    QFETCH(bool, headGrads);
    const std::string model =
        "\"hf_config\":{\"model_type\":\"nemotron_h\",\"hidden_size\":64,"
        "\"hybrid_override_pattern\":\"MEM\",\"num_hidden_layers\":3,\"chunk_size\":64,"
        "\"conv_kernel\":4,\"expand\":2,\"head_dim\":16,\"intermediate_size\":128,"
        "\"mamba_head_dim\":16,\"mamba_num_heads\":8,\"n_groups\":1,\"ssm_state_size\":16,"
        "\"mlp_hidden_act\":\"relu2\",\"moe_intermediate_size\":256,"
        "\"moe_shared_expert_intermediate_size\":256,\"n_routed_experts\":64,"
        "\"n_shared_experts\":1,\"num_experts_per_tok\":2,\"num_attention_heads\":4,"
        "\"num_key_value_heads\":2,\"vocab_size\":1000,\"tie_word_embeddings\":false}";
    const std::string training =
        "\"micro_batch_size\":1,\"sequence_length\":" + std::to_string(sequence) +
        ",\"precision\":\"bf16\",\"linear_kernels\":\"torch\",\"gradient_accumulation_steps\":" +
        std::to_string(accumulation) + ",\"finetune\":{\"method\":\"" + method.toStdString() +
        "\",\"lora_rank\":8}";
    const Estimate e =
        estimate(test::parseOrFail(scenarioText(model, training, "\"gpus\":1", "transformers")));
    // One layer's saved tensors of each kind, and its parameters (bf16 gradients: 2 bytes).
    double mambaLayer = 0, moeLayer = 0;
    for (const auto &item : e.items) {
        if (item.source == "per-layer saved-tensor inventory (Mamba2 layers)")
            mambaLayer += item.perUnit;
        if (item.source == "per-layer saved-tensor inventory")
            moeLayer += item.perUnit;
    }
    QVERIFY(mambaLayer > 0 && moeLayer > 0);
    double mambaParams = 0, moeParams = 0;
    for (const auto &kind : e.parameters.kinds)
        (kind.spec.mixer == Mixer::Mamba ? mambaParams : moeParams) = double(kind.perLayer);
    const double head = double(e.parameters.outputHead + e.parameters.finalNorm);
    QCOMPARE(itemBytes(e, "saved tensors left when a Mamba2 layer's scan runs its backward"),
             mambaSaved * mambaLayer + moeSaved * moeLayer);
    QCOMPARE(itemBytes(e, "gradients made before a Mamba2 layer's scan runs its backward"),
             (mambaGrads * mambaParams + moeGrads * moeParams + (headGrads ? head : 0.0)) * 2);
    // The per-layer items live until backward starts; the moment holds what is left of them.
    for (const auto &item : e.items)
        if (item.source == "per-layer saved-tensor inventory (Mamba2 layers)")
            QVERIFY(!item.aliveIn(Phase::LayerBackward));
}

void TestMemoryTerms::gatedDeltaNetUnderAutocast()
{
    // Qwen3.5's Gated DeltaNet on transformers' torch path (16 value heads, K = V = 128), three
    // linear-attention layers, one sequence of 1024 tokens (16 chunks of 64).
    const auto run = [](const char *precision) {
        const std::string model =
            "\"hf_config\":{\"model_type\":\"qwen3_5_text\",\"hidden_size\":1024,"
            "\"num_hidden_layers\":4,\"layer_types\":[\"linear_attention\",\"linear_attention\","
            "\"linear_attention\",\"full_attention\"],\"intermediate_size\":3584,"
            "\"num_attention_heads\":8,\"num_key_value_heads\":2,\"head_dim\":256,"
            "\"linear_conv_kernel_dim\":4,\"linear_key_head_dim\":128,\"linear_num_key_heads\":16,"
            "\"linear_num_value_heads\":16,\"linear_value_head_dim\":128,\"vocab_size\":1000,"
            "\"tie_word_embeddings\":true}";
        return estimate(test::parseOrFail(scenarioText(
            model,
            "\"micro_batch_size\":1,\"sequence_length\":1024,\"precision\":\"" +
                std::string(precision) + "\",\"linear_kernels\":\"torch\"",
            "\"gpus\":1", "transformers")));
    };
    // Per token and head c*(7K + 2V + 64) - 4*(2K + V + 64) - 2*64*(4 - c) = 6K - 384 bytes,
    // and two 16-bit copies of each chunk's K x V state.
    const char *name = "GDN chunked delta rule under autocast: 16-bit matmul operands";
    QCOMPARE(itemBytes(run("amp_bf16"), name),
             3 * (1024.0 * 16 * (6 * 128 - 384) + 16.0 * 16 * 2 * 128 * 128 * 2));
    QCOMPARE(itemBytes(run("bf16"), name), 0.0);
    // The gated norm's weighted product: fp32 under autocast (2 bytes more per element).
    const char *norm = "GDN gated RMSNorm (torch: fp32 copies, the gate's SiLU)";
    QCOMPARE(itemBytes(run("amp_bf16"), norm) - itemBytes(run("bf16"), norm),
             3 * 1024.0 * 16 * 128 * 2);
}

void TestMemoryTerms::slidingWindowMaskUnderSdpa_data()
{
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("sequence");
    QTest::addColumn<QString>("attention");
    QTest::addColumn<double>("expected");
    // Gemma 3 1B: 22 of 26 layers attend to a window of 512 tokens. Longer sequences keep one
    // b x s x s additive mask in bf16 per sliding layer (measured on an H200: 0.34 GiB of the
    // 0.46 GiB the estimate missed at 2 x 2048 tokens).
    QTest::newRow("2 x 2048, SDPA") << 2 << 2048 << "sdpa" << 22.0 * 2 * 2048 * 2048 * 2;
    QTest::newRow("1 x 1024, SDPA") << 1 << 1024 << "sdpa" << 22.0 * 1024 * 1024 * 2;
    // Within the window the mask is skipped (is_causal); flash attention takes the window.
    QTest::newRow("1 x 512, SDPA") << 1 << 512 << "sdpa" << 0.0;
    QTest::newRow("1 x 1024, flash") << 1 << 1024 << "flash" << 0.0;
}

void TestMemoryTerms::slidingWindowMaskUnderSdpa()
{
    QFETCH(int, batch);
    QFETCH(int, sequence);
    QFETCH(QString, attention);
    QFETCH(double, expected);
    const Estimate e = estimate(test::parseOrFail(scenarioText(
        "\"preset\":\"gemma-3-1b-pt\"",
        "\"micro_batch_size\":" + std::to_string(batch) + ",\"sequence_length\":" +
            std::to_string(sequence) + ",\"precision\":\"bf16\",\"attention\":\"" +
            attention.toStdString() + "\"",
        "\"gpus\":1", "transformers")));
    QCOMPARE(itemBytes(e, "sliding-window mask kept by SDPA (one per sliding layer)"), expected);
}

void TestMemoryTerms::firstLayerAtBackwardEnd_data()
{
    QTest::addColumn<int>("sequence");
    QTest::addColumn<int>("accumulation");
    QTest::addColumn<double>("gradientsNotMade"); // subtracted from one layer's inventory
    // Llama-2-7B in bf16: one layer's gradients (4h^2 + 3hf + 2h) * 2 bytes and the untied
    // embedding's (V*h*2) are made only when the first layer's backward has run.
    const double layer = (4.0 * 4096 * 4096 + 3.0 * 4096 * 11008 + 2 * 4096) * 2;
    const double embedding = 32000.0 * 4096 * 2;
    QTest::newRow("8192 tokens: the excess") << 8192 << 1 << layer + embedding;
    QTest::newRow("512 tokens: nothing") << 512 << 1 << -1.0;
    // With accumulation every gradient is alive from the first micro-batch on.
    QTest::newRow("accumulation: the whole layer") << 512 << 2 << 0.0;
}

void TestMemoryTerms::firstLayerAtBackwardEnd()
{
    QFETCH(int, sequence);
    QFETCH(int, accumulation);
    QFETCH(double, gradientsNotMade);
    const Estimate e = estimate(test::parseOrFail(scenarioText(
        "\"preset\":\"llama-2-7b\"",
        "\"micro_batch_size\":1,\"sequence_length\":" + std::to_string(sequence) +
            ",\"precision\":\"bf16\",\"gradient_accumulation_steps\":" +
            std::to_string(accumulation),
        "\"gpus\":1", "transformers")));
    const double left = itemBytes(e, "first layer's saved tensors (consumed last)");
    if (gradientsNotMade < 0)
        QCOMPARE(left, 0.0);
    else
        QCOMPARE(left, perLayerInventory(e) - gradientsNotMade);
}

void TestMemoryTerms::eagerScoresWarning()
{
    const Estimate e = estimate(test::parseOrFail(
        scenarioText("\"preset\":\"llama-2-7b\"",
                     "\"micro_batch_size\":1,\"sequence_length\":32768,\"attention\":\"eager\"",
                     "\"gpus\":1", "transformers")));
    // fp32 probabilities: 32 heads * 32768^2 * 4 bytes = 128 GiB per layer.
    QCOMPARE(itemBytes(e, "attention probabilities (softmax output)"),
             32.0 * 32 * 32768.0 * 32768 * 4);
    bool warned = false;
    for (const auto &w : e.warnings)
        warned = warned || w.code == WarningCode::EagerScoresLarge;
    QVERIFY(warned);
    QVERIFY(!e.fits);
}

void TestMemoryTerms::qloraBaseBytes()
{
    // QLoRA §3: NF4 codes (0.5 B), 8-bit block constants per 64 weights, fp32 per 256 blocks.
    const Estimate e = estimate(test::parseOrFail(
        scenarioText("\"preset\":\"llama-2-7b\"",
                     "\"micro_batch_size\":1,\"sequence_length\":512,\"precision\":\"bf16\","
                     "\"finetune\":{\"method\":\"qlora\",\"lora_rank\":8}",
                     "\"gpus\":1", "transformers")));
    const double linear = 32.0 * (4 * 4096.0 * 4096 + 3 * 4096.0 * 11008);
    QVERIFY(test::relativelyClose(itemBytes(e, "frozen base linear weights (quantised)"),
                                  linear * (0.5 + 1.0 / 64 + 4.0 / 16384), 1e-12));
    // Embeddings, head and norms stay 16-bit.
    QVERIFY(test::relativelyClose(itemBytes(e, "frozen base weights"), (llama2_7b - linear) * 2,
                                  1e-12));
}

void TestMemoryTerms::formulasWithNumbers_data()
{
    QTest::addColumn<QString>("formula");
    QTest::addColumn<QString>("expected");
    QTest::newRow("plain") << "b*s*a*d*c"
                           << "b*s*a*d*c = 2*1024*32*128*2";
    QTest::newRow("words after") << "b*s*h*c per layer"
                                 << "b*s*h*c per layer = 2*1024*4096*2";
    QTest::newRow("GQA note") << "b*s*kv*d*c (HF repeats K to all heads)"
                              << "b*s*kv*d*c (HF repeats K to all heads) = 2*1024*32*128*2";
    QTest::newRow("s squared") << "b*a*s^2*(1 + c)"
                               << "b*a*s^2*(1 + c) = 2*32*1024^2*(1 + 2)";
    QTest::newRow("no symbols") << "per architecture"
                                << "per architecture";
    // Spaced operators and the two-letter symbol kv (the inference KV cache's formula).
    QTest::newRow("KV cache") << "2 * b * s * kv * d * c per layer"
                              << "2 * b * s * kv * d * c per layer = 2 * 2 * 1024 * 32 * 128 * 2";
    QTest::newRow("words with a symbol's letters") << "b*s*h*c (a dense head)"
                                                   << "b*s*h*c (a dense head) = 2*1024*4096*2";
}

void TestMemoryTerms::formulasWithNumbers()
{
    QFETCH(QString, formula);
    QFETCH(QString, expected);
    const Estimate e = estimate(test::parseOrFail(
        scenarioText("\"preset\":\"llama-2-7b\"", "\"micro_batch_size\":2,\"sequence_length\":1024",
                     "\"gpus\":1", "transformers")));
    QCOMPARE(QString::fromStdString(formulaWithNumbers(formula.toStdString(), e.symbols)),
             expected);
}

// Every item's formula, with the numbers put in, ends on an operand: no "2 * 1 * 4096 *" cut
// short by a symbol taken for a word (the inference KV cache's "kv").
void TestMemoryTerms::everyFormulaWorksOut()
{
    const std::pair<const char *, const char *> cases[] = {
        {"llama-3.1-8b", "\"mode\":\"inference\""},
        {"deepseek-v3", "\"mode\":\"inference\""},
        {"gpt-oss-20b", "\"precision\":\"amp_bf16\",\"attention\":\"eager\""},
        {"qwen3-30b-a3b", "\"activation_recompute\":\"full\""},
        {"gemma-2-2b", "\"finetune\":{\"method\":\"lora\"},\"dropout\":0.1"},
    };
    for (const auto &[preset, training] : cases) {
        const Estimate e = estimate(test::parseOrFail(scenarioText(
            std::string("\"preset\":\"") + preset + "\"", training, "\"gpus\":8", "transformers")));
        for (const auto &item : e.items) {
            const std::string worked = formulaWithNumbers(item.formula, e.symbols);
            const auto eq = worked.find(" = ");
            if (eq == std::string::npos)
                continue;
            const char last = worked.back();
            QVERIFY2(std::string_view("*+-/^( ").find(last) == std::string_view::npos,
                     (std::string(preset) + ": " + worked).c_str());
        }
    }
}

// The serving KV cache's formula counts blocks, not heads: no symbol of the training formulas
// is put in ("kv bytes per token" was filled with the KV-head count before).
void TestMemoryTerms::servingKvFormulaNamesNoHeads()
{
    const Estimate e = estimate(test::parseOrFail(
        test::readFile(test::dataPath("scenarios/llama-3.1-8b-vllm-h100.vramplan.json"))));
    bool seen = false;
    for (const auto &item : e.items)
        if (item.name == "KV cache (whole blocks)") {
            seen = true;
            QCOMPARE(QString::fromStdString(formulaWithNumbers(item.formula, e.symbols)),
                     QStringLiteral("blocks * block_size * layers * KV bytes per token and layer"));
        }
    QVERIFY(seen);
}

QTEST_APPLESS_MAIN(TestMemoryTerms)
#include "tst_memoryterms.moc"
