// Issue 24: training setups written for other tools, imported into scenarios (core/imports/).
// Every case is a real file from the tool's own repository (tests/data/imports/README.md names
// the repository, path and commit); the expected fields are read off the file by hand, with the
// tool's defaults and rules quoted in the comments, and asserted exactly, origins included.

#include "importtesting.h"
#include "imports/import_setup.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <nlohmann/json.hpp>

using namespace vramplan;
using nlohmann::json;
using namespace vramplan::test;

Q_DECLARE_METATYPE(std::string)

namespace {

} // namespace

class TestImports : public QObject
{
    Q_OBJECT

private slots:
    void realFiles_data();
    void realFiles();
    void deepspeedBatchTriple_data();
    void deepspeedBatchTriple();
    void errors_data();
    void errors();
    void everyFieldHasAnOrigin();
};

// files (";"-separated, under tests/data/imports), --gpus, --model, the expected fields (a JSON
// object of dotted paths), the expected origins (the same), a warning and an ignored key that
// must be listed ("" for none).
void TestImports::realFiles_data()
{
    QTest::addColumn<std::string>("files");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<std::string>("model");
    QTest::addColumn<std::string>("fields");
    QTest::addColumn<std::string>("origins");
    QTest::addColumn<std::string>("warning");
    QTest::addColumn<std::string>("ignored");

    // --- DeepSpeed ---
    // LLaMA-Factory's ds_z3_config.json alone: every batch value and bf16/fp16 are "auto", and
    // no trainer arguments fill them: the stage is the file's, the rest vramplan's defaults.
    QTest::newRow("deepspeed ds_z3 alone")
        << std::string("deepspeed/llamafactory_ds_z3_config.json") << 8 << std::string("qwen3-4b")
        << std::string(R"J({"parallelism.zero_stage": 3, "framework": "deepspeed",
             "training.micro_batch_size": 1, "training.precision": "bf16_mixed",
             "parallelism.offload_optimizer": "none", "model.preset": "qwen3-4b"})J")
        << std::string(R"J({"parallelism.zero_stage": "DS:zero_optimization.stage",
             "training.micro_batch_size": "not in the file (vramplan default)",
             "model.layers": "--model qwen3-4b"})J")
        << std::string("train_micro_batch_size_per_gpu is \"auto\" and no trainer arguments")
        << std::string("DS:zero_optimization.stage3_max_live_parameters");
    // ds_z2_offload with the alignment-handbook's zephyr SFT arguments: "auto" filled from
    // per_device_train_batch_size 16, gradient_accumulation_steps 1 and bf16 true.
    QTest::newRow("deepspeed ds_z2_offload + zephyr sft")
        << std::string("hf/zephyr-7b-beta_sft_config_full.yaml;"
                       "deepspeed/llamafactory_ds_z2_offload_config.json")
        << 8 << std::string()
        << std::string(R"J({"parallelism.zero_stage": 2, "parallelism.offload_optimizer": "cpu",
             "parallelism.offload_parameters": "none", "training.micro_batch_size": 16,
             "training.gradient_accumulation_steps": 1, "training.precision": "bf16_mixed",
             "training.sequence_length": 2048, "training.activation_recompute": "full",
             "framework": "deepspeed", "model.preset": "mistral-7b", "parallelism.gpus": 8})J")
        << std::string(R"J({"training.micro_batch_size":
               "DS:train_micro_batch_size_per_gpu \"auto\" = F0:per_device_train_batch_size",
             "training.precision": "DS:bf16.enabled \"auto\" = F0:bf16",
             "parallelism.offload_optimizer": "DS:zero_optimization.offload_optimizer.device",
             "model.hidden_size": "preset mistral-7b (F0:model_name_or_path mistralai/Mistral-7B-v0.1)"})J")
        << std::string() << std::string("DS:zero_optimization.round_robin_gradients");
    // ds_z0 with zephyr's DPO arguments (per_device 8, accumulation 2, max_length 1024); the
    // DPO file's model is a fine-tune of Mistral-7B that is no preset: --model.
    QTest::newRow("deepspeed ds_z0 + zephyr dpo")
        << std::string("hf/zephyr-7b-beta_dpo_config_full.yaml;"
                       "deepspeed/llamafactory_ds_z0_config.json")
        << 8 << std::string("mistral-7b")
        << std::string(R"J({"parallelism.zero_stage": 0, "training.micro_batch_size": 8,
             "training.gradient_accumulation_steps": 2, "training.sequence_length": 1024,
             "training.precision": "bf16_mixed", "training.optimizer": "adamw",
             "rl.algorithm": "dpo", "rl.beta": 0.01})J")
        << std::string(R"J({"training.gradient_accumulation_steps":
               "DS:gradient_accumulation_steps \"auto\" = F0:gradient_accumulation_steps",
             "training.optimizer": "F0:optim", "rl.beta": "F0:beta"})J")
        << std::string() << std::string("F0:learning_rate");
    // Axolotl's zero3_bf16_cpuoffload_all.json: stage 3, both offloads to the CPU, bf16 on.
    QTest::newRow("deepspeed zero3 cpu offload all")
        << std::string("deepspeed/axolotl_zero3_bf16_cpuoffload_all.json") << 2
        << std::string("llama-3.1-8b")
        << std::string(R"J({"parallelism.zero_stage": 3, "parallelism.offload_optimizer": "cpu",
             "parallelism.offload_parameters": "cpu", "training.precision": "bf16_mixed"})J")
        << std::string(R"J({"training.precision": "DS:bf16.enabled",
             "parallelism.offload_parameters": "DS:zero_optimization.offload_param.device"})J")
        << std::string() << std::string("DS:zero_force_ds_cpu_optimizer");

    // --- Accelerate (the alignment-handbook's launcher configs; num_processes 8 is the GPU
    // count, no --gpus) ---
    QTest::newRow("accelerate zero3 + zephyr sft")
        << std::string("accelerate/zero3.yaml;hf/zephyr-7b-beta_sft_config_full.yaml") << 0
        << std::string()
        << std::string(R"J({"parallelism.gpus": 8, "parallelism.zero_stage": 3,
             "parallelism.offload_optimizer": "none", "framework": "deepspeed",
             "training.precision": "bf16_mixed", "training.micro_batch_size": 16})J")
        << std::string(R"J({"parallelism.gpus": "F0:num_processes",
             "parallelism.zero_stage": "F0:deepspeed_config.zero_stage",
             "training.precision": "F0:mixed_precision (the DeepSpeed engine's bf16 with fp32 master weights)"})J")
        << std::string() << std::string("F0:deepspeed_config.zero3_init_flag");
    QTest::newRow("accelerate fsdp + zephyr qlora")
        << std::string("accelerate/fsdp.yaml;hf/zephyr-7b-beta_sft_config_qlora.yaml") << 0
        << std::string()
        << std::string(R"J({"parallelism.gpus": 8, "parallelism.zero_stage": 3,
             "parallelism.offload_parameters": "none", "training.precision": "bf16_mixed",
             "training.finetune.method": "qlora"})J")
        << std::string(R"J({"parallelism.zero_stage": "F0:fsdp_config"})J")
        << std::string() << std::string("F0:fsdp_config.fsdp_backward_prefetch");
    // DDP: the trainer's bf16 (autocast over bf16-loaded weights) stands; 2 GPUs by --gpus win
    // over num_processes 8, with a warning.
    QTest::newRow("accelerate ddp + zephyr sft, --gpus 2")
        << std::string("accelerate/ddp.yaml;hf/zephyr-7b-beta_sft_config_full.yaml") << 2
        << std::string()
        << std::string(R"J({"parallelism.gpus": 2, "parallelism.zero_stage": 0,
             "training.precision": "bf16", "framework": "transformers"})J")
        << std::string(R"J({"parallelism.gpus": "--gpus"})J")
        << std::string("num_processes 8 differs from --gpus 2") << std::string("F0:gpu_ids");

    // --- Hugging Face TrainingArguments / TRL (alignment-handbook recipes) ---
    // Weights loaded in bf16 (torch_dtype) and trained with bf16: pure bf16.
    QTest::newRow("hf zephyr sft full")
        << std::string("hf/zephyr-7b-beta_sft_config_full.yaml") << 8 << std::string()
        << std::string(R"J({"training.micro_batch_size": 16, "training.gradient_accumulation_steps": 1,
             "training.sequence_length": 2048, "training.activation_recompute": "full",
             "training.precision": "bf16", "training.optimizer": "adamw", "training.attention": "flash",
             "training.finetune.method": "full", "framework": "transformers", "training.loop": "trainer",
             "model.preset": "mistral-7b", "parallelism.zero_stage": 0})J")
        << std::string(R"J({"training.sequence_length": "F0:max_seq_length",
             "training.optimizer": "transformers default optim adamw_torch (adamw_torch_fused under torch >= 2.8 in recent releases), AdamW (src/transformers/training_args.py)"})J")
        << std::string() << std::string("F0:learning_rate");
    QTest::newRow("hf zephyr sft qlora")
        << std::string("hf/zephyr-7b-beta_sft_config_qlora.yaml") << 1 << std::string()
        << std::string(R"J({"training.finetune.method": "qlora", "training.finetune.base_weight_bits": 4,
             "training.finetune.lora_rank": 16, "training.finetune.lora_dropout": 0.05,
             "training.finetune.lora_targets": ["q_proj","k_proj","v_proj","o_proj","gate_proj","up_proj","down_proj"],
             "training.micro_batch_size": 4, "training.gradient_accumulation_steps": 2,
             "training.precision": "bf16"})J")
        << std::string(R"J({"training.finetune.method": "F0:load_in_4bit",
             "training.finetune.lora_rank": "F0:lora_r"})J")
        << std::string() << std::string("F0:dataset_mixture.test_split_size");
    QTest::newRow("hf zephyr dpo")
        << std::string("hf/zephyr-7b-beta_dpo_config_full.yaml") << 8 << std::string("mistral-7b")
        << std::string(R"J({"training.micro_batch_size": 8, "training.gradient_accumulation_steps": 2,
             "training.sequence_length": 1024, "training.precision": "amp_bf16",
             "framework": "transformers", "rl.framework": "trl", "rl.algorithm": "dpo",
             "rl.group_size": 1, "rl.prompt_tokens": 512, "rl.response_tokens": 512,
             "rl.beta": 0.01, "training.optimizer_implementation": "foreach"})J")
        << std::string(R"J({"training.precision": "F0:bf16 (autocast over the weights as loaded, fp32)",
             "training.optimizer_implementation": "F0:optim",
             "model.layers": "--model mistral-7b", "rl.prompt_tokens": "F0:max_prompt_length",
             "rl.beta": "F0:beta",
             "rl.response_tokens": "F0:max_length minus the prompt's 512"})J")
        << std::string() << std::string("F0:learning_rate");

    // open-r1's GRPO demo (TRL GRPOConfig): 16 generations of up to 1024 tokens after 512-token
    // prompts, vLLM at 0.7 on a device of its own (vllm_device auto, before TRL's vllm_mode; the
    // server mode since), beta left at TRL's 0.0: no reference model.
    QTest::newRow("trl grpo open-r1 demo")
        << std::string("hf/open-r1_qwen2.5-1.5b_grpo_config_demo.yaml") << 8
        << std::string("qwen2.5-7b")
        << std::string(R"J({"rl.framework": "trl", "rl.algorithm": "grpo", "rl.group_size": 16,
             "rl.prompt_tokens": 512, "rl.response_tokens": 1024, "rl.beta": 0.0,
             "rl.reference_model": false, "rl.rollout.engine": "vllm",
             "rl.rollout.placement": "separate", "rl.rollout.gpus": 1,
             "rl.rollout.gpu_memory_utilization": 0.7, "rl.rollout.sleep_level": 0,
             "training.micro_batch_size": 16, "training.gradient_accumulation_steps": 4,
             "training.precision": "bf16", "training.activation_recompute": "full"})J")
        << std::string(R"J({"rl.group_size": "F0:num_generations",
             "rl.response_tokens": "F0:max_completion_length",
             "rl.rollout.gpu_memory_utilization": "F0:vllm_gpu_memory_utilization",
             "rl.beta": "TRL default beta 0.0 (no reference model, since v0.18) (trl/trainer/grpo_config.py, v0.23)"})J")
        << std::string("the vLLM server runs on GPUs of its own") << std::string("F0:vllm_device");

    // --- Axolotl ---
    QTest::newRow("axolotl lora-1b")
        << std::string("axolotl/lora-1b.yml") << 1 << std::string()
        << std::string(R"J({"model.preset": "llama-3.2-1b", "training.finetune.method": "lora",
             "training.finetune.lora_rank": 16,
             "training.finetune.lora_targets": ["gate_proj","down_proj","up_proj","q_proj","v_proj","k_proj","o_proj"],
             "training.micro_batch_size": 2, "training.gradient_accumulation_steps": 2,
             "training.sequence_length": 2048, "training.optimizer": "adamw_8bit",
             "training.precision": "bf16", "training.activation_recompute": "full",
             "training.attention": "flash", "training.loop": "trainer"})J")
        << std::string(R"J({"training.micro_batch_size": "F0:micro_batch_size",
             "training.precision": "F0:bf16 auto (bf16 on GPUs since Ampere): weights loaded in bf16 (src/axolotl/utils/config/__init__.py)"})J")
        << std::string() << std::string("F0:sample_packing");
    // Meta-Llama-3-8B is no bundled preset (Llama 3.1 8B is): the user names the model.
    QTest::newRow("axolotl qlora")
        << std::string("axolotl/qlora.yml") << 1 << std::string("llama-3.1-8b")
        << std::string(R"J({"training.finetune.method": "qlora", "training.finetune.base_weight_bits": 4,
             "training.finetune.lora_rank": 32, "training.finetune.lora_targets": ["all-linear"],
             "training.micro_batch_size": 2, "training.gradient_accumulation_steps": 4,
             "training.sequence_length": 4096, "training.optimizer": "paged_adamw"})J")
        << std::string(R"J({"training.finetune.lora_targets": "F0:lora_target_linear",
             "training.finetune.base_weight_bits": "F0:load_in_4bit"})J")
        << std::string() << std::string("F0:lr_scheduler");
    QTest::newRow("axolotl fft-8b")
        << std::string("axolotl/fft-8b.yaml") << 1 << std::string()
        << std::string(R"J({"model.preset": "llama-3.1-8b", "training.finetune.method": "full",
             "training.micro_batch_size": 1, "training.gradient_accumulation_steps": 8,
             "training.sequence_length": 8192, "training.optimizer": "paged_adamw_8bit",
             "training.precision": "bf16", "training.activation_recompute": "full"})J")
        << std::string(R"J({"training.finetune.method": "not in the file (vramplan default)",
             "training.gradient_accumulation_steps": "F0:gradient_accumulation_steps"})J")
        << std::string() << std::string("F0:special_tokens.pad_token");

    // --- LLaMA-Factory --- (the DeepSpeed path is relative to the repository root, found
    // above the file)
    QTest::newRow("llamafactory full sft ds3")
        << std::string("llamafactory/examples/train_full/qwen3_full_sft.yaml") << 4 << std::string()
        << std::string(R"J({"model.preset": "qwen3-4b", "training.finetune.method": "full",
             "training.micro_batch_size": 1, "training.gradient_accumulation_steps": 2,
             "training.sequence_length": 2048, "training.activation_recompute": "full",
             "parallelism.zero_stage": 3, "training.precision": "bf16_mixed",
             "framework": "deepspeed"})J")
        << std::string(R"J({"training.activation_recompute": "LLaMA-Factory default disable_gradient_checkpointing false: checkpointing on (src/llamafactory/hparams/model_args.py)",
             "training.sequence_length": "F0:cutoff_len (an upper bound: longer samples are cut to it, a batch is padded to its longest)"})J")
        << std::string() << std::string("F0:template");
    QTest::newRow("llamafactory lora sft")
        << std::string("llamafactory/examples/train_lora/qwen3_lora_sft.yaml") << 1 << std::string()
        << std::string(R"J({"training.finetune.method": "lora", "training.finetune.lora_rank": 8,
             "training.finetune.lora_targets": ["all-linear"], "training.micro_batch_size": 1,
             "training.gradient_accumulation_steps": 8, "training.precision": "bf16",
             "parallelism.zero_stage": 0, "framework": "transformers",
             "training.finetune.lora_dropout": 0.0})J")
        << std::string(R"J({"training.finetune.lora_targets": "F0:lora_target",
             "training.precision": "F0:bf16: bf16 base, fp32 adapters",
             "training.finetune.lora_dropout": "LLaMA-Factory default lora_dropout 0.0 (src/llamafactory/hparams/finetuning_args.py)",
             "training.optimizer": "transformers default optim (src/transformers/training_args.py: adamw_torch, adamw_torch_fused from 4.54 under torch >= 2.8)"})J")
        << std::string() << std::string("F0:lr_scheduler_type");
    QTest::newRow("llamafactory qlora otfq")
        << std::string("llamafactory/examples/train_qlora/qwen3_lora_sft_otfq.yaml") << 1
        << std::string()
        << std::string(R"J({"training.finetune.method": "qlora", "training.finetune.base_weight_bits": 4,
             "training.finetune.lora_rank": 8, "training.gradient_accumulation_steps": 8})J")
        << std::string(R"J({"training.finetune.base_weight_bits": "F0:quantization_bit"})J")
        << std::string() << std::string("F0:max_samples");
    QTest::newRow("llamafactory lora ds3")
        << std::string("llamafactory/examples/train_lora/qwen3_lora_sft_ds3.yaml") << 2
        << std::string()
        << std::string(R"J({"training.finetune.method": "lora", "parallelism.zero_stage": 3,
             "training.precision": "bf16_mixed", "training.micro_batch_size": 1,
             "training.gradient_accumulation_steps": 2})J")
        << std::string(R"J({"training.micro_batch_size":
               "DS:train_micro_batch_size_per_gpu \"auto\" = F0:per_device_train_batch_size"})J")
        << std::string() << std::string("DS:gradient_clipping");

    // --- torchtune --- (dtype bf16 is pure bf16; output_proj is o_proj, the MLP's w1/w2/w3
    // are gate/down/up)
    QTest::newRow("torchtune 8B lora single device")
        << std::string("torchtune/8B_lora_single_device.yaml") << 1 << std::string()
        << std::string(R"J({"model.preset": "llama-3.1-8b", "framework": "torchtune",
             "training.finetune.method": "lora", "training.finetune.lora_rank": 8,
             "training.finetune.lora_targets": ["q_proj","v_proj","o_proj","gate_proj","down_proj","up_proj"],
             "training.finetune.lora_dropout": 0.0,
             "training.micro_batch_size": 2, "training.gradient_accumulation_steps": 8,
             "training.precision": "bf16", "training.activation_recompute": "full",
             "training.loss": "chunked", "training.optimizer": "adamw",
             "training.optimizer_implementation": "fused", "parallelism.zero_stage": 0,
             "training.sequence_length": 4096})J")
        << std::string(R"J({"training.precision": "F0:dtype (pure bf16: weights, gradients, optimizer states)",
             "training.sequence_length": "not in the file (vramplan default)"})J")
        << std::string("tokenizer.max_seq_len is null") << std::string("F0:profiler.enabled");
    QTest::newRow("torchtune 8B qlora single device")
        << std::string("torchtune/8B_qlora_single_device.yaml") << 1 << std::string()
        << std::string(R"J({"training.finetune.method": "qlora", "training.finetune.base_weight_bits": 4,
             "training.micro_batch_size": 2})J")
        << std::string(R"J({"training.finetune.method": "F0:model._component_"})J")
        << std::string() << std::string("F0:low_cpu_ram");
    QTest::newRow("torchtune 8B full distributed")
        << std::string("torchtune/8B_full.yaml") << 8 << std::string()
        << std::string(R"J({"training.finetune.method": "full", "training.micro_batch_size": 2,
             "training.gradient_accumulation_steps": 1, "parallelism.zero_stage": 3,
             "parallelism.fsdp_version": 2, "training.precision": "bf16"})J")
        << std::string(R"J({"parallelism.zero_stage": "--gpus > 1: torchtune's distributed recipes shard with FSDP2 (recipes/full_finetune_distributed.py)"})J")
        << std::string() << std::string("F0:optimizer.lr");
}

void TestImports::realFiles()
{
    QFETCH(std::string, files);
    QFETCH(int, gpus);
    QFETCH(std::string, model);
    QFETCH(std::string, fields);
    QFETCH(std::string, origins);
    QFETCH(std::string, warning);
    QFETCH(std::string, ignored);

    std::vector<std::string> paths;
    for (std::size_t start = 0; start <= files.size();) {
        const std::size_t semi = files.find(';', start);
        paths.push_back(fixture(files.substr(start, semi - start)));
        if (semi == std::string::npos)
            break;
        start = semi + 1;
    }
    ImportOptions options;
    options.gpus = gpus;
    options.gpu = "h100-80gb";
    options.model = model;
    const auto r = importTrainingSetup(paths, options);
    QVERIFY2(r, r.error.c_str());
    const ImportResult &result = *r.value;

    // "F0" is the first file, "DS" the DeepSpeed config (given or named by the first).
    const auto expand = [&](std::string text) {
        const std::string ds = paths.size() > 1 ? paths[1]
                               : files.find("deepspeed/") == 0
                                   ? paths[0]
                                   : fixture("llamafactory/examples/deepspeed/ds_z3_config.json");
        for (const auto &[tag, value] : {std::pair{std::string("F0:"), paths[0] + ":"},
                                         std::pair{std::string("DS:"), ds + ":"}})
            for (std::size_t at = text.find(tag); at != std::string::npos;
                 at = text.find(tag, at + value.size()))
                text.replace(at, tag.size(), value);
        return text;
    };
    const json expectedFields = json::parse(fields), expectedOrigins = json::parse(origins);
    for (const auto &[path, value] : expectedFields.items()) {
        const json *got = at(result.scenarioJson, path);
        QVERIFY2(got, ("no field " + path).c_str());
        QVERIFY2(*got == value, (path + ": " + got->dump() + " != " + value.dump()).c_str());
    }
    for (const auto &[path, value] : expectedOrigins.items())
        QCOMPARE(QString::fromStdString(originOf(result, path)),
                 QString::fromStdString(expand(value.get<std::string>())));
    if (!warning.empty())
        QVERIFY2(contains(result.warnings, warning), joined(result.warnings).c_str());
    QVERIFY2(contains(result.ignored, expand(ignored)), joined(result.ignored).c_str());
    // What was used is never listed as ignored.
    QVERIFY(!contains(result.ignored, ":gradient_accumulation_steps"));
}

// DeepSpeed's batch triple as deepspeed/runtime/config.py (_set_batch_related_parameters)
// completes it, on 4 GPUs: written files, since no example in the repositories gives
// train_batch_size alone with numbers.
void TestImports::deepspeedBatchTriple_data()
{
    QTest::addColumn<std::string>("config");
    QTest::addColumn<int>("micro");
    QTest::addColumn<int>("accum");
    QTest::addColumn<std::string>("error");
    QTest::newRow("train_batch_size alone") << std::string(R"J({"train_batch_size": 32})J") << 8
                                            << 1 << std::string();
    QTest::newRow("with accumulation")
        << std::string(R"J({"train_batch_size": 32, "gradient_accumulation_steps": 2})J") << 4 << 2
        << std::string();
    QTest::newRow("with micro-batch")
        << std::string(R"J({"train_batch_size": 64, "train_micro_batch_size_per_gpu": 2})J") << 2
        << 8 << std::string();
    QTest::newRow("not divisible")
        << std::string(R"J({"train_batch_size": 30, "gradient_accumulation_steps": 2})J") << 0 << 0
        << std::string("ds.json: train_batch_size: 30 is not divisible by 8 (micro-batch x "
                       "accumulation x 4 GPUs)");
    QTest::newRow("inconsistent")
        << std::string(R"J({"train_batch_size": 30, "gradient_accumulation_steps": 2, "train_micro_batch_size_per_gpu": 4})J")
        << 0 << 0
        << std::string("ds.json: train_batch_size: 30 is not micro-batch 4 x accumulation 2 x 4 "
                       "GPUs");
    QTest::newRow("stage 4")
        << std::string(R"J({"train_batch_size": 32, "zero_optimization": {"stage": 4}})J") << 0 << 0
        << std::string("ds.json: zero_optimization.stage: must be from 0 to 3, got 4");
}

void TestImports::deepspeedBatchTriple()
{
    QFETCH(std::string, config);
    QFETCH(int, micro);
    QFETCH(int, accum);
    QFETCH(std::string, error);
    QTemporaryDir dir;
    const std::string path = dir.path().toStdString() + "/ds.json";
    std::ofstream(path) << config;
    ImportOptions options{"llama-3.2-1b", 4, "a100-80gb"};
    const auto r = importTrainingSetup({path}, options);
    if (!error.empty()) {
        QVERIFY(!r);
        QCOMPARE(QString::fromStdString(r.error), dir.path() + "/" + QString::fromStdString(error));
        return;
    }
    QVERIFY2(r, r.error.c_str());
    QCOMPARE(r.value->scenario.training.microBatchSize, int64_t(micro));
    QCOMPARE(r.value->scenario.training.gradientAccumulationSteps, int64_t(accum));
}

// Exit-2 material: one line naming the file and the line or key, or the flag.
void TestImports::errors_data()
{
    QTest::addColumn<std::string>("text");
    QTest::addColumn<std::string>("file"); // a real file instead of text, or ""
    QTest::addColumn<std::string>("model");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<std::string>("error");
    QTest::newRow("hub id without preset") << std::string() << std::string("axolotl/qlora.yml")
                                           << std::string() << 1
                                           << std::string("F:1: base_model: 'NousResearch/Meta-Llama-3-8B' is no bundled preset; give --model PRESET|CONFIG|DIR (its config.json or checkpoint folder)");
    QTest::newRow("no gpus") << std::string() << std::string("axolotl/lora-1b.yml")
                             << std::string() << 0
                             << std::string("--gpus: the GPU count is not in the files; give --gpus N");
    QTest::newRow("unknown --model") << std::string() << std::string("axolotl/lora-1b.yml")
                                     << std::string("no-such-model") << 1
                                     << std::string("--model: 'no-such-model' is neither a preset (vramplan-cli presets) nor a config.json or checkpoint folder");
    QTest::newRow("yaml syntax") << std::string("base_model: x\nmicro_batch_size: [1,\n")
                                 << std::string() << std::string("llama-3.2-1b") << 1
                                 << std::string("F:3: end of sequence flow not found");
    QTest::newRow("wrong type") << std::string("base_model: x\nsequence_len: 2048\nmicro_batch_size: two\n")
                                << std::string() << std::string("llama-3.2-1b") << 1
                                << std::string("F:3: micro_batch_size: must be a whole number, got \"two\"");
    // YAML aliases that would expand to 10^13 values: refused, bounded.
    QTest::newRow("alias bomb")
        << std::string("a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                       "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                       "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n")
        << std::string() << std::string("llama-3.2-1b") << 1
        << std::string("F: more than 200000 values (aliases expanding?)");
    QTest::newRow("yaml in flow style")
        << std::string("{base_model: x, micro_batch_size: -1}") << std::string()
        << std::string("llama-3.2-1b") << 1
        << std::string("F:1: micro_batch_size: must be from 1 to 1048576, got -1");
    QTest::newRow("not a setup") << std::string("hello: world\n") << std::string()
                                 << std::string("llama-3.2-1b") << 1
                                 << std::string("F: not a training setup vramplan reads (a DeepSpeed JSON, Hugging Face/TRL arguments, Axolotl, LLaMA-Factory, torchtune, LitGPT or Accelerate YAML, a torchtitan TOML, a Megatron-LM, ms-swift or verl launch script)");
    QTest::newRow("deepspeed file missing")
        << std::string("model_name_or_path: Qwen/Qwen3-4B\nfinetuning_type: full\ndeepspeed: nowhere/ds.json\n")
        << std::string() << std::string() << 1
        << std::string("F:deepspeed: 'nowhere/ds.json' is not found beside the file or in a folder above it; give it as another FILE");
}

void TestImports::errors()
{
    QFETCH(std::string, text);
    QFETCH(std::string, file);
    QFETCH(std::string, model);
    QFETCH(int, gpus);
    QFETCH(std::string, error);
    QTemporaryDir dir;
    std::string path = file.empty() ? dir.path().toStdString() + "/setup.yaml" : fixture(file);
    if (file.empty())
        std::ofstream(path) << text;
    const auto r = importTrainingSetup({path}, {model, gpus, "h100-80gb"});
    QVERIFY(!r);
    if (error.rfind("F:", 0) == 0) // "F" is the file
        error = path + error.substr(1);
    QCOMPARE(QString::fromStdString(r.error), QString::fromStdString(error));
}

// Every leaf of the scenario is listed once with an origin, in the scenario's order.
void TestImports::everyFieldHasAnOrigin()
{
    const auto r = importTrainingSetup({fixture("axolotl/lora-1b.yml")}, {"", 1, "h100-80gb"});
    QVERIFY2(r, r.error.c_str());
    std::size_t leaves = 0;
    const auto count = [&](auto &self, const json &node, bool top) -> void {
        if (node.is_object() && !node.empty()) {
            for (const auto &item : node)
                self(self, item, false);
            return;
        }
        (void)top;
        ++leaves;
    };
    count(count, r.value->scenarioJson, true);
    QCOMPARE(r.value->fields.size(), leaves);
    for (const auto &f : r.value->fields)
        QVERIFY2(!f.origin.empty(), f.path.c_str());
    QCOMPARE(QString::fromStdString(originOf(*r.value, "parallelism.gpus")), QString("--gpus"));
    QCOMPARE(QString::fromStdString(originOf(*r.value, "gpu.preset")), QString("--gpu h100-80gb"));
}

QTEST_APPLESS_MAIN(TestImports)
#include "tst_imports.moc"
