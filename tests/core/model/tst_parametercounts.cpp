// Exact parameter counts: every public config.json in tests/data/hf_configs against the count
// the model reports, and every preset with a published count.

#include "catalog.h"
#include "estimate.h"
#include "model/hf_config.h"
#include "model/model_scaling.h"
#include "model/model_weights.h"
#include "testhelpers.h"

#include <QDir>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace vramplan;

namespace {

int64_t countFromConfig(const nlohmann::json &config, std::string &error)
{
    auto fields = modelFieldsFromHfConfig(config, "config");
    if (!fields) {
        error = fields.error;
        return -1;
    }
    auto parsed = scenarioFromJson({{"format", "vramplan-scenario"}, {"model", *fields.value}});
    if (!parsed) {
        error = parsed.error;
        return -1;
    }
    return countParameters(parsed.value->model).total;
}

} // namespace

class TestParameterCounts : public QObject
{
    Q_OBJECT

private slots:
    void publicConfigs_data();
    void publicConfigs();
    void presets_data();
    void presets();
    void loraAdapters_data();
    void loraAdapters();
    void scaledModels_data();
    void scaledModels();
    void checkpointTotals_data();
    void checkpointTotals();
    void checkpointAgreesWithEstimate_data();
    void checkpointAgreesWithEstimate();
    void activeParameters_data();
    void activeParameters();
    void contradictoryConfigs_data();
    void contradictoryConfigs();
    void layerKinds_data();
    void layerKinds();
};

void TestParameterCounts::publicConfigs_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<qint64>("expected");
    const auto counts =
        nlohmann::json::parse(test::readFile(test::dataPath("hf_configs/param_counts.json")));
    QVERIFY(counts.size() >= 6);
    for (const auto &[name, value] : counts.items())
        QTest::newRow(name.c_str())
            << test::dataPath(QString::fromStdString("hf_configs/" + name + ".json"))
            << qint64(value.get<int64_t>());
}

void TestParameterCounts::publicConfigs()
{
    QFETCH(QString, file);
    QFETCH(qint64, expected);
    const auto config = nlohmann::json::parse(test::readFile(file), nullptr, false);
    QVERIFY2(!config.is_discarded(), qPrintable(file));
    std::string error;
    QCOMPARE(qint64(countFromConfig(config, error)), expected);
    QVERIFY2(error.empty(), error.c_str());
}

void TestParameterCounts::presets_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<qint64>("expected");
    int withCount = 0;
    for (const auto &p : Catalog::builtin().presets()) {
        if (!p.officialParameters)
            continue;
        ++withCount;
        QTest::newRow(p.id.c_str())
            << QString::fromStdString(p.id) << qint64(*p.officialParameters);
    }
    QVERIFY(withCount >= 20);
}

void TestParameterCounts::presets()
{
    QFETCH(QString, id);
    QFETCH(qint64, expected);
    const auto *preset = Catalog::builtin().preset(id.toStdString());
    QVERIFY(preset);
    std::string error;
    QCOMPARE(qint64(countFromConfig(preset->hfConfig, error)), expected);
}

void TestParameterCounts::loraAdapters_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<int>("rank");
    QTest::addColumn<QString>("targets");
    QTest::addColumn<qint64>("expected");
    // Trainable counts printed by LitGPT's LoRA runs (lit-gpt finetune/lora.py tables, the
    // sources of tests/data/measured): r = 8 on query and value of every layer.
    const QString qv = QStringLiteral("\"q_proj\",\"v_proj\"");
    QTest::newRow("llama-2-7b r8 q,v") << "llama-2-7b" << 8 << qv << qint64(4194304);
    QTest::newRow("llama-2-13b r8 q,v") << "llama-2-13b" << 8 << qv << qint64(6553600);
    QTest::newRow("phi-1.5 r8 q,v") << "phi-1.5" << 8 << qv << qint64(1572864);
    // By hand: 32 layers * 16 * ((4096 + 4096) + (4096 + 1024)).
    QTest::newRow("llama-3.1-8b r16 q,v (GQA)")
        << "llama-3.1-8b" << 16 << qv << qint64(32 * 16 * (8192 + 5120));
    // A family's own module names, as PEFT users write them. GPT-2's fused c_attn has one
    // lora_A for q, k and v: 12 * 8 * (768 + 2304) (PEFT prints 294,912 trainable).
    QTest::newRow("gpt2 r8 c_attn (fused)")
        << "gpt2" << 8 << "\"c_attn\"" << qint64(12 * 8 * (768 + 2304));
    // c_proj ends both attn.c_proj (768 -> 768) and mlp.c_proj (3072 -> 768).
    QTest::newRow("gpt2 r8 c_proj (two modules)")
        << "gpt2" << 8 << "\"c_proj\"" << qint64(12 * 8 * ((768 + 768) + (3072 + 768)));
    QTest::newRow("bert-base r8 query,value")
        << "bert-base-uncased" << 8 << "\"query\",\"value\"" << qint64(12 * 8 * (1536 + 1536));
    QTest::newRow("phi-1.5 r8 q,v,fc1,fc2")
        << "phi-1.5" << 8 << "\"q_proj\",\"v_proj\",\"fc1\",\"fc2\""
        << qint64(24 * 8 * (2 * 4096 + 2 * (2048 + 8192)));
    QTest::newRow("pythia-1.4b r8 query_key_value (fused)")
        << "pythia-1.4b" << 8 << "\"query_key_value\"" << qint64(24 * 8 * (2048 + 3 * 2048));
    // PEFT's printouts for InternLM3-8B-Instruct (the preset's params_source): r 8 on q, k, v
    // and o, and on o_proj alone (its other target, qkv_proj, names no module of this model).
    QTest::newRow("internlm3-8b r8 q,k,v,o")
        << "internlm3-8b-instruct" << 8 << "\"q_proj\",\"k_proj\",\"v_proj\",\"o_proj\""
        << qint64(9633792);
    QTest::newRow("internlm3-8b r8 o_proj") << "internlm3-8b-instruct" << 8 << "\"o_proj\""
                                            << qint64(3145728);
}

void TestParameterCounts::loraAdapters()
{
    QFETCH(QString, preset);
    QFETCH(int, rank);
    QFETCH(QString, targets);
    QFETCH(qint64, expected);
    const Scenario s = test::parseOrFail(
        "{\"format\":\"vramplan-scenario\",\"model\":{\"preset\":\"" + preset.toStdString() +
        "\"},\"training\":{\"finetune\":{\"method\":\"lora\",\"lora_rank\":" +
        std::to_string(rank) + ",\"lora_targets\":[" + targets.toStdString() + "]}}}");
    QCOMPARE(qint64(loraParameters(s.model, s.training.finetune)),
             expected);
}

void TestParameterCounts::scaledModels_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<double>("target");
    QTest::newRow("llama-2-7b to 13B") << "llama-2-7b" << 13e9;
    QTest::newRow("llama-2-7b to 1B") << "llama-2-7b" << 1e9;
    QTest::newRow("llama-3.1-8b to 70B (GQA)") << "llama-3.1-8b" << 70e9;
    QTest::newRow("gpt2 to 1.5B") << "gpt2" << 1.5e9;
    QTest::newRow("mixtral-8x7b to 100B") << "mixtral-8x7b" << 100e9;
}

// The model-size slider: the family's shape scaled to a parameter count, within 5%, with the
// head width and the query/key-value grouping kept, and a layout the parser accepts.
void TestParameterCounts::scaledModels()
{
    QFETCH(QString, preset);
    QFETCH(double, target);
    const Scenario base = test::parseOrFail("{\"format\":\"vramplan-scenario\",\"model\":{\"preset\":\"" +
                                            preset.toStdString() + "\"}}");
    const ModelConfig scaled = scaleModel(base.model, target);
    const double total = double(countParameters(scaled).total);
    QVERIFY2(std::fabs(total - target) <= 0.05 * target, qPrintable(QString::number(total)));
    QCOMPARE(scaled.headDim, base.model.headDim);
    QCOMPARE(scaled.attentionHeads / scaled.kvHeads, base.model.attentionHeads / base.model.kvHeads);
    QCOMPARE(scaled.family, base.model.family);
    Scenario s = base;
    s.model = scaled;
    QCOMPARE(checkScenario(s), std::string());
}

void TestParameterCounts::checkpointTotals_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<qint64>("fp8Block");
    QTest::addColumn<qint64>("mtp");
    QTest::addColumn<qint64>("fp8Scales");
    QTest::addColumn<qint64>("buffers");
    QTest::addColumn<qint64>("published");
    // Published checkpoint totals (Hugging Face safetensors metadata, the sum of every stored
    // tensor; the presets' _vramplan.params_source names each): the model's parameters plus the
    // multi-token-prediction layer, fp8 weight_scale_inv tensors and e_score_correction_bias
    // buffers, which transformers does not build as parameters.
    QTest::newRow("deepseek-v3") << "deepseek-v3" << qint64(128) << qint64(13463426048)
                                 << qint64(41540496) << qint64(15104) << qint64(684531386000);
    QTest::newRow("glm-4.5") << "glm-4.5" << qint64(0) << qint64(5539962112) << qint64(0)
                             << qint64(14400) << qint64(358337791296);
    QTest::newRow("glm-4.5-air") << "glm-4.5-air" << qint64(0) << qint64(3616573440) << qint64(0)
                                 << qint64(5888) << qint64(110468824832);
    // Kimi-K2's checkpoint also stores 61 x 56 rotary inv_freq elements of its remote code
    // (a buffer in any implementation): 1,026,470,731,056 published - 3,416.
    QTest::newRow("kimi-k2-instruct") << "kimi-k2-instruct" << qint64(128) << qint64(0)
                                      << qint64(62495192) << qint64(23040)
                                      << qint64(1026470731056 - 3416);
}

void TestParameterCounts::checkpointTotals()
{
    QFETCH(QString, preset);
    QFETCH(qint64, fp8Block);
    QFETCH(qint64, mtp);
    QFETCH(qint64, fp8Scales);
    QFETCH(qint64, buffers);
    QFETCH(qint64, published);
    const Scenario s = test::parseOrFail("{\"format\":\"vramplan-scenario\",\"model\":{\"preset\":\"" +
                                         preset.toStdString() + "\"}}");
    const auto *p = Catalog::builtin().preset(preset.toStdString());
    QVERIFY(p);
    QCOMPARE(qint64(hfFp8BlockSize(p->hfConfig)), fp8Block);
    const CheckpointExtras x = checkpointExtras(s.model, fp8Block);
    QCOMPARE(qint64(x.mtp), mtp);
    QCOMPARE(qint64(x.fp8Scales), fp8Scales);
    QCOMPARE(qint64(x.buffers), buffers);
    QCOMPARE(qint64(countParameters(s.model).total + x.total()), published);
}

// An imported checkpoint's count (model.checkpoint_parameters) against the model: the estimate
// warns only when the tensors hold something the layers, MTP layers, buffers and fp8 scales do
// not explain.
void TestParameterCounts::checkpointAgreesWithEstimate_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<qint64>("held");
    QTest::addColumn<bool>("warned");
    QTest::newRow("DeepSeek-V3 fp8 checkpoint") << "deepseek-v3" << qint64(684531386000) << false;
    QTest::newRow("DeepSeek-V3 as transformers builds it") << "deepseek-v3" << qint64(671026404352)
                                                        << false;
    QTest::newRow("DeepSeek-V3 a tensor short") << "deepseek-v3" << qint64(671026404352 - 4096)
                                               << true;
    QTest::newRow("GLM-4.5 with MTP and buffers") << "glm-4.5" << qint64(358337791296) << false;
}

void TestParameterCounts::checkpointAgreesWithEstimate()
{
    QFETCH(QString, preset);
    QFETCH(qint64, held);
    QFETCH(bool, warned);
    const Scenario s = test::parseOrFail(
        "{\"format\":\"vramplan-scenario\",\"model\":{\"preset\":\"" + preset.toStdString() +
        "\",\"checkpoint_parameters\":" + std::to_string(held) + "}}");
    const Estimate e = estimate(s);
    const bool differs = std::any_of(e.warnings.begin(), e.warnings.end(), [](const Warning &w) {
        return w.code == WarningCode::CheckpointDiffers;
    });
    QCOMPARE(differs, warned);
}

void TestParameterCounts::activeParameters_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<bool>("withEmbedding");
    QTest::addColumn<double>("published");
    QTest::addColumn<double>("unit");
    // Active parameters per token as the model cards state them: OpenAI rounds to 0.01B, the
    // others cut the figure off at their last digit (Qwen3-30B-A3B's 3.35B is "3.3B"). OpenAI,
    // DeepSeek-V2 and GLM count without the embedding table; Qwen, DeepSeek-V3, Kimi and Meta
    // with it.
    QTest::newRow("gpt-oss-20b 3.61B") << "gpt-oss-20b" << false << 3.61 << 1e7;
    QTest::newRow("gpt-oss-120b 5.13B") << "gpt-oss-120b" << false << 5.13 << 1e7;
    QTest::newRow("deepseek-v2-lite 2.4B") << "deepseek-v2-lite" << false << 2.4 << 1e8;
    QTest::newRow("glm-4.5-air 12B") << "glm-4.5-air" << false << 12.0 << 1e9;
    QTest::newRow("qwen3-30b-a3b 3.3B") << "qwen3-30b-a3b" << true << 3.3 << 1e8;
    QTest::newRow("qwen3-235b-a22b 22B") << "qwen3-235b-a22b" << true << 22.0 << 1e9;
    QTest::newRow("deepseek-v3 37B") << "deepseek-v3" << true << 37.0 << 1e9;
    QTest::newRow("kimi-k2-instruct 32B") << "kimi-k2-instruct" << true << 32.0 << 1e9;
    QTest::newRow("llama-4-scout 17B") << "llama-4-scout-17b-16e" << true << 17.0 << 1e9;
    QTest::newRow("llama-4-maverick 17B") << "llama-4-maverick-17b-128e" << true << 17.0 << 1e9;
}

void TestParameterCounts::activeParameters()
{
    QFETCH(QString, preset);
    QFETCH(bool, withEmbedding);
    QFETCH(double, published);
    QFETCH(double, unit);
    const Scenario s = test::parseOrFail("{\"format\":\"vramplan-scenario\",\"model\":{\"preset\":\"" +
                                         preset.toStdString() + "\"}}");
    const ParameterCounts c = countParameters(s.model);
    const double active = double(c.activePerToken - (withEmbedding ? 0 : c.embedding));
    const bool rounded = preset.startsWith("gpt-oss");
    const double stated = rounded ? std::round(active / unit) : std::floor(active / unit);
    QCOMPARE(std::llround(stated), std::llround(published * 1e9 / unit));
}

void TestParameterCounts::contradictoryConfigs_data()
{
    QTest::addColumn<QString>("config");
    QTest::addColumn<QString>("error");
    QTest::newRow("qwen3_moe top-k above experts")
        << R"({"model_type":"qwen3_moe","num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,"num_key_value_heads":2,"head_dim":16,"intermediate_size":128,"vocab_size":100,"num_experts":4,"num_experts_per_tok":8,"moe_intermediate_size":32})"
        << "config.num_experts_per_tok: 8 exceeds num_experts 4";
    QTest::newRow("kv heads do not divide heads")
        << R"({"model_type":"qwen3","num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,"num_key_value_heads":3,"head_dim":16,"intermediate_size":128,"vocab_size":100})"
        << "config.num_key_value_heads: 3 does not divide num_attention_heads 4";
    QTest::newRow("layer_types of another length")
        << R"({"model_type":"gpt_oss","num_hidden_layers":3,"hidden_size":64,"num_attention_heads":4,"num_key_value_heads":2,"head_dim":16,"intermediate_size":64,"vocab_size":100,"num_local_experts":4,"num_experts_per_tok":2,"sliding_window":8,"layer_types":["sliding_attention","full_attention"]})"
        << "config.layer_types: names 2 layers, but num_hidden_layers is 3";
    QTest::newRow("deepseek top-k above experts")
        << R"({"model_type":"deepseek_v3","num_hidden_layers":3,"hidden_size":64,"num_attention_heads":4,"intermediate_size":128,"vocab_size":100,"kv_lora_rank":16,"n_routed_experts":4,"num_experts_per_tok":6,"moe_intermediate_size":32,"first_k_dense_replace":1})"
        << "config.num_experts_per_tok: 6 exceeds n_routed_experts 4";
    // Kimi Linear's layer lists count from 1 (KimiLinearConfig.is_kda_layer tests layer + 1).
    QTest::newRow("kimi_linear kda_layers from 0")
        << R"({"model_type":"kimi_linear","num_hidden_layers":2,"hidden_size":64,"num_attention_heads":4,"intermediate_size":128,"vocab_size":100,"kv_lora_rank":16,"linear_attn_config":{"kda_layers":[0],"full_attn_layers":[2],"num_heads":4,"head_dim":16}})"
        << "config.linear_attn_config.kda_layers: holds 0, not a layer number from 1 to 2 (the "
           "lists count from 1)";
    QTest::newRow("unsupported model type")
        << R"({"model_type":"mamba"})"
        << "config.model_type: 'mamba' is not one vramplan knows (" +
               QString::fromStdString(supportedHfModelTypes()) +
               "), and the config lacks the fields of a generic decoder (hidden_size, "
               "num_hidden_layers, num_attention_heads, intermediate_size, vocab_size)";
    QTest::newRow("text config missing")
        << R"({"model_type":"llama4","vision_config":{}})"
        << "config.text_config: is missing (the text model's config)";
    QTest::newRow("nested config field")
        << R"({"model_type":"gemma3","text_config":{"num_hidden_layers":"many"}})"
        << "config.text_config.num_hidden_layers: must be a whole number, got \"many\"";
}

void TestParameterCounts::contradictoryConfigs()
{
    QFETCH(QString, config);
    QFETCH(QString, error);
    auto fields = modelFieldsFromHfConfig(nlohmann::json::parse(config.toStdString()), "config");
    QVERIFY(!fields);
    QCOMPARE(QString::fromStdString(fields.error), error);
}

void TestParameterCounts::layerKinds_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<qint64>("moeLayers");
    QTest::addColumn<qint64>("denseLayers");
    QTest::addColumn<qint64>("slidingLayers");
    // DeepSeek-V3: first_k_dense_replace 3 of 61; Llama 4 Maverick interleaves (step 2);
    // gpt-oss alternates sliding and full attention; Gemma 3 slides 5 of every 6 layers.
    QTest::newRow("deepseek-v3") << "deepseek-v3" << qint64(58) << qint64(3) << qint64(0);
    QTest::newRow("llama-4-maverick") << "llama-4-maverick-17b-128e" << qint64(24) << qint64(24)
                                      << qint64(36);
    QTest::newRow("llama-4-scout") << "llama-4-scout-17b-16e" << qint64(48) << qint64(0)
                                   << qint64(36);
    QTest::newRow("gpt-oss-20b") << "gpt-oss-20b" << qint64(24) << qint64(0) << qint64(12);
    QTest::newRow("gemma-3-27b") << "gemma-3-27b-pt" << qint64(0) << qint64(62) << qint64(52);
    QTest::newRow("gemma-2-9b") << "gemma-2-9b" << qint64(0) << qint64(42) << qint64(21);
}

void TestParameterCounts::layerKinds()
{
    QFETCH(QString, preset);
    QFETCH(qint64, moeLayers);
    QFETCH(qint64, denseLayers);
    QFETCH(qint64, slidingLayers);
    const Scenario s = test::parseOrFail("{\"format\":\"vramplan-scenario\",\"model\":{\"preset\":\"" +
                                         preset.toStdString() + "\"}}");
    const ParameterCounts c = countParameters(s.model);
    QCOMPARE(qint64(c.moeLayers), moeLayers);
    QCOMPARE(qint64(c.denseLayers), denseLayers);
    QCOMPARE(qint64(s.model.slidingLayers), slidingLayers);
}

QTEST_APPLESS_MAIN(TestParameterCounts)
#include "tst_parametercounts.moc"
