// Serving the hybrids of 2026 (issue 20; core/serving/recurrent_state.cpp, docs/serving.md
// "Hybrid models"): one sequence's recurrent state in the layers that keep one, the attention
// block vLLM's hybrid allocator grows to hold a state page, the requests its blocks admit, and
// SGLang's state and KV pools. Every expected figure is worked by hand in the row's comment
// from the config's shapes (tests/data/hf_configs_2026) and the engines' state shapes
// (vLLM mamba_utils.py MambaStateShapeCalculator, SGLang Mamba2StateShape).

#include "formats/scenario_json.h"
#include "model/hf_config.h"
#include "serving/serving.h"
#include "testhelpers.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace vramplan;
using namespace vramplan::test;

namespace {

Scenario hybridScenario(const QString &file, const std::string &engine, int tp,
                        int64_t maxModelLen = 32768, const std::string &kvDtype = "auto")
{
    const auto config = hfJsonFromText(readFile(dataPath("hf_configs_2026/" + file)));
    if (!config)
        qFatal("%s", config.error.c_str());
    const nlohmann::json scenario = {
        {"format", "vramplan-scenario"},
        {"model", {{"hf_config", *config.value}}},
        {"training", {{"mode", "inference"}, {"precision", "bf16"}}},
        {"parallelism", {{"gpus", tp}, {"tensor_parallel", tp}}},
        {"gpu", {{"preset", "h100-80gb"}}},
        {"serving",
         {{"engine", engine}, {"max_model_len", maxModelLen}, {"kv_cache_dtype", kvDtype}}}};
    auto parsed = scenarioFromJson(scenario);
    if (!parsed)
        qFatal("%s", parsed.error.c_str());
    return *parsed.value;
}

} // namespace

class TestServingHybrids : public QObject
{
    Q_OBJECT

private slots:
    void statePerSequence_data();
    void statePerSequence();
    void vllmBlockGrowsToHoldAState_data();
    void vllmBlockGrowsToHoldAState();
    void vllmRequestsHoldBlocksInEveryGroup();
    void sglangSplitsStateAndKvPools();
    void denseModelsKeepNoState();
    void sparseAttentionCachesIndexerKeys_data();
    void sparseAttentionCachesIndexerKeys();
};

void TestServingHybrids::statePerSequence_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("engine");
    QTest::addColumn<int>("tp");
    QTest::addColumn<qint64>("bytes"); // one sequence, every state layer on one GPU
    // Gated DeltaNet: conv window (kernel 4 - 1) x (2 x key heads x 128 + value heads x 128) in
    // bf16, state value heads x 128 x 128 in the model's state dtype (Qwen3.5: float32,
    // mamba_ssm_dtype; Qwen3-Next: bf16 in vLLM, float32 in SGLang).
    // Qwen3.5-0.8B, 18 GDN layers, 16 key and 16 value heads:
    //   3 x 6144 x 2 + 16 x 128 x 128 x 4 = 36,864 + 1,048,576 = 1,085,440; x 18.
    QTest::newRow("Qwen3.5-0.8B vLLM") << "qwen3.5-0.8b.json" << "vllm" << 1 << qint64(19537920);
    QTest::newRow("Qwen3.5-0.8B SGLang") << "qwen3.5-0.8b.json" << "sglang" << 1
                                         << qint64(19537920);
    // Qwen3.5-27B, 48 GDN layers, 16 key and 48 value heads:
    //   3 x 10240 x 2 + 48 x 128 x 128 x 4 = 61,440 + 3,145,728 = 3,207,168; x 48.
    QTest::newRow("Qwen3.5-27B vLLM") << "qwen3.5-27b.json" << "vllm" << 1 << qint64(153944064);
    // Qwen3-Next-80B on TP 4, 36 GDN layers, 16 / 4 key and 32 / 4 value heads:
    //   vLLM 3 x 2048 x 2 + 8 x 128 x 128 x 2 = 12,288 + 262,144 = 274,432; x 36;
    //   SGLang's float32 state: 12,288 + 524,288 = 536,576; x 36.
    QTest::newRow("Qwen3-Next TP4 vLLM") << "qwen3-next-80b-a3b-thinking.json" << "vllm" << 4
                                         << qint64(9879552);
    QTest::newRow("Qwen3-Next TP4 SGLang") << "qwen3-next-80b-a3b-thinking.json" << "sglang" << 4
                                           << qint64(19316736);
    // Mamba2: conv window 3 x (heads x head_dim + 2 x groups x state) in bf16, state heads x
    // head_dim x state. Nemotron-3-Nano, 23 Mamba layers, 64 heads of 64, 8 groups, state 128,
    // float32 state: 3 x 6144 x 2 + 64 x 64 x 128 x 4 = 36,864 + 2,097,152 = 2,134,016; x 23.
    QTest::newRow("Nemotron-3-Nano vLLM") << "nemotron-3-nano-30b-a3b.json" << "vllm" << 1
                                          << qint64(49082368);
    // Granite-4.0-H-Small, 36 Mamba layers, 128 heads of 64, 1 group, state 128, bf16 state:
    //   3 x 8448 x 2 + 128 x 64 x 128 x 2 = 50,688 + 2,097,152 = 2,147,840; x 36;
    //   SGLang (float32): 50,688 + 4,194,304 = 4,244,992; x 36.
    QTest::newRow("Granite-4.0-H-Small vLLM") << "granite-4.0-h-small.json" << "vllm" << 1
                                              << qint64(77322240);
    QTest::newRow("Granite-4.0-H-Small SGLang") << "granite-4.0-h-small.json" << "sglang" << 1
                                                << qint64(152819712);
    // LFM2's short convolution: a window of L_cache 3 - 1 over the hidden width 2048 in bf16,
    // 8,192 bytes, in 10 layers.
    QTest::newRow("LFM2-1.2B vLLM") << "lfm2-1.2b.json" << "vllm" << 1 << qint64(81920);
}

void TestServingHybrids::statePerSequence()
{
    QFETCH(QString, file);
    QFETCH(QString, engine);
    QFETCH(int, tp);
    QFETCH(qint64, bytes);
    const ServingPlan p = planServing(hybridScenario(file, engine.toStdString(), tp));
    QVERIFY(p.present);
    QCOMPARE(qint64(p.stateBytesPerSequence), bytes);
}

void TestServingHybrids::vllmBlockGrowsToHoldAState_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("tp");
    QTest::addColumn<qint64>("kvBytesPerToken"); // every attention layer on the GPU
    QTest::addColumn<int>("blockSize");
    // The block grows in steps of 16 tokens until block x one layer's KV per token holds one
    // layer's state: 16 x ceil(state / (16 x kv)).
    // Qwen3.5-0.8B: 6 attention layers of 2 KV heads x 256 x 2 x 2 B = 2,048 B a token;
    //   1,085,440 / 32,768 = 33.1 -> 34 x 16.
    QTest::newRow("Qwen3.5-0.8B") << "qwen3.5-0.8b.json" << 1 << qint64(6 * 2048) << 544;
    // Qwen3.5-27B: 16 layers of 4 KV heads: 4,096 B; 3,207,168 / 65,536 = 48.9 -> 49 x 16.
    QTest::newRow("Qwen3.5-27B") << "qwen3.5-27b.json" << 1 << qint64(16 * 4096) << 784;
    // Nemotron-3-Nano: 6 layers of 2 KV heads x 128: 1,024 B; 2,134,016 / 16,384 = 130.2.
    QTest::newRow("Nemotron-3-Nano") << "nemotron-3-nano-30b-a3b.json" << 1 << qint64(6 * 1024)
                                     << 2096;
    // Granite-4.0-H-Small: 4 layers of 8 KV heads x 128: 4,096 B; 2,147,840 / 65,536 = 32.8.
    QTest::newRow("Granite-4.0-H-Small") << "granite-4.0-h-small.json" << 1 << qint64(4 * 4096)
                                         << 528;
    // LFM2-1.2B: 6 layers of 8 KV heads x 64: 2,048 B, above the 8,192 B state in 16 tokens.
    QTest::newRow("LFM2-1.2B") << "lfm2-1.2b.json" << 1 << qint64(6 * 2048) << 16;
    // Qwen3-Next on TP 4: 2 KV heads replicated to one a GPU, 1,024 B in 12 layers;
    //   274,432 / 16,384 = 16.75 -> 17 x 16.
    QTest::newRow("Qwen3-Next TP4") << "qwen3-next-80b-a3b-thinking.json" << 4
                                    << qint64(12 * 1024) << 272;
}

void TestServingHybrids::vllmBlockGrowsToHoldAState()
{
    QFETCH(QString, file);
    QFETCH(int, tp);
    QFETCH(qint64, kvBytesPerToken);
    QFETCH(int, blockSize);
    const ServingPlan p = planServing(hybridScenario(file, "vllm", tp));
    QCOMPARE(qint64(p.kvBytesPerToken), kvBytesPerToken);
    QCOMPARE(int(p.settings.blockSize), blockSize);
}

// Qwen3.5-27B at 32k: 16 attention and 48 GDN layers make groups of 16 (one attention group,
// three state groups); a block is one 784-token page (784 x 4,096 B) in 16 layers, and a
// request holds ceil(32768 / 784) = 42 blocks of its attention group and one of each state
// group: 45.
void TestServingHybrids::vllmRequestsHoldBlocksInEveryGroup()
{
    const ServingPlan p = planServing(hybridScenario("qwen3.5-27b.json", "vllm", 1));
    QCOMPARE(p.kvGroups, int64_t(4));
    const double blockBytes = 784.0 * 4096.0 * 16.0;
    QCOMPARE(p.kvCacheBytes, double(p.kvBlocks) * blockBytes);
    QVERIFY(p.kvBlocks > 0);
    QCOMPARE(p.maxConcurrency, double(p.kvBlocks) / 45.0);
    QCOMPARE(p.kvCacheTokens, int64_t(std::floor(p.maxConcurrency * 32768.0)));
    // A longer max_model_len needs more attention blocks a request, the same state blocks.
    const ServingPlan longer =
        planServing(hybridScenario("qwen3.5-27b.json", "vllm", 1, 131072));
    QCOMPARE(longer.maxConcurrency, double(longer.kvBlocks) / (168.0 + 3.0));
}

// SGLang: the memory after the weights splits 0.9 : 1 between the state pool and the KV pool
// (--mamba-full-memory-ratio); the state pool holds whole sequences.
void TestServingHybrids::sglangSplitsStateAndKvPools()
{
    const ServingPlan p = planServing(hybridScenario("granite-4.0-h-small.json", "sglang", 1));
    const double available = p.kvCacheBytes;
    const double statePool = available * 0.9 / 1.9;
    QCOMPARE(p.kvBlocks, int64_t(std::floor(statePool / 152819712.0)));
    QCOMPARE(p.kvCacheTokens, int64_t(std::floor((available - statePool) / 16384.0)));
    QVERIFY(p.maxConcurrency <= std::floor(double(p.kvBlocks) / 3));
}

// A model without recurrent layers has no state and vLLM's block stays 16.
void TestServingHybrids::denseModelsKeepNoState()
{
    const ServingPlan p = planServing(hybridScenario("olmo-3-1025-7b.json", "vllm", 1));
    QCOMPARE(p.stateBytesPerSequence, 0.0);
    QCOMPARE(int(p.settings.blockSize), 16);
}

void TestServingHybrids::sparseAttentionCachesIndexerKeys_data()
{
    QTest::addColumn<QString>("engine");
    QTest::addColumn<QString>("kvDtype");
    QTest::addColumn<qint64>("kvBytesPerToken"); // every layer on one GPU
    // DeepSeek-V3.2, 61 layers of MLA with the lightning indexer (index_head_dim 128), TP 8:
    // the latent is not split by TP. vLLM and SGLang: the kv_lora_rank 512 + rope 64 latent in
    // bf16, 1,152 B, and the indexer's fp8 keys with one fp32 scale, 128 + 4 = 132 B:
    //   61 x 1,284 = 78,324.
    QTest::newRow("vLLM bf16") << "vllm" << "auto" << qint64(78324);
    QTest::newRow("SGLang bf16") << "sglang" << "auto" << qint64(78324);
    // An fp8 cache is FlashMLA's fp8_ds_mla record: 512 fp8 + 4 fp32 scales + 64 bf16 rope =
    // 656 B, and the indexer's 132 B: 61 x 788 = 48,068.
    QTest::newRow("vLLM fp8") << "vllm" << "fp8" << qint64(48068);
    // transformers caches decompressed keys and values of its 128 / 8 heads, (192 + 128) x 2 B
    // each, 10,240 B, and the indexer's bf16 keys, 256 B: 61 x 10,496 = 640,256.
    QTest::newRow("transformers") << "transformers" << "auto" << qint64(640256);
}

void TestServingHybrids::sparseAttentionCachesIndexerKeys()
{
    QFETCH(QString, engine);
    QFETCH(QString, kvDtype);
    QFETCH(qint64, kvBytesPerToken);
    const ServingPlan p = planServing(hybridScenario("deepseek-v3.2.json", engine.toStdString(),
                                                     8, 32768, kvDtype.toStdString()));
    QVERIFY(p.present);
    QCOMPARE(qint64(p.kvBytesPerToken), kvBytesPerToken);
    QCOMPARE(p.stateBytesPerSequence, 0.0);
}

QTEST_APPLESS_MAIN(TestServingHybrids)
#include "tst_servinghybrids.moc"
