// The terms of today's training stacks (issue 13) against values worked by hand from the code
// each follows: torch.compile's partitioner, Liger's and Unsloth's kernels, Unsloth's offloaded
// checkpoints and losses, HF Trainer dropping the returned logits, FSDP's fp32 shards, the
// model load's NF4 transient, and the framework_version field that selects between releases.

#include "estimate.h"
#include "formats/scenario_json.h"
#include "testhelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace vramplan;
using test::itemBytes;
using test::scenarioText;

namespace {

// Llama-3.1-8B: h 4096, FFN 14336, 32 heads of 128, 8 KV heads, vocabulary 128256, 32 layers.
constexpr double tokens = 2048, h = 4096, ffn = 14336, kv = 8 * 128, vocab = 128256, layers = 32;

Estimate llama8b(const std::string &training, const std::string &framework,
                 const std::string &parallelism = "\"gpus\":1", const std::string &top = "")
{
    std::string text = scenarioText("\"preset\":\"llama-3.1-8b\"",
                                    "\"micro_batch_size\":1,\"sequence_length\":2048," + training,
                                    parallelism, framework);
    if (!top.empty())
        text.insert(text.size() - 1, "," + top);
    return estimate(test::parseOrFail(text));
}

} // namespace

class TestTrainingStacks : public QObject
{
    Q_OBJECT

private slots:
    void compiledLayerKeepsMatmulOutputs();
    void compiledLossFusesTheUpcast();
    void compileLossOffLeavesTheEagerLoss();
    void ligerKernels();
    void unslothOffloadsCheckpoints();
    void unslothLossByRelease_data();
    void unslothLossByRelease();
    void unslothKeepsA16BitBase();
    void trainerDropsReturnedLogits();
    void fsdpKeepsFp32Shards_data();
    void fsdpKeepsFp32Shards();
    void torchtuneNf4LoadPeaks();
    void frameworkVersionParsing_data();
    void frameworkVersionParsing();
    void newFieldsRoundTrip();
    void unslothUnderTrainerConvertsReturnedLogits();
    void unslothLossChunksFollowFreeMemory_data();
    void unslothLossChunksFollowFreeMemory();
    void unslothLoraUnderAmpCountsA16BitBase();
    void unslothFastLoraSavesOnce();
    void eagerLossesByFramework_data();
    void eagerLossesByFramework();
    void fsdpRootGradientWaitsForTheEnd_data();
    void fsdpRootGradientWaitsForTheEnd();
};

void TestTrainingStacks::compiledLayerKeepsMatmulOutputs()
{
    const std::string base = "\"precision\":\"bf16\",\"attention\":\"sdpa\"";
    const Estimate eager = llama8b(base, "pytorch");
    const Estimate compiled = llama8b(base + ",\"compile\":true", "pytorch");
    // Eager SwiGLU keeps gate, silu(gate), up and the product; compiled, gate and up only.
    QCOMPARE(itemBytes(eager, "activation output (kept by the product)"), tokens * ffn * 2 * layers);
    QCOMPARE(itemBytes(compiled, "activation output (kept by the product)"), 0.0);
    QCOMPARE(itemBytes(compiled, "gate projection (compiled SwiGLU input)"),
             tokens * ffn * 2 * layers);
    QCOMPARE(itemBytes(compiled, "up projection (compiled SwiGLU input)"), tokens * ffn * 2 * layers);
    // The K/V repeat is recomputed: the key is kept at its 8 grouped heads, not all 32.
    QCOMPARE(itemBytes(eager, "key (saved by attention)"), tokens * h * 2 * layers);
    QCOMPARE(itemBytes(compiled, "key (saved by attention)"), tokens * kv * 2 * layers);
    // Two norms per layer: the 16-bit input and one fp32 rstd per row.
    QCOMPARE(itemBytes(compiled, "norm input and per-row statistics (fused norm)"),
             (tokens * h * 2 + tokens * 4) * 2 * layers);
    QCOMPARE(itemBytes(compiled, "RMSNorm fp32 input copy"), 0.0);
    const auto layerBackward = size_t(Phase::LayerBackward);
    QVERIFY(compiled.phases[layerBackward].allocated < eager.phases[layerBackward].allocated);
}

void TestTrainingStacks::compiledLossFusesTheUpcast()
{
    const Estimate e = llama8b("\"precision\":\"bf16\",\"compile\":true", "torchtitan");
    QCOMPARE(itemBytes(e, "logits and compiled cross-entropy (upcast fused)"), tokens * vocab * 2);
    QCOMPARE(itemBytes(e, "cross-entropy backward: log-softmax and logits gradients"),
             tokens * vocab * 4);
}

void TestTrainingStacks::compileLossOffLeavesTheEagerLoss()
{
    // torchtitan between 2024-12-18 and 2025-04-02: blocks compiled, loss eager (lc + 8, 12).
    const Estimate e =
        llama8b("\"precision\":\"bf16\",\"compile\":true,\"compile_loss\":false", "torchtitan");
    QCOMPARE(itemBytes(e, "logits and compiled cross-entropy (upcast fused)"), 0.0);
    QCOMPARE(itemBytes(e, "cross-entropy backward: log-softmax and logits gradients"),
             tokens * vocab * 12);
}

void TestTrainingStacks::ligerKernels()
{
    const Estimate e = llama8b("\"precision\":\"bf16\",\"kernels\":\"liger\"", "transformers");
    // LigerSiLUMulFunction keeps gate and up; the product is down_proj's own input.
    QCOMPARE(itemBytes(e, "gate projection (fused SwiGLU input)"), tokens * ffn * 2 * layers);
    QCOMPARE(itemBytes(e, "gated product (down_proj input)"), tokens * ffn * 2 * layers);
    QCOMPARE(itemBytes(e, "activation output (kept by the product)"), 0.0);
    // LigerRMSNorm keeps X and rstd; its output is a tensor the next linears keep.
    QCOMPARE(itemBytes(e, "norm input and per-row statistics (fused norm)"),
             (tokens * h * 2 + tokens * 4) * 2 * layers);
    QCOMPARE(itemBytes(e, "norm output (input of the next linears)"), tokens * h * 2 * 2 * layers);
}

void TestTrainingStacks::unslothOffloadsCheckpoints()
{
    const std::string training = "\"precision\":\"bf16\",\"activation_recompute\":\"full\"";
    const Estimate hf = llama8b(training, "transformers");
    const Estimate unsloth = llama8b(training, "unsloth");
    QCOMPARE(itemBytes(hf, "checkpointed layer inputs"), tokens * h * 2 * layers);
    QCOMPARE(itemBytes(unsloth, "checkpointed layer inputs"), 0.0);
    QCOMPARE(itemBytes(unsloth, "checkpointed layer inputs in flight (rest offloaded to the host)"),
             tokens * h * 2 * 2);
}

void TestTrainingStacks::unslothLossByRelease_data()
{
    QTest::addColumn<QString>("version");
    QTest::addColumn<double>("inPlaceBackward");
    QTest::addColumn<double>("fusedHiddenGradient");
    // Before 2024.12: Fast_CrossEntropyLoss writes the gradient into the 16-bit logits.
    QTest::newRow("2024.5") << "\"framework_version\":\"2024.5\"" << tokens * vocab * 2 << 0.0;
    // From 2024.12 (and without a version: the current release): Cut Cross-Entropy.
    QTest::newRow("current") << "" << 0.0 << tokens * h * 2;
}

void TestTrainingStacks::unslothLossByRelease()
{
    QFETCH(QString, version);
    QFETCH(double, inPlaceBackward);
    QFETCH(double, fusedHiddenGradient);
    const Estimate e = llama8b("\"precision\":\"bf16\"", "unsloth", "\"gpus\":1",
                               version.toStdString());
    QCOMPARE(itemBytes(e, "cross-entropy backward: log-softmax and logits gradients"),
             inPlaceBackward);
    QCOMPARE(itemBytes(e, "hidden-state gradient computed in forward (fused loss)"),
             fusedHiddenGradient);
}

void TestTrainingStacks::unslothKeepsA16BitBase()
{
    const std::string training =
        "\"precision\":\"amp_bf16\",\"finetune\":{\"method\":\"qlora\",\"lora_rank\":16}";
    const Estimate peft = llama8b(training, "transformers");
    const Estimate unsloth = llama8b(training, "unsloth");
    // Embeddings, head and final norm (fp32 under PEFT's autocast, 16-bit under Unsloth), and
    // the layers' 64 norms, which stay 16-bit beside a 4-bit base in both.
    const double globals = 2 * vocab * h + h, layerNorms = 2 * layers * h;
    QCOMPARE(itemBytes(peft, "frozen base weights"), globals * 4 + layerNorms * 2);
    QCOMPARE(itemBytes(unsloth, "frozen base weights"), globals * 2 + layerNorms * 2);
    QVERIFY(itemBytes(peft, "autocast 16-bit weight copies") > 0);
    QCOMPARE(itemBytes(unsloth, "autocast 16-bit weight copies"), 0.0);
}

void TestTrainingStacks::trainerDropsReturnedLogits()
{
    const std::string top = "\"framework_version\":\"4.57\"";
    const Estimate custom = llama8b("\"precision\":\"bf16\"", "transformers", "\"gpus\":1", top);
    const Estimate trainer =
        llama8b("\"precision\":\"bf16\",\"loop\":\"trainer\"", "transformers", "\"gpus\":1", top);
    // >= 4.46: returned 16-bit logits + fp32 log-softmax + its two gradients (lc + 12), and
    // without the returned logits under Trainer (12).
    QCOMPARE(itemBytes(custom, "cross-entropy backward: log-softmax and logits gradients"),
             tokens * vocab * 14);
    QCOMPARE(itemBytes(trainer, "cross-entropy backward: log-softmax and logits gradients"),
             tokens * vocab * 12);
    QCOMPARE(itemBytes(trainer,
                       "log-softmax (kept for backward; Trainer drops the returned logits)"),
             tokens * vocab * 4);
}

void TestTrainingStacks::fsdpKeepsFp32Shards_data()
{
    QTest::addColumn<QString>("framework");
    QTest::addColumn<double>("weightBytes");
    QTest::addColumn<double>("masterBytes");
    const double params = 8030261248.0 / 8; // per GPU of 8
    // accelerate's FSDP upcasts the weights to fp32 shards and steps on them: no master copy.
    QTest::newRow("transformers (FSDP)") << "transformers" << params * 4 << 0.0;
    // DeepSpeed's bf16 ZeRO-3 keeps bf16 partitions and fp32 master partitions.
    QTest::newRow("deepspeed") << "deepspeed" << params * 2 << params * 4;
}

void TestTrainingStacks::fsdpKeepsFp32Shards()
{
    QFETCH(QString, framework);
    QFETCH(double, weightBytes);
    QFETCH(double, masterBytes);
    const Estimate e = llama8b("\"precision\":\"bf16_mixed\"", framework.toStdString(),
                               "\"gpus\":8,\"zero_stage\":3");
    QCOMPARE(itemBytes(e, "weights"), weightBytes);
    QCOMPARE(itemBytes(e, "fp32 master weights"), masterBytes);
}

void TestTrainingStacks::torchtuneNf4LoadPeaks()
{
    const auto run = [](const std::string &top) {
        std::string text = scenarioText(
            "\"preset\":\"llama-2-7b\"",
            "\"micro_batch_size\":1,\"sequence_length\":128,\"precision\":\"bf16\","
            "\"finetune\":{\"method\":\"qlora\",\"lora_rank\":8}",
            "\"gpus\":1", "torchtune");
        if (!top.empty())
            text.insert(text.size() - 1, "," + top);
        return estimate(test::parseOrFail(text));
    };
    // torchtune 0.1: the whole 4096 x 11008 MLP weight against the 16 NF4 levels at once.
    const Estimate old = run("\"framework_version\":\"0.1\"");
    QCOMPARE(itemBytes(old, "NF4 quantisation of one weight at load (torchao 0.1)"),
             4096.0 * 11008 * 68);
    QVERIFY(old.phases[size_t(Phase::Initialisation)].present);
    QCOMPARE(old.peak.phase, Phase::Initialisation); // a short step stays below the load
    QCOMPARE(phaseKey(old.peak.phase), std::string_view("initialisation"));
    // The current release: no load transient, no initialisation phase.
    const Estimate current = run("");
    QCOMPARE(itemBytes(current, "NF4 quantisation of one weight at load (torchao 0.1)"), 0.0);
    QVERIFY(!current.phases[size_t(Phase::Initialisation)].present);
    QVERIFY(current.peak.phase != Phase::Initialisation);
}

void TestTrainingStacks::frameworkVersionParsing_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("error"); // empty: accepted
    QTest::newRow("major.minor") << "4.57" << "";
    QTest::newRow("with patch") << "4.57.1" << "";
    QTest::newRow("named") << "transformers 4.45" << "";
    QTest::newRow("dev suffix") << "4.58.0.dev0" << "";
    QTest::newRow("other framework")
        << "torchtune 0.1" << "framework_version: \"torchtune 0.1\" names another framework than \"transformers\"";
    QTest::newRow("no minor") << "4"
                              << "framework_version: expected a release such as \"4.57\" or "
                                 "\"transformers 4.57\", got \"4\"";
    QTest::newRow("words") << "latest"
                           << "framework_version: expected a release such as \"4.57\" or "
                              "\"transformers 4.57\", got \"latest\"";
}

void TestTrainingStacks::frameworkVersionParsing()
{
    QFETCH(QString, value);
    QFETCH(QString, error);
    const auto parsed = scenarioFromText(
        "{\"format\":\"vramplan-scenario\",\"framework\":\"transformers\",\"framework_version\":\"" +
        value.toStdString() + "\"}");
    if (error.isEmpty())
        QVERIFY2(bool(parsed), parsed.error.c_str());
    else
        QCOMPARE(QString::fromStdString(parsed.error), error);
}

void TestTrainingStacks::newFieldsRoundTrip()
{
    const Scenario s = test::parseOrFail(
        "{\"format\":\"vramplan-scenario\",\"framework\":\"torchtitan\",\"framework_version\":"
        "\"0.1.0\",\"training\":{\"compile\":true,\"compile_loss\":false,\"kernels\":\"liger\","
        "\"loop\":\"trainer\"},\"parallelism\":{\"gpus\":8,\"zero_stage\":3,\"fsdp_version\":2,"
        "\"fsdp_float8_all_gather\":true}}");
    QVERIFY(s.training.compile);
    QVERIFY(!s.training.compileLoss);
    QCOMPARE(s.training.kernels, Kernels::Liger);
    QCOMPARE(s.training.loop, TrainingLoop::Trainer);
    QCOMPARE(s.parallelism.fsdpVersion, int64_t(2));
    QVERIFY(s.parallelism.fsdpFloat8AllGather);
    const auto json = scenarioToJson(s);
    QCOMPARE(json["framework_version"].get<std::string>(), std::string("0.1"));
    QCOMPARE(json["training"]["compile_loss"].get<bool>(), false);
    QCOMPARE(json["training"]["kernels"].get<std::string>(), std::string("liger"));
    QCOMPARE(json["training"]["loop"].get<std::string>(), std::string("trainer"));
    QCOMPARE(json["parallelism"]["fsdp_version"].get<int64_t>(), int64_t(2));
    QCOMPARE(json["parallelism"]["fsdp_float8_all_gather"].get<bool>(), true);
    const auto again = scenarioFromJson(json);
    QVERIFY(bool(again));
    QVERIFY(scenarioToJson(*again.value) == json);
    // A scenario without them writes none of them (older files mean what they meant).
    const auto plain = scenarioToJson(test::parseOrFail("{\"format\":\"vramplan-scenario\"}"));
    QVERIFY(!plain.contains("framework_version"));
    QVERIFY(!plain["training"].contains("compile"));
    QVERIFY(!plain["parallelism"].contains("fsdp_version"));
    QVERIFY(!plain["parallelism"].contains("fsdp_float8_all_gather"));
    // A value that is not a boolean is refused with the key named.
    const auto bad = scenarioFromJson(nlohmann::json::parse(
        "{\"format\":\"vramplan-scenario\",\"parallelism\":{\"fsdp_float8_all_gather\":1}}"));
    QVERIFY(!bad);
    QVERIFY2(bad.error.starts_with("parallelism.fsdp_float8_all_gather: "), bad.error.c_str());
}

// Unsloth before 2024.12 returns the 16-bit logits its in-place cross-entropy keeps; HF Trainer
// under mixed precision (accelerate's convert_outputs_to_fp32) adds an fp32 copy of them at the
// end of forward, freed before backward.
void TestTrainingStacks::unslothUnderTrainerConvertsReturnedLogits()
{
    const std::string version = "\"framework_version\":\"2024.5\"";
    const std::string amp = "\"precision\":\"amp_bf16\",\"finetune\":{\"method\":\"qlora\"}";
    const Estimate custom = llama8b(amp, "unsloth", "\"gpus\":1", version);
    const Estimate trainer = llama8b(amp + ",\"loop\":\"trainer\"", "unsloth", "\"gpus\":1", version);
    const std::string copy = "fp32 copy of the returned logits (accelerate convert_outputs_to_fp32)";
    QCOMPARE(itemBytes(custom, copy), 0.0);
    QCOMPARE(itemBytes(trainer, copy), tokens * vocab * 4);
    QCOMPARE(itemBytes(trainer, "16-bit logits (kept by the in-place cross-entropy)"),
             tokens * vocab * 2);
    QCOMPARE(itemBytes(trainer, "cross-entropy backward: log-softmax and logits gradients"),
             tokens * vocab * 2);
}

// Unsloth LoRA under autocast keeps its base in 16 bits (base16BitUnderAutocast): the free
// memory its loss sizes chunks by is the card less 14.96 GiB, as in bf16, so 16k tokens on
// 24 GiB make one chunk under 2025.9 (the fp32 weights AMP would mean leave none free).
void TestTrainingStacks::unslothLoraUnderAmpCountsA16BitBase()
{
    auto json = nlohmann::json::parse(scenarioText(
        "\"preset\":\"llama-3.1-8b\"",
        "\"micro_batch_size\":2,\"sequence_length\":8192,\"precision\":\"amp_bf16\","
        "\"activation_recompute\":\"full\",\"finetune\":{\"method\":\"lora\"}",
        "\"gpus\":1", "unsloth"));
    json["framework_version"] = "2025.9";
    json["gpu"]["memory_gib"] = 24.0;
    const Estimate e = estimate(test::parseOrFail(json.dump()));
    QCOMPARE(itemBytes(e, "Unsloth fused cross-entropy: one chunk's logits, fp32 copy and gradient"),
             16384 * vocab * (2 * 2 + 4));
}

void TestTrainingStacks::unslothLossChunksFollowFreeMemory_data()
{
    QTest::addColumn<QString>("version");
    QTest::addColumn<double>("gpuGiB");
    QTest::addColumn<double>("batchTokens");
    QTest::addColumn<double>("rows"); // tokens per chunk
    // Llama-3.1-8B in bf16: 8,030,261,248 weights, 14.96 GiB. On 24 GiB: 9.04 GiB free, half
    // of it 4.52 GiB the target. 16384 tokens: fp32 logits 7.83 GiB, 1.73 targets.
    // 2025.9: round(1.73 / 4) * 4 = 0, at least 1 chunk.
    QTest::newRow("2025.9, 16k tokens, 24 GiB") << "2025.9" << 24.0 << 16384.0 << 16384.0;
    // 2026.7 caps the target at 4 GiB: 1.96 targets, rounded up to 4 chunks of 4096.
    QTest::newRow("2026.7, 16k tokens, 24 GiB") << "2026.7" << 24.0 << 16384.0 << 4096.0;
    // 65536 tokens: 31.3 GiB of fp32 logits, 6.93 targets: round(1.73) * 4 = 8 chunks.
    QTest::newRow("2025.9, 64k tokens, 24 GiB") << "2025.9" << 24.0 << 65536.0 << 8192.0;
    // A large GPU: one chunk under 2025.9; 2026.7 still splits 7.83 GiB into 4 chunks.
    QTest::newRow("2025.9, 16k tokens, 1000 GiB") << "2025.9" << 1000.0 << 16384.0 << 16384.0;
    QTest::newRow("2026.7, 16k tokens, 1000 GiB") << "2026.7" << 1000.0 << 16384.0 << 4096.0;
}

// unsloth_zoo's unsloth_fused_ce_loss (from Unsloth 2025.8): chunks sized to half the free
// memory at the first call, each holding its 16-bit logits, their fp32 copy and gradient.
void TestTrainingStacks::unslothLossChunksFollowFreeMemory()
{
    QFETCH(QString, version);
    QFETCH(double, gpuGiB);
    QFETCH(double, batchTokens);
    QFETCH(double, rows);
    auto json = nlohmann::json::parse(scenarioText(
        "\"preset\":\"llama-3.1-8b\"",
        "\"micro_batch_size\":" + std::to_string(int(batchTokens / 8192)) +
            ",\"sequence_length\":8192,\"precision\":\"bf16\",\"activation_recompute\":\"full\"",
        "\"gpus\":1", "unsloth"));
    json["framework_version"] = version.toStdString();
    json["gpu"]["memory_gib"] = gpuGiB;
    const Estimate e = estimate(test::parseOrFail(json.dump()));
    QCOMPARE(itemBytes(e, "Unsloth fused cross-entropy: one chunk's logits, fp32 copy and gradient"),
             rows * vocab * (2 * 2 + 4));
    QCOMPARE(itemBytes(e, "hidden-state gradient computed in forward (fused loss)"),
             batchTokens * h * 2);
}

// Unsloth's LoRA_QKV and LoRA_MLP save their input once and recompute the gated product;
// PEFT's separate linears under autocast each keep their own 16-bit copy of the norm output.
void TestTrainingStacks::unslothFastLoraSavesOnce()
{
    const std::string training = "\"precision\":\"amp_bf16\",\"activation_recompute\":\"none\","
                                 "\"finetune\":{\"method\":\"qlora\",\"lora_rank\":16}";
    const Estimate unsloth = llama8b(training, "unsloth");
    const Estimate liger = llama8b(training + ",\"kernels\":\"liger\"", "transformers");
    // One copy for q/k/v and one for gate/up per layer (16-bit residual stream: 2 bytes).
    QCOMPARE(itemBytes(unsloth, "norm output (input of the next linears)"),
             tokens * h * 2 * 2 * layers);
    QCOMPARE(itemBytes(liger, "norm output (input of the next linears)"),
             tokens * h * 2 * (3 + 2) * layers);
    QCOMPARE(itemBytes(unsloth, "gated product (down_proj input)"), 0.0);
    QVERIFY(itemBytes(liger, "gated product (down_proj input)") > 0);
    // The fused norm keeps its 16-bit input (Unsloth's base is 16-bit), fp32 under PEFT's AMP.
    QCOMPARE(itemBytes(unsloth, "norm input and per-row statistics (fused norm)"),
             (tokens * h * 2 + tokens * 4) * 2 * layers);
    QCOMPARE(itemBytes(liger, "norm input and per-row statistics (fused norm)"),
             (tokens * h * 4 + tokens * 4) * 2 * layers);
}

void TestTrainingStacks::eagerLossesByFramework_data()
{
    QTest::addColumn<QString>("framework");
    QTest::addColumn<QString>("version");
    QTest::addColumn<QString>("keptName");
    QTest::addColumn<double>("kept");      // bytes per logit kept for backward
    QTest::addColumn<double>("transient"); // bytes per logit only inside the loss
    QTest::addColumn<double>("backward");
    // transformers <= 4.45 (Llama 3.1's default): `logits = logits.float()` frees the 16-bit
    // logits once cast; fp32 logits (returned) and log-softmax kept, the shifted copy transient.
    QTest::newRow("transformers 4.45") << "transformers" << "4.45"
                                       << "fp32 logits and log-softmax (kept for backward)" << 8.0
                                       << 4.0 << 16.0;
    // torchtune from 0.3 with torch.nn.CrossEntropyLoss: the decoder's fp32 output, labels
    // shifted instead of the logits, `del logits` after the loss: the log-softmax kept.
    QTest::newRow("torchtune 0.4") << "torchtune" << "0.4" << "fp32 log-softmax (kept for backward)"
                                   << 4.0 << 4.0 << 12.0;
    QTest::newRow("torchtune current") << "torchtune" << "" << "fp32 log-softmax (kept for backward)"
                                       << 4.0 << 4.0 << 12.0;
}

void TestTrainingStacks::eagerLossesByFramework()
{
    QFETCH(QString, framework);
    QFETCH(QString, version);
    QFETCH(QString, keptName);
    QFETCH(double, kept);
    QFETCH(double, transient);
    QFETCH(double, backward);
    const std::string top =
        version.isEmpty() ? "" : "\"framework_version\":\"" + version.toStdString() + "\"";
    const Estimate e = llama8b("\"precision\":\"bf16\"", framework.toStdString(), "\"gpus\":1", top);
    QCOMPARE(itemBytes(e, keptName.toStdString()), tokens * vocab * kept);
    QCOMPARE(itemBytes(e, "16-bit logits and shifted copy (transient inside the loss)"),
             tokens * vocab * transient);
    QCOMPARE(itemBytes(e, "cross-entropy backward: log-softmax and logits gradients"),
             tokens * vocab * backward);
}

void TestTrainingStacks::fsdpRootGradientWaitsForTheEnd_data()
{
    QTest::addColumn<QString>("framework");
    QTest::addColumn<QString>("version");
    QTest::addColumn<double>("headGradient");
    // Torch FSDP reduce-scatters the root's gradients in its post-backward at the very end:
    // the head's 16-bit unsharded gradient waits through every layer's backward.
    QTest::newRow("transformers FSDP") << "transformers" << "" << vocab * h * 2;
    QTest::newRow("torchtitan 0.1") << "torchtitan" << "0.1" << vocab * h * 2;
    // torchtitan from 0.2: [norm, output] is a unit of its own, reduce-scattered right after
    // the loss backward; DeepSpeed reduces each gradient through its buckets.
    QTest::newRow("torchtitan 0.2") << "torchtitan" << "0.2" << 0.0;
    QTest::newRow("deepspeed ZeRO-3") << "deepspeed" << "" << 0.0;
}

void TestTrainingStacks::fsdpRootGradientWaitsForTheEnd()
{
    QFETCH(QString, framework);
    QFETCH(QString, version);
    QFETCH(double, headGradient);
    const std::string top =
        version.isEmpty() ? "" : "\"framework_version\":\"" + version.toStdString() + "\"";
    const Estimate e = llama8b("\"precision\":\"bf16_mixed\",\"activation_recompute\":\"full\"",
                               framework.toStdString(), "\"gpus\":8,\"zero_stage\":3", top);
    QCOMPARE(itemBytes(e, "unsharded head gradient (root unit, until the end of backward)"),
             headGradient);
}

QTEST_APPLESS_MAIN(TestTrainingStacks)
#include "tst_trainingstacks.moc"
