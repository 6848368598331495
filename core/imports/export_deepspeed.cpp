// exportTrainingSetup for DeepSpeed: a scenario as a DeepSpeed config JSON (export_setup.h).

#include "imports/export_setup_internal.h"

namespace vramplan::exports {

ExportResult deepspeed(const Facts &f)
{
    // https://www.deepspeed.ai/docs/config-json/ (deepspeed/runtime/config.py,
    // deepspeed/runtime/zero/config.py).
    ExportResult r;
    json out = json::object();
    out["train_micro_batch_size_per_gpu"] = f.training()["micro_batch_size"];
    out["gradient_accumulation_steps"] = f.training()["gradient_accumulation_steps"];
    const std::string p = f.precision();
    out["bf16"] = {{"enabled", p == "bf16_mixed" || p == "bf16" || p == "amp_bf16" || p == "fp8_mixed"}};
    out["fp16"] = {{"enabled", p == "fp16_mixed" || p == "amp_fp16"}};
    if (p == "bf16")
        r.notes.push_back("training.precision: DeepSpeed's bf16 keeps fp32 master weights and "
                          "optimizer states (bf16_mixed); pure bf16 is not a DeepSpeed setting");
    if (p == "amp_bf16" || p == "amp_fp16")
        r.notes.push_back("training.precision: " + p + " (autocast over fp32 weights) is written "
                          "as DeepSpeed's 16-bit engine, whose weights are 16-bit");
    if (p == "fp8_mixed")
        r.notes.push_back("training.precision: fp8 GEMMs (Transformer Engine) are not a DeepSpeed "
                          "config key; written as bf16");
    json zero = {{"stage", f.zero()}};
    if (f.offload("offload_optimizer") != "none")
        zero["offload_optimizer"] = {{"device", f.offload("offload_optimizer")}};
    if (f.offload("offload_parameters") != "none") {
        zero["offload_param"] = {{"device", f.offload("offload_parameters")}};
        if (f.zero() < 3)
            r.notes.push_back("parallelism.offload_parameters: DeepSpeed offloads parameters "
                              "only at ZeRO stage 3");
    }
    out["zero_optimization"] = zero;
    if (f.recompute())
        r.notes.push_back("training.activation_recompute: set by the trainer "
                          "(gradient_checkpointing), not by this file");
    r.text = out.dump(2) + "\n";
    return r;
}

} // namespace vramplan::exports
