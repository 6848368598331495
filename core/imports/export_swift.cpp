// exportTrainingSetup for ms-swift: a scenario as the launch script of `swift sft` (the Hugging
// Face Trainer with PEFT, DeepSpeed by name) or, under framework megatron, `megatron sft`
// (Megatron-SWIFT). Flags of ms-swift at 3602360 (2026-08), as swift_import.cpp reads them:
// swift/trainers/arguments.py, swift/arguments/base_args/*.py, tuner_args.py, sft_args.py
// (--deepspeed zero0..zero3, zero2_offload, zero3_offload: swift/config/<name>.json) and
// swift/megatron/arguments/megatron_args.py. --tuner_type is --train_type before ms-swift 4.

#include "imports/export_setup_internal.h"

#include "imports/import_draft.h"

namespace vramplan::exports {
namespace {

using Flags = std::vector<std::pair<std::string, std::string>>;

void tuner(const Facts &f, Flags &flags, std::vector<std::string> &notes)
{
    const std::string method = f.method();
    flags.emplace_back("tuner_type", method == "full" ? "full" : "lora");
    if (method == "full")
        return;
    flags.emplace_back("lora_rank", f.training()["finetune"]["lora_rank"].dump());
    std::string targets;
    for (const auto &t : f.targets())
        targets += (targets.empty() ? "" : " ") + t;
    flags.emplace_back("target_modules", targets);
    const int64_t bits = f.training()["finetune"]["base_weight_bits"].get<int64_t>();
    if (method == "qlora" || bits == 8) {
        flags.emplace_back("quant_method", "bnb");
        flags.emplace_back("quant_bits", method == "qlora" ? "4" : "8");
        if (f.framework() == "megatron")
            notes.push_back("training.finetune.base_weight_bits: Megatron-SWIFT trains a 16-bit "
                            "base; --quant_bits is swift sft's");
    }
}

// The named DeepSpeed configs ms-swift ships (swift/config/*.json), or the JSON beside.
std::string deepspeedConfig(const Facts &f, std::vector<std::string> &notes)
{
    const std::string opt = f.offload("offload_optimizer"), par = f.offload("offload_parameters");
    if (opt == "none" && par == "none")
        return "zero" + std::to_string(f.zero());
    if (f.zero() == 2 && opt == "cpu" && par == "none")
        return "zero2_offload";
    if (f.zero() == 3 && opt == "cpu" && par == "cpu")
        return "zero3_offload";
    notes.push_back(std::string("parallelism.offload_*: no DeepSpeed config ms-swift ships "
                                "offloads so; --deepspeed names the JSON beside: `vramplan-cli "
                                "export PLAN --to deepspeed > ") +
                    deepspeedBeside + "`");
    return deepspeedBeside;
}

void trainerFlags(const Facts &f, Flags &flags, std::vector<std::string> &notes)
{
    flags.emplace_back("per_device_train_batch_size", std::to_string(f.micro()));
    flags.emplace_back("gradient_accumulation_steps", std::to_string(f.accumulation()));
    flags.emplace_back("max_length", f.training()["sequence_length"].dump());
    // model_args.py: the weights load in torch_dtype and train as loaded (pure bf16); DeepSpeed
    // keeps fp32 master weights beside them (bf16_mixed).
    const std::string p = f.precision();
    const bool deepspeed = f.framework() == "deepspeed" && f.zero() > 0;
    const std::string dtype = p == "fp32"                            ? "float32"
                              : p == "fp16_mixed" || p == "amp_fp16" ? "float16"
                                                                     : "bfloat16";
    flags.emplace_back("torch_dtype", dtype);
    const std::string reads = dtype == "float32"   ? "fp32"
                              : dtype == "float16" ? (deepspeed ? "fp16_mixed" : "amp_fp16")
                                                   : (deepspeed ? "bf16_mixed" : "bf16");
    if (p != reads)
        notes.push_back("training.precision: " + p + ": ms-swift's --torch_dtype " + dtype +
                        " trains " + reads + (deepspeed ? " under DeepSpeed" : ""));
    flags.emplace_back("gradient_checkpointing", f.recompute() ? "true" : "false");
    if (deepspeed)
        flags.emplace_back("deepspeed", deepspeedConfig(f, notes));
    else if (f.zero() > 0)
        notes.push_back("parallelism.zero_stage: FSDP is not a swift sft flag here; "
                        "written without sharding");
    if (f.training()["attention"] == "flash")
        flags.emplace_back("attn_impl", "flash_attn");
    else if (f.training()["attention"] == "sdpa" || f.training()["attention"] == "eager")
        flags.emplace_back("attn_impl", f.training()["attention"].get<std::string>());
    if (f.training().value("loss", "standard") == "fused_linear")
        flags.emplace_back("use_liger_kernel", "true");
    if (const std::string o = hfOptim(f.training()["optimizer"].get<std::string>(),
                                           f.training().value("optimizer_implementation", "auto")); !o.empty())
        flags.emplace_back("optim", o);
    commonTrainerNotes(f, notes);
}

void megatronFlags(const Facts &f, Flags &flags, std::vector<std::string> &notes)
{
    const json &p = f.parallel();
    const int64_t tp = p["tensor_parallel"].get<int64_t>();
    flags.emplace_back("tensor_model_parallel_size", std::to_string(tp));
    flags.emplace_back("pipeline_model_parallel_size", p["pipeline_parallel"].dump());
    flags.emplace_back("context_parallel_size", p["context_parallel"].dump());
    if (p["expert_parallel"].get<int64_t>() > 1)
        flags.emplace_back("expert_model_parallel_size", p["expert_parallel"].dump());
    if (p["sequence_parallel"].get<bool>() && tp > 1)
        flags.emplace_back("sequence_parallel", "true");
    flags.emplace_back("use_distributed_optimizer", f.zero() > 0 ? "true" : "false");
    if (f.zero() > 1)
        notes.push_back("parallelism.zero_stage: " + std::to_string(f.zero()) +
                        " is written as the distributed optimizer (ZeRO-1)");
    flags.emplace_back("micro_batch_size", std::to_string(f.micro()));
    flags.emplace_back("global_batch_size",
                       std::to_string(f.micro() * f.accumulation() * f.dataParallel()));
    flags.emplace_back("max_length", f.training()["sequence_length"].dump());
    const std::string rec = f.training()["activation_recompute"].get<std::string>();
    flags.emplace_back("recompute_granularity", rec);
    if (rec == "full") {
        const int64_t layers = f.training().value("recompute_layers", int64_t(-1));
        flags.emplace_back("recompute_method", layers > 0 ? "block" : "uniform");
        flags.emplace_back("recompute_num_layers", std::to_string(layers > 0 ? layers : 1));
    }
    // Written either way: ms-swift 4 fuses it by default, earlier releases did not.
    flags.emplace_back("cross_entropy_loss_fusion",
                       f.training().value("loss", "standard") == "fused" ? "true" : "false");
    // ms-swift groups the experts' GEMMs by default.
    if (f.training().value("grouped_gemm", false))
        flags.emplace_back("moe_grouped_gemm", "true");
    const std::string prec = f.precision();
    const std::string dtype = prec == "fp32"                               ? "float32"
                              : prec == "fp16_mixed" || prec == "amp_fp16" ? "float16"
                                                                           : "bfloat16";
    flags.emplace_back("torch_dtype", dtype);
    const std::string reads = dtype == "float32"   ? "fp32"
                              : dtype == "float16" ? "fp16_mixed"
                                                   : "bf16_mixed";
    if (prec != reads)
        notes.push_back("training.precision: " + prec +
                        ": Megatron-SWIFT keeps fp32 main "
                        "parameters (" +
                        reads + ")");
    const std::string opt = f.training()["optimizer"].get<std::string>();
    if (opt == "adamw" || opt == "adam")
        flags.emplace_back("optimizer", "adam");
    else if (opt == "sgd_momentum" || opt == "sgd")
        flags.emplace_back("optimizer", "sgd");
    else
        notes.push_back("training.optimizer: '" + opt + "' is not a Megatron-SWIFT optimizer");
}

} // namespace

ExportResult swift(const Facts &f)
{
    ExportResult r;
    const bool megatron = f.framework() == "megatron";
    Flags flags;
    const std::string hub = imports::hubIdOfPreset(f.preset());
    if (!hub.empty())
        flags.emplace_back("model", hub);
    else
        r.notes.push_back("--model: not written: the scenario's model has no hub id; name the "
                          "checkpoint");
    tuner(f, flags, r.notes);
    if (megatron)
        megatronFlags(f, flags, r.notes);
    else
        trainerFlags(f, flags, r.notes);
    if (f.hasRl())
        r.notes.push_back("rl: the rollout is not written (`swift rlhf --rlhf_type grpo` adds "
                          "its own flags); the policy's step is");

    std::ostringstream out;
    out << "#!/usr/bin/env bash\n";
    // swift/cli/main.py starts torchrun with NPROC_PER_NODE x NNODES processes.
    const int64_t gpus = f.gpus();
    const bool nodes = gpus > 8 && gpus % 8 == 0;
    if (nodes)
        out << "NNODES=" << gpus / 8 << " \\\n";
    out << "NPROC_PER_NODE=" << (nodes ? 8 : gpus) << " \\\n";
    out << (megatron ? "megatron sft" : "swift sft") << " \\\n";
    for (std::size_t i = 0; i < flags.size(); ++i)
        out << "    --" << flags[i].first << " " << flags[i].second
            << (i + 1 < flags.size() ? " \\\n" : "\n");
    r.text = out.str();
    return r;
}

} // namespace vramplan::exports
