// DeepSpeed's and Megatron's persistent buffers, each against the value worked by hand from the
// framework's code with its defaults (deepspeed/runtime/zero/config.py; Megatron
// distributed/param_and_grad_buffer.py, optimizer/distrib_optimizer.py). docs/training_stacks.md,
// "DeepSpeed and Megatron buffers". And the GEMM workspaces every training process keeps
// (process_buffers.cpp: torch's CublasHandlePool.cpp, Transformer Engine's gemm.py).

#include "estimate.h"
#include "training/capabilities.h"
#include "testhelpers.h"

#include <QTest>

using namespace vramplan;
using test::itemBytes;
using test::scenarioText;

namespace {

Estimate estimateOf(const std::string &model, const std::string &training,
                    const std::string &parallelism, const std::string &framework)
{
    return estimate(test::parseOrFail(scenarioText(model, training, parallelism, framework)));
}

// Llama 2 7B (hidden 4096, 32 layers, SwiGLU 11008, vocabulary 32000, untied).
const std::string llama7b = "\"preset\":\"llama-2-7b\"";
constexpr double h = 4096, f = 11008, V = 32000, layers = 32;
constexpr double layerElements = 4 * h * h + 3 * h * f + 2 * h;
constexpr double total = layers * layerElements + 2 * V * h + h;

} // namespace

class TestFrameworkBuffers : public QObject
{
    Q_OBJECT

private slots:
    void deepspeedZero3Buffers_data();
    void deepspeedZero3Buffers();
    void deepspeedZero12Buffers_data();
    void deepspeedZero12Buffers();
    void megatronDistributedOptimizer_data();
    void megatronDistributedOptimizer();
    void gemmWorkspaces_data();
    void gemmWorkspaces();
    void groupedGemmWorkspaces_data();
    void groupedGemmWorkspaces();
    void hfTrainerDefaultOptimizer_data();
    void hfTrainerDefaultOptimizer();
};

void TestFrameworkBuffers::deepspeedZero3Buffers_data()
{
    QTest::addColumn<QString>("recompute");
    QTest::addColumn<QString>("item");
    QTest::addColumn<double>("bytes");
    // Persistent: the two RMSNorm weights of each layer and the final norm (4096 <= 1e5).
    QTest::newRow("persistent norms")
        << "none" << "ZeRO-3 persistent parameters (at most stage3_param_persistence_threshold)"
        << (layers * 2 * h + h) * 2;
    // The head (32000 x 4096) is used again first thing in backward: kept.
    QTest::newRow("head kept") << "none"
                               << "ZeRO-3 head kept gathered into the loss backward "
                                  "(stage3_max_reuse_distance)"
                               << V * h * 2;
    // Without recomputation a module is kept when 2 * (elements after it) + 2 * head < 1e9,
    // i.e. after < 368,928,000. The last layer is kept whole (its matrices; norms are
    // persistent). In layer 30 the limit is 368,928,000 - 202,383,360 = 166,544,640: after v
    // come o, a norm and the MLP, 152,047,616 (kept); after k, 168,824,832 (released). Kept:
    // layer 31's matrices and layer 30's v, o, gate, up, down.
    QTest::newRow("layers kept, no recompute")
        << "none"
        << "ZeRO-3 layer weights kept gathered from forward into backward (stage3_max_reuse_distance)"
        << ((4 * h * h + 3 * h * f) + (2 * h * h + 3 * h * f)) * 2;
    // Full recompute: distance = after + 2 * head + (L-1-l) * 3 * layer + before; layer 31:
    // 202,383,360 - n + 262,144,000 < 1e9 for every module: kept whole; layer 30 adds
    // 3 * 202,383,360 = 607,150,080: 1,071,677,440 - n > 1e9 for every module but none.
    QTest::newRow("layers kept, full recompute")
        << "full"
        << "ZeRO-3 layer weights kept gathered from forward into backward (stage3_max_reuse_distance)"
        << (4 * h * h + 3 * h * f) * 2;
    // Prefetch: whole modules until 5e7 elements; the worst start is q (16.8M) then k, v, o
    // (67.1M), or a norm then gate (45.1M) then up (90.2M).
    QTest::newRow("prefetch") << "none" << "ZeRO-3 prefetched modules (stage3_prefetch_bucket_size)"
                              << 2 * h * f * 2;
    // The whole model is above 5e8 elements: the bucket holds reduce_bucket_size.
    QTest::newRow("reduce bucket") << "none" << "ZeRO-3 reduce bucket (contiguous_gradients, persistent)"
                                   << 5e8 * 2;
    // One sub-group: 6.74e9 / 8 = 842,301,952 < sub_group_size 1e9; 2 + 4 bytes.
    QTest::newRow("fp32 sub-group gradient")
        << "none" << "fp32 gradient of one optimizer sub-group (with its 16-bit flat copy)"
        << total / 8 * 6;
}

void TestFrameworkBuffers::deepspeedZero3Buffers()
{
    QFETCH(QString, recompute);
    QFETCH(QString, item);
    QFETCH(double, bytes);
    const Estimate e = estimateOf(llama7b,
                                  "\"micro_batch_size\":1,\"sequence_length\":2048,"
                                  "\"precision\":\"bf16_mixed\",\"activation_recompute\":\"" +
                                      recompute.toStdString() + "\"",
                                  "\"gpus\":8,\"zero_stage\":3", "deepspeed");
    QCOMPARE(itemBytes(e, item.toStdString()), bytes);
    // The torch FSDP terms are not DeepSpeed's.
    QCOMPARE(itemBytes(e, "gathered layer weights (current + prefetched)"), 0.0);
}

void TestFrameworkBuffers::deepspeedZero12Buffers_data()
{
    QTest::addColumn<int>("stage");
    QTest::addColumn<QString>("item");
    QTest::addColumn<double>("bytes");
    // setup_buckets: reduce_bucket_size 5e8 elements in bf16.
    QTest::newRow("ZeRO-1 bucket") << 1 << "ZeRO reduce bucket" << 5e8 * 2;
    QTest::newRow("ZeRO-2 bucket") << 2 << "ZeRO reduce bucket" << 5e8 * 2;
    // step(): flatten (bf16) and .to(fp32) of the partition, trainable / 8 elements.
    QTest::newRow("ZeRO-2 fp32 partition")
        << 2 << "fp32 gradient partition (with its 16-bit flat copy)" << total / 8 * 6;
}

void TestFrameworkBuffers::deepspeedZero12Buffers()
{
    QFETCH(int, stage);
    QFETCH(QString, item);
    QFETCH(double, bytes);
    const Estimate e = estimateOf(
        llama7b, "\"micro_batch_size\":1,\"sequence_length\":2048,\"precision\":\"bf16_mixed\"",
        "\"gpus\":8,\"zero_stage\":" + std::to_string(stage), "deepspeed");
    QCOMPARE(itemBytes(e, item.toStdString()), bytes);
}

void TestFrameworkBuffers::megatronDistributedOptimizer_data()
{
    QTest::addColumn<int>("gpus");
    QTest::newRow("dp 2") << 2;
    QTest::newRow("dp 8") << 8;
}

void TestFrameworkBuffers::megatronDistributedOptimizer()
{
    QFETCH(int, gpus);
    // --use-distributed-optimizer (zero_stage 1): the bf16 param buffer and the fp32 grad
    // buffer (main_grad; bf16 forces accumulate_allreduce_grads_in_fp32) are full size on every
    // rank; the fp32 master copy and Adam's two states are sharded: 6 + 12/dp bytes.
    const Estimate e = estimateOf(
        llama7b, "\"micro_batch_size\":1,\"sequence_length\":2048,\"precision\":\"bf16_mixed\"",
        "\"gpus\":" + std::to_string(gpus) + ",\"zero_stage\":1", "megatron");
    QCOMPARE(itemBytes(e, "weights"), total * 2);
    QCOMPARE(itemBytes(e, "main_grad buffer (fp32, persistent)"), total * 4);
    QCOMPARE(itemBytes(e, "fp32 master weights"), total * 4 / gpus);
    QCOMPARE(itemBytes(e, "optimizer states"), total * 8 / gpus);
}

void TestFrameworkBuffers::gemmWorkspaces_data()
{
    QTest::addColumn<QString>("framework");
    QTest::addColumn<QString>("version"); // framework_version, "" for none
    QTest::addColumn<QString>("gpu");     // the gpu section's body
    QTest::addColumn<double>("torchBytes");
    QTest::addColumn<double>("teBytes");
    constexpr double MiB = 1024.0 * 1024.0;
    // parseChosenWorkspaceSize: 32 MiB on sm90, ":4096:2:16:8" elsewhere; two threads (forward
    // on the main one, backward on autograd's device thread), one workspace each.
    const double hopper = 2 * 32 * MiB, other = 2 * (2 * 4 * MiB + 8 * 16 * 1024.0);
    const QString h100 = "\"preset\":\"h100-80gb\",\"memory_gib\":1000";
    const QString a100 = "\"preset\":\"a100-80gb\",\"memory_gib\":1000";
    const QString b200 = "\"preset\":\"b200-180gb\",\"memory_gib\":1000";
    const QString mi300 = "\"preset\":\"mi300x-192gb\",\"memory_gib\":1000";
    const QString mi250 = "\"preset\":\"mi250x-64gb\",\"memory_gib\":1000";
    const QString custom = "\"memory_gib\":1000";
    QTest::newRow("torch, H100") << "pytorch" << "" << h100 << hopper << 0.0;
    QTest::newRow("torch 2.0, H100") << "pytorch" << "2.0" << h100 << hopper << 0.0;
    // Before 2.0 cuBLAS kept its own pool, outside the caching allocator.
    QTest::newRow("torch 1.13, H100") << "pytorch" << "1.13" << h100 << 0.0 << 0.0;
    QTest::newRow("torch, A100") << "pytorch" << "" << a100 << other << 0.0;
    QTest::newRow("torch, custom card") << "pytorch" << "" << custom << other << 0.0;
    // Blackwell's 32 MiB from pytorch#175344 (2026-02), modelled from 2.12.
    QTest::newRow("torch 2.11, B200") << "pytorch" << "2.11" << b200 << other << 0.0;
    QTest::newRow("torch 2.12, B200") << "pytorch" << "2.12" << b200 << hopper << 0.0;
    QTest::newRow("torch, B200") << "pytorch" << "" << b200 << hopper << 0.0;
    // ROCm: hipBLAS's workspace from the allocator since 2.6, 128 MiB on MI300 (gfx94x).
    QTest::newRow("torch 2.5, MI300X") << "pytorch" << "2.5" << mi300 << 0.0 << 0.0;
    QTest::newRow("torch 2.6, MI300X") << "pytorch" << "2.6" << mi300 << 2 * 128 * MiB << 0.0;
    QTest::newRow("torch, MI250X") << "pytorch" << "" << mi250 << 2 * 32 * MiB << 0.0;
    // A transformers release says nothing of torch's: the current torch is meant.
    QTest::newRow("transformers 4.40, H100") << "transformers" << "4.40" << h100 << hopper << 0.0;
    // Megatron-core's layers are Transformer Engine modules by default: one more workspace for
    // the process, 32 MiB + 1 KiB from compute capability 9 (v2.8+), 4 MiB before.
    QTest::newRow("megatron, H100") << "megatron" << "" << h100 << hopper << 32 * MiB + 1024;
    QTest::newRow("megatron, B200") << "megatron" << "" << b200 << hopper << 32 * MiB + 1024;
    QTest::newRow("megatron, A100") << "megatron" << "" << a100 << other << 4 * MiB;
    QTest::newRow("megatron, MI300X") << "megatron" << "" << mi300 << 2 * 128 * MiB << 0.0;
}

void TestFrameworkBuffers::gemmWorkspaces()
{
    QFETCH(QString, framework);
    QFETCH(QString, version);
    QFETCH(QString, gpu);
    QFETCH(double, torchBytes);
    QFETCH(double, teBytes);
    const std::string text =
        "{\"format\":\"vramplan-scenario\",\"model\":{" + llama7b +
        "},\"training\":{\"micro_batch_size\":1,\"sequence_length\":2048,"
        "\"precision\":\"bf16_mixed\"},\"parallelism\":{\"gpus\":1},\"framework\":\"" +
        framework.toStdString() + "\"" +
        (version.isEmpty() ? "" : ",\"framework_version\":\"" + version.toStdString() + "\"") +
        ",\"gpu\":{" + gpu.toStdString() + "}}";
    const Estimate e = estimate(test::parseOrFail(text));
    QCOMPARE(itemBytes(e, "cuBLAS workspaces (main thread and autograd's backward thread)"),
             torchBytes);
    QCOMPARE(itemBytes(e, "Transformer Engine cuBLAS workspace"), teBytes);
    // Inside the caching allocator: in the allocated peak, not beside it.
    for (const auto &item : e.items)
        if (item.name.find("workspace") != std::string_view::npos)
            QVERIFY(!item.outsideAllocator);
}

// HF Trainer's default `optim` by transformers release (training_args.py default_optim):
// adamw_hf before 4.32, torch.optim.AdamW (foreach: one exp_avg_sq-sized fp32 temporary at the
// step) from 4.32, adamw_torch_fused from 4.54 (with torch >= 2.8); a release not given means the
// current one. A scenario that names its implementation keeps it.
void TestFrameworkBuffers::hfTrainerDefaultOptimizer_data()
{
    QTest::addColumn<QString>("version");
    QTest::addColumn<QString>("implementation");
    QTest::addColumn<double>("bytes");
    const double foreach = total * 4;
    QTest::newRow("current release") << "" << "" << 0.0;
    QTest::newRow("4.31: adamw_hf") << "4.31" << "" << 0.0;
    QTest::newRow("4.32: adamw_torch") << "4.32" << "" << foreach;
    QTest::newRow("4.36: adamw_torch") << "4.36" << "" << foreach;
    QTest::newRow("4.53: adamw_torch") << "4.53" << "" << foreach;
    QTest::newRow("4.54: adamw_torch_fused") << "4.54" << "" << 0.0;
    QTest::newRow("4.36, fused named") << "4.36" << "fused" << 0.0;
    QTest::newRow("current, foreach named") << "" << "foreach" << foreach;
}

void TestFrameworkBuffers::hfTrainerDefaultOptimizer()
{
    QFETCH(QString, version);
    QFETCH(QString, implementation);
    QFETCH(double, bytes);
    const std::string training =
        "\"micro_batch_size\":1,\"sequence_length\":512,\"precision\":\"bf16_mixed\","
        "\"optimizer\":\"adamw\"" +
        (implementation.isEmpty()
             ? std::string()
             : ",\"optimizer_implementation\":\"" + implementation.toStdString() + "\"");
    std::string text = scenarioText(llama7b, training, "\"gpus\":1", "transformers");
    if (!version.isEmpty())
        text.insert(text.size() - 1, ",\"framework_version\":\"" + version.toStdString() + "\"");
    const Estimate e = estimate(test::parseOrFail(text));
    QCOMPARE(itemBytes(e, "foreach optimizer intermediates"), bytes);
}

// Megatron's --moe-grouped-gemm (training.grouped_gemm): Transformer Engine's grouped GEMMs run
// on its four compute streams, each with a workspace of TE's size, beside the one workspace of
// the other GEMMs (pytorch/cpp_extensions/gemm.py get_cublas_workspace(grouped_gemm);
// common/util/multi_stream.cpp). A dense model has no grouped GEMM; another framework has no
// such switch and says so.
void TestFrameworkBuffers::groupedGemmWorkspaces_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("framework");
    QTest::addColumn<QString>("gpu");
    QTest::addColumn<double>("bytes");
    QTest::addColumn<bool>("lacks");
    constexpr double MiB = 1024.0 * 1024.0;
    const QString moe = "\"preset\":\"mixtral-8x7b\"";
    QTest::newRow("Mixtral, megatron, H100")
        << moe << "megatron" << "h100-80gb" << 4 * (32 * MiB + 1024) << false;
    QTest::newRow("Mixtral, megatron, A100") << moe << "megatron" << "a100-80gb" << 4 * 4 * MiB
                                             << false;
    QTest::newRow("Llama (dense), megatron, H100")
        << "\"preset\":\"llama-2-7b\"" << "megatron" << "h100-80gb" << 0.0 << false;
    QTest::newRow("Mixtral, torchtitan, H100") << moe << "torchtitan" << "h100-80gb" << 0.0 << true;
}

void TestFrameworkBuffers::groupedGemmWorkspaces()
{
    QFETCH(QString, model);
    QFETCH(QString, framework);
    QFETCH(QString, gpu);
    QFETCH(double, bytes);
    QFETCH(bool, lacks);
    const std::string text =
        "{\"format\":\"vramplan-scenario\",\"model\":{" + model.toStdString() +
        "},\"training\":{\"micro_batch_size\":1,\"sequence_length\":2048,"
        "\"precision\":\"bf16_mixed\",\"grouped_gemm\":true},\"parallelism\":{\"gpus\":8,"
        "\"expert_parallel\":" + std::string(model.contains("mixtral") ? "8" : "1") +
        "},\"framework\":\"" + framework.toStdString() + "\",\"gpu\":{\"preset\":\"" +
        gpu.toStdString() + "\",\"memory_gib\":1000}}";
    const Estimate e = estimate(test::parseOrFail(text));
    QCOMPARE(itemBytes(e, "Transformer Engine grouped-GEMM workspaces (one per compute stream)"),
             bytes);
    const bool warned = std::any_of(e.warnings.begin(), e.warnings.end(), [](const Warning &w) {
        return w.code == WarningCode::FrameworkLacks && int(w.value) == int(Knob::GroupedGemm);
    });
    QCOMPARE(warned, lacks);
}

QTEST_APPLESS_MAIN(TestFrameworkBuffers)
#include "tst_frameworkbuffers.moc"
