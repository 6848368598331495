// The scenario file (SPEC §3): documented defaults, presets and Hugging Face configs under
// explicit overrides, one error line per bad document that names the field, a byte-identical
// round trip through scenarioToJson, and the numeric-field table used by sweeps and solvers.

#include "catalog.h"
#include "formats/enum_names.h"
#include "formats/numeric_fields.h"
#include "formats/scenario_json.h"
#include "testhelpers.h"

#include <QObject>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <regex>
#include <set>
#include <string>

using namespace vramplan;
using nlohmann::json;
using vramplan::test::dataPath;
using vramplan::test::readFile;

namespace {

// A scenario document: the two mandatory keys, then `body` (members, without braces).
QString doc(const char *body = "")
{
    QString text = QStringLiteral(R"({"format": "vramplan-scenario", "version": 1)");
    if (body[0] != '\0')
        text += QStringLiteral(", ") + QString::fromUtf8(body);
    return text + QLatin1Char('}');
}

QString docWithModel(const QString &model)
{
    return QStringLiteral(R"({"format": "vramplan-scenario", "version": 1, "model": )") + model +
           QLatin1Char('}');
}

QString hfConfig(const char *file)
{
    return QString::fromStdString(readFile(dataPath(QStringLiteral("hf_configs/") + file)));
}

// "[[[ ... ]]]" with `depth` levels.
std::string nestedArray(int depth)
{
    return std::string(size_t(depth), '[') + std::string(size_t(depth), ']');
}

json measuredScenario(size_t index)
{
    const auto text = readFile(dataPath(QStringLiteral("measured/shared_published.json")));
    const auto entries = json::parse(text, nullptr, false);
    if (!entries.is_array() || index >= entries.size())
        return json();
    return entries[index]["scenario"];
}

// QCOMPARE on the enumerations would find both QTest::toString and vramplan::toString (ADL):
// compare their file spellings instead, which also reads well in a failure message.
template <typename E> QString enumName(E value)
{
    return QString::fromUtf8(vramplan::toString(value));
}
#define QCOMPARE_ENUM(actual, expected) QCOMPARE(enumName(actual), enumName(expected))

// "training.micro_batch_size: ..." (a dotted field path, a colon and a space).
bool startsWithFieldPath(const std::string &error)
{
    static const std::regex pattern(R"(^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)*: .+)");
    return std::regex_match(error, pattern);
}

} // namespace

class TestScenarioParsing : public QObject
{
    Q_OBJECT

private slots:
    void minimalDocumentTakesDefaults();
    void modelFields_data();
    void modelFields();
    void badDocuments_data();
    void badDocuments();
    void nullMeansAbsent_data();
    void nullMeansAbsent();
    void deepNesting_data();
    void deepNesting();
    void roundTrip_data();
    void roundTrip();
    void numericFieldAtMinimum_data();
    void numericFieldAtMinimum();
    void numericFieldsMatchJson();
    void findNumericField();
};

void TestScenarioParsing::minimalDocumentTakesDefaults()
{
    const auto parsed = scenarioFromText(R"({"format":"vramplan-scenario","version":1})");
    QVERIFY2(parsed, parsed.error.c_str());
    const Scenario &s = *parsed.value;

    QCOMPARE(s.name, std::string());

    const ModelConfig &m = s.model;
    QCOMPARE(m.preset, std::string());
    QCOMPARE_ENUM(m.family, Family::Llama);
    QCOMPARE(m.layers, int64_t(32));
    QCOMPARE(m.hiddenSize, int64_t(4096));
    QCOMPARE(m.attentionHeads, int64_t(32));
    QCOMPARE(m.kvHeads, int64_t(32));
    QCOMPARE(m.headDim, int64_t(128));
    QCOMPARE(m.ffnHiddenSize, int64_t(11008));
    QCOMPARE_ENUM(m.ffnType, FfnType::Swiglu);
    QCOMPARE_ENUM(m.activation, Activation::Silu);
    QCOMPARE(m.vocabSize, int64_t(32000));
    QCOMPARE_ENUM(m.norm, NormType::RmsNorm);
    QCOMPARE(m.tiedEmbeddings, false);
    QCOMPARE(m.bias, false);
    QCOMPARE(m.qkvBias, false);
    QCOMPARE(m.lmHeadBias, false);
    QCOMPARE(m.maxPositions, int64_t(4096));
    QCOMPARE_ENUM(m.positions, PositionKind::Rope);
    QCOMPARE(m.parallelBlock, false);
    QCOMPARE(m.normsPerLayer, int64_t(2));
    QCOMPARE(m.tokenTypes, int64_t(0));
    QCOMPARE(m.pooler, false);
    QCOMPARE_ENUM(m.head, Head::LanguageModel);
    QCOMPARE(m.classifierLabels, int64_t(2));
    QCOMPARE(m.moe.experts, int64_t(0));
    QCOMPARE(m.moe.expertsPerToken, int64_t(0));
    QCOMPARE(m.moe.expertFfnHiddenSize, int64_t(0));
    QCOMPARE(m.moe.sharedExperts, int64_t(0));
    QVERIFY(!m.isMoe());

    const TrainingConfig &t = s.training;
    QCOMPARE_ENUM(t.mode, Mode::Train);
    QCOMPARE(t.microBatchSize, int64_t(1));
    QCOMPARE(t.sequenceLength, int64_t(4096));
    QCOMPARE(t.gradientAccumulationSteps, int64_t(1));
    QCOMPARE_ENUM(t.precision, Precision::Bf16Mixed);
    QCOMPARE_ENUM(t.optimizer, Optimizer::Adamw);
    QCOMPARE_ENUM(t.recompute, Recompute::None);
    QCOMPARE(t.recomputeLayers, int64_t(-1));
    QCOMPARE_ENUM(t.attention, Attention::Flash);
    QCOMPARE(t.dropout, 0.0);
    QCOMPARE_ENUM(t.finetune.method, FinetuneMethod::Full);
    QCOMPARE(t.finetune.loraRank, int64_t(16));
    QCOMPARE(t.finetune.loraTargets, (std::vector<std::string>{"q_proj", "v_proj"}));
    QCOMPARE(t.finetune.baseWeightBits, int64_t(16));
    QCOMPARE(t.finetune.loraDropout, 0.05);

    const ParallelConfig &p = s.parallelism;
    QCOMPARE(p.gpus, int64_t(1));
    QCOMPARE(p.tensorParallel, int64_t(1));
    QCOMPARE(p.pipelineParallel, int64_t(1));
    QCOMPARE(p.virtualPipelineParallel, int64_t(1));
    QCOMPARE(p.sequenceParallel, false);
    QCOMPARE(p.contextParallel, int64_t(1));
    QCOMPARE(p.expertParallel, int64_t(1));
    QCOMPARE(p.zeroStage, int64_t(0));
    QCOMPARE_ENUM(p.offloadOptimizer, Offload::None);
    QCOMPARE_ENUM(p.offloadParameters, Offload::None);
    QCOMPARE(p.dataParallel(), int64_t(1));

    QCOMPARE_ENUM(s.framework, Framework::Transformers);

    QCOMPARE(s.gpu.preset, std::string());
    QCOMPARE(s.gpu.name, std::string("custom"));
    QCOMPARE(s.gpu.architecture, std::string());
    QCOMPARE(s.gpu.memoryGiB, 80.0);

    // The same through the JSON entry point, and the version may be left out.
    const auto fromJson = scenarioFromJson(json{{"format", "vramplan-scenario"}});
    QVERIFY2(fromJson, fromJson.error.c_str());
    QCOMPARE(scenarioToJson(*fromJson.value).dump(), scenarioToJson(s).dump());
}

void TestScenarioParsing::modelFields_data()
{
    QTest::addColumn<QString>("document");
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("hidden");
    QTest::addColumn<int>("heads");
    QTest::addColumn<int>("kvHeads");
    QTest::addColumn<int>("headDim");
    QTest::addColumn<int>("ffn");
    QTest::addColumn<int>("vocab");
    QTest::addColumn<bool>("tied");
    QTest::addColumn<bool>("qkvBias");
    QTest::addColumn<QString>("norm");
    QTest::addColumn<QString>("ffnType");
    QTest::addColumn<int>("experts");
    QTest::addColumn<int>("expertsPerToken");

    // clang-format off
    QTest::newRow("preset llama-2-7b")
        << doc(R"("model": {"preset": "llama-2-7b"})")
        << 32 << 4096 << 32 << 32 << 128 << 11008 << 32000 << false << false
        << "rmsnorm" << "swiglu" << 0 << 0;
    QTest::newRow("preset llama-2-7b, layers overridden")
        << doc(R"("model": {"preset": "llama-2-7b", "layers": 16})")
        << 16 << 4096 << 32 << 32 << 128 << 11008 << 32000 << false << false
        << "rmsnorm" << "swiglu" << 0 << 0;
    QTest::newRow("preset llama-2-7b, kv_heads overridden")
        << doc(R"("model": {"preset": "llama-2-7b", "kv_heads": 8})")
        << 32 << 4096 << 32 << 8 << 128 << 11008 << 32000 << false << false
        << "rmsnorm" << "swiglu" << 0 << 0;
    QTest::newRow("preset llama-2-7b, hidden overridden: head_dim follows")
        << doc(R"("model": {"preset": "llama-2-7b", "hidden_size": 2048})")
        << 32 << 2048 << 32 << 32 << 64 << 11008 << 32000 << false << false
        << "rmsnorm" << "swiglu" << 0 << 0;
    QTest::newRow("preset llama-2-7b, tied and layernorm overridden")
        << doc(R"("model": {"preset": "llama-2-7b", "tied_embeddings": true, "norm": "layernorm"})")
        << 32 << 4096 << 32 << 32 << 128 << 11008 << 32000 << true << false
        << "layernorm" << "swiglu" << 0 << 0;
    QTest::newRow("hf_config mistral-7b inline")
        << docWithModel(QStringLiteral(R"({"hf_config": )") + hfConfig("mistral-7b-v0.1.json") +
                        '}')
        << 32 << 4096 << 32 << 8 << 128 << 14336 << 32000 << false << false
        << "rmsnorm" << "swiglu" << 0 << 0;
    QTest::newRow("hf_config mistral-7b, vocab overridden")
        << docWithModel(QStringLiteral(R"({"vocab_size": 32768, "hf_config": )") +
                        hfConfig("mistral-7b-v0.1.json") + '}')
        << 32 << 4096 << 32 << 8 << 128 << 14336 << 32768 << false << false
        << "rmsnorm" << "swiglu" << 0 << 0;
    QTest::newRow("hf_config gpt2 inline")
        << docWithModel(QStringLiteral(R"({"hf_config": )") + hfConfig("gpt2.json") + '}')
        << 12 << 768 << 12 << 12 << 64 << 3072 << 50257 << true << false
        << "layernorm" << "gelu" << 0 << 0;
    QTest::newRow("hf_config qwen2.5-0.5b inline")
        << docWithModel(QStringLiteral(R"({"hf_config": )") + hfConfig("qwen2.5-0.5b.json") + '}')
        << 24 << 896 << 14 << 2 << 64 << 4864 << 151936 << true << true
        << "rmsnorm" << "swiglu" << 0 << 0;
    QTest::newRow("hf_config replaces the preset's numbers")
        << docWithModel(QStringLiteral(R"({"preset": "llama-2-7b", "hf_config": )") +
                        hfConfig("gpt2.json") + '}')
        << 12 << 768 << 12 << 12 << 64 << 3072 << 50257 << true << false
        << "layernorm" << "gelu" << 0 << 0;
    QTest::newRow("preset gemma-7b")
        << doc(R"("model": {"preset": "gemma-7b"})")
        << 28 << 3072 << 16 << 16 << 256 << 24576 << 256000 << true << false
        << "rmsnorm" << "geglu" << 0 << 0;
    QTest::newRow("preset qwen2.5-0.5b")
        << doc(R"("model": {"preset": "qwen2.5-0.5b"})")
        << 24 << 896 << 14 << 2 << 64 << 4864 << 151936 << true << true
        << "rmsnorm" << "swiglu" << 0 << 0;
    QTest::newRow("preset mixtral-8x7b")
        << doc(R"("model": {"preset": "mixtral-8x7b"})")
        << 32 << 4096 << 32 << 8 << 128 << 14336 << 32000 << false << false
        << "rmsnorm" << "swiglu" << 8 << 2;
    QTest::newRow("preset mixtral-8x7b, moe merged field by field")
        << doc(R"("model": {"preset": "mixtral-8x7b", "moe": {"experts_per_token": 1}})")
        << 32 << 4096 << 32 << 8 << 128 << 14336 << 32000 << false << false
        << "rmsnorm" << "swiglu" << 8 << 1;
    QTest::newRow("explicit gpt2 family: 4h MLP, tied, layernorm")
        << doc(R"("model": {"family": "gpt2", "layers": 2, "hidden_size": 128,
                            "attention_heads": 4, "vocab_size": 1000})")
        << 2 << 128 << 4 << 4 << 32 << 512 << 1000 << true << false
        << "layernorm" << "gelu" << 0 << 0;
    QTest::newRow("explicit llama: unstated SwiGLU width 8h/3 rounded up to 256")
        << doc(R"("model": {"hidden_size": 1000, "attention_heads": 8})")
        << 32 << 1000 << 8 << 8 << 125 << 2816 << 32000 << false << false
        << "rmsnorm" << "swiglu" << 0 << 0;
    QTest::newRow("explicit head_dim allows an indivisible hidden size")
        << doc(R"("model": {"hidden_size": 4097, "attention_heads": 32, "head_dim": 128})")
        << 32 << 4097 << 32 << 32 << 128 << 11008 << 32000 << false << false
        << "rmsnorm" << "swiglu" << 0 << 0;
    QTest::newRow("explicit dense model with moe")
        << doc(R"("model": {"moe": {"experts": 4, "expert_ffn_hidden_size": 1024}})")
        << 32 << 4096 << 32 << 32 << 128 << 11008 << 32000 << false << false
        << "rmsnorm" << "swiglu" << 4 << 2;
    // clang-format on
}

void TestScenarioParsing::modelFields()
{
    QFETCH(QString, document);
    QFETCH(int, layers);
    QFETCH(int, hidden);
    QFETCH(int, heads);
    QFETCH(int, kvHeads);
    QFETCH(int, headDim);
    QFETCH(int, ffn);
    QFETCH(int, vocab);
    QFETCH(bool, tied);
    QFETCH(bool, qkvBias);
    QFETCH(QString, norm);
    QFETCH(QString, ffnType);
    QFETCH(int, experts);
    QFETCH(int, expertsPerToken);

    const auto parsed = scenarioFromText(document.toStdString());
    QVERIFY2(parsed, parsed.error.c_str());
    const ModelConfig &m = parsed.value->model;
    QCOMPARE(m.layers, int64_t(layers));
    QCOMPARE(m.hiddenSize, int64_t(hidden));
    QCOMPARE(m.attentionHeads, int64_t(heads));
    QCOMPARE(m.kvHeads, int64_t(kvHeads));
    QCOMPARE(m.headDim, int64_t(headDim));
    QCOMPARE(m.ffnHiddenSize, int64_t(ffn));
    QCOMPARE(m.vocabSize, int64_t(vocab));
    QCOMPARE(m.tiedEmbeddings, tied);
    QCOMPARE(m.qkvBias, qkvBias);
    QCOMPARE(enumName(m.norm), norm);
    QCOMPARE(enumName(m.ffnType), ffnType);
    QCOMPARE(m.moe.experts, int64_t(experts));
    QCOMPARE(m.moe.expertsPerToken, int64_t(expertsPerToken));
    QCOMPARE(m.isMoe(), experts > 0);
}

void TestScenarioParsing::badDocuments_data()
{
    QTest::addColumn<QString>("document");
    QTest::addColumn<QString>("prefix");

    // The document as a whole.
    QTest::newRow("empty text") << QString() << "the file is empty";
    QTest::newRow("blank text") << " \n\t "
                                << "the file is empty";
    QTest::newRow("syntax error") << R"({"format": "vramplan-scenario",)"
                                  << "not valid JSON: ";
    QTest::newRow("top level is an array") << "[]"
                                           << "the top level: ";
    QTest::newRow("top level is a string") << R"("vramplan-scenario")"
                                           << "the top level: ";
    QTest::newRow("format missing") << "{}"
                                    << "format: ";
    QTest::newRow("model name not a string")
        << doc(R"("model": {"preset": "llama-2-7b", "name": 7})") << "model.name: must be a string";
    QTest::newRow("format wrong") << R"({"format": "vramplan-estimate", "version": 1})"
                                  << "format: ";
    QTest::newRow("format not a string") << R"({"format": 1, "version": 1})"
                                         << "format: ";
    QTest::newRow("format null") << R"({"format": null, "version": 1})"
                                 << "format: ";
    QTest::newRow("version newer") << R"({"format": "vramplan-scenario", "version": 2})"
                                   << "version: ";
    QTest::newRow("version 0") << R"({"format": "vramplan-scenario", "version": 0})"
                               << "version: ";
    QTest::newRow("version a string") << R"({"format": "vramplan-scenario", "version": "1"})"
                                      << "version: ";
    QTest::newRow("version fractional") << R"({"format": "vramplan-scenario", "version": 1.5})"
                                        << "version: ";
    QTest::newRow("name a number") << doc(R"("name": 5)") << "name: ";
    QTest::newRow("framework unknown") << doc(R"("framework": "jax")") << "framework: ";

    // Sections of the wrong type.
    QTest::newRow("model an array") << doc(R"("model": [])") << "model: ";
    QTest::newRow("training a number") << doc(R"("training": 5)") << "training: ";
    QTest::newRow("parallelism a string") << doc(R"("parallelism": "dp")") << "parallelism: ";
    QTest::newRow("gpu an array") << doc(R"("gpu": ["h100-80gb"])") << "gpu: ";
    QTest::newRow("finetune an array")
        << doc(R"("training": {"finetune": []})") << "training.finetune: ";
    QTest::newRow("moe a number") << doc(R"("model": {"moe": 8})") << "model.moe: ";
    QTest::newRow("optimizer precision: unknown dtype")
        << doc(R"("training": {"optimizer_precision": {"exp_avg": "int2"}})")
        << "training.optimizer_precision.exp_avg: must be one of auto, fp32, bf16, fp16, fp8, "
           "int8 or int4, got \"int2\"";
    QTest::newRow("optimizer precision: unknown key")
        << doc(R"("training": {"optimizer_precision": {"master": "fp16"}})")
        << "training.optimizer_precision.master: unknown key";

    // Unknown keys, at every level, by their full dotted path.
    QTest::newRow("unknown key: top") << doc(R"("modle": {})") << "modle: unknown key";
    QTest::newRow("unknown key: model")
        << doc(R"("model": {"layer": 12})") << "model.layer: unknown key";
    QTest::newRow("unknown key: model after preset")
        << doc(R"("model": {"preset": "llama-2-7b", "num_hidden_layers": 12})")
        << "model.num_hidden_layers: unknown key";
    QTest::newRow("unknown key: model.moe")
        << doc(R"("model": {"moe": {"experts": 8, "expert": 2}})")
        << "model.moe.expert: unknown key";
    QTest::newRow("unknown key: model.moe after preset")
        << doc(R"("model": {"preset": "mixtral-8x7b", "moe": {"top_k": 2}})")
        << "model.moe.top_k: unknown key";
    QTest::newRow("unknown key: training")
        << doc(R"("training": {"micro_batch": 4})") << "training.micro_batch: unknown key";
    QTest::newRow("unknown key: training.finetune")
        << doc(R"("training": {"finetune": {"method": "lora", "rank": 8}})")
        << "training.finetune.rank: unknown key";
    QTest::newRow("unknown key: parallelism")
        << doc(R"("parallelism": {"gpus": 8, "tp": 2})") << "parallelism.tp: unknown key";
    QTest::newRow("unknown key: gpu")
        << doc(R"("gpu": {"preset": "h100-80gb", "memory": 80})") << "gpu.memory: unknown key";

    // Enumerations and catalog names.
    QTest::newRow("gpu.preset unknown")
        << doc(R"("gpu": {"preset": "a100-81gb"})") << "gpu.preset: ";
    QTest::newRow("gpu.preset a number") << doc(R"("gpu": {"preset": 100})") << "gpu.preset: ";
    QTest::newRow("model.preset unknown")
        << doc(R"("model": {"preset": "llama-9"})") << "model.preset: ";
    QTest::newRow("model.preset a number") << doc(R"("model": {"preset": 7})") << "model.preset: ";
    QTest::newRow("training.precision unknown")
        << doc(R"("training": {"precision": "fp12"})") << "training.precision: ";
    QTest::newRow("training.precision a number")
        << doc(R"("training": {"precision": 16})") << "training.precision: ";
    QTest::newRow("training.optimizer unknown")
        << doc(R"("training": {"optimizer": "adam_w"})") << "training.optimizer: ";
    QTest::newRow("training.attention unknown")
        << doc(R"("training": {"attention": "flash3"})") << "training.attention: ";
    QTest::newRow("training.mode unknown")
        << doc(R"("training": {"mode": "eval"})") << "training.mode: ";
    QTest::newRow("training.activation_recompute unknown")
        << doc(R"("training": {"activation_recompute": "partial"})")
        << "training.activation_recompute: ";
    QTest::newRow("finetune.method unknown")
        << doc(R"("training": {"finetune": {"method": "dora"}})") << "training.finetune.method: ";
    QTest::newRow("model.family unknown")
        << doc(R"("model": {"family": "gpt5"})") << "model.family: ";
    QTest::newRow("model.norm unknown")
        << doc(R"("model": {"norm": "batchnorm"})") << "model.norm: ";
    QTest::newRow("model.ffn_type unknown")
        << doc(R"("model": {"ffn_type": "relu2"})") << "model.ffn_type: ";
    QTest::newRow("offload_optimizer unknown")
        << doc(R"("parallelism": {"offload_optimizer": "gpu"})")
        << "parallelism.offload_optimizer: ";

    // Wrong JSON types.
    QTest::newRow("string for a number")
        << doc(R"("training": {"micro_batch_size": "4"})") << "training.micro_batch_size: ";
    QTest::newRow("string for a real")
        << doc(R"("training": {"dropout": "0.1"})") << "training.dropout: ";
    QTest::newRow("bool for a number") << doc(R"("model": {"layers": true})") << "model.layers: ";
    QTest::newRow("number for a bool")
        << doc(R"("model": {"tied_embeddings": 1})") << "model.tied_embeddings: ";
    QTest::newRow("string for a bool") << doc(R"("parallelism": {"sequence_parallel": "yes"})")
                                       << "parallelism.sequence_parallel: ";
    QTest::newRow("object for a list")
        << doc(R"("training": {"finetune": {"lora_targets": {"q_proj": true}}})")
        << "training.finetune.lora_targets: ";
    QTest::newRow("string for a list")
        << doc(R"("training": {"finetune": {"lora_targets": "q_proj"}})")
        << "training.finetune.lora_targets: ";
    QTest::newRow("number in a list")
        << doc(R"("training": {"finetune": {"lora_targets": ["q_proj", 1]}})")
        << "training.finetune.lora_targets: ";
    QTest::newRow("array for a number")
        << doc(R"("parallelism": {"gpus": [8]})") << "parallelism.gpus: ";
    QTest::newRow("object for a string") << doc(R"("gpu": {"name": {}})") << "gpu.name: ";

    // Numbers out of their domain.
    QTest::newRow("micro batch 0")
        << doc(R"("training": {"micro_batch_size": 0})") << "training.micro_batch_size: ";
    QTest::newRow("micro batch fractional")
        << doc(R"("training": {"micro_batch_size": 4.5})") << "training.micro_batch_size: ";
    QTest::newRow("micro batch huge")
        << doc(R"("training": {"micro_batch_size": 1e30})") << "training.micro_batch_size: ";
    QTest::newRow("micro batch negative")
        << doc(R"("training": {"micro_batch_size": -1})") << "training.micro_batch_size: ";
    QTest::newRow("micro batch beyond int64")
        << doc(R"("training": {"micro_batch_size": 18446744073709551615})")
        << "training.micro_batch_size: ";
    QTest::newRow("sequence huge")
        << doc(R"("training": {"sequence_length": 1e30})") << "training.sequence_length: ";
    QTest::newRow("sequence fractional")
        << doc(R"("training": {"sequence_length": 4096.25})") << "training.sequence_length: ";
    QTest::newRow("layers negative") << doc(R"("model": {"layers": -1})") << "model.layers: ";
    QTest::newRow("layers huge") << doc(R"("model": {"layers": 1e30})") << "model.layers: ";
    QTest::newRow("hidden 0") << doc(R"("model": {"hidden_size": 0})") << "model.hidden_size: ";
    QTest::newRow("vocab huge") << doc(R"("model": {"vocab_size": 1e12})") << "model.vocab_size: ";
    QTest::newRow("gpus huge") << doc(R"("parallelism": {"gpus": 1e30})") << "parallelism.gpus: ";
    QTest::newRow("gpus negative") << doc(R"("parallelism": {"gpus": -8})") << "parallelism.gpus: ";
    QTest::newRow("zero stage 4") << doc(R"("parallelism": {"zero_stage": 4})")
                                  << "parallelism.zero_stage: ";
    QTest::newRow("dropout negative")
        << doc(R"("training": {"dropout": -0.1})") << "training.dropout: ";
    QTest::newRow("dropout 1.5") << doc(R"("training": {"dropout": 1.5})") << "training.dropout: ";
    QTest::newRow("memory_gib 0") << doc(R"("gpu": {"memory_gib": 0})") << "gpu.memory_gib: ";
    QTest::newRow("memory_gib negative")
        << doc(R"("gpu": {"memory_gib": -5})") << "gpu.memory_gib: ";
    QTest::newRow("memory_gib huge") << doc(R"("gpu": {"memory_gib": 1e30})") << "gpu.memory_gib: ";
    QTest::newRow("lora_rank 0")
        << doc(R"("training": {"finetune": {"method": "lora", "lora_rank": 0}})")
        << "training.finetune.lora_rank: ";
    QTest::newRow("base_weight_bits 5")
        << doc(R"("training": {"finetune": {"method": "qlora", "base_weight_bits": 5}})")
        << "training.finetune.base_weight_bits: ";
    QTest::newRow("base_weight_bits 64")
        << doc(R"("training": {"finetune": {"base_weight_bits": 64}})")
        << "training.finetune.base_weight_bits: ";
    QTest::newRow("moe experts_per_token above experts")
        << doc(R"("model": {"moe": {"experts": 2, "experts_per_token": 4}})")
        << "model.moe.experts_per_token: ";

    // Constraints between fields.
    QTest::newRow("kv_heads not dividing heads")
        << doc(R"("model": {"attention_heads": 32, "kv_heads": 5})") << "model.kv_heads: ";
    QTest::newRow("kv_heads above heads")
        << doc(R"("model": {"preset": "llama-2-7b", "kv_heads": 64})") << "model.kv_heads: ";
    QTest::newRow("hidden 4097 with 32 heads")
        << doc(R"("model": {"hidden_size": 4097, "attention_heads": 32})") << "model.hidden_size: ";
    QTest::newRow("gpus not a multiple of tp")
        << doc(R"("parallelism": {"gpus": 3, "tensor_parallel": 2})") << "parallelism.gpus: ";
    QTest::newRow("gpus fewer than tp x pp")
        << doc(R"("parallelism": {"gpus": 4, "tensor_parallel": 2, "pipeline_parallel": 4})")
        << "parallelism.gpus: ";
    QTest::newRow("tp not dividing heads")
        << doc(R"("parallelism": {"gpus": 3, "tensor_parallel": 3})")
        << "parallelism.tensor_parallel: ";
    QTest::newRow("pp above layers")
        << doc(R"("model": {"layers": 2}, "parallelism": {"gpus": 4, "pipeline_parallel": 4})")
        << "parallelism.pipeline_parallel: ";
    QTest::newRow("vpp 2 with pp 1")
        << doc(R"("parallelism": {"gpus": 1, "virtual_pipeline_parallel": 2})")
        << "parallelism.virtual_pipeline_parallel: ";
    QTest::newRow("vpp x pp above layers")
        << doc(R"("model": {"layers": 8}, "parallelism": {"gpus": 4, "pipeline_parallel": 4,
                                                         "virtual_pipeline_parallel": 4})")
        << "parallelism.virtual_pipeline_parallel: ";
    QTest::newRow("expert_parallel on a dense model")
        << doc(R"("parallelism": {"gpus": 2, "expert_parallel": 2})")
        << "parallelism.expert_parallel: ";
    QTest::newRow("expert_parallel not dividing experts")
        << doc(R"("model": {"preset": "mixtral-8x7b"},
                  "parallelism": {"gpus": 3, "expert_parallel": 3})")
        << "parallelism.expert_parallel: ";
    QTest::newRow("expert_parallel not dividing dp") << doc(R"("model": {"preset": "mixtral-8x7b"},
                  "parallelism": {"gpus": 4, "tensor_parallel": 2, "expert_parallel": 4})")
                                                     << "parallelism.expert_parallel: ";
    QTest::newRow("recompute_layers above layers")
        << doc(R"("training": {"activation_recompute": "full", "recompute_layers": 33})")
        << "training.recompute_layers: ";
    QTest::newRow("recompute_layers above preset layers")
        << doc(R"("model": {"preset": "llama-2-7b", "layers": 16},
                  "training": {"activation_recompute": "full", "recompute_layers": 17})")
        << "training.recompute_layers: ";
    QTest::newRow("lora without targets")
        << doc(R"("training": {"finetune": {"method": "lora", "lora_targets": []}})")
        << "training.finetune.lora_targets: ";

    // Hugging Face configs inline.
    QTest::newRow("hf_config a string")
        << doc(R"("model": {"hf_config": "config.json"})") << "model.hf_config: ";
    QTest::newRow("hf_config without model_type")
        << doc(R"("model": {"hf_config": {"hidden_size": 4096}})")
        << "model.hf_config.model_type: ";
    QTest::newRow("hf_config with a string for a count")
        << doc(R"("model": {"hf_config": {"model_type": "llama", "hidden_size": 4096,
                  "num_hidden_layers": "32", "num_attention_heads": 32, "intermediate_size": 11008,
                  "vocab_size": 32000}})")
        << "model.hf_config.num_hidden_layers: ";
    // The 2024-2026 fields: contradictions name the field.
    QTest::newRow("more sliding layers than layers")
        << doc(R"("model": {"preset": "gemma-2-2b", "sliding_layers": 99})")
        << "model.sliding_layers: 99 exceeds the 26 layers";
    QTest::newRow("sliding layers without a window")
        << doc(R"("model": {"layers": 4, "sliding_window": 0, "sliding_layers": 2})")
        << "model.sliding_window: is 0, but sliding_layers names 2 sliding-window layers";
    QTest::newRow("MLA with grouped key/value heads")
        << doc(R"("model": {"preset": "deepseek-v2-lite", "kv_heads": 4})")
        << "model.kv_heads: multi-head latent attention has one key and value per head (16), got 4";
    QTest::newRow("unknown MLA key")
        << doc(R"("model": {"preset": "deepseek-v2-lite", "mla": {"kv_rank": 4}})")
        << "model.mla.kv_rank: ";
    QTest::newRow("imbalance below balanced")
        << doc(R"("model": {"preset": "qwen3-30b-a3b", "moe": {"imbalance": 0.5}})")
        << "model.moe.imbalance: ";
    QTest::newRow("unknown q/k norm")
        << doc(R"("model": {"preset": "qwen3-8b", "qk_norm": "layer"})")
        << "model.qk_norm: ";
}

void TestScenarioParsing::badDocuments()
{
    QFETCH(QString, document);
    QFETCH(QString, prefix);

    const auto parsed = scenarioFromText(document.toStdString());
    QVERIFY2(!parsed, ("accepted: " + document.toStdString()).c_str());
    QVERIFY2(parsed.error.starts_with(prefix.toStdString()),
             ("expected '" + prefix.toStdString() + "...', got '" + parsed.error + "'").c_str());
    // One line, as the command line prints it.
    QVERIFY2(parsed.error.find('\n') == std::string::npos, parsed.error.c_str());

    // The JSON entry point agrees wherever the text is JSON.
    const auto document_json = json::parse(document.toStdString(), nullptr, false);
    if (!document_json.is_discarded()) {
        const auto fromJson = scenarioFromJson(document_json);
        QVERIFY(!fromJson);
        QCOMPARE(fromJson.error, parsed.error);
    }
}

void TestScenarioParsing::nullMeansAbsent_data()
{
    QTest::addColumn<QString>("document");

    QTest::newRow("version") << R"({"format": "vramplan-scenario", "version": null})";
    QTest::newRow("name") << doc(R"("name": null)");
    QTest::newRow("framework") << doc(R"("framework": null)");
    QTest::newRow("model.preset") << doc(R"("model": {"preset": null})");
    QTest::newRow("model.hf_config") << doc(R"("model": {"hf_config": null})");
    QTest::newRow("model.layers") << doc(R"("model": {"layers": null})");
    QTest::newRow("model.tied_embeddings") << doc(R"("model": {"tied_embeddings": null})");
    QTest::newRow("model.moe") << doc(R"("model": {"moe": null})");
    QTest::newRow("training.micro_batch_size") << doc(R"("training": {"micro_batch_size": null})");
    QTest::newRow("training.precision") << doc(R"("training": {"precision": null})");
    QTest::newRow("training.finetune") << doc(R"("training": {"finetune": null})");
    QTest::newRow("training.finetune.lora_targets")
        << doc(R"("training": {"finetune": {"lora_targets": null}})");
    QTest::newRow("parallelism.gpus") << doc(R"("parallelism": {"gpus": null})");
    QTest::newRow("gpu.preset") << doc(R"("gpu": {"preset": null})");
    QTest::newRow("gpu.memory_gib") << doc(R"("gpu": {"memory_gib": null})");
    QTest::newRow("model") << doc(R"("model": null)");
    QTest::newRow("training") << doc(R"("training": null)");
    QTest::newRow("parallelism") << doc(R"("parallelism": null)");
    QTest::newRow("gpu") << doc(R"("gpu": null)");
}

void TestScenarioParsing::nullMeansAbsent()
{
    QFETCH(QString, document);

    const auto expected = scenarioFromText(doc().toStdString());
    QVERIFY2(expected, expected.error.c_str());
    const auto parsed = scenarioFromText(document.toStdString());
    QVERIFY2(parsed, parsed.error.c_str());
    QCOMPARE(scenarioToJson(*parsed.value).dump(), scenarioToJson(*expected.value).dump());
}

void TestScenarioParsing::deepNesting_data()
{
    QTest::addColumn<int>("depth");
    QTest::addColumn<QString>("prefix");

    QTest::newRow("50 levels") << 50 << "name: ";
    QTest::newRow("100 levels") << 100 << "not a usable JSON document: ";
    QTest::newRow("100000 levels") << 100000 << "not a usable JSON document: ";
}

void TestScenarioParsing::deepNesting()
{
    QFETCH(int, depth);
    QFETCH(QString, prefix);

    const std::string text =
        R"({"format": "vramplan-scenario", "version": 1, "name": )" + nestedArray(depth) + "}";
    const auto parsed = scenarioFromText(text);
    QVERIFY(!parsed);
    QVERIFY2(parsed.error.starts_with(prefix.toStdString()), parsed.error.c_str());

    // A document built in memory (no parser depth limit) is refused by the field's type.
    if (depth <= 1000) {
        json nested = json::array();
        for (int i = 1; i < depth; ++i)
            nested = json::array({nested});
        const json document = {{"format", "vramplan-scenario"}, {"version", 1}, {"name", nested}};
        const auto fromJson = scenarioFromJson(document);
        QVERIFY(!fromJson);
        QVERIFY2(fromJson.error.starts_with("name: "), fromJson.error.c_str());
    }
}

void TestScenarioParsing::roundTrip_data()
{
    QTest::addColumn<QString>("document");

    QTest::newRow("default scenario resource")
        << QString::fromUtf8(Catalog::builtin().defaultScenarioText().data(),
                             qsizetype(Catalog::builtin().defaultScenarioText().size()));
    QTest::newRow("minimal") << doc();
    for (size_t index : {size_t(0), size_t(9), size_t(19)}) {
        const json scenario = measuredScenario(index);
        const std::string tag = "shared_published[" + std::to_string(index) + "]";
        QTest::newRow(tag.c_str()) << QString::fromStdString(scenario.dump());
    }
    QTest::newRow("mixtral, custom GPU, partial recompute")
        << doc(R"("model": {"preset": "mixtral-8x7b"},
                  "training": {"activation_recompute": "full", "recompute_layers": 7,
                               "dropout": 0.1, "finetune": {"method": "qlora",
                               "lora_targets": ["q_proj", "k_proj", "v_proj", "o_proj"]}},
                  "parallelism": {"gpus": 8, "expert_parallel": 8, "zero_stage": 3},
                  "gpu": {"memory_gib": 23.5, "name": "my card"})");
    for (const char *preset : {"deepseek-v3", "qwen3-30b-a3b", "gpt-oss-20b", "gemma-3-4b-pt",
                               "olmo-2-1124-7b", "llama-4-maverick-17b-128e"})
        QTest::newRow(preset) << doc((std::string(R"("model": {"preset": ")") + preset +
                                      R"("}, "parallelism": {"gpus": 2})")
                                         .c_str());
    QTest::newRow("fused linear loss, multi-token prediction")
        << doc(R"("model": {"preset": "deepseek-v2-lite"},
                  "training": {"loss": "fused_linear", "mtp_layers": 1})");
    QTest::newRow("qwen3 with q/k norms switched off, imbalanced experts")
        << doc(R"("model": {"preset": "qwen3-30b-a3b", "qk_norm": "none",
                            "moe": {"imbalance": 1.7, "capacity_factor": 1.25}})");
    QTest::newRow("a model by fields with its name (model.name)")
        << doc(R"("model": {"family": "llama", "layers": 30, "name": "Acme-7B-Instruct"})");
    QTest::newRow("optimizer precision (issue 22)")
        << doc(R"("framework": "megatron",
                  "training": {"optimizer_precision": {"master_weights": "fp16",
                               "gradients": "bf16", "exp_avg": "fp8", "exp_avg_sq": "bf16"}})");
}

void TestScenarioParsing::roundTrip()
{
    QFETCH(QString, document);

    const auto original = json::parse(document.toStdString(), nullptr, false);
    QVERIFY2(!original.is_discarded() && original.is_object(), "the fixture is not a JSON object");
    const auto first = scenarioFromJson(original);
    QVERIFY2(first, first.error.c_str());
    const std::string firstDump = scenarioToJson(*first.value).dump();

    // Through text, as a saved file is read back.
    const auto second = scenarioFromText(firstDump);
    QVERIFY2(second, second.error.c_str());
    const std::string secondDump = scenarioToJson(*second.value).dump();
    QCOMPARE(secondDump, firstDump);

    // Through JSON as well, and once more: a fixed point.
    const auto third = scenarioFromJson(scenarioToJson(*second.value));
    QVERIFY2(third, third.error.c_str());
    QCOMPARE(scenarioToJson(*third.value).dump(), firstDump);
}

void TestScenarioParsing::numericFieldAtMinimum_data()
{
    QTest::addColumn<QString>("path");
    for (const auto &field : numericFields()) {
        const std::string path(field.path);
        QTest::newRow(path.c_str()) << QString::fromStdString(path);
    }
}

void TestScenarioParsing::numericFieldAtMinimum()
{
    QFETCH(QString, path);

    const NumericField *field = vramplan::findNumericField(path.toStdString());
    QVERIFY(field);
    QVERIFY(field->min <= field->max);
    const auto base = scenarioFromText(Catalog::builtin().defaultScenarioText());
    QVERIFY2(base, base.error.c_str());

    // At its minimum: accepted, or refused by a constraint that names its field.
    Scenario s = *base.value;
    const std::string error = setNumericField(s, *field, field->min);
    if (error.empty())
        QCOMPARE(field->get(s), field->min);
    else
        QVERIFY2(startsWithFieldPath(error), error.c_str());

    // Below the minimum, above the maximum, not finite, or fractional: refused by the field.
    const std::string own = path.toStdString() + ": ";
    for (double bad : {field->min - 1.0, field->max * 2.0 + 1.0, std::nan(""),
                       std::numeric_limits<double>::infinity()}) {
        Scenario t = *base.value;
        const std::string refused = setNumericField(t, *field, bad);
        QVERIFY2(refused.starts_with(own), (std::to_string(bad) + " -> '" + refused + "'").c_str());
    }
    if (field->integer && field->min + 0.5 <= field->max) {
        Scenario t = *base.value;
        const std::string refused = setNumericField(t, *field, field->min + 0.5);
        QVERIFY2(refused.starts_with(own), refused.c_str());
    }
}

// Every numeric field is a key of the scenario file, and its getter reads what the file says.
void TestScenarioParsing::numericFieldsMatchJson()
{
    const auto parsed = scenarioFromText(doc(R"("model": {"preset": "mixtral-8x7b"},
        "training": {"activation_recompute": "full", "recompute_layers": 4, "dropout": 0.1,
                     "finetune": {"method": "lora", "lora_rank": 8}},
        "parallelism": {"gpus": 16, "tensor_parallel": 2, "pipeline_parallel": 2,
                        "virtual_pipeline_parallel": 2, "expert_parallel": 2, "zero_stage": 1},
        "gpu": {"memory_gib": 40})")
                                             .toStdString());
    QVERIFY2(parsed, parsed.error.c_str());
    // The rl fields are read from a scenario with every one of them set.
    const auto withRl = scenarioFromText(doc(R"("model": {"preset": "qwen2.5-7b"},
        "training": {"micro_batch_size": 2},
        "parallelism": {"gpus": 8, "zero_stage": 3},
        "rl": {"algorithm": "grpo", "framework": "verl", "group_size": 5,
               "prompt_tokens": 512, "response_tokens": 1536,
               "log_prob_micro_batch_size": 4, "beta": 0.001,
               "rollout": {"engine": "vllm", "placement": "separate", "gpus": 2,
                           "gpu_memory_utilization": 0.6, "sleep_level": 2,
                           "tensor_parallel": 2, "max_num_seqs": 128}})")
                                             .toStdString());
    QVERIFY2(withRl, withRl.error.c_str());
    const json file = scenarioToJson(*parsed.value);
    const json rlFile = scenarioToJson(*withRl.value);
    std::set<std::string_view> seen;
    for (const auto &field : numericFields()) {
        QVERIFY2(seen.insert(field.path).second, std::string(field.path).c_str());
        const bool rl = field.path.starts_with("rl.");
        const json &written = rl ? rlFile : file;
        const Scenario &read = rl ? *withRl.value : *parsed.value;
        std::string pointer = "/" + std::string(field.path);
        std::replace(pointer.begin(), pointer.end(), '.', '/');
        const json::json_pointer at(pointer);
        QVERIFY2(written.contains(at), std::string(field.path).c_str());
        QVERIFY2(written[at].is_number(), std::string(field.path).c_str());
        QCOMPARE(field.get(read), written[at].get<double>());
        QCOMPARE(field.integer, written[at].is_number_integer());
    }
}

void TestScenarioParsing::findNumericField()
{
    const NumericField *batch = vramplan::findNumericField("training.micro_batch_size");
    QVERIFY(batch);
    QCOMPARE(batch->path, std::string_view("training.micro_batch_size"));
    QVERIFY(batch->integer);
    QCOMPARE(batch->min, 1.0);
    QVERIFY(!vramplan::findNumericField("nope"));
    QVERIFY(!vramplan::findNumericField(""));
    QVERIFY(!vramplan::findNumericField("training.micro_batch_size "));
    QVERIFY(!vramplan::findNumericField("micro_batch_size"));
    QVERIFY(QString::fromStdString(numericFieldPaths()).contains("training.micro_batch_size"));

    // An rl field needs an rl section: refused on a scenario without one, set on one with it.
    const NumericField *response = vramplan::findNumericField("rl.response_tokens");
    QVERIFY(response);
    const auto plain = scenarioFromText(Catalog::builtin().defaultScenarioText());
    QVERIFY2(plain, plain.error.c_str());
    Scenario s = *plain.value;
    QCOMPARE(setNumericField(s, *response, 2048),
             std::string("rl.response_tokens: the scenario has no rl section"));
    const auto rl = scenarioFromText(doc(R"("model": {"preset": "qwen2.5-7b"},
        "parallelism": {"gpus": 8, "zero_stage": 3},
        "rl": {"algorithm": "grpo", "framework": "verl", "response_tokens": 1024})")
                                         .toStdString());
    QVERIFY2(rl, rl.error.c_str());
    Scenario longer = *rl.value;
    QCOMPARE(setNumericField(longer, *response, 8192), std::string());
    QCOMPARE(longer.rl.responseTokens, int64_t(8192));
}

QTEST_APPLESS_MAIN(TestScenarioParsing)
#include "tst_scenarioparsing.moc"
