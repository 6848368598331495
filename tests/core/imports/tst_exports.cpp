// Issue 24, export: a scenario written back in a tool's own format (core/imports/
// export_setup.h). Per format and scenario: the lines a user would see are exact; every key
// written is one the tool documents (tests/data/imports/exports/documented_keys.json, each list
// with the tool's files and release it comes from); every note is also a comment where the
// format has comments; and importing what was written (with the file it names beside it) gives
// back the fields the format holds: import(export(s)) == s on those fields.

#include "exporttesting.h"
#include "formats/scenario_json.h"
#include "imports/export_setup.h"
#include "imports/import_setup.h"
#include "importtesting.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

using namespace vramplan;
using namespace vramplan::test;
using nlohmann::json;

Q_DECLARE_METATYPE(std::string)

namespace {

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
// Mixtral under Megatron with its experts as grouped GEMMs (--moe-grouped-gemm).
const char *megatronGroupedGemm = R"({"format": "vramplan-scenario", "version": 1,
    "model": {"preset": "mixtral-8x7b"},
    "training": {"micro_batch_size": 1, "gradient_accumulation_steps": 8, "sequence_length": 4096,
                 "precision": "bf16_mixed", "activation_recompute": "full", "dropout": 0.0,
                 "grouped_gemm": true},
    "parallelism": {"gpus": 16, "tensor_parallel": 1, "pipeline_parallel": 2,
                    "expert_parallel": 8, "zero_stage": 1},
    "framework": "megatron", "gpu": {"preset": "h100-80gb"}})";
// The same with Megatron's fused cross-entropy (--cross-entropy-loss-fusion).
const char *megatronFusedLoss = R"({"format": "vramplan-scenario", "version": 1,
    "model": {"preset": "llama-3.1-8b"},
    "training": {"micro_batch_size": 1, "gradient_accumulation_steps": 16, "sequence_length": 8192,
                 "precision": "bf16_mixed", "activation_recompute": "selective", "dropout": 0.0,
                 "loss": "fused"},
    "parallelism": {"gpus": 16, "tensor_parallel": 2, "pipeline_parallel": 2,
                    "sequence_parallel": true, "zero_stage": 1},
    "framework": "megatron", "gpu": {"preset": "h100-80gb"}})";

// The scenarios of tests/data/ the rows use.
const std::string fsdp2 = "imports/exports/fsdp2_full_llama-3.1-8b.vramplan.json";
const std::string fsdp1 = "imports/exports/fsdp1_zero2_offload_qwen2.5-7b.vramplan.json";
const std::string fsdpLora = "imports/exports/fsdp_lora_llama-3.2-1b.vramplan.json";
const std::string titan = "imports/exports/torchtitan_tp2_pp2_llama-3.1-8b.vramplan.json";
const std::string verlLora = "imports/exports/rl_grpo_verl_lora_qwen2.5-7b.vramplan.json";
const std::string gpt2 = "scenarios/gpt2-h100.vramplan.json";
const std::string grpoTrl = "scenarios/rl_grpo_trl_qwen2.5-7b.vramplan.json";
const std::string dpoTrl = "scenarios/rl_dpo_trl_llama-3.1-8b.vramplan.json";
const std::string grpoVerl = "scenarios/rl_grpo_verl_qwen2.5-7b.vramplan.json";

} // namespace

class TestExports : public QObject
{
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void refusals_data();
    void refusals();
    void formatNames();
};

void TestExports::roundTrip_data()
{
    QTest::addColumn<std::string>("source"); // inline JSON or a file under tests/data/
    QTest::addColumn<int>("format");
    QTest::addColumn<std::string>("model");  // --model for the import back, or ""
    QTest::addColumn<int>("beside");         // a second format written beside it, or -1
    QTest::addColumn<std::string>("fields"); // compared after import(export(s))
    QTest::addColumn<std::string>("lines");  // lines the export holds, exactly
    QTest::addColumn<std::string>("note");   // a note it gives, or ""
    const auto row = [](const char *name, const std::string &source, ExportFormat format,
                        const char *model, int beside, const char *fields, const char *lines,
                        const char *note) {
        QTest::newRow(name) << source << int(format) << std::string(model) << beside
                            << std::string(fields) << std::string(lines) << std::string(note);
    };
    constexpr int none = -1;
    const int deepspeedBeside = int(ExportFormat::DeepSpeed);
    const int accelerateBeside = int(ExportFormat::Accelerate);
    using F = ExportFormat;

    // The formats of before: DeepSpeed, Axolotl, LLaMA-Factory, torchtune, Megatron.
    row("deepspeed zero3 offload", zero3, F::DeepSpeed, "qwen2.5-7b", none,
        R"(["training.micro_batch_size", "training.gradient_accumulation_steps",
            "training.precision", "parallelism.zero_stage", "parallelism.offload_optimizer",
            "parallelism.offload_parameters", "framework"])",
        R"(["      \"device\": \"cpu\""])", "");
    row("deepspeed lora 1b", lora1b, F::DeepSpeed, "llama-3.2-1b", none,
        R"(["training.micro_batch_size", "training.gradient_accumulation_steps", "parallelism.zero_stage"])",
        R"(["    \"stage\": 0"])",
        "training.precision: DeepSpeed's bf16 keeps fp32 master weights");
    row("axolotl lora 1b", lora1b, F::Axolotl, "", none,
        R"(["model.preset", "training.micro_batch_size", "training.gradient_accumulation_steps",
            "training.sequence_length", "training.activation_recompute", "training.finetune.method",
            "training.finetune.lora_rank", "training.finetune.lora_targets", "training.precision",
            "training.attention", "training.optimizer"])",
        R"(["base_model: meta-llama/llama-3.2-1b", "micro_batch_size: 2", "lora_r: 16", "  - q_proj"])",
        "");
    row("axolotl qlora all-linear", qlora, F::Axolotl, "", none,
        R"(["training.finetune.method", "training.finetune.base_weight_bits",
            "training.finetune.lora_rank", "training.finetune.lora_targets",
            "training.micro_batch_size", "training.sequence_length"])",
        R"(["adapter: qlora", "load_in_4bit: true", "lora_target_linear: true"])", "");
    // FSDP in Axolotl: before, zero_stage 3 under a torch trainer came back as 0.
    row("axolotl fsdp2 full 8b", fsdp2, F::Axolotl, "", none,
        R"(["parallelism.zero_stage", "parallelism.fsdp_version", "parallelism.offload_parameters",
            "parallelism.offload_optimizer", "training.micro_batch_size",
            "training.gradient_accumulation_steps", "training.activation_recompute", "framework"])",
        R"(["fsdp_version: 2", "fsdp_config:", "  offload_params: false",
            "  auto_wrap_policy: TRANSFORMER_BASED_WRAP", "  reshard_after_forward: true"])",
        "");
    row("axolotl fsdp1 zero2 offload", fsdp1, F::Axolotl, "", none,
        R"(["parallelism.zero_stage", "parallelism.fsdp_version", "parallelism.offload_parameters",
            "parallelism.offload_optimizer", "training.micro_batch_size", "training.sequence_length"])",
        R"(["fsdp_version: 1", "fsdp:", "  - shard_grad_op", "  - auto_wrap",
            "  fsdp_offload_params: true"])",
        "");
    row("axolotl fsdp lora 1b", fsdpLora, F::Axolotl, "", none,
        R"(["parallelism.zero_stage", "training.finetune.method", "training.finetune.lora_rank",
            "training.finetune.lora_targets", "training.precision"])",
        R"(["  - full_shard", "  fsdp_offload_params: false", "lora_target_linear: true"])", "");
    row("llamafactory lora 1b", lora1b, F::LlamaFactory, "", none,
        R"(["model.preset", "training.micro_batch_size", "training.gradient_accumulation_steps",
            "training.sequence_length", "training.activation_recompute", "training.finetune.method",
            "training.finetune.lora_rank", "training.finetune.lora_targets", "training.precision"])",
        R"(["lora_target: q_proj,v_proj", "cutoff_len: 2048"])", "");
    // LLaMA-Factory's FSDP is the Accelerate config beside it (examples/accelerate/).
    row("llamafactory fsdp lora + accelerate", fsdpLora, F::LlamaFactory, "", accelerateBeside,
        R"(["parallelism.zero_stage", "parallelism.offload_parameters", "parallelism.gpus",
            "training.finetune.method", "training.finetune.lora_rank", "training.finetune.lora_targets",
            "training.micro_batch_size", "training.gradient_accumulation_steps"])",
        R"(["finetuning_type: lora", "lora_target: all"])",
        "parallelism.zero_stage: FSDP is set by an Accelerate config beside this file");
    row("llamafactory fsdp2 full + accelerate", fsdp2, F::LlamaFactory, "", accelerateBeside,
        R"(["parallelism.zero_stage", "parallelism.fsdp_version", "training.precision",
            "training.micro_batch_size", "training.gradient_accumulation_steps",
            "training.sequence_length", "training.finetune.method"])",
        R"(["finetuning_type: full", "bf16: true"])", "");
    row("torchtune lora 1b", lora1b, F::Torchtune, "", none,
        R"(["training.micro_batch_size", "training.gradient_accumulation_steps",
            "training.finetune.method", "training.finetune.lora_rank", "training.finetune.lora_targets",
            "model.preset", "training.sequence_length", "training.precision",
            "training.activation_recompute"])",
        R"(["model._component_=torchtune.models.llama3_2.lora_llama3_2_1b"])", "");
    row("megatron tp2 pp2", megatron, F::Megatron, "llama-3.1-8b", none,
        R"(["parallelism.tensor_parallel", "parallelism.pipeline_parallel",
            "parallelism.sequence_parallel", "parallelism.zero_stage", "training.micro_batch_size",
            "training.gradient_accumulation_steps", "training.sequence_length",
            "training.precision", "training.activation_recompute", "training.dropout", "framework"])",
        R"(["--global-batch-size 64"])", ""); // 1 x 16 steps x 4 data-parallel ranks
    row("megatron grouped gemm", megatronGroupedGemm, F::Megatron, "mixtral-8x7b", none,
        R"(["training.grouped_gemm", "parallelism.expert_parallel", "framework"])",
        R"(["--moe-grouped-gemm"])", "");
    row("swift megatron grouped gemm", megatronGroupedGemm, F::Swift, "", none,
        R"(["training.grouped_gemm", "parallelism.expert_parallel", "framework"])",
        R"(["--moe_grouped_gemm true"])", "");
    row("megatron fused loss", megatronFusedLoss, F::Megatron, "llama-3.1-8b", none,
        R"(["training.loss", "parallelism.tensor_parallel", "framework"])",
        R"(["--cross-entropy-loss-fusion"])", "");

    // Accelerate's config, imported alone (the model from --model).
    row("accelerate fsdp2 full 8b", fsdp2, F::Accelerate, "llama-3.1-8b", none,
        R"(["parallelism.zero_stage", "parallelism.fsdp_version", "parallelism.offload_parameters",
            "parallelism.offload_optimizer", "parallelism.gpus", "training.precision",
            "training.activation_recompute"])",
        R"(["distributed_type: FSDP", "  fsdp_version: 2", "  fsdp_reshard_after_forward: true",
            "  fsdp_offload_params: false", "  fsdp_activation_checkpointing: true",
            "mixed_precision: bf16", "num_machines: 1", "num_processes: 8"])",
        "training.micro_batch_size: the trainer's");
    row("accelerate fsdp1 zero2 offload", fsdp1, F::Accelerate, "qwen2.5-7b", none,
        R"(["parallelism.zero_stage", "parallelism.fsdp_version", "parallelism.offload_parameters",
            "parallelism.offload_optimizer", "parallelism.gpus", "training.activation_recompute"])",
        R"(["  fsdp_version: 1", "  fsdp_sharding_strategy: SHARD_GRAD_OP",
            "  fsdp_offload_params: true", "num_processes: 4"])",
        "training.precision: amp_bf16 under FSDP");
    row("accelerate deepspeed zero3", zero3, F::Accelerate, "qwen2.5-7b", none,
        R"(["framework", "parallelism.zero_stage", "parallelism.offload_optimizer",
            "parallelism.offload_parameters", "training.gradient_accumulation_steps",
            "training.precision"])",
        R"(["distributed_type: DEEPSPEED", "  zero_stage: 3", "  offload_optimizer_device: cpu",
            "  offload_param_device: none", "  gradient_accumulation_steps: 8"])",
        "training.activation_recompute: set by the trainer");
    row("accelerate one gpu", gpt2, F::Accelerate, "gpt2", none,
        R"(["parallelism.zero_stage", "parallelism.gpus"])",
        R"(["distributed_type: 'NO'", "mixed_precision: bf16", "num_processes: 1"])",
        "training.precision: bf16_mixed without DeepSpeed or FSDP is autocast");

    // TRL: TrainingArguments, ModelConfig and the RL configs' keys.
    row("trl sft lora 1b", lora1b, F::Trl, "", none,
        R"(["model.preset", "training.micro_batch_size", "training.gradient_accumulation_steps",
            "training.activation_recompute", "training.precision", "training.optimizer",
            "training.attention", "training.sequence_length", "training.finetune.method",
            "training.finetune.lora_rank", "training.finetune.lora_targets"])",
        R"(["model_name_or_path: meta-llama/llama-3.2-1b", "per_device_train_batch_size: 2",
            "gradient_accumulation_steps: 4", "gradient_checkpointing: true", "bf16: true",
            "torch_dtype: bfloat16", "optim: adamw_torch_fused", "attn_implementation: flash_attention_2",
            "max_length: 2048", "use_peft: true", "lora_r: 16", "lora_target_modules:", "  - q_proj"])",
        "");
    row("trl sft zero3 + deepspeed", zero3, F::Trl, "", deepspeedBeside,
        R"(["framework", "parallelism.zero_stage", "parallelism.offload_optimizer",
            "training.micro_batch_size", "training.gradient_accumulation_steps", "training.precision"])",
        R"(["deepspeed: ds_config.json", "bf16: true"])",
        "parallelism.zero_stage: in the DeepSpeed JSON this file names");
    row("trl sft fsdp1 zero2 offload", fsdp1, F::Trl, "", none,
        R"(["parallelism.zero_stage", "parallelism.fsdp_version", "parallelism.offload_parameters",
            "parallelism.offload_optimizer", "training.precision", "training.attention"])",
        R"(["fsdp: shard_grad_op auto_wrap offload", "fsdp_config:", "  fsdp_version: 1",
            "torch_dtype: float32"])",
        "");
    row("trl grpo vllm colocate", grpoTrl, F::Trl, "", none,
        R"(["training.micro_batch_size", "training.gradient_accumulation_steps",
            "training.finetune.lora_rank", "training.finetune.lora_targets", "training.precision",
            "rl.framework", "rl.algorithm", "rl.group_size", "rl.prompt_tokens",
            "rl.response_tokens", "rl.beta", "rl.rollout.engine", "rl.rollout.placement",
            "rl.rollout.gpu_memory_utilization", "rl.rollout.sleep_level"])",
        R"(["num_generations: 8", "max_prompt_length: 512", "max_completion_length: 1024",
            "beta: 0.04", "use_vllm: true", "vllm_mode: colocate",
            "vllm_gpu_memory_utilization: 0.3", "vllm_enable_sleep_mode: false"])",
        "");
    row("trl dpo zero3 + deepspeed", dpoTrl, F::Trl, "", deepspeedBeside,
        R"(["training.micro_batch_size", "training.gradient_accumulation_steps",
            "parallelism.zero_stage", "training.precision", "training.activation_recompute",
            "rl.framework", "rl.algorithm", "rl.prompt_tokens", "rl.response_tokens"])",
        R"(["max_length: 2048", "max_prompt_length: 1024", "per_device_train_batch_size: 2"])",
        "rl.beta: not set");

    // verl: the rl section and the actor's step as main_ppo's overrides.
    row("verl grpo lora fsdp2", verlLora, F::Verl, "", none,
        R"(["model.preset", "training.micro_batch_size", "training.gradient_accumulation_steps",
            "training.precision", "training.activation_recompute",
            "training.finetune.method", "training.finetune.lora_rank", "training.finetune.lora_targets",
            "parallelism.zero_stage", "parallelism.fsdp_version", "rl.algorithm", "rl.critic",
            "rl.group_size", "rl.prompt_tokens", "rl.response_tokens", "rl.reference_model",
            "rl.beta", "rl.rollout.engine", "rl.rollout.gpu_memory_utilization",
            "rl.rollout.tensor_parallel", "rl.rollout.max_num_seqs", "rl.log_prob_micro_batch_size",
            "rl.offload"])",
        R"(["python3 -m verl.trainer.main_ppo", "algorithm.adv_estimator=grpo",
            "actor_rollout_ref.actor.strategy=fsdp2", "actor_rollout_ref.model.lora_rank=32",
            "actor_rollout_ref.model.target_modules=[q_proj,v_proj]",
            "actor_rollout_ref.actor.fsdp_config.model_dtype=bf16",
            "actor_rollout_ref.actor.ppo_mini_batch_size=16",
            "actor_rollout_ref.actor.kl_loss_coef=0.001", "actor_rollout_ref.rollout.n=8",
            "trainer.n_gpus_per_node=4", "trainer.nnodes=1"])",
        "");
    row("verl grpo offload (2 x H800)", grpoVerl, F::Verl, "", none,
        R"(["training.micro_batch_size", "parallelism.zero_stage",
            "parallelism.fsdp_version", "rl.algorithm", "rl.group_size", "rl.prompt_tokens",
            "rl.response_tokens", "rl.reference_model", "rl.rollout.gpu_memory_utilization",
            "rl.rollout.tensor_parallel", "rl.offload", "rl.log_prob_micro_batch_size"])",
        R"(["actor_rollout_ref.actor.fsdp_config.param_offload=True",
            "actor_rollout_ref.ref.fsdp_config.param_offload=True",
            "actor_rollout_ref.actor.ppo_mini_batch_size=32",
            "actor_rollout_ref.rollout.tensor_model_parallel_size=2"])",
        "training.gradient_accumulation_steps: 1 is no whole ppo_mini_batch_size (16 x 1 x 2 "
        "GPUs / rollout.n 5); written as 5 micro-batches per update");
    row("verl from trl grpo", grpoTrl, F::Verl, "", none,
        R"(["training.micro_batch_size", "training.gradient_accumulation_steps",
            "training.finetune.lora_rank", "training.finetune.lora_targets", "rl.group_size",
            "rl.prompt_tokens", "rl.response_tokens", "rl.beta", "rl.rollout.gpu_memory_utilization"])",
        R"(["actor_rollout_ref.model.target_modules=[q_proj,k_proj,v_proj,o_proj,gate_proj,up_proj,down_proj]",
            "actor_rollout_ref.rollout.free_cache_engine=False",
            "actor_rollout_ref.actor.ppo_mini_batch_size=4"])",
        "rl.framework: trl written as verl's keys");

    // torchtitan's TOML.
    row("torchtitan tp2 pp2 fsdp2", titan, F::Torchtitan, "", none,
        R"(["model.preset", "parallelism.tensor_parallel", "parallelism.pipeline_parallel",
            "parallelism.zero_stage", "training.micro_batch_size",
            "training.gradient_accumulation_steps", "training.sequence_length", "training.precision",
            "training.activation_recompute", "training.compile", "training.optimizer",
            "training.optimizer_implementation", "framework"])",
        R"(["name = \"llama3\"", "flavor = \"8B\"", "local_batch_size = 1",
            "global_batch_size = 16", "seq_len = 8192", "data_parallel_shard_degree = 4",
            "tensor_parallel_degree = 2", "pipeline_parallel_degree = 2",
            "fsdp_reshard_after_forward = \"always\"", "mode = \"selective\"",
            "selective_ac_option = \"op\"", "components = [\"model\", \"loss\"]",
            "implementation = \"fused\""])",
        "");
    row("torchtitan fsdp2 full 8b", fsdp2, F::Torchtitan, "", none,
        R"(["model.preset", "parallelism.zero_stage", "training.micro_batch_size",
            "training.gradient_accumulation_steps", "training.precision",
            "training.activation_recompute"])",
        R"(["data_parallel_shard_degree = 8", "data_parallel_replicate_degree = 1",
            "global_batch_size = 64", "mode = \"full\"", "mixed_precision_param = \"bfloat16\""])",
        "");
    row("torchtitan one gpu gpt2", gpt2, F::Torchtitan, "gpt2", none,
        R"(["parallelism.zero_stage", "training.micro_batch_size",
            "training.gradient_accumulation_steps", "training.sequence_length",
            "training.activation_recompute"])",
        R"(["local_batch_size = 4", "global_batch_size = 4", "mode = \"none\""])",
        "training.precision: bf16_mixed: torchtitan's mixed_precision_param gives amp_bf16");

    // ms-swift: swift sft, or megatron sft under Megatron.
    row("swift sft lora 1b", lora1b, F::Swift, "", none,
        R"(["model.preset", "training.micro_batch_size", "training.gradient_accumulation_steps",
            "training.sequence_length", "training.precision", "training.activation_recompute",
            "training.attention", "training.optimizer", "training.finetune.method",
            "training.finetune.lora_rank", "training.finetune.lora_targets", "parallelism.gpus"])",
        R"(["NPROC_PER_NODE=1", "swift sft", "--model meta-llama/llama-3.2-1b",
            "--tuner_type lora", "--lora_rank 16", "--target_modules q_proj v_proj",
            "--torch_dtype bfloat16", "--attn_impl flash_attn", "--gradient_checkpointing true"])",
        "");
    row("swift sft qlora", qlora, F::Swift, "", none,
        R"(["training.finetune.method", "training.finetune.base_weight_bits",
            "training.finetune.lora_rank", "training.finetune.lora_targets"])",
        R"(["--quant_method bnb", "--quant_bits 4", "--target_modules all-linear"])", "");
    row("swift sft zero3 offload + deepspeed", zero3, F::Swift, "", deepspeedBeside,
        R"(["framework", "parallelism.zero_stage", "parallelism.offload_optimizer",
            "parallelism.offload_parameters", "training.precision", "training.micro_batch_size"])",
        R"(["--deepspeed ds_config.json", "--tuner_type full", "NPROC_PER_NODE=8"])",
        "parallelism.offload_*: no DeepSpeed config ms-swift ships offloads so");
    row("swift megatron tp2 pp2", megatron, F::Swift, "", none,
        R"(["framework", "parallelism.tensor_parallel", "parallelism.pipeline_parallel",
            "parallelism.sequence_parallel", "parallelism.zero_stage", "parallelism.gpus",
            "training.micro_batch_size", "training.gradient_accumulation_steps",
            "training.sequence_length", "training.precision", "training.activation_recompute"])",
        R"(["NNODES=2", "NPROC_PER_NODE=8", "megatron sft", "--global_batch_size 64",
            "--sequence_parallel true", "--use_distributed_optimizer true",
            "--recompute_granularity selective", "--cross_entropy_loss_fusion false"])",
        "");
    row("swift megatron fused loss", megatronFusedLoss, F::Swift, "", none,
        R"(["framework", "training.loss"])", R"(["--cross_entropy_loss_fusion true"])", "");
}

void TestExports::roundTrip()
{
    QFETCH(std::string, source);
    QFETCH(int, format);
    QFETCH(std::string, model);
    QFETCH(int, beside);
    QFETCH(std::string, fields);
    QFETCH(std::string, lines);
    QFETCH(std::string, note);
    const Scenario s = scenario(source);
    const auto f = ExportFormat(format);
    const auto exported = exportTrainingSetup(s, f);
    QVERIFY2(exported, exported.error.c_str());
    const std::string &text = exported.value->text;
    const std::vector<std::string> &notes = exported.value->notes;

    std::set<std::string> shown;
    std::istringstream textLines(text);
    for (std::string line; std::getline(textLines, line);)
        shown.insert(plainLine(line, f));
    for (const auto &line : json::parse(lines))
        QVERIFY2(shown.count(line.get<std::string>()),
                 ("no line '" + line.get<std::string>() + "' in\n" + text).c_str());
    if (!note.empty())
        QVERIFY2(test::contains(notes, note), (note + " not in\n" + test::joined(notes)).c_str());
    // In the formats with comments, each note is a comment too: nothing is dropped silently.
    if (f != ExportFormat::DeepSpeed && f != ExportFormat::Torchtune && f != ExportFormat::Megatron)
        for (const auto &n : notes)
            QVERIFY2(text.find("#   " + n + "\n") != std::string::npos, (n + "\n" + text).c_str());

    const std::set<std::string> documented = documentedKeys(f, text);
    for (const auto &key : writtenKeys(text, f))
        QVERIFY2(documented.count(key), ("not a documented key: " + key + "\n" + text).c_str());

    // Back in: the file as the tool would read it, and the file it names beside it.
    QTemporaryDir dir;
    std::string name;
    const std::string content = fileOf(f, text, s, name);
    std::vector<std::string> paths = {dir.path().toStdString() + "/" + name};
    std::ofstream(paths[0]) << content;
    if (beside >= 0) {
        const auto other = exportTrainingSetup(s, ExportFormat(beside));
        QVERIFY2(other, other.error.c_str());
        const bool named = ExportFormat(beside) == ExportFormat::DeepSpeed;
        const std::string path =
            dir.path().toStdString() + (named ? "/ds_config.json" : "/fsdp_config.yaml");
        std::ofstream(path) << other.value->text;
        if (!named)
            paths.push_back(path); // `accelerate launch --config_file` gives it
    }
    ImportOptions options;
    options.model = model;
    options.gpus = s.parallelism.gpus;
    options.gpu = "h100-80gb";
    const auto back = importTrainingSetup(paths, options);
    QVERIFY2(back, (back.error + "\n" + content).c_str());
    const json before = scenarioToJson(s), after = back.value->scenarioJson;
    for (const auto &key : json::parse(fields)) {
        const json *a = at(before, key.get<std::string>()), *b = at(after, key.get<std::string>());
        QVERIFY2(a && b, (key.get<std::string>() + " missing\n" + after.dump(1)).c_str());
        QVERIFY2(*a == *b, (key.get<std::string>() + ": " + a->dump() + " exported, " + b->dump() +
                            " imported back\n" + content)
                               .c_str());
    }
}

void TestExports::refusals_data()
{
    QTest::addColumn<std::string>("source");
    QTest::addColumn<int>("format");
    QTest::addColumn<std::string>("error");
    QTest::newRow("inference") << std::string("inference") << int(ExportFormat::DeepSpeed)
                               << std::string("training.mode: inference is not a training setup; "
                                              "nothing to export");
    QTest::newRow("verl without rl") << std::string(lora1b) << int(ExportFormat::Verl)
                                     << std::string("rl: verl's main_ppo trains with a rollout; "
                                                    "the scenario has no rl section (docs/rl.md)");
    QTest::newRow("verl dpo") << dpoTrl << int(ExportFormat::Verl)
                              << std::string("rl.algorithm: dpo is not trained by verl's main_ppo "
                                             "(ppo, grpo, rloo, reinforce_pp)");
}

void TestExports::refusals()
{
    QFETCH(std::string, source);
    QFETCH(int, format);
    QFETCH(std::string, error);
    Scenario s = scenario(source == "inference" ? std::string(lora1b) : source);
    if (source == "inference")
        s.training.mode = Mode::Inference;
    const auto r = exportTrainingSetup(s, ExportFormat(format));
    QVERIFY(!r);
    QCOMPARE(QString::fromStdString(r.error), QString::fromStdString(error));
}

void TestExports::formatNames()
{
    QCOMPARE(exportFormatNames(), (std::vector<std::string>{"deepspeed", "axolotl", "llamafactory",
                                                            "torchtune", "megatron", "accelerate",
                                                            "trl", "verl", "torchtitan", "swift"}));
    for (const auto &name : exportFormatNames())
        QCOMPARE(formatName(*exportFormatFromName(name)), name);
    QVERIFY(!exportFormatFromName("deepspeed.json"));
    QCOMPARE(QString::fromStdString(exportFileSuffix(ExportFormat::Axolotl)), QString(".yaml"));
    QCOMPARE(QString::fromStdString(exportFileSuffix(ExportFormat::Torchtitan)), QString(".toml"));
    QCOMPARE(QString::fromStdString(exportFileSuffix(ExportFormat::Verl)), QString(".sh"));
}

QTEST_APPLESS_MAIN(TestExports)

#include "tst_exports.moc"
