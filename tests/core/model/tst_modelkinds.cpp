// The models of 2026 (issue 20): exact counts of the transformers classes against independently
// published totals, the layer kinds of each config, the vision towers, the per-layer plan under a
// changed layer count, the configs whose fields contradict each other. The configs are the shared
// references' copies in tests/data/hf_configs_2026; each published figure names its source.

#include "catalog.h"
#include "formats/enum_names.h"
#include "formats/scenario_json.h"
#include "model/hf_config.h"
#include "model/model_scaling.h"
#include "model/model_weights.h"
#include "testhelpers.h"

#include <QDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace vramplan;
using namespace vramplan::test;

namespace {

ModelConfig modelOf(const QString &file, std::string *error = nullptr)
{
    auto text = readFile(dataPath(QStringLiteral("hf_configs_2026/") + file));
    auto parsed = hfJsonFromText(text);
    if (!parsed) {
        if (error)
            *error = parsed.error;
        return {};
    }
    auto fields = modelFieldsFromHfConfig(*parsed.value, "config");
    if (!fields) {
        if (error)
            *error = fields.error;
        return {};
    }
    auto scenario = scenarioFromJson({{"format", "vramplan-scenario"}, {"model", *fields.value}});
    if (!scenario) {
        if (error)
            *error = scenario.error;
        return {};
    }
    return scenario.value->model;
}

} // namespace

class TestModelKinds : public QObject
{
    Q_OBJECT

private slots:
    void publishedTotals_data();
    void publishedTotals();
    void roundedTotals_data();
    void roundedTotals();
    void presetsAreTheCheckedConfigs_data();
    void presetsAreTheCheckedConfigs();
    void configsInStepWithShared();
    void layerMix_data();
    void layerMix();
    void visionTowers_data();
    void visionTowers();
    void resizedPlanKeepsItsPattern();
    void contradictions_data();
    void contradictions();
};

void TestModelKinds::publishedTotals_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<qint64>("total");      // what the transformers class builds
    QTest::addColumn<qint64>("checkpoint"); // plus MTP layers, buffers: what the files hold
    QTest::addColumn<qint64>("published");  // the published figure
    QTest::addColumn<bool>("publishedIsCheckpoint");
    // Hugging Face safetensors totals (third-party copies of the Hub's `safetensors.total`,
    // /tmp research notes kept in docs/models.md): the official Qwen checkpoints hold the vision
    // tower and one MTP layer, which transformers drops on load.
    QTest::newRow("Qwen3-Next-80B-A3B") << "qwen3-next-80b-a3b-thinking.json"
                                        << qint64(79674391296) << qint64(81324862720)
                                        << qint64(81324862720) << true;
    QTest::newRow("Qwen3.5-0.8B") << "qwen3.5-0.8b.json" << qint64(852985920) << qint64(873438784)
                                  << qint64(873438784) << true;
    QTest::newRow("Qwen3.5-2B") << "qwen3.5-2b.json" << qint64(2213241664) << qint64(2274069824)
                                << qint64(2274069824) << true;
    QTest::newRow("Qwen3.5-4B") << "qwen3.5-4b.json" << qint64(4539265536) << qint64(4659865088)
                                << qint64(4659865088) << true;
    QTest::newRow("Qwen3.5-9B") << "qwen3.5-9b.json" << qint64(9409813744) << qint64(9653104368)
                                << qint64(9653104368) << true;
    QTest::newRow("Qwen3.5-27B") << "qwen3.5-27b.json" << qint64(27356728560)
                                 << qint64(27781427952) << qint64(27781427952) << true;
    QTest::newRow("Qwen3.5-35B-A3B") << "qwen3.5-35b-a3b.json" << qint64(35107181936)
                                     << qint64(35951822704) << qint64(35951822704) << true;
    QTest::newRow("Qwen3.5-122B-A10B") << "qwen3.5-122b-a10b.json" << qint64(122562817776)
                                       << qint64(125086497008) << qint64(125086497008) << true;
    QTest::newRow("Qwen3.5-397B-A17B") << "qwen3.5-397b-a17b.json" << qint64(396802360816)
                                       << qint64(403397928944) << qint64(403397928944) << true;
    // The two real index files of checkpoints_2026 (derivative checkpoints without MTP or
    // tower): metadata.total_parameters, and total_size / 2 bytes.
    QTest::newRow("Qwen3.5-2B text fine-tune (index)")
        << "qwen3.5-2b-text-jevstyle.json" << qint64(1881825088) << qint64(1942653248)
        << qint64(1881825088) << false;
    QTest::newRow("Qwen3.5-18B REAP (index)")
        << "qwen3.5-18b-reap-a3b-text.json" << qint64(18543997568) << qint64(18985723008)
        << qint64(37087995136 / 2) << false;
    // GGUF general.parameter_count (llama.cpp's meta), which counts the e_score_correction_bias
    // buffers; the Hub's safetensors total of Nano counts parameters only (31,577,937,344).
    QTest::newRow("Nemotron-3-Nano-30B-A3B") << "nemotron-3-nano-30b-a3b.json"
                                             << qint64(31577937344) << qint64(31577940288)
                                             << qint64(31577940288) << true;
    QTest::newRow("Nemotron-3-Super-120B-A12B") << "nemotron-3-super-120b-a12b.json"
                                                << qint64(120668687360) << qint64(120668707840)
                                                << qint64(120668707840) << true;
    QTest::newRow("Granite-4.0-H-Small (GGUF)") << "granite-4.0-h-small.json"
                                                << qint64(32207337984) << qint64(32207337984)
                                                << qint64(32207337984) << false;
    QTest::newRow("Granite-4.0-H-Tiny") << "granite-4.0-h-tiny.json" << qint64(6939037248)
                                        << qint64(6939037248) << qint64(6939037248) << false;
    QTest::newRow("Granite-4.0-Micro") << "granite-4.0-micro.json" << qint64(3402836480)
                                       << qint64(3402836480) << qint64(3402836480) << false;
    // LFM2-1.2B: the real safetensors header (checkpoints_2026 summary, 148 tensors).
    QTest::newRow("LFM2-1.2B") << "lfm2-1.2b.json" << qint64(1170340608) << qint64(1170340608)
                               << qint64(1170340608) << false;
    QTest::newRow("LFM2-2.6B") << "lfm2-2.6b.json" << qint64(2569272320) << qint64(2569272320)
                               << qint64(2569272320) << false;
    // Kimi-Linear-48B-A3B-Instruct (config.json as a public model report and a curl log print it):
    // the Hub API safetensors.total, the index's metadata.total_parameters and llama.cpp's GGUF
    // metadata all say 49,122,681,728, the 26 x 256 e_score_correction_bias buffers included.
    QTest::newRow("Kimi-Linear-48B-A3B") << "kimi-linear-48b-a3b.json" << qint64(49122675072)
                                         << qint64(49122681728) << qint64(49122681728) << true;
    // Falcon-H1, counts of the checkpoints' tensors (= the loaded models' parameters: mup_vector
    // is a non-persistent buffer) in public reports: 0.5B-Base 521,411,104 (its shapes are the
    // Instruct's; config: Megatron-Bridge's test copy FALCON_H1_500M_CONFIG plus mamba_d_ssm 24 x
    // 64), 1.5B-Instruct 1,554,863,488 (revision 80ebc50d: 411 BF16 tensors; config rebuilt from
    // the shapes that report states), 7B-Base and Falcon-H1R-7B 7,585,648,736 (751 tensors, GGUF
    // metadata; config: a public trimmed copy, with the trained model's gated norm).
    QTest::newRow("Falcon-H1-0.5B") << "falcon-h1-0.5b-instruct.json" << qint64(521411104)
                                    << qint64(521411104) << qint64(521411104) << false;
    QTest::newRow("Falcon-H1-1.5B-Instruct") << "falcon-h1-1.5b-instruct.json" << qint64(1554863488)
                                             << qint64(1554863488) << qint64(1554863488) << false;
    QTest::newRow("Falcon-H1-7B") << "falcon-h1-7b.json" << qint64(7585648736)
                                  << qint64(7585648736) << qint64(7585648736) << false;
    // Hub safetensors totals: DeepSeek-V3.2-Exp (MTP layer with embedding and head copies, fp32
    // 128 x 128 block scales, router buffers), GLM-5 (MTP, buffers), MiniMax-M2.5 (scales,
    // buffers; no MTP weights), Gemma 4 (the layer_scalar and vision std_* buffers).
    QTest::newRow("DeepSeek-V3.2-Exp") << "deepseek-v3.2.json" << qint64(671877929216)
                                       << qint64(685396921376) << qint64(685396921376) << true;
    QTest::newRow("GLM-5") << "glm-5.json" << qint64(743911199232) << qint64(753864139008)
                           << qint64(753864139008) << true;
    QTest::newRow("MiniMax-M2.5") << "minimax-m2.5.json" << qint64(228689748992)
                                  << qint64(228703644928) << qint64(228703644928) << true;
    QTest::newRow("Gemma-4-26B-A4B") << "gemma-4-26b-a4b.json" << qint64(25805933872)
                                     << qint64(25805936206) << qint64(25805936206) << true;
    QTest::newRow("Gemma-4-31B") << "gemma-4-31b-it.json" << qint64(31273086512)
                                 << qint64(31273088876) << qint64(31273088876) << true;
    QTest::newRow("OLMo-3-7B (355 tensors of its GGUFs)")
        << "olmo-3-1025-7b.json" << qint64(7298011136) << qint64(7298011136)
        << qint64(7298011136) << false;
}

void TestModelKinds::publishedTotals()
{
    QFETCH(QString, file);
    QFETCH(qint64, total);
    QFETCH(qint64, checkpoint);
    QFETCH(qint64, published);
    QFETCH(bool, publishedIsCheckpoint);
    std::string error;
    const ModelConfig m = modelOf(file, &error);
    QVERIFY2(error.empty(), error.c_str());
    const ParameterCounts c = countParameters(m);
    QCOMPARE(qint64(c.total), total);
    const auto config = hfJsonFromText(readFile(dataPath("hf_configs_2026/" + file)));
    QVERIFY(config);
    QCOMPARE(qint64(c.total + checkpointExtras(m, hfFp8BlockSize(*config.value)).total()),
             checkpoint);
    QCOMPARE(publishedIsCheckpoint ? checkpoint : total, published);
}

void TestModelKinds::roundedTotals_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("checkpoint");  // the published figure counts the checkpoint's tensors
    QTest::addColumn<bool>("textOnly");    // ... or the language model only (Gemma's cards)
    QTest::addColumn<double>("published"); // as published, in units of `unit`
    QTest::addColumn<double>("unit");
    // Where only a rounded figure is published, the count must round to it (Hub pages: to the
    // nearest billion); Gemma 4's cards count the language model only, to 0.1B.
    QTest::newRow("Gemma-4-26B-A4B: card 25.2B (text)")
        << "gemma-4-26b-a4b.json" << false << true << 25.2 << 1e8;
    QTest::newRow("Gemma-4-31B: card 30.7B (text)")
        << "gemma-4-31b-it.json" << false << true << 30.7 << 1e8;
}

void TestModelKinds::roundedTotals()
{
    QFETCH(QString, file);
    QFETCH(bool, checkpoint);
    QFETCH(bool, textOnly);
    QFETCH(double, published);
    QFETCH(double, unit);
    std::string error;
    const ModelConfig m = modelOf(file, &error);
    QVERIFY2(error.empty(), error.c_str());
    const ParameterCounts c = countParameters(m);
    double total = double(c.total);
    if (checkpoint) {
        const auto config = hfJsonFromText(readFile(dataPath("hf_configs_2026/" + file)));
        QVERIFY(config);
        total += double(checkpointExtras(m, hfFp8BlockSize(*config.value)).total());
    }
    if (textOnly)
        total -= double(c.vision);
    // Rounded to the published figure's last digit (the Hub and the cards round to nearest).
    QCOMPARE(qint64(std::round(total / unit)), qint64(std::round(published * 1e9 / unit)));
}

void TestModelKinds::presetsAreTheCheckedConfigs_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("file");
    const std::pair<const char *, const char *> pairs[] = {
        {"qwen3.5-0.8b", "qwen3.5-0.8b.json"},
        {"qwen3.5-2b", "qwen3.5-2b.json"},
        {"qwen3.5-4b", "qwen3.5-4b.json"},
        {"qwen3.5-9b", "qwen3.5-9b.json"},
        {"qwen3.5-27b", "qwen3.5-27b.json"},
        {"qwen3.5-35b-a3b", "qwen3.5-35b-a3b.json"},
        {"qwen3.5-122b-a10b", "qwen3.5-122b-a10b.json"},
        {"qwen3.5-397b-a17b", "qwen3.5-397b-a17b.json"},
        {"qwen3-next-80b-a3b", "qwen3-next-80b-a3b-thinking.json"},
        {"deepseek-v3.2", "deepseek-v3.2.json"},
        {"glm-5", "glm-5.json"},
        {"minimax-m2.5", "minimax-m2.5.json"},
        {"nemotron-3-nano-30b-a3b", "nemotron-3-nano-30b-a3b.json"},
        {"nemotron-3-super-120b-a12b", "nemotron-3-super-120b-a12b.json"},
        {"granite-4.0-h-small", "granite-4.0-h-small.json"},
        {"granite-4.0-h-tiny", "granite-4.0-h-tiny.json"},
        {"granite-4.0-micro", "granite-4.0-micro.json"},
        {"lfm2-1.2b", "lfm2-1.2b.json"},
        {"lfm2-2.6b", "lfm2-2.6b.json"},
        {"gemma-4-26b-a4b", "gemma-4-26b-a4b.json"},
        {"gemma-4-31b", "gemma-4-31b-it.json"},
        {"olmo-3-7b", "olmo-3-1025-7b.json"},
        {"kimi-linear-48b-a3b", "kimi-linear-48b-a3b.json"},
        {"falcon-h1-1.5b-instruct", "falcon-h1-1.5b-instruct.json"},
        {"falcon-h1-7b", "falcon-h1-7b.json"},
    };
    for (const auto &[preset, file] : pairs)
        QTest::newRow(preset) << QString::fromUtf8(preset) << QString::fromUtf8(file);
}

// The presets of the 2026 families are the configs checked above (the published figures hold
// for them), with their checkpoint totals beside.
void TestModelKinds::presetsAreTheCheckedConfigs()
{
    QFETCH(QString, preset);
    QFETCH(QString, file);
    const Scenario s = parseOrFail(R"({"format":"vramplan-scenario","model":{"preset":")" +
                                   preset.toStdString() + R"("}})");
    const ModelConfig checked = modelOf(file);
    const ParameterCounts a = countParameters(s.model), b = countParameters(checked);
    QCOMPARE(qint64(a.total), qint64(b.total));
    QCOMPARE(qint64(a.vision), qint64(b.vision));
    QCOMPARE(s.model.layerMixers, checked.layerMixers);
    QCOMPARE(s.model.layerMlps, checked.layerMlps);
    const ModelPreset *p = Catalog::builtin().preset(preset.toStdString());
    QVERIFY(p);
    QVERIFY(!p->name.empty() && p->name != p->id);
}

// The copies in tests/data/hf_configs_2026 are the shared references' files, byte for byte.
void TestModelKinds::configsInStepWithShared()
{
    const QString shared = QStringLiteral(VRAMPLAN_SHARED_DIR) + "/validation/hf_configs_2026";
    if (!QDir(shared).exists())
        QSKIP("../shared/validation/hf_configs_2026 is not beside this checkout");
    const QStringList files = QDir(shared).entryList({QStringLiteral("*.json")}, QDir::Files);
    QVERIFY(files.size() >= 24);
    for (const QString &f : files)
        QVERIFY2(readFile(shared + "/" + f) == readFile(dataPath("hf_configs_2026/" + f)),
                 qPrintable(f));
}

void TestModelKinds::layerMix_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("mix"); // mixer/mlp:layers, in the order of their first layer
    QTest::newRow("Qwen3-Next: 3 Gated DeltaNet to 1 gated attention, MoE")
        << "qwen3-next-80b-a3b-thinking.json" << "linear_attention/moe:36 attention/moe:12";
    QTest::newRow("Qwen3.5-9B: dense") << "qwen3.5-9b.json"
                                       << "linear_attention/dense:24 attention/dense:8";
    QTest::newRow("Nemotron-3-Nano: Mamba2, MoE and attention blocks")
        << "nemotron-3-nano-30b-a3b.json" << "mamba/none:23 none/moe:23 attention/none:6";
    QTest::newRow("Granite-4.0-H-Small: Mamba2 and attention, all MoE")
        << "granite-4.0-h-small.json" << "mamba/moe:36 attention/moe:4";
    QTest::newRow("LFM2-1.2B: short convolutions and attention")
        << "lfm2-1.2b.json" << "short_conv/dense:10 attention/dense:6";
    QTest::newRow("Gemma-4-31B: 5 sliding to 1 global") << "gemma-4-31b-it.json"
                                                        << "attention/dense:50 global_attention/dense:10";
    QTest::newRow("Kimi Linear: KDA in kda_layers (from 1), MLA in the others, experts after 1")
        << "kimi-linear-48b-a3b.json"
        << "linear_attention/dense:1 linear_attention/moe:19 attention/moe:7";
    QTest::newRow("Falcon-H1: attention and Mamba2 side by side") << "falcon-h1-7b.json"
                                                                  << "attention_mamba/dense:44";
}

void TestModelKinds::layerMix()
{
    QFETCH(QString, file);
    QFETCH(QString, mix);
    std::string error;
    const ModelConfig m = modelOf(file, &error);
    QVERIFY2(error.empty(), error.c_str());
    QStringList parts;
    for (const auto &k : layerKindsIn(m, 0, m.layers))
        parts << QStringLiteral("%1/%2:%3")
                     .arg(QString::fromUtf8(toString(k.spec.mixer).data()),
                          QString::fromUtf8(toString(k.spec.mlp).data()))
                     .arg(k.layers);
    QCOMPARE(parts.join(QLatin1Char(' ')), mix);
}

void TestModelKinds::visionTowers_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<qint64>("vision");
    // Qwen3.5's tower (27 x 1152, merger to the text width, no deepstack mergers) and Gemma 4's
    // (27 x 1152 with q/k norms, projection to the text width): their parts of the totals above.
    QTest::newRow("Qwen3.5-9B") << "qwen3.5-9b.json" << qint64(456010480);
    QTest::newRow("Qwen3.5-0.8B") << "qwen3.5-0.8b.json" << qint64(100592896);
    QTest::newRow("Gemma-4-26B-A4B") << "gemma-4-26b-a4b.json" << qint64(572792112);
    QTest::newRow("Qwen3.5 text-only: no tower") << "qwen3.5-2b-text-jevstyle.json" << qint64(0);
}

void TestModelKinds::visionTowers()
{
    QFETCH(QString, file);
    QFETCH(qint64, vision);
    std::string error;
    const ModelConfig m = modelOf(file, &error);
    QVERIFY2(error.empty(), error.c_str());
    QCOMPARE(qint64(countParameters(m).vision), vision);
}

void TestModelKinds::resizedPlanKeepsItsPattern()
{
    ModelConfig m = modelOf(QStringLiteral("qwen3.5-9b.json"));
    QCOMPARE(m.layers, int64_t(32));
    resizeLayers(m, 12);
    QCOMPARE(m.layers, int64_t(12));
    QCOMPARE(m.layerMixers, std::string("lllalllallla"));
    QCOMPARE(m.layerMlps.size(), size_t(12));
    const LayerKinds kinds = layerKindsIn(m, 0, m.layers);
    QCOMPARE(kinds.size(), size_t(2));
    QCOMPARE(kinds[0].layers, int64_t(9));
    QCOMPARE(kinds[1].layers, int64_t(3));
}

void TestModelKinds::contradictions_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<QString>("error");
    // Issue 20's fuzzer find: a GPT-2 block of hidden_size 1 with 12 heads of 64 (c_attn is
    // h -> 3h: the head width follows the hidden size).
    QTest::newRow("gpt2 head_dim against hidden_size")
        << R"({"format":"vramplan-scenario","model":{"family":"gpt2","layers":1,"hidden_size":1,
              "attention_heads":12,"head_dim":64,"vocab_size":10},
              "training":{"finetune":{"method":"lora","lora_targets":["c_attn"]}}})"
        << "model.head_dim: 64 x 12 heads is not hidden_size 1, which gpt2 splits into its heads";
    QTest::newRow("layer_types of another length")
        << R"({"format":"vramplan-scenario","model":{"family":"qwen3_5","layers":3,
              "hidden_size":64,"attention_heads":4,"vocab_size":10,
              "layer_types":["linear_attention","full_attention"],
              "linear_attention":{"key_heads":2,"value_heads":4}}})"
        << "model.layer_types: names 2 layers, but model.layers is 3";
    QTest::newRow("linear attention without heads")
        << R"({"format":"vramplan-scenario","model":{"family":"qwen3_5","layers":2,
              "hidden_size":64,"attention_heads":4,"vocab_size":10,
              "layer_types":["linear_attention","full_attention"]}})"
        << "model.linear_attention: layer_types names linear_attention layers, but key_heads "
           "and value_heads are not both given";
    QTest::newRow("value heads not a multiple of key heads")
        << R"({"format":"vramplan-scenario","model":{"family":"qwen3_5","layers":2,
              "hidden_size":64,"attention_heads":4,"vocab_size":10,
              "layer_types":["linear_attention","full_attention"],
              "linear_attention":{"key_heads":3,"value_heads":4}}})"
        << "model.linear_attention.value_heads: 4 is not a multiple of key_heads 3";
    QTest::newRow("moe layers without experts")
        << R"({"format":"vramplan-scenario","model":{"family":"llama","layers":2,
              "hidden_size":64,"attention_heads":4,"vocab_size":10,"mlp_types":["moe","dense"]}})"
        << "model.mlp_types: names moe layers, but model.moe.experts is 0";
    QTest::newRow("Kimi Delta Attention on the torch kernels")
        << R"({"format":"vramplan-scenario","model":{"preset":"kimi-linear-48b-a3b"},
              "training":{"linear_kernels":"torch"}})"
        << "training.linear_kernels: torch is not modelled for Kimi Delta Attention: Kimi "
           "Linear's modeling_kimi.py has no torch path (it calls flash-linear-attention's "
           "chunk_kda), and transformers' torch_chunk_kda keeps chunk x chunk decays per key "
           "channel; use fla";
    QTest::newRow("an unknown layer type")
        << R"({"format":"vramplan-scenario","model":{"family":"llama","layers":1,
              "hidden_size":64,"attention_heads":4,"vocab_size":10,"layer_types":["retention"]}})"
        << "model.layer_types: 'retention' is not one of full_attention, sliding_attention, "
           "global_attention, sparse_attention, linear_attention, mamba, short_conv, "
           "attention_mamba, none";
}

void TestModelKinds::contradictions()
{
    QFETCH(QString, scenario);
    QFETCH(QString, error);
    const auto parsed = scenarioFromText(scenario.toStdString());
    QVERIFY(!parsed);
    QCOMPARE(QString::fromStdString(parsed.error), error);
}

QTEST_APPLESS_MAIN(TestModelKinds)
#include "tst_modelkinds.moc"
