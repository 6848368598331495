// exportTrainingSetup for torchtune: a scenario as recipe overrides, key=value per line.

#include "imports/export_setup_internal.h"

#include "imports/import_draft.h"

namespace vramplan::exports {

ExportResult torchtune(const Facts &f)
{
    // Overrides of a recipe config (`tune run RECIPE --config CONFIG key=value ...`), keys of
    // recipes/configs/ and recipes/*.py.
    ExportResult r;
    std::ostringstream out;
    const std::string method = f.method();
    const std::string builder = imports::torchtuneBuilderOfPreset(f.preset());
    if (!builder.empty()) {
        const std::string prefix = method == "qlora" ? "qlora_" : method == "lora" ? "lora_" : "";
        out << "model._component_=torchtune.models." << imports::torchtuneModuleOf(builder) << "."
            << prefix << builder << "\n";
    } else {
        r.notes.push_back("model._component_: the scenario's model has no torchtune builder; "
                          "keep the recipe's");
    }
    if (method != "full") {
        out << "model.lora_rank=" << f.training()["finetune"]["lora_rank"].dump() << "\n";
        std::vector<std::string> attn;
        bool mlp = false, head = false;
        std::vector<std::string> targets = f.targets();
        if (f.allLinear())
            targets = {"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"};
        for (const auto &t : targets) {
            if (t == "q_proj" || t == "k_proj" || t == "v_proj")
                attn.push_back(t);
            else if (t == "o_proj")
                attn.push_back("output_proj");
            else if (t == "gate_proj" || t == "up_proj" || t == "down_proj")
                mlp = true;
            else if (t == "lm_head")
                head = true;
            else
                r.notes.push_back("training.finetune.lora_targets: '" + t +
                                  "' has no torchtune switch");
        }
        std::string list;
        for (const auto &a : attn)
            list += (list.empty() ? "" : ",") + a;
        out << "model.lora_attn_modules=[" << list << "]\n";
        out << "model.apply_lora_to_mlp=" << (mlp ? "True" : "False") << "\n";
        if (head)
            out << "model.apply_lora_to_output=True\n";
    }
    out << "batch_size=" << f.training()["micro_batch_size"].dump() << "\n";
    out << "gradient_accumulation_steps=" << f.training()["gradient_accumulation_steps"].dump() << "\n";
    out << "tokenizer.max_seq_len=" << f.training()["sequence_length"].dump() << "\n";
    const std::string p = f.precision();
    if (p == "bf16" || p == "fp32") {
        out << "dtype=" << p << "\n";
    } else {
        out << "dtype=bf16\n";
        r.notes.push_back("training.precision: torchtune trains in bf16 or fp32 only; " + p +
                          " is written as bf16 (pure)");
    }
    out << "enable_activation_checkpointing=" << (f.recompute() ? "True" : "False") << "\n";
    if (f.training().value("compile", false))
        out << "compile=True\n";
    if (f.offload("offload_parameters") == "cpu" || f.offload("offload_optimizer") == "cpu")
        out << "fsdp_cpu_offload=True\n";
    if (f.zero() == 2)
        out << "fsdp_reshard_after_forward=False\n";
    if (f.parallel()["gpus"].get<int64_t>() > 1 && f.zero() == 0)
        r.notes.push_back("parallelism.zero_stage: torchtune's distributed recipes always shard "
                          "with FSDP2");
    r.text = out.str();
    return r;
}

} // namespace vramplan::exports
