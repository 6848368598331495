// exportTrainingSetup for Accelerate: a scenario as an Accelerate config YAML (`accelerate launch
// --config_file FILE`), the launcher's part of a run: the GPU count, the engine and its sharding,
// mixed precision. Keys as huggingface/accelerate writes them (src/accelerate/commands/config/
// config_args.py ClusterConfig; src/accelerate/utils/dataclasses.py DeepSpeedPlugin,
// FullyShardedDataParallelPlugin), as in LLaMA-Factory's examples/accelerate/fsdp_config.yaml
// and TRL's trl/accelerate_configs/.

#include "imports/export_setup_internal.h"

namespace vramplan::exports {
namespace {

const char *yes(bool b)
{
    return b ? "true" : "false";
}

void fsdpConfig(const Facts &f, std::ostringstream &out, std::vector<std::string> &notes)
{
    const bool offload = fsdpOffload(f, notes);
    const bool reshard = f.zero() >= 3;
    out << "fsdp_config:\n";
    // Whole decoder layers are FSDP's units, as the planner assumes (one layer gathered at a
    // time); without a wrap policy the model is one unit, gathered whole.
    out << "  fsdp_auto_wrap_policy: TRANSFORMER_BASED_WRAP\n";
    if (f.fsdpVersion() == 2) {
        out << "  fsdp_version: 2\n";
        out << "  fsdp_reshard_after_forward: " << yes(reshard) << "\n";
    } else {
        if (f.fsdpVersion() == 1)
            out << "  fsdp_version: 1\n";
        out << "  fsdp_sharding_strategy: " << (reshard ? "FULL_SHARD" : "SHARD_GRAD_OP") << "\n";
    }
    out << "  fsdp_offload_params: " << yes(offload) << "\n";
    // FSDP's own activation checkpointing (per wrapped layer), so the file says it whatever the
    // trainer's gradient_checkpointing (which the HF Trainer refuses beside it).
    const std::string recompute = f.training()["activation_recompute"].get<std::string>();
    out << "  fsdp_activation_checkpointing: " << yes(recompute == "full") << "\n";
    if (recompute == "selective")
        notes.push_back("training.activation_recompute: selective recomputation is not an "
                        "Accelerate setting; written as fsdp_activation_checkpointing false");
}

} // namespace

ExportResult accelerate(const Facts &f)
{
    ExportResult r;
    std::ostringstream out;
    out << "compute_environment: LOCAL_MACHINE\n";
    const bool deepspeed = f.framework() == "deepspeed";
    if (f.framework() == "megatron")
        r.notes.push_back("framework: megatron is not launched by Accelerate; written as data "
                          "parallelism");
    const std::string type = deepspeed      ? "DEEPSPEED"
                             : f.fsdp()     ? "FSDP"
                             : f.gpus() > 1 ? "MULTI_GPU"
                                            : "NO";
    // 'NO' and 'no' quoted, as `accelerate config` writes them: YAML 1.1 reads them as false.
    out << "distributed_type: " << (type == "NO" ? "'NO'" : type) << "\n";
    if (deepspeed) {
        out << "deepspeed_config:\n";
        out << "  zero_stage: " << f.zero() << "\n";
        out << "  offload_optimizer_device: " << f.offload("offload_optimizer") << "\n";
        out << "  offload_param_device: " << f.offload("offload_parameters") << "\n";
        out << "  gradient_accumulation_steps: " << f.accumulation() << "\n";
        if (f.offload("offload_parameters") != "none" && f.zero() < 3)
            r.notes.push_back("parallelism.offload_parameters: DeepSpeed offloads parameters "
                              "only at ZeRO stage 3");
        if (f.recompute())
            r.notes.push_back("training.activation_recompute: set by the trainer "
                              "(gradient_checkpointing), not by this file");
    } else if (f.fsdp()) {
        fsdpConfig(f, out, r.notes);
    } else if (f.recompute()) {
        r.notes.push_back("training.activation_recompute: set by the trainer "
                          "(gradient_checkpointing), not by this file");
    }
    const std::string p = f.precision();
    const std::string mixed = p == "bf16_mixed" || p == "amp_bf16" || p == "bf16" ? "bf16"
                              : p == "fp16_mixed" || p == "amp_fp16"              ? "fp16"
                              : p == "fp8_mixed"                                  ? "fp8"
                                                                                  : "no";
    out << "mixed_precision: " << (mixed == "no" ? "'no'" : mixed) << "\n";
    if (p == "bf16")
        r.notes.push_back("training.precision: pure bf16 is the dtype the trainer loads the "
                          "weights in, not an Accelerate setting; mixed_precision bf16 keeps " +
                          std::string(deepspeed || f.fsdp() ? "fp32 master weights (bf16_mixed)"
                                                            : "autocast (amp_bf16)"));
    if ((deepspeed || f.fsdp()) && (p == "amp_bf16" || p == "amp_fp16"))
        r.notes.push_back(
            "training.precision: " + p + " under " + (deepspeed ? "DeepSpeed" : "FSDP") +
            ": mixed_precision " + mixed + " keeps fp32 " +
            (deepspeed ? "master weights beside 16-bit ones" : "shards and gathers 16-bit copies") +
            " (" + mixed + "_mixed)");
    if (!deepspeed && !f.fsdp() && (p == "bf16_mixed" || p == "fp16_mixed"))
        r.notes.push_back("training.precision: " + p +
                          " without DeepSpeed or FSDP is autocast "
                          "over fp32 weights in Accelerate (amp_" +
                          p.substr(0, 4) + ")");
    // num_processes counts every GPU of every machine; eight to a machine past eight GPUs.
    const int64_t machines = f.gpus() > 8 && f.gpus() % 8 == 0 ? f.gpus() / 8 : 1;
    out << "num_machines: " << machines << "\n";
    out << "num_processes: " << f.gpus() << "\n";
    if (f.gpus() > 8)
        r.notes.push_back("parallelism.gpus: " + std::to_string(f.gpus()) + " GPUs written as " +
                          std::to_string(machines) +
                          " machine(s); set machine_rank and "
                          "main_process_ip on each");
    r.notes.push_back("training.micro_batch_size: the trainer's (per_device_train_batch_size), "
                      "not this file's");
    commonTrainerNotes(f, r.notes);
    r.text = out.str();
    return r;
}

} // namespace vramplan::exports
