// FSDP1 (FullyShardedDataParallel, flat parameters) against FSDP2 (fully_shard), and torchao's
// float8 all-gather, each term against the bytes worked by hand from the code
// (docs/training_stacks.md "FSDP1 against FSDP2"):
// - FSDP1: the flat parameter's unsharded buffer, one layer in forward (forward_prefetch off),
//   one more prefetched in backward (BACKWARD_PRE); the layer's gradients and their flat
//   concatenation (torch.split views: SplitWithSizesBackward) before the reduce-scatter.
// - FSDP2: the copied-out parameters plus a second all-gather buffer (forward: freed after the
//   next copy-out; backward: the prefetch); the layer's gradients plus the previous layer's
//   reduce-scatter input in the reduce dtype, held until the next post-backward.

#include "training/capabilities.h"
#include "formats/enum_names.h"
#include "estimate.h"
#include "testhelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace vramplan;
using test::itemBytes;
using test::scenarioText;

namespace {

// Llama 2 7B (hidden 4096, 32 layers, SwiGLU 11008, vocabulary 32000, untied), 8 GPUs.
const std::string llama7b = "\"preset\":\"llama-2-7b\"";
constexpr double h = 4096, f = 11008;
constexpr double linearElements = 4 * h * h + 3 * h * f; // q, k, v, o, gate, up, down
constexpr double layerElements = linearElements + 2 * h; // and two RMSNorm weights

const char *const fsdp1Current = "gathered layer weights (FSDP1 flat parameter of the current layer)";
const char *const fsdp1Prefetch = "prefetched layer weights (FSDP1 backward_prefetch BACKWARD_PRE)";
const char *const fsdp1Flat = "flat gradient of one layer (FSDP1: its views' gradients concatenated)";
const char *const fsdp2Current = "gathered layer weights (current layer)";
const char *const fsdp2Second =
    "all-gather buffer of a second layer (FSDP2: forward overlap, backward prefetch)";
const char *const fsdp2Input =
    "reduce-scatter input of the previous layer (FSDP2, held until this layer's post-backward)";
const char *const grads = "unsharded gradients of one layer (before reduce-scatter)";
const char *const legacy = "gathered layer weights (current + prefetched)";

Estimate estimateOf(const std::string &framework, const std::string &precision,
                    const std::string &extraParallelism)
{
    return estimate(test::parseOrFail(scenarioText(
        llama7b, "\"precision\":\"" + precision + "\",\"activation_recompute\":\"full\"",
        "\"gpus\":8,\"zero_stage\":3" + extraParallelism, framework)));
}

const Item *findItem(const Estimate &e, std::string_view name)
{
    for (const auto &item : e.items)
        if (item.name == name)
            return &item;
    return nullptr;
}

} // namespace

class TestFsdpVersions : public QObject
{
    Q_OBJECT

private slots:
    void frameworkDefaults_data();
    void frameworkDefaults();
    void terms_data();
    void terms();
    void forwardHoldsOneLayerUnderFsdp1();
    void gatheredBlocksStayReservedForTheirStream();
    void float8AllGather_data();
    void float8AllGather();
    void float8AllGatherIgnoredWhereItDoesNotApply();
};

void TestFsdpVersions::frameworkDefaults_data()
{
    QTest::addColumn<QString>("framework");
    QTest::addColumn<int>("given");
    QTest::addColumn<int>("version");
    QTest::newRow("transformers (accelerate FSDP_VERSION 1)") << "transformers" << 0 << 1;
    QTest::newRow("transformers given 2") << "transformers" << 2 << 2;
    QTest::newRow("litgpt (Fabric FSDPStrategy)") << "litgpt" << 0 << 1;
    QTest::newRow("pytorch (fully_shard)") << "pytorch" << 0 << 2;
    QTest::newRow("pytorch given 1") << "pytorch" << 1 << 1;
    QTest::newRow("torchtune") << "torchtune" << 0 << 2;
    QTest::newRow("torchtitan") << "torchtitan" << 0 << 2;
    QTest::newRow("deepspeed (its own engine)") << "deepspeed" << 2 << 0;
    QTest::newRow("megatron (its own engine)") << "megatron" << 0 << 0;
}

void TestFsdpVersions::frameworkDefaults()
{
    QFETCH(QString, framework);
    QFETCH(int, given);
    QFETCH(int, version);
    Scenario s;
    s.framework = *fromString<Framework>(framework.toStdString());
    s.parallelism.fsdpVersion = given;
    QCOMPARE(fsdpVersionOf(s), version);
}

void TestFsdpVersions::terms_data()
{
    QTest::addColumn<QString>("framework");
    QTest::addColumn<QString>("version"); // extra parallelism text
    QTest::addColumn<QString>("item");
    QTest::addColumn<double>("bytes");
    const double L2 = layerElements * 2; // one layer in bf16
    // transformers: FSDP1 by default; accelerate reduces in bf16.
    QTest::newRow("fsdp1 current") << "transformers" << "" << fsdp1Current << L2;
    QTest::newRow("fsdp1 prefetch") << "transformers" << "" << fsdp1Prefetch << L2;
    QTest::newRow("fsdp1 gradients") << "transformers" << "" << grads << L2;
    QTest::newRow("fsdp1 flat gradient") << "transformers" << "" << fsdp1Flat << L2;
    QTest::newRow("fsdp1 no fsdp2 buffer") << "transformers" << "" << fsdp2Second << 0.0;
    QTest::newRow("fsdp1 no reduce-scatter input") << "transformers" << "" << fsdp2Input << 0.0;
    // transformers with fsdp_version 2: accelerate's MixedPrecisionPolicy reduces in bf16.
    const QString v2 = ",\"fsdp_version\":2";
    QTest::newRow("fsdp2 current") << "transformers" << v2 << fsdp2Current << L2;
    QTest::newRow("fsdp2 second buffer") << "transformers" << v2 << fsdp2Second << L2;
    QTest::newRow("fsdp2 gradients") << "transformers" << v2 << grads << L2;
    QTest::newRow("fsdp2 reduce-scatter input bf16") << "transformers" << v2 << fsdp2Input << L2;
    QTest::newRow("fsdp2 no flat gradient") << "transformers" << v2 << fsdp1Flat << 0.0;
    QTest::newRow("fsdp2 no fsdp1 prefetch") << "transformers" << v2 << fsdp1Prefetch << 0.0;
    // torchtitan: FSDP2, MixedPrecisionPolicy(reduce_dtype=float32).
    QTest::newRow("torchtitan gradients bf16") << "torchtitan" << "" << grads << L2;
    QTest::newRow("torchtitan reduce-scatter input fp32")
        << "torchtitan" << "" << fsdp2Input << layerElements * 4;
    QTest::newRow("pytorch reduce-scatter input (default policy)")
        << "pytorch" << "" << fsdp2Input << L2;
    // Megatron's FSDP is neither: the two-layer term as before.
    QTest::newRow("megatron unchanged") << "megatron" << "" << legacy << 2 * L2;
    QTest::newRow("megatron no fsdp2 term") << "megatron" << "" << fsdp2Current << 0.0;
}

void TestFsdpVersions::terms()
{
    QFETCH(QString, framework);
    QFETCH(QString, version);
    QFETCH(QString, item);
    QFETCH(double, bytes);
    const Estimate e = estimateOf(framework.toStdString(), "bf16_mixed", version.toStdString());
    QCOMPARE(itemBytes(e, item.toStdString()), bytes);
}

// In steady-state backward both hold four layer-sized bf16 buffers under accelerate (two
// gathered layers, the gradients, and the flat copy or the previous reduce-scatter input); in
// forward FSDP1 holds one gathered layer where FSDP2 holds two.
void TestFsdpVersions::forwardHoldsOneLayerUnderFsdp1()
{
    const Estimate one = estimateOf("transformers", "bf16_mixed", ",\"fsdp_version\":1");
    const Estimate two = estimateOf("transformers", "bf16_mixed", ",\"fsdp_version\":2");
    const auto allocated = [](const Estimate &e, Phase p) {
        return e.phases[static_cast<int>(p)].allocated;
    };
    QCOMPARE(allocated(two, Phase::Forward) - allocated(one, Phase::Forward), layerElements * 2);
    QCOMPARE(allocated(two, Phase::LayerBackward), allocated(one, Phase::LayerBackward));
    const Item *current = findItem(one, fsdp1Current);
    QVERIFY(current && current->aliveIn(Phase::Forward) && !current->aliveIn(Phase::LossBackward));
    const Item *prefetch = findItem(one, fsdp1Prefetch);
    QVERIFY(prefetch && !prefetch->aliveIn(Phase::Forward) &&
            prefetch->aliveIn(Phase::LossBackward) && prefetch->aliveIn(Phase::LayerBackward));
    const Item *second = findItem(two, fsdp2Second);
    QVERIFY(second && second->aliveIn(Phase::Forward) && !second->aliveIn(Phase::LossBackward));
}

// The gathered layers live on the all-gather stream, whose freed blocks serve only that stream:
// at the start of backward FSDP2 holds one gathered layer, but the second layer's blocks (from
// forward and every layer's backward) stay reserved. Reserved at that peak is allocated plus the
// allocator's slack shares (core/estimate_peak.cpp) plus that one idle layer.
void TestFsdpVersions::gatheredBlocksStayReservedForTheirStream()
{
    // Llama-3.1-8B (h 4096, 8 KV heads of 128, SwiGLU 14336, vocabulary 128256), 8 x 4096 tokens:
    // the eager loss makes the start of backward the peak.
    constexpr double layer = 2 * 4096.0 * 4096 + 2 * 4096.0 * 1024 + 3 * 4096.0 * 14336 + 2 * 4096;
    constexpr double tokens = 8 * 4096.0, vocab = 128256;
    const Estimate e = estimate(test::parseOrFail(scenarioText(
        "\"preset\":\"llama-3.1-8b\"",
        "\"precision\":\"bf16\",\"activation_recompute\":\"full\",\"micro_batch_size\":8,"
        "\"sequence_length\":4096",
        "\"gpus\":8,\"zero_stage\":3", "torchtitan")));
    QCOMPARE(int(e.peak.phase), int(Phase::LossBackward));
    const Item *current = findItem(e, fsdp2Current);
    const Item *second = findItem(e, fsdp2Second);
    // The all-gather output lives on the collective stream; the copied-out parameters on the
    // compute stream.
    QVERIFY(current && second && !current->streamPooled && second->streamPooled);
    QCOMPARE(current->bytes(), layer * 2);
    QVERIFY(current->aliveIn(Phase::LossBackward) && !second->aliveIn(Phase::LossBackward));
    const PhaseTotals &ph = e.phases[size_t(Phase::LossBackward)];
    const double transient = ph.byComponent[int(Component::Activations)] +
                             ph.byComponent[int(Component::LogitsAndLoss)] +
                             ph.byComponent[int(Component::Temporary)];
    // The allocator's slack shares, the freed 16-bit logits' block (training/stage_context.h
    // freedLogitsBlockBytes) and the idle second layer of the all-gather stream.
    const double slack = 0.08 * transient + 0.02 * ph.allocated + tokens * vocab * 2;
    QVERIFY2(std::abs(e.peak.reserved - (e.peak.allocated + slack + layer * 2)) < 1.0,
             qPrintable(QString::number(e.peak.reserved - e.peak.allocated - slack)));
}

void TestFsdpVersions::float8AllGather_data()
{
    QTest::addColumn<QString>("item");
    QTest::newRow("current layer") << fsdp2Current;
    QTest::newRow("second buffer") << fsdp2Second;
}

void TestFsdpVersions::float8AllGather()
{
    QFETCH(QString, item);
    // The seven linear weights in 1 byte and a 4-byte scale each; the norms stay bf16:
    // 202,375,168 + 16,384 + 28 = 202,391,580 bytes against 404,766,720 in bf16.
    const double gathered = linearElements * 1 + 2 * h * 2 + 7 * 4;
    const Estimate off = estimateOf("torchtitan", "fp8_mixed", "");
    const Estimate on = estimateOf("torchtitan", "fp8_mixed", ",\"fsdp_float8_all_gather\":true");
    QCOMPARE(itemBytes(off, item.toStdString()), layerElements * 2);
    QCOMPARE(itemBytes(on, item.toStdString()), gathered);
    // The gradients are still written in bf16 and reduced in fp32.
    QCOMPARE(itemBytes(on, grads), layerElements * 2);
    QCOMPARE(itemBytes(on, fsdp2Input), layerElements * 4);
    for (const auto &w : on.warnings)
        QVERIFY(w.code != WarningCode::Float8AllGatherIgnored);
}

void TestFsdpVersions::float8AllGatherIgnoredWhereItDoesNotApply()
{
    // bf16 weights (no float8 linears), FSDP1 (no fsdp_pre_all_gather extension point), and
    // ZeRO-2 (nothing gathered): ignored, with a warning.
    for (const auto &[precision, extra] :
         {std::pair<std::string, std::string>{"bf16_mixed", ""},
          {"fp8_mixed", ",\"fsdp_version\":1"}}) {
        const Estimate e =
            estimateOf("torchtitan", precision, extra + ",\"fsdp_float8_all_gather\":true");
        const Estimate plain = estimateOf("torchtitan", precision, extra);
        QCOMPARE(e.peak.allocated, plain.peak.allocated);
        bool warned = false;
        for (const auto &w : e.warnings)
            warned = warned || w.code == WarningCode::Float8AllGatherIgnored;
        QVERIFY2(warned, precision.c_str());
    }
    Scenario s = test::parseOrFail(scenarioText(
        llama7b, "\"precision\":\"fp8_mixed\"",
        "\"gpus\":8,\"zero_stage\":2,\"fsdp_float8_all_gather\":true", "torchtitan"));
    QVERIFY(!fsdpFloat8AllGatherApplies(s));
    s.parallelism.zeroStage = 3;
    QVERIFY(fsdpFloat8AllGatherApplies(s));
}

QTEST_APPLESS_MAIN(TestFsdpVersions)
#include "tst_fsdpversions.moc"
