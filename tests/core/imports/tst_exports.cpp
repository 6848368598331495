// Issue 24, export: a scenario written back in a tool's own format (core/imports/
// export_setup.h). Two checks per format: every key written is one the tool documents (the
// lists below, with their sources), and importing what was written gives back every field the
// format holds (import(export(s)) == s on those fields).

#include "formats/scenario_json.h"
#include "importtesting.h"
#include "imports/export_setup.h"
#include "imports/import_setup.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

using namespace vramplan;
using vramplan::test::at;
using nlohmann::json;

Q_DECLARE_METATYPE(std::string)

namespace {

// The keys each tool documents, as far as the exports write them.
const std::set<std::string> deepspeedKeys = {
    // https://www.deepspeed.ai/docs/config-json/ (deepspeed/runtime/config.py,
    // deepspeed/runtime/zero/config.py, deepspeed/runtime/zero/offload_config.py)
    "train_micro_batch_size_per_gpu", "gradient_accumulation_steps", "train_batch_size",
    "gradient_clipping", "bf16.enabled", "fp16.enabled", "zero_optimization.stage",
    "zero_optimization.offload_optimizer.device", "zero_optimization.offload_param.device"};
const std::set<std::string> axolotlKeys = {
    // axolotl-ai-cloud/axolotl src/axolotl/utils/schemas/config.py (AxolotlInputConfig and the
    // models it includes: ModelInputConfig, LoraConfig, HyperparametersConfig), docs/config.qmd
    "base_model", "micro_batch_size", "gradient_accumulation_steps", "sequence_len",
    "gradient_checkpointing", "adapter", "load_in_4bit", "load_in_8bit", "lora_r",
    "lora_target_modules", "lora_target_linear", "bf16", "fp16", "optimizer",
    "flash_attention", "deepspeed"};
const std::set<std::string> llamaFactoryKeys = {
    // hiyouga/LLaMA-Factory src/llamafactory/hparams/model_args.py, finetuning_args.py,
    // data_args.py, training_args.py (and transformers' TrainingArguments)
    "model_name_or_path", "stage", "finetuning_type", "lora_rank", "lora_target",
    "quantization_bit", "cutoff_len", "per_device_train_batch_size",
    "gradient_accumulation_steps", "bf16", "fp16", "pure_bf16", "disable_gradient_checkpointing",
    "flash_attn", "deepspeed"};
const std::set<std::string> torchtuneKeys = {
    // pytorch/torchtune recipes/configs/llama3_1/8B_lora.yaml, 8B_full.yaml and the recipes
    // that read them (recipes/lora_finetune_distributed.py, full_finetune_distributed.py)
    "model._component_", "model.lora_rank", "model.lora_attn_modules", "model.apply_lora_to_mlp",
    "model.apply_lora_to_output", "batch_size", "gradient_accumulation_steps",
    "tokenizer.max_seq_len", "dtype", "enable_activation_checkpointing", "compile",
    "fsdp_cpu_offload", "fsdp_reshard_after_forward"};
const std::set<std::string> megatronFlags = {
    // NVIDIA/Megatron-LM megatron/training/arguments.py (flags generated from
    // megatron/core/transformer/transformer_config.py, model_parallel_config.py,
    // megatron/training/config/training_config.py)
    "--tensor-model-parallel-size", "--pipeline-model-parallel-size", "--context-parallel-size",
    "--expert-model-parallel-size", "--sequence-parallel", "--use-distributed-optimizer",
    "--micro-batch-size", "--global-batch-size", "--seq-length", "--bf16", "--fp16",
    "--fp8-format", "--recompute-granularity", "--recompute-method", "--recompute-num-layers",
    "--attention-backend", "--hidden-dropout", "--attention-dropout", "--optimizer",
    "--num-layers", "--hidden-size", "--ffn-hidden-size", "--num-attention-heads",
    "--group-query-attention", "--num-query-groups", "--kv-channels", "--max-position-embeddings",
    "--position-embedding-type", "--swiglu", "--normalization",
    "--untie-embeddings-and-output-weights", "--disable-bias-linear"};

Scenario scenario(const std::string &text)
{
    auto s = scenarioFromJson(json::parse(text));
    if (!s)
        qFatal("%s", s.error.c_str());
    return *s.value;
}

// LoRA r16 on q/v of Llama-3.2-1B, pure bf16, one GPU.
const char *lora1b = R"({"format": "vramplan-scenario", "version": 1,
    "model": {"preset": "llama-3.2-1b"},
    "training": {"micro_batch_size": 2, "gradient_accumulation_steps": 4, "sequence_length": 2048,
                 "precision": "bf16", "optimizer": "adamw", "activation_recompute": "full",
                 "attention": "flash",
                 "finetune": {"method": "lora", "lora_rank": 16, "lora_targets": ["q_proj", "v_proj"]}},
    "parallelism": {"gpus": 1}, "framework": "transformers", "gpu": {"preset": "h100-80gb"}})";
// Full fine-tune under DeepSpeed ZeRO-3 with the optimizer on the CPU, 8 GPUs.
const char *zero3 = R"({"format": "vramplan-scenario", "version": 1,
    "model": {"preset": "qwen2.5-7b"},
    "training": {"micro_batch_size": 1, "gradient_accumulation_steps": 8, "sequence_length": 4096,
                 "precision": "bf16_mixed", "activation_recompute": "full"},
    "parallelism": {"gpus": 8, "zero_stage": 3, "offload_optimizer": "cpu"},
    "framework": "deepspeed", "gpu": {"preset": "h100-80gb"}})";
// QLoRA on every linear layer.
const char *qlora = R"({"format": "vramplan-scenario", "version": 1,
    "model": {"preset": "llama-3.2-1b"},
    "training": {"micro_batch_size": 4, "gradient_accumulation_steps": 2, "sequence_length": 1024,
                 "precision": "bf16", "activation_recompute": "full",
                 "finetune": {"method": "qlora", "lora_rank": 32, "lora_targets": ["all-linear"],
                              "base_weight_bits": 4}},
    "parallelism": {"gpus": 1}, "gpu": {"preset": "h100-80gb"}})";
// Megatron: TP 2 x PP 2 on 16 GPUs (4 data-parallel ranks), distributed optimizer.
const char *megatron = R"({"format": "vramplan-scenario", "version": 1,
    "model": {"preset": "llama-3.1-8b"},
    "training": {"micro_batch_size": 1, "gradient_accumulation_steps": 16, "sequence_length": 8192,
                 "precision": "bf16_mixed", "activation_recompute": "selective", "dropout": 0.0},
    "parallelism": {"gpus": 16, "tensor_parallel": 2, "pipeline_parallel": 2,
                    "sequence_parallel": true, "zero_stage": 1},
    "framework": "megatron", "gpu": {"preset": "h100-80gb"}})";

void leafKeys(const json &node, const std::string &path, std::set<std::string> &out)
{
    if (node.is_object() && !node.empty()) {
        for (const auto &[k, v] : node.items())
            leafKeys(v, path.empty() ? k : path + "." + k, out);
        return;
    }
    out.insert(path);
}

// The keys of a YAML fragment (top level and "  - item" lists) or of key=value overrides.
std::set<std::string> writtenKeys(const std::string &text, ExportFormat format)
{
    std::set<std::string> out;
    if (format == ExportFormat::DeepSpeed) {
        leafKeys(json::parse(text), "", out);
        return out;
    }
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.empty() || line[0] == '#' || line[0] == ' ') {
            if (format == ExportFormat::Megatron) {
                const std::size_t dash = line.find("--");
                if (dash != std::string::npos)
                    out.insert(line.substr(dash, line.find_first_of(" \\", dash) - dash));
            }
            continue;
        }
        out.insert(line.substr(0, line.find(format == ExportFormat::Torchtune ? '=' : ':')));
    }
    return out;
}

} // namespace

class TestExports : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void formatNames();
    void inferenceRefused();
};

void TestExports::roundTrip_data()
{
    QTest::addColumn<std::string>("source");
    QTest::addColumn<int>("format");
    QTest::addColumn<std::string>("model"); // --model for the import back, or ""
    QTest::addColumn<std::string>("fields"); // compared after import(export(s))
    QTest::addColumn<std::string>("expected"); // a line the export must hold
    const std::string lora = R"(["training.micro_batch_size", "training.gradient_accumulation_steps",
        "training.finetune.method", "training.finetune.lora_rank", "training.finetune.lora_targets"])";
    QTest::newRow("deepspeed zero3 offload")
        << std::string(zero3) << int(ExportFormat::DeepSpeed) << std::string("qwen2.5-7b")
        << std::string(R"(["training.micro_batch_size", "training.gradient_accumulation_steps",
             "training.precision", "parallelism.zero_stage", "parallelism.offload_optimizer",
             "parallelism.offload_parameters", "framework"])")
        << std::string("\"device\": \"cpu\"");
    QTest::newRow("deepspeed lora 1b")
        << std::string(lora1b) << int(ExportFormat::DeepSpeed) << std::string("llama-3.2-1b")
        << std::string(R"(["training.micro_batch_size", "training.gradient_accumulation_steps",
             "parallelism.zero_stage"])")
        << std::string("\"stage\": 0");
    QTest::newRow("axolotl lora 1b")
        << std::string(lora1b) << int(ExportFormat::Axolotl) << std::string()
        << std::string(R"(["model.preset", "training.micro_batch_size",
             "training.gradient_accumulation_steps", "training.sequence_length",
             "training.activation_recompute", "training.finetune.method",
             "training.finetune.lora_rank", "training.finetune.lora_targets", "training.precision",
             "training.attention", "training.optimizer"])")
        << std::string("base_model: meta-llama/llama-3.2-1b");
    QTest::newRow("axolotl qlora all-linear")
        << std::string(qlora) << int(ExportFormat::Axolotl) << std::string()
        << std::string(R"(["training.finetune.method", "training.finetune.base_weight_bits",
             "training.finetune.lora_rank", "training.finetune.lora_targets",
             "training.micro_batch_size", "training.sequence_length"])")
        << std::string("lora_target_linear: true");
    QTest::newRow("llamafactory lora 1b")
        << std::string(lora1b) << int(ExportFormat::LlamaFactory) << std::string()
        << std::string(R"(["model.preset", "training.micro_batch_size",
             "training.gradient_accumulation_steps", "training.sequence_length",
             "training.activation_recompute", "training.finetune.method",
             "training.finetune.lora_rank", "training.finetune.lora_targets", "training.precision"])")
        << std::string("lora_target: q_proj,v_proj");
    QTest::newRow("torchtune lora 1b")
        << std::string(lora1b) << int(ExportFormat::Torchtune) << std::string()
        << lora.substr(0, lora.size() - 1) +
               R"(, "model.preset", "training.sequence_length", "training.precision",
                   "training.activation_recompute"])"
        << std::string("model._component_=torchtune.models.llama3_2.lora_llama3_2_1b");
    QTest::newRow("megatron tp2 pp2")
        << std::string(megatron) << int(ExportFormat::Megatron) << std::string("llama-3.1-8b")
        << std::string(R"(["parallelism.tensor_parallel", "parallelism.pipeline_parallel",
             "parallelism.sequence_parallel", "parallelism.zero_stage", "training.micro_batch_size",
             "training.gradient_accumulation_steps", "training.sequence_length",
             "training.precision", "training.activation_recompute", "training.dropout", "framework"])")
        << std::string("--global-batch-size 64 \\"); // 1 x 16 steps x 4 data-parallel ranks
}

void TestExports::roundTrip()
{
    QFETCH(std::string, source);
    QFETCH(int, format);
    QFETCH(std::string, model);
    QFETCH(std::string, fields);
    QFETCH(std::string, expected);
    const Scenario s = scenario(source);
    const auto f = ExportFormat(format);
    const auto exported = exportTrainingSetup(s, f);
    QVERIFY2(exported, exported.error.c_str());
    const std::string &text = exported.value->text;
    QVERIFY2(text.find(expected) != std::string::npos, text.c_str());

    const std::set<std::string> &documented =
        f == ExportFormat::DeepSpeed ? deepspeedKeys
        : f == ExportFormat::Axolotl ? axolotlKeys
        : f == ExportFormat::LlamaFactory ? llamaFactoryKeys
        : f == ExportFormat::Torchtune ? torchtuneKeys
                                       : megatronFlags;
    for (const auto &key : writtenKeys(text, f))
        QVERIFY2(documented.count(key), ("not a documented key: " + key + "\n" + text).c_str());

    // Back in: the file as the tool would read it.
    QTemporaryDir dir;
    std::string path, content = text;
    switch (f) {
    case ExportFormat::DeepSpeed: path = "/ds.json"; break;
    case ExportFormat::Axolotl: path = "/axolotl.yml"; break;
    case ExportFormat::LlamaFactory: path = "/llamafactory.yaml"; break;
    case ExportFormat::Torchtune: {
        // The overrides as the recipe config they override: key=value -> a nested JSON.
        json config = json::object();
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);) {
            const std::size_t eq = line.find('=');
            std::string key = line.substr(0, eq), value = line.substr(eq + 1);
            json v = value == "True" ? json(true) : value == "False" ? json(false) : json(value);
            if (!value.empty() && value.find_first_not_of("0123456789") == std::string::npos)
                v = std::stoll(value);
            if (value.size() > 1 && value.front() == '[') {
                v = json::array();
                std::istringstream items(value.substr(1, value.size() - 2));
                for (std::string item; std::getline(items, item, ',');)
                    v.push_back(item);
            }
            json *node = &config;
            for (std::size_t dot; (dot = key.find('.')) != std::string::npos; key.erase(0, dot + 1))
                node = &(*node)[key.substr(0, dot)];
            (*node)[key] = v;
        }
        content = config.dump(2);
        path = "/recipe.json";
        break;
    }
    case ExportFormat::Megatron:
        content = "torchrun --nproc_per_node " + std::to_string(s.parallelism.gpus) +
                  " pretrain_gpt.py \\\n" + text;
        path = "/train.sh";
        break;
    }
    path = dir.path().toStdString() + path;
    std::ofstream(path) << content;
    ImportOptions options;
    options.model = model;
    options.gpus = s.parallelism.gpus;
    options.gpu = "h100-80gb";
    const auto back = importTrainingSetup({path}, options);
    QVERIFY2(back, (back.error + "\n" + content).c_str());
    const json before = scenarioToJson(s), after = back.value->scenarioJson;
    for (const auto &key : json::parse(fields)) {
        const json *a = at(before, key.get<std::string>()), *b = at(after, key.get<std::string>());
        QVERIFY2(a && b, key.get<std::string>().c_str());
        QVERIFY2(*a == *b, (key.get<std::string>() + ": " + a->dump() + " exported, " + b->dump() +
                            " imported back\n" + content)
                               .c_str());
    }
}

void TestExports::formatNames()
{
    for (const auto &name : exportFormatNames())
        QVERIFY(exportFormatFromName(name));
    QVERIFY(!exportFormatFromName("deepspeed.json"));
    QCOMPARE(QString::fromStdString(exportFileSuffix(ExportFormat::Axolotl)), QString(".yaml"));
}

void TestExports::inferenceRefused()
{
    Scenario s = scenario(lora1b);
    s.training.mode = Mode::Inference;
    const auto r = exportTrainingSetup(s, ExportFormat::DeepSpeed);
    QVERIFY(!r);
    QCOMPARE(QString::fromStdString(r.error),
             QString("training.mode: inference is not a training setup; nothing to export"));
}

QTEST_APPLESS_MAIN(TestExports)

#include "tst_exports.moc"
