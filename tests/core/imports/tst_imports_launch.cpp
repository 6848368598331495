// Issue 24, second part: launch scripts (Megatron-LM, ms-swift, verl), torchtitan TOML and LitGPT
// YAML imported into scenarios, and the shell-word splitter they rest on
// (core/imports/shell_script.h). Every file is a real one from the tool's repository
// (tests/data/imports/README.md: repository, path, commit); the expected fields are derived by
// hand from the file and the tool's rules, which the comments quote.

#include "importtesting.h"
#include "imports/import_setup.h"
#include "imports/shell_script.h"

#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <nlohmann/json.hpp>

using namespace vramplan;
using nlohmann::json;
using namespace vramplan::test;

Q_DECLARE_METATYPE(std::string)

namespace {

std::string expandF(std::string text, const std::string &path)
{
    for (std::size_t at = text.find("F0:"); at != std::string::npos;
         at = text.find("F0:", at + path.size() + 1))
        text.replace(at, 3, path + ":");
    return text;
}

std::vector<std::string> wordsOf(const imports::ShellCommand &c)
{
    std::vector<std::string> out;
    for (const auto &w : c.words)
        out.push_back(w.text);
    return out;
}

} // namespace

class TestImportsLaunch : public QObject
{
    Q_OBJECT

private slots:
    void realFiles_data();
    void realFiles();
    void errors_data();
    void errors();
    void shellWords_data();
    void shellWords();
    void shellUnknowns();
};

void TestImportsLaunch::realFiles_data()
{
    QTest::addColumn<std::string>("file");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<std::string>("model");
    QTest::addColumn<std::string>("fields");
    QTest::addColumn<std::string>("origins");
    QTest::addColumn<std::string>("warning");
    QTest::addColumn<std::string>("ignored");

    // --- Megatron-LM ---
    // Llama-3 8B FP8: torchrun --nproc_per_node 8 (GPUS_PER_NODE=8) x --nnodes 1 (NUM_NODES=1);
    // TP_SIZE=1, CP_SIZE=1; --sequence-parallel is dropped at TP 1; global 128 / (micro 1 x 8
    // data-parallel ranks) = 16 steps; DTYPE="fp8" takes the `if` that adds --fp8-format hybrid;
    // TOKENIZER_ARG=${3:-"MOCK"} takes the mock branch: NullTokenizer --vocab-size 128256,
    // a multiple of 128 x TP 1 already; the model from --num-layers 32 ... --swiglu, RMSNorm.
    QTest::newRow("megatron llama3 8B fp8")
        << std::string("megatron/train_llama3_8b_h100_fp8.sh") << 0 << std::string()
        << std::string(R"J({"framework": "megatron", "parallelism.gpus": 8,
             "parallelism.tensor_parallel": 1, "parallelism.sequence_parallel": false,
             "parallelism.zero_stage": 1, "training.micro_batch_size": 1,
             "training.gradient_accumulation_steps": 16, "training.sequence_length": 8192,
             "training.precision": "fp8_mixed", "training.optimizer": "adamw",
             "training.attention": "flash", "training.dropout": 0.0,
             "model.family": "llama", "model.layers": 32, "model.hidden_size": 4096,
             "model.ffn_hidden_size": 14336, "model.attention_heads": 32, "model.kv_heads": 8,
             "model.head_dim": 128, "model.vocab_size": 128256, "model.norm": "rmsnorm",
             "model.tied_embeddings": false, "model.bias": false, "model.positions": "rope",
             "model.ffn_type": "swiglu", "model.max_positions": 8192, "training.loss": "fused"})J")
        << std::string(R"J({"parallelism.gpus": "F0:187: torchrun --nproc_per_node 8 x --nnodes 1",
             "training.loss": "F0:--cross-entropy-loss-fusion (native impl)",
             "parallelism.sequence_parallel": "F0:--sequence-parallel (off at tensor parallel 1: megatron/training/arguments.py)",
             "training.gradient_accumulation_steps": "F0:--global-batch-size 128 / (--micro-batch-size 1 x 8 data-parallel ranks)",
             "model.kv_heads": "F0:--num-query-groups"})J")
        << std::string("PWD is not set in the script (its arguments or the environment); left as written in --data-cache-path")
        << std::string("F0:--adam-beta1");
    // GPT-3 175B: TP 8 x PP 16 = 128 GPUs per replica, which the script's 8 GPUs cannot hold
    // (an error below); on 1024 GPUs, 8 data-parallel ranks: 1536 / (1 x 8) = 192 steps. Its
    // vocabulary is a file ($3): the model is given, gpt2-medium (16 heads divide by TP 8).
    // No --hidden-dropout: Megatron's 0.1.
    QTest::newRow("megatron gpt3 175B on 1024")
        << std::string("megatron/train_gpt3_175b_distributed.sh") << 1024 << std::string("gpt2-medium")
        << std::string(R"J({"parallelism.gpus": 1024, "parallelism.tensor_parallel": 8,
             "parallelism.pipeline_parallel": 16, "parallelism.zero_stage": 0,
             "training.gradient_accumulation_steps": 192, "training.precision": "fp16_mixed",
             "training.sequence_length": 2048, "training.dropout": 0.1, "model.preset": "gpt2-medium"})J")
        << std::string(R"J({"training.dropout": "Megatron-LM default (megatron/core/transformer/transformer_config.py): hidden_dropout 0.1",
             "training.precision": "F0:--fp16"})J")
        << std::string("the batch grows during the run; the final --global-batch-size is planned")
        << std::string("F0:--num-layers");
    // Mixtral 8x7B: NNODES=${SLURM_NNODES:-"1"} is not literal: --gpus 64; PP 4, EP 8,
    // distributed optimizer; 256 / (1 x 64/4 = 16 ranks) = 16 steps. The tokenizer is $2.
    QTest::newRow("megatron mixtral")
        << std::string("megatron/train_mixtral_8x7b_distributed.sh") << 64 << std::string("mixtral-8x7b")
        << std::string(R"J({"parallelism.pipeline_parallel": 4, "parallelism.expert_parallel": 8,
             "parallelism.zero_stage": 1, "parallelism.sequence_parallel": false,
             "training.gradient_accumulation_steps": 16, "training.precision": "bf16_mixed",
             "training.sequence_length": 4096, "training.grouped_gemm": true})J")
        << std::string(R"J({"parallelism.expert_parallel": "F0:--expert-model-parallel-size",
             "training.grouped_gemm": "F0:--moe-grouped-gemm"})J")
        << std::string("this `if` depends on WANDB_API_KEY, which the script does not set; none of its branches is read")
        << std::string("F0:--num-experts");

    // --- ms-swift ---
    // swift sft LoRA on one GPU (CUDA_VISIBLE_DEVICES=0, no NPROC_PER_NODE); gradient
    // checkpointing is on by default (swift/trainers/arguments.py); bfloat16 weights trained as
    // loaded.
    QTest::newRow("swift lora_sft")
        << std::string("ms-swift/train_lora_sft.sh") << 0 << std::string()
        << std::string(R"J({"framework": "transformers", "training.loop": "trainer",
             "parallelism.gpus": 1, "model.preset": "qwen2.5-7b", "training.finetune.method": "lora",
             "training.finetune.lora_rank": 8, "training.finetune.lora_targets": ["all-linear"],
             "training.micro_batch_size": 1, "training.gradient_accumulation_steps": 16,
             "training.precision": "bf16", "training.sequence_length": 2048,
             "training.activation_recompute": "full"})J")
        << std::string(R"J({"parallelism.gpus": "F0:3: one process (no NPROC_PER_NODE), CUDA_VISIBLE_DEVICES=0",
             "training.activation_recompute": "ms-swift default (swift/trainers/arguments.py): gradient_checkpointing true",
             "model.layers": "preset qwen2.5-7b (F0:--model Qwen/Qwen2.5-7B-Instruct)"})J")
        << std::string() << std::string("F0:--learning_rate");
    // QLoRA through bitsandbytes: --quant_method bnb --quant_bits 4.
    QTest::newRow("swift qlora bnb")
        << std::string("ms-swift/bnb_train.sh") << 0 << std::string()
        << std::string(R"J({"training.finetune.method": "qlora", "training.finetune.base_weight_bits": 4,
             "training.finetune.lora_rank": 8, "training.gradient_accumulation_steps": 16})J")
        << std::string(R"J({"training.finetune.method": "F0:--quant_bits"})J")
        << std::string() << std::string("F0:--warmup_ratio");
    // Full fine-tune of Qwen2.5-32B (no preset: qwen2.5-72b stands in) on NPROC_PER_NODE=8,
    // --deepspeed zero3 (swift/config/zero3.json: stage 3, no offload), packed to 8192, Liger.
    QTest::newRow("swift full zero3")
        << std::string("ms-swift/full_qwen2_5_32b.sh") << 0 << std::string("qwen2.5-72b")
        << std::string(R"J({"parallelism.gpus": 8, "framework": "deepspeed", "parallelism.zero_stage": 3,
             "parallelism.offload_optimizer": "none", "training.finetune.method": "full",
             "training.micro_batch_size": 1, "training.gradient_accumulation_steps": 2,
             "training.sequence_length": 8192, "training.precision": "bf16_mixed",
             "training.loss": "fused_linear", "training.attention": "flash"})J")
        << std::string(R"J({"parallelism.gpus": "F0:2: NPROC_PER_NODE=8",
             "parallelism.zero_stage": "F0:--deepspeed zero3 (swift/config/zero3.json)"})J")
        << std::string() << std::string("F0:--save_only_model");
    // megatron sft LoRA on NPROC_PER_NODE=2 with TP 2: one data-parallel rank, 16 / (16 x 1) = 1;
    // the distributed optimizer is Megatron-SWIFT's default.
    QTest::newRow("swift megatron lora")
        << std::string("ms-swift/lora_dense.sh") << 0 << std::string()
        << std::string(R"J({"framework": "megatron", "parallelism.gpus": 2, "parallelism.tensor_parallel": 2,
             "parallelism.sequence_parallel": true, "parallelism.zero_stage": 1,
             "training.micro_batch_size": 16, "training.gradient_accumulation_steps": 1,
             "training.activation_recompute": "full", "training.finetune.method": "lora",
             "training.optimizer": "adamw", "training.loss": "fused"})J")
        << std::string(R"J({"parallelism.zero_stage": "ms-swift default (swift/megatron/arguments/megatron_args.py): use_distributed_optimizer true (main parameters and optimizer states sharded: ZeRO-1)",
             "training.loss": "F0:--cross_entropy_loss_fusion (Megatron's native fused cross-entropy)"})J")
        << std::string("no --torch_dtype") << std::string("F0:--lr");

    // --- torchtitan ---
    // Llama 3 8B on 64 GPUs: data_parallel_shard_degree -1 takes all 64: FSDP2, bf16 params over
    // fp32 shards; selective AC with option "op".
    QTest::newRow("torchtitan 8B on 64")
        << std::string("torchtitan/llama3_8b.toml") << 64 << std::string()
        << std::string(R"J({"framework": "torchtitan", "model.preset": "llama-3.1-8b",
             "training.micro_batch_size": 1, "training.sequence_length": 8192,
             "parallelism.zero_stage": 3, "parallelism.fsdp_version": 2,
             "training.precision": "bf16_mixed", "training.activation_recompute": "selective",
             "training.optimizer": "adamw", "training.optimizer_implementation": "fused"})J")
        << std::string(R"J({"parallelism.zero_stage": "F0:parallelism.data_parallel_shard_degree (-1: the 64 GPUs left) (FSDP2)",
             "training.activation_recompute": "F0:activation_checkpoint.mode, selective_ac_option op (matmul outputs kept, the rest recomputed)"})J")
        << std::string() << std::string("F0:checkpoint.interval");
    // The same on one GPU: no sharding, mixed precision through torch.autocast.
    QTest::newRow("torchtitan 8B on 1")
        << std::string("torchtitan/llama3_8b.toml") << 1 << std::string()
        << std::string(R"J({"parallelism.zero_stage": 0, "training.precision": "amp_bf16"})J")
        << std::string(R"J({"training.precision": "torchtitan default (torchtitan/config/job_config.py): mixed_precision_param bfloat16 (torch.autocast under DDP or on one GPU)"})J")
        << std::string() << std::string("F0:job.description");
    // 70B: TP 8, so -1 shards over 64 / 8 = 8; local batch 8; full AC.
    QTest::newRow("torchtitan 70B on 64")
        << std::string("torchtitan/llama3_70b.toml") << 64 << std::string()
        << std::string(R"J({"model.preset": "llama-3.1-70b", "parallelism.tensor_parallel": 8,
             "parallelism.zero_stage": 3, "training.micro_batch_size": 8,
             "training.activation_recompute": "full"})J")
        << std::string(R"J({"parallelism.zero_stage": "F0:parallelism.data_parallel_shard_degree (-1: the 8 GPUs left) (FSDP2)"})J")
        << std::string() << std::string("F0:job.description");
    // 405B: local batch 2, compile on (model and loss), float8 converters warned.
    QTest::newRow("torchtitan 405B on 512")
        << std::string("torchtitan/llama3_405b.toml") << 512 << std::string()
        << std::string(R"J({"model.preset": "llama-3.1-405b", "training.micro_batch_size": 2,
             "training.compile": true, "parallelism.tensor_parallel": 8})J")
        << std::string("{}") << std::string("(float8 or MX training) is not modelled")
        << std::string("F0:parallelism.enable_async_tensor_parallel");

    // --- LitGPT ---
    // LoRA on Llama-3.2-1B, one device: r 32, query and value, bf16-true; accumulation
    // global 8 // 1 device // micro ...
    QTest::newRow("litgpt lora 1B")
        << std::string("litgpt/llama-3.2-1B_lora.yaml") << 0 << std::string()
        << std::string(R"J({"framework": "litgpt", "model.preset": "llama-3.2-1b", "parallelism.gpus": 1,
             "training.finetune.method": "lora", "training.finetune.lora_rank": 32,
             "training.finetune.lora_targets": ["q_proj", "v_proj"], "training.precision": "bf16",
             "training.activation_recompute": "none"})J")
        << std::string(R"J({"training.precision": "F0:precision (weights, gradients and optimizer states in bf16)"})J")
        << std::string() << std::string("F0:out_dir");
    // QLoRA: quantize bnb.nf4; global 8 // 1 // micro 2 = 4 steps; max_seq_length 512.
    QTest::newRow("litgpt qlora 1B")
        << std::string("litgpt/llama-3.2-1B_qlora.yaml") << 0 << std::string()
        << std::string(R"J({"training.finetune.method": "qlora", "training.finetune.base_weight_bits": 4,
             "training.micro_batch_size": 2, "training.gradient_accumulation_steps": 4,
             "training.sequence_length": 512})J")
        << std::string(R"J({"training.gradient_accumulation_steps": "F0:train.global_batch_size // 1 GPUs // micro_batch_size 2 (litgpt/args.py)"})J")
        << std::string() << std::string("F0:eval.interval");
    // Full fine-tune of Llama 3.1 8B on devices 4: FSDP (full.py's FSDPStrategy) with every
    // block checkpointed; global 64 // 4 // micro 4 = 4.
    QTest::newRow("litgpt full 8B")
        << std::string("litgpt/llama-3.1-8b_full.yaml") << 0 << std::string()
        << std::string(R"J({"model.preset": "llama-3.1-8b", "parallelism.gpus": 4, "parallelism.zero_stage": 3,
             "parallelism.fsdp_version": 1, "training.activation_recompute": "full",
             "training.finetune.method": "full", "training.micro_batch_size": 4,
             "training.gradient_accumulation_steps": 4})J")
        << std::string(R"J({"parallelism.gpus": "F0:devices x num_nodes 1"})J")
        << std::string() << std::string("F0:seed");

    // --- verl ---
    // GRPO on 8 GPUs (trainer.n_gpus_per_node=8 x nnodes=1): micro 40; the mini-batch 256 x
    // rollout.n 5 / 8 = 160 per GPU, 160 / 40 = 4 steps; prompt 512 + response 1024. The rl
    // section: GRPO (no critic), groups of 5, the KL loss (coefficient 0.001) needs the
    // reference model, whose parameters are offloaded; vLLM at 0.6 of the memory, TP 2.
    // Qwen2-7B-Instruct is no preset: qwen2.5-7b stands in.
    QTest::newRow("verl grpo qwen2 7B")
        << std::string("verl/run_qwen2-7b.sh") << 0 << std::string("qwen2.5-7b")
        << std::string(R"J({"framework": "transformers", "parallelism.gpus": 8, "parallelism.zero_stage": 3,
             "parallelism.fsdp_version": 1, "parallelism.offload_parameters": "none",
             "training.micro_batch_size": 40, "training.gradient_accumulation_steps": 4,
             "training.sequence_length": 1536, "training.activation_recompute": "full",
             "training.precision": "bf16_mixed", "rl.framework": "verl", "rl.algorithm": "grpo",
             "rl.critic": false, "rl.group_size": 5, "rl.prompt_tokens": 512,
             "rl.response_tokens": 1024, "rl.reference_model": true, "rl.beta": 0.001,
             "rl.rollout.engine": "vllm", "rl.rollout.gpu_memory_utilization": 0.6,
             "rl.rollout.tensor_parallel": 2, "rl.log_prob_micro_batch_size": 40,
             "rl.offload.policy_parameters": false, "rl.offload.reference": true})J")
        << std::string(R"J({"training.micro_batch_size": "F0:actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu",
             "rl.group_size": "F0:actor_rollout_ref.rollout.n",
             "rl.offload.reference": "F0:actor_rollout_ref.ref.fsdp_config.param_offload"})J")
        << std::string("HOME is not set in the script (its arguments or the environment); left as written in data.train_files, data.val_files")
        << std::string("F0:actor_rollout_ref.actor.optim.lr");
    // The same recipe for deepseek-llm-7b-chat with micro 80: 160 / 80 = 2 steps.
    QTest::newRow("verl grpo deepseek 7B")
        << std::string("verl/run_deepseek7b_llm.sh") << 0 << std::string("llama-2-7b")
        << std::string(R"J({"training.micro_batch_size": 80, "training.gradient_accumulation_steps": 2,
             "rl.rollout.engine": "vllm", "rl.log_prob_micro_batch_size": 160})J")
        << std::string("{}") << std::string()
        << std::string("F0:trainer.total_epochs");
    // Dynamic batch: 24000 tokens per GPU / 1536 per sample = 15 samples; rollout_name="sglang"
    // decides the script's `if` (not vllm).
    QTest::newRow("verl dynamic batch")
        << std::string("verl/run_qwen2-7b_seq_balance.sh") << 0 << std::string("qwen2.5-7b")
        << std::string(R"J({"training.micro_batch_size": 15, "rl.rollout.engine": "sglang"})J")
        << std::string("{}") << std::string("the async rollout server is planned as the colocated engine")
        << std::string("F0:data.return_raw_chat");
}

void TestImportsLaunch::realFiles()
{
    QFETCH(std::string, file);
    QFETCH(int, gpus);
    QFETCH(std::string, model);
    QFETCH(std::string, fields);
    QFETCH(std::string, origins);
    QFETCH(std::string, warning);
    QFETCH(std::string, ignored);
    const std::string path = fixture(file);
    const auto r = importTrainingSetup({path}, {model, gpus, "h100-80gb"});
    QVERIFY2(r, r.error.c_str());
    const ImportResult &result = *r.value;
    const json expectedFields = json::parse(fields), expectedOrigins = json::parse(origins);
    for (const auto &[key, value] : expectedFields.items()) {
        const json *got = at(result.scenarioJson, key);
        QVERIFY2(got, ("no field " + key).c_str());
        QVERIFY2(*got == value, (key + ": " + got->dump() + " != " + value.dump()).c_str());
    }
    for (const auto &[key, value] : expectedOrigins.items())
        QCOMPARE(QString::fromStdString(originOf(result, key)),
                 QString::fromStdString(expandF(value.get<std::string>(), path)));
    if (!warning.empty())
        QVERIFY2(contains(result.warnings, expandF(warning, path)), joined(result.warnings).c_str());
    QVERIFY2(contains(result.ignored, expandF(ignored, path)), joined(result.ignored).c_str());
}

void TestImportsLaunch::errors_data()
{
    QTest::addColumn<std::string>("text"); // a script the test writes, or ""
    QTest::addColumn<std::string>("file"); // else a real file
    QTest::addColumn<std::string>("model");
    QTest::addColumn<int>("gpus");
    QTest::addColumn<std::string>("error");
    // The script's 8 GPUs cannot hold TP 8 x PP 16.
    QTest::newRow("gpt3 on its 8 GPUs")
        << std::string() << std::string("megatron/train_gpt3_175b_distributed.sh") << std::string("gpt2-medium") << 0
        << std::string("F:56: --tensor-model-parallel-size: 8 GPUs are not a multiple of TP x PP x CP = 128");
    QTest::newRow("gpt3 vocabulary in a file")
        << std::string() << std::string("megatron/train_gpt3_175b_distributed.sh") << std::string() << 128
        << std::string("--model: F:62: --vocab-file: the vocabulary is in a tokenizer file the script names, which vramplan does not read; give --model PRESET|CONFIG|DIR");
    QTest::newRow("mixtral nodes from SLURM")
        << std::string() << std::string("megatron/train_mixtral_8x7b_distributed.sh") << std::string("mixtral-8x7b") << 0
        << std::string("--gpus: F:110: torchrun --nnodes 1 depends on SLURM_NNODES, which the script does not set; give --gpus N");
    QTest::newRow("swift hub id without preset")
        << std::string() << std::string("ms-swift/full_qwen2_5_32b.sh") << std::string() << 0
        << std::string("F:6: --model: 'Qwen/Qwen2.5-32B' is no bundled preset; give --model PRESET|CONFIG|DIR (its config.json or checkpoint folder)");
    QTest::newRow("micro-batch from the environment")
        << std::string("MBS=${MBS:-x}\ntorchrun --nproc_per_node 2 pretrain_gpt.py --micro-batch-size $MBS --num-layers 2\n")
        << std::string() << std::string("gpt2") << 0
        << std::string("F:2: --micro-batch-size: must be a whole number, got \"x\"");
    QTest::newRow("unknown cross-entropy fusion impl")
        << std::string("torchrun --nproc_per_node 2 pretrain_gpt.py --micro-batch-size 1 --num-layers 2 "
                       "--cross-entropy-loss-fusion --cross-entropy-fusion-impl triton\n")
        << std::string() << std::string("gpt2") << 0
        << std::string("F:1: --cross-entropy-fusion-impl: must be native or te, got 'triton'");
    QTest::newRow("no launch")
        << std::string("#!/bin/bash\necho hello\n") << std::string() << std::string("gpt2") << 1
        << std::string("F: a shell script that runs none of Megatron-LM's pretrain_gpt.py, ms-swift's swift/megatron sft|pt|rlhf, verl's verl.trainer.main_ppo");
    QTest::newRow("open quote")
        << std::string("#!/bin/sh\ntorchrun pretrain_gpt.py --seq-length '4096\n") << std::string() << std::string("gpt2") << 1
        << std::string("F:2: a single quote is never closed");
    QTest::newRow("verl needs a micro-batch")
        << std::string("python3 -m verl.trainer.main_ppo data.train_batch_size=8\n") << std::string() << std::string("gpt2") << 0
        << std::string("F:1: actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu is not set (nor actor_rollout_ref.actor.use_dynamic_bsz); verl requires one of them");
    QTest::newRow("toml syntax")
        << std::string("[training]\nlocal_batch_size = = 2\n") << std::string("x.toml") << std::string("gpt2") << 1
        << std::string("F:2: Error while parsing value: could not determine value type");
}

void TestImportsLaunch::errors()
{
    QFETCH(std::string, text);
    QFETCH(std::string, file);
    QFETCH(std::string, model);
    QFETCH(int, gpus);
    QFETCH(std::string, error);
    QTemporaryDir dir;
    std::string path;
    if (text.empty()) {
        path = fixture(file);
    } else {
        path = dir.path().toStdString() + "/" + (file.empty() ? "run.sh" : file);
        std::ofstream(path) << text;
    }
    const auto r = importTrainingSetup({path}, {model, gpus, "h100-80gb"});
    QVERIFY(!r);
    std::size_t at = error.find("F:");
    if (at != std::string::npos)
        error.replace(at, 1, path);
    QCOMPARE(QString::fromStdString(r.error), QString::fromStdString(error));
}

// Words as bash splits them (checked against bash 5.2 by hand: `printf '[%s]' ...`).
void TestImportsLaunch::shellWords_data()
{
    QTest::addColumn<std::string>("script");
    QTest::addColumn<std::string>("words"); // the last command's words, as a JSON list
    QTest::newRow("quotes and continuation")
        << std::string("cmd 'a b' \"c $X\" d\\\n  e # comment\n")
        << std::string(R"(["cmd", "a b", "c $X", "d", "e"])"); // $X unset: left as written
    QTest::newRow("variables")
        << std::string("A=1\nB=\"two words\"\ncmd $A ${A}x $B \"$B\"\n")
        << std::string(R"(["cmd", "1", "1x", "two", "words", "two words"])");
    QTest::newRow("arrays")
        << std::string("ARGS=(\n  --a 1 # c\n  \"--b 2\"\n)\nARGS+=(--c)\ncmd ${ARGS[@]} \"${ARGS[@]}\" ${ARGS[1]}\n")
        << std::string(R"(["cmd", "--a", "1", "--b", "2", "--c", "--a", "1", "--b 2", "--c", "1"])");
    QTest::newRow("defaults and arithmetic")
        << std::string("N=8\nM=${M:-2}\ncmd ${N:-3} $((N*M)) $(( $N + 1 )) ${Q:+x}\n")
        << std::string(R"(["cmd", "8", "16", "9"])");
    QTest::newRow("if decided")
        << std::string("D=fp8\nX=()\nif [[ \"$D\" == \"fp8\" ]]; then\n  X+=(--fp8)\nelse\n  X+=(--bf16)\nfi\ncmd ${X[@]}\n")
        << std::string(R"(["cmd", "--fp8"])");
    QTest::newRow("env prefix and redirection")
        << std::string("A=1 B=2 cmd x 2>&1 > log.txt\n")
        << std::string(R"(["cmd", "x"])");
}

void TestImportsLaunch::shellWords()
{
    QFETCH(std::string, script);
    QFETCH(std::string, words);
    const auto s = imports::readShellScript("t.sh", script);
    QVERIFY(!s.commands.empty());
    QCOMPARE(QString::fromStdString(json(wordsOf(s.commands.back())).dump()),
             QString::fromStdString(json::parse(words).dump()));
}

void TestImportsLaunch::shellUnknowns()
{
    // $1 and the environment are left as written and named; a default stands in and is named.
    const auto s = imports::readShellScript(
        "t.sh", "P=${1:-/data}\nN=${NNODES:-1}\ncmd $HOME $P $N $(hostname)\nif [ -n \"$KEY\" ]; then\n  A=1\nfi\n");
    QCOMPARE(int(s.commands.size()), 1);
    const auto &w = s.commands[0].words;
    QCOMPARE(QString::fromStdString(w[1].text), QString("$HOME"));
    QCOMPARE(QString::fromStdString(w[1].unknowns.at(0)), QString("HOME"));
    QCOMPARE(QString::fromStdString(w[2].text), QString("/data"));
    QCOMPARE(QString::fromStdString(w[2].defaulted.at(0)), QString("$1"));
    QCOMPARE(QString::fromStdString(w[3].defaulted.at(0)), QString("NNODES"));
    QVERIFY(!w[3].literal());
    QCOMPARE(QString::fromStdString(w[4].text), QString("$(hostname)"));
    QVERIFY(!w[4].unknowns.empty());
    QVERIFY2(!s.notes.empty() && s.notes.back().find("depends on KEY") != std::string::npos,
             s.notes.empty() ? "no note" : s.notes.back().c_str());
}

QTEST_APPLESS_MAIN(TestImportsLaunch)

#include "tst_imports_launch.moc"
