// Exact parameter counts: every public config.json in tests/data/hf_configs against the count
// the model reports, and every preset with a published count.

#include "catalog.h"
#include "hf_config.h"
#include "model_scaling.h"
#include "model_weights.h"
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

QTEST_APPLESS_MAIN(TestParameterCounts)
#include "tst_parametercounts.moc"
