// exportTrainingSetup for torchtitan: a scenario as a train config TOML (`torchrun ... -m
// torchtitan.train --job.config_file FILE`), keys of torchtitan/config/job_config.py at v0.2.2
// (73a0e69), the last release read from TOML: [model], [training], [parallelism],
// [activation_checkpoint], [compile], [optimizer]. torchtitan_import.cpp reads them back.

#include "imports/export_setup_internal.h"

namespace vramplan::exports {
namespace {

// torchtitan's model name and flavor of a bundled preset (torchtitan/models/<name>/__init__.py);
// the inverse of torchtitan_import.cpp's table, which the round trip in tst_exports checks.
std::pair<std::string, std::string> modelOf(const std::string &preset)
{
    static const std::tuple<const char *, const char *, const char *> table[] = {
        {"llama-3.1-8b", "llama3", "8B"},     {"llama-3.1-70b", "llama3", "70B"},
        {"llama-3.1-405b", "llama3", "405B"}, {"qwen3-0.6b", "qwen3", "0.6B"},
        {"qwen3-1.7b", "qwen3", "1.7B"},      {"qwen3-4b", "qwen3", "4B"},
        {"qwen3-8b", "qwen3", "8B"},          {"qwen3-14b", "qwen3", "14B"},
        {"qwen3-32b", "qwen3", "32B"},        {"deepseek-v3", "deepseek_v3", "671B"},
    };
    for (const auto &[id, name, flavor] : table)
        if (preset == id)
            return {name, flavor};
    return {};
}

std::string quoted(const std::string &text)
{
    return json(text).dump();
}

} // namespace

ExportResult torchtitan(const Facts &f)
{
    ExportResult r;
    std::ostringstream out;
    const auto [name, flavor] = modelOf(f.preset());
    out << "[model]\n";
    if (!name.empty()) {
        out << "name = " << quoted(name) << "\nflavor = " << quoted(flavor) << "\n";
    } else {
        out << "# name, flavor: the torchtitan model (vramplan's model is not one of its "
               "flavors)\n";
        r.notes.push_back("model: not written: the scenario's model is not a torchtitan "
                          "model flavor; name it");
    }
    if (f.method() != "full")
        r.notes.push_back("training.finetune: torchtitan trains every weight; LoRA is not "
                          "written");

    const json &p = f.parallel();
    const int64_t tp = p["tensor_parallel"].get<int64_t>(),
                  pp = p["pipeline_parallel"].get<int64_t>(),
                  cp = p["context_parallel"].get<int64_t>(),
                  ep = p["expert_parallel"].get<int64_t>();
    const int64_t dp = f.dataParallel();
    // FSDP2 shards over the data-parallel ranks (shard degree); without sharding they
    // replicate (DDP).
    const bool shard = f.zero() > 0 && f.framework() != "deepspeed";
    if (f.framework() == "deepspeed")
        r.notes.push_back("framework: deepspeed: torchtitan shards with FSDP2; ZeRO-" +
                          std::to_string(f.zero()) + " is written as no sharding");
    if (f.zero() == 1 && shard)
        r.notes.push_back("parallelism.zero_stage: 1 is not an FSDP2 strategy; written as "
                          "fsdp_reshard_after_forward \"never\" (ZeRO-2)");
    if (!shard && cp > 1)
        r.notes.push_back("parallelism.context_parallel: torchtitan shards with FSDP2 wherever "
                          "context parallelism runs; written without resharding (ZeRO-2)");
    if (shard && dp == 1 && cp == 1)
        r.notes.push_back("parallelism.zero_stage: " + std::to_string(f.zero()) +
                          " over one data-parallel rank shards nothing");
    if (f.offload("offload_parameters") != "none" || f.offload("offload_optimizer") != "none")
        r.notes.push_back("parallelism.offload_*: CPU offload is not written (torchtitan's "
                          "training.enable_cpu_offload offloads parameters, gradients and "
                          "states together)");

    out << "\n[training]\n";
    out << "local_batch_size = " << f.micro() << "\n";
    out << "global_batch_size = " << f.micro() * f.accumulation() * dp << "\n";
    out << "seq_len = " << f.training()["sequence_length"].dump() << "\n";
    // Applied by fully_shard when sharded (bf16_mixed), by autocast under DDP or on one GPU
    // (amp_bf16), not at all with TP or PP without FSDP (torchtitan/distributed/utils.py).
    const std::string prec = f.precision();
    const bool fsdp = (shard && dp > 1) || cp > 1;
    const std::string reads = prec == "fp32"     ? "fp32"
                              : fsdp             ? "bf16_mixed"
                              : tp > 1 || pp > 1 ? "fp32"
                                                 : "amp_bf16";
    out << "mixed_precision_param = " << quoted(prec == "fp32" ? "float32" : "bfloat16") << "\n";
    if (prec != reads)
        r.notes.push_back("training.precision: " + prec +
                          ": torchtitan's mixed_precision_param "
                          "gives " +
                          reads + " in this layout");

    out << "\n[parallelism]\n";
    out << "data_parallel_replicate_degree = " << (shard ? 1 : dp) << "\n";
    out << "data_parallel_shard_degree = " << (shard ? dp : 1) << "\n";
    out << "tensor_parallel_degree = " << tp << "\n";
    out << "pipeline_parallel_degree = " << pp << "\n";
    out << "context_parallel_degree = " << cp << "\n";
    if (ep > 1)
        out << "expert_parallel_degree = " << ep << "\n";
    if (fsdp)
        out << "fsdp_reshard_after_forward = " << quoted(f.zero() >= 3 ? "always" : "never")
            << "\n";
    if (p["sequence_parallel"].get<bool>() != (tp > 1))
        r.notes.push_back("parallelism.sequence_parallel: torchtitan's tensor parallelism always "
                          "shards the sequence of the norms (on exactly when TP > 1)");

    out << "\n[activation_checkpoint]\n";
    const std::string recompute = f.training()["activation_recompute"].get<std::string>();
    out << "mode = " << quoted(recompute) << "\n";
    if (recompute == "selective")
        out << "selective_ac_option = \"op\"\n";
    if (f.training().value("recompute_layers", int64_t(-1)) > 0)
        r.notes.push_back("training.recompute_layers: a count of layers is not torchtitan's; "
                          "every layer is checkpointed");

    if (f.training().value("compile", false)) {
        out << "\n[compile]\nenable = true\n";
        out << "components = "
            << (f.training().value("compile_loss", true) ? "[\"model\", \"loss\"]" : "[\"model\"]")
            << "\n";
    }

    const std::string optimizer = f.training()["optimizer"].get<std::string>();
    if (optimizer == "adamw" || optimizer == "adam") {
        out << "\n[optimizer]\nname = " << quoted(optimizer == "adamw" ? "AdamW" : "Adam") << "\n";
        const std::string impl = f.training().value("optimizer_implementation", "auto");
        if (impl != "auto")
            out << "implementation = " << quoted(impl == "for_loop" ? "for-loop" : impl) << "\n";
    } else {
        r.notes.push_back("training.optimizer: '" + optimizer +
                          "' is not a torchtitan "
                          "optimizer (AdamW, Adam)");
    }
    r.text = out.str();
    return r;
}

} // namespace vramplan::exports
