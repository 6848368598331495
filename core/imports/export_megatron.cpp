// exportTrainingSetup for Megatron-LM: a scenario as pretrain_gpt.py flags, one per line.

#include "imports/export_setup_internal.h"

#include "imports/import_draft.h"

namespace vramplan::exports {

ExportResult megatron(const Facts &f)
{
    // pretrain_gpt.py flags (megatron/training/arguments.py, generated from
    // megatron/core/transformer/transformer_config.py and model_parallel_config.py).
    ExportResult r;
    std::vector<std::string> flags;
    const auto flag = [&flags](const std::string &name, const std::string &value = "") {
        flags.push_back("--" + name + (value.empty() ? "" : " " + value));
    };
    const json &p = f.parallel(), &t = f.training(), &m = f.s["model"];
    const int64_t tp = p["tensor_parallel"].get<int64_t>(), pp = p["pipeline_parallel"].get<int64_t>(),
                  cp = p["context_parallel"].get<int64_t>();
    flag("tensor-model-parallel-size", std::to_string(tp));
    flag("pipeline-model-parallel-size", std::to_string(pp));
    flag("context-parallel-size", std::to_string(cp));
    if (p["expert_parallel"].get<int64_t>() > 1)
        flag("expert-model-parallel-size", p["expert_parallel"].dump());
    if (p["sequence_parallel"].get<bool>() && tp > 1)
        flag("sequence-parallel");
    if (f.zero() == 1 || f.zero() == 2)
        flag("use-distributed-optimizer");
    if (f.zero() == 3)
        r.notes.push_back("parallelism.zero_stage: 3 is written as the distributed optimizer "
                          "(ZeRO-1); Megatron-FSDP is --use-megatron-fsdp");
    if (f.zero() == 3)
        flag("use-distributed-optimizer");
    const int64_t gpus = p["gpus"].get<int64_t>();
    const int64_t dp = std::max<int64_t>(1, gpus / std::max<int64_t>(1, tp * pp * cp));
    const int64_t micro = t["micro_batch_size"].get<int64_t>();
    flag("micro-batch-size", std::to_string(micro));
    flag("global-batch-size", std::to_string(micro * t["gradient_accumulation_steps"].get<int64_t>() * dp));
    flag("seq-length", t["sequence_length"].dump());
    const std::string prec = f.precision();
    if (prec == "bf16_mixed" || prec == "bf16" || prec == "amp_bf16")
        flag("bf16");
    else if (prec == "fp16_mixed" || prec == "amp_fp16")
        flag("fp16");
    else if (prec == "fp8_mixed") {
        flag("bf16");
        flag("fp8-format", "hybrid");
    }
    if (prec == "bf16" || prec == "amp_bf16" || prec == "amp_fp16")
        r.notes.push_back("training.precision: Megatron's --bf16/--fp16 keep fp32 main parameters "
                          "(bf16_mixed/fp16_mixed)");
    const std::string rec = t["activation_recompute"].get<std::string>();
    if (rec == "full") {
        flag("recompute-granularity", "full");
        if (t.contains("recompute_layers") && t["recompute_layers"].get<int64_t>() > 0) {
            flag("recompute-method", "block");
            flag("recompute-num-layers", t["recompute_layers"].dump());
        } else {
            flag("recompute-method", "uniform");
            flag("recompute-num-layers", "1");
        }
    } else if (rec == "selective") {
        flag("recompute-granularity", "selective");
    }
    flag("attention-backend", t["attention"] == "flash" ? "auto" : "unfused");
    flag("hidden-dropout", t["dropout"].dump());
    flag("attention-dropout", t["dropout"].dump());
    if (t.value("loss", "standard") == "fused")
        flag("cross-entropy-loss-fusion");
    if (t.value("grouped_gemm", false))
        flag("moe-grouped-gemm");
    const std::string opt = t["optimizer"].get<std::string>();
    if (opt == "adamw" || opt == "adam")
        flag("optimizer", "adam");
    else if (opt == "sgd" || opt == "sgd_momentum")
        flag("optimizer", "sgd");
    else
        r.notes.push_back("training.optimizer: '" + opt + "' is not a Megatron optimizer");
    if (f.method() != "full")
        r.notes.push_back("training.finetune: pretrain_gpt.py trains every weight; LoRA is not "
                          "written");
    // The model's shapes; the tokenizer (and so the vocabulary) is the user's to add.
    flag("num-layers", m["layers"].dump());
    flag("hidden-size", m["hidden_size"].dump());
    flag("ffn-hidden-size", m["ffn_hidden_size"].dump());
    flag("num-attention-heads", m["attention_heads"].dump());
    if (m["kv_heads"] != m["attention_heads"]) {
        flag("group-query-attention");
        flag("num-query-groups", m["kv_heads"].dump());
    }
    flag("kv-channels", m["head_dim"].dump());
    flag("max-position-embeddings", m["max_positions"].dump());
    if (m["positions"] == "rope")
        flag("position-embedding-type", "rope");
    if (m["ffn_type"] == "swiglu")
        flag("swiglu");
    flag("normalization", m["norm"] == "rmsnorm" ? "RMSNorm" : "LayerNorm");
    if (!m["tied_embeddings"].get<bool>())
        flag("untie-embeddings-and-output-weights");
    if (!m["bias"].get<bool>())
        flag("disable-bias-linear");
    r.notes.push_back("model.vocab_size: " + m["vocab_size"].dump() +
                      "; give the tokenizer (--tokenizer-type, --tokenizer-model)");
    std::ostringstream out;
    for (std::size_t i = 0; i < flags.size(); ++i)
        out << "    " << flags[i] << (i + 1 < flags.size() ? " \\\n" : "\n");
    r.text = out.str();
    return r;
}

} // namespace vramplan::exports
