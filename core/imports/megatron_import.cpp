// A shell script launching Megatron-LM's pretrain_gpt.py (NVIDIA/Megatron-LM examples/*.sh).
// Meanings and defaults from its code at commit d98e8a64 (2026-08): the flags are generated from
// megatron/core/transformer/transformer_config.py (hidden_dropout 0.1, normalization LayerNorm,
// add_bias_linear true) and megatron/core/model_parallel_config.py; megatron/training/
// arguments.py validates them (the FFN width 4h, or int(4h*2/3/64)*64 with --swiglu;
// kv_channels h/heads; sequence parallelism off at tensor parallel 1; position embeddings
// learned_absolute; the global batch is micro x data-parallel x accumulation and must divide);
// the vocabulary is padded to a multiple of --make-vocab-size-divisible-by (128) x TP
// (megatron/core/tokenizers/utils/build_tokenizer.py). --use-distributed-optimizer shards the
// fp32 main parameters and optimizer states over the data-parallel ranks (ZeRO-1 here, SPEC §3).

#include "imports/import_draft.h"
#include "imports/launch_command.h"

#include "formats/scenario_json.h"
#include "json_value_text.h"

namespace vramplan::imports {
namespace {

constexpr int64_t big = int64_t(1) << 30;

std::string defaultOrigin(const char *file)
{
    return std::string("Megatron-LM default (") + file + ")";
}

// The model from its flags: explicit fields (SPEC §3 "Model: ... explicit fields").
void importModel(ConfigDoc &doc, Draft &draft, int64_t tp)
{
    const auto layers = doc.takeInt("num-layers", 1, 1 << 16);
    const auto hidden = doc.takeInt("hidden-size", 1, 1 << 20);
    const auto heads = doc.takeInt("num-attention-heads", 1, 1 << 16);
    if (!layers || !hidden || !heads)
        throw ImportError("--model: " + doc.file() + ": pretrain_gpt.py gets no --" +
                          (!layers ? "num-layers" : !hidden ? "hidden-size" : "num-attention-heads") +
                          "; give --model PRESET|CONFIG|DIR");
    const std::string tc = defaultOrigin("megatron/core/transformer/transformer_config.py");
    const std::string args = defaultOrigin("megatron/training/arguments.py");
    draft.modelFromFields = true;
    draft.set("model.layers", *layers, doc.origin("num-layers"));
    draft.set("model.hidden_size", *hidden, doc.origin("hidden-size"));
    draft.set("model.attention_heads", *heads, doc.origin("num-attention-heads"));
    const bool gqa = doc.takeBool("group-query-attention").value_or(false);
    const auto groups = doc.takeInt("num-query-groups", 1, 1 << 16);
    if (gqa && groups)
        draft.set("model.kv_heads", *groups, doc.origin("num-query-groups"));
    else
        draft.set("model.kv_heads", *heads,
                  gqa ? tc + ": --num-query-groups defaults to the heads"
                      : "no --group-query-attention: one key/value head per head (" + tc + ")");
    if (const auto kv = doc.takeInt("kv-channels", 1, 1 << 16))
        draft.set("model.head_dim", *kv, doc.origin("kv-channels"));
    else if (*hidden % *heads == 0)
        draft.set("model.head_dim", *hidden / *heads, args + ": kv_channels = hidden / heads");
    const bool swiglu = doc.takeBool("swiglu").value_or(false);
    draft.set("model.ffn_type", swiglu ? "swiglu" : "gelu",
              swiglu ? doc.origin("swiglu") : "no --swiglu: GeLU MLP (" + tc + ")");
    draft.set("model.hidden_act", swiglu ? "silu" : "gelu",
              swiglu ? doc.origin("swiglu") : "no --swiglu: GeLU MLP (" + tc + ")");
    if (const auto ffn = doc.takeInt("ffn-hidden-size", 1, big))
        draft.set("model.ffn_hidden_size", *ffn, doc.origin("ffn-hidden-size"));
    else
        draft.set("model.ffn_hidden_size",
                  swiglu ? int64_t(4.0 * double(*hidden) * 2.0 / 3.0 / 64.0) * 64 : 4 * *hidden,
                  args + (swiglu ? ": int(4h*2/3/64)*64 with --swiglu" : ": 4h"));
    const std::string norm = doc.takeString("normalization").value_or("LayerNorm");
    if (norm != "LayerNorm" && norm != "RMSNorm")
        doc.fail("normalization", "must be LayerNorm or RMSNorm, got '" + norm + "'");
    draft.set("model.norm", norm == "RMSNorm" ? "rmsnorm" : "layernorm",
              doc.find("normalization") ? doc.origin("normalization") : tc);
    doc.use("normalization");
    const std::string positions = doc.takeString("position-embedding-type").value_or("learned_absolute");
    const bool rope = positions == "rope" || positions == "yarn" || positions == "mrope";
    if (!rope && positions != "learned_absolute")
        draft.warn(doc.origin("position-embedding-type") + ": '" + positions +
                   "' positions are planned as learned absolute positions");
    if (positions == "yarn" || positions == "mrope")
        draft.warn(doc.origin("position-embedding-type") + ": " + positions +
                   " is planned as rotary embeddings (no weights of their own)");
    draft.set("model.positions", rope ? "rope" : "learned",
              doc.find("position-embedding-type") ? doc.origin("position-embedding-type")
                                                  : args + ": learned_absolute");
    doc.use("position-embedding-type");
    doc.use("no-position-embedding"); // rope already has no position table
    const bool untie = doc.takeBool("untie-embeddings-and-output-weights").value_or(false);
    draft.set("model.tied_embeddings", !untie,
              untie ? doc.origin("untie-embeddings-and-output-weights")
                    : "no --untie-embeddings-and-output-weights: tied (" + args + ")");
    const bool noBias = doc.takeBool("disable-bias-linear").value_or(false);
    draft.set("model.bias", !noBias,
              noBias ? doc.origin("disable-bias-linear") : "no --disable-bias-linear: " + tc);
    if (const auto maxPos = doc.takeInt("max-position-embeddings", 1, big))
        draft.set("model.max_positions", *maxPos, doc.origin("max-position-embeddings"));

    // The vocabulary: --vocab-size (NullTokenizer, --mock-data) or a tokenizer file, which is
    // not read here: the user names the model then.
    int64_t vocab = 0;
    std::string vocabOrigin;
    if (const auto v = doc.takeInt("vocab-size", 1, big)) {
        vocab = *v;
        vocabOrigin = doc.origin("vocab-size");
    }
    const std::string tokenizer = doc.takeString("tokenizer-type").value_or("");
    if (!vocab && tokenizer == "GPT2BPETokenizer") {
        vocab = 50257; // GPT-2's BPE vocabulary (megatron/training/tokenizer/gpt2_tokenization.py)
        vocabOrigin = doc.origin("tokenizer-type") + " (GPT-2 BPE: 50257 tokens)";
    }
    if (!vocab) {
        const std::string from = doc.find("tokenizer-model") ? "tokenizer-model"
                                 : doc.find("vocab-file")    ? "vocab-file"
                                                             : "tokenizer-type";
        throw ImportError("--model: " + doc.where(from) +
                          ": the vocabulary is in a tokenizer file the script names, which "
                          "vramplan does not read; give --model PRESET|CONFIG|DIR");
    }
    const int64_t divisible = doc.takeInt("make-vocab-size-divisible-by", 1, 1 << 20).value_or(128);
    const int64_t multiple = divisible * tp;
    const int64_t padded = (vocab + multiple - 1) / multiple * multiple;
    draft.set("model.vocab_size", padded,
              vocabOrigin + (padded != vocab ? ", padded to a multiple of " + std::to_string(divisible) +
                                                   " x TP " + std::to_string(tp) +
                                                   " (megatron/core/tokenizers/utils/build_tokenizer.py)"
                                             : ""));

    // Mixture of experts.
    if (const auto experts = doc.takeInt("num-experts", 1, 1 << 16)) {
        draft.set("model.moe.experts", *experts, doc.origin("num-experts"));
        if (const auto k = doc.takeInt("moe-router-topk", 1, 1 << 10))
            draft.set("model.moe.experts_per_token", *k, doc.origin("moe-router-topk"));
        else
            draft.set("model.moe.experts_per_token", 2, tc + ": moe_router_topk 2");
        const auto expertFfn = doc.takeInt("moe-ffn-hidden-size", 1, big);
        const DraftField *ffn = draft.field("model.ffn_hidden_size");
        draft.set("model.moe.expert_ffn_hidden_size",
                  expertFfn ? nlohmann::json(*expertFfn) : ffn->value,
                  expertFfn ? doc.origin("moe-ffn-hidden-size") : ffn->origin + " (the FFN width)");
        if (doc.find("moe-shared-expert-intermediate-size"))
            draft.warn(doc.origin("moe-shared-expert-intermediate-size") +
                       ": a shared expert given by width is not modelled from flags; give --model");
    }
    const bool moe = draft.has("model.moe.experts");
    draft.set("model.family", moe ? "mixtral" : (swiglu || norm == "RMSNorm" || rope) ? "llama" : "gpt2",
              doc.file() + ": the block of these flags (" +
                  std::string(moe ? "mixture of experts" : swiglu ? "SwiGLU, " + norm : "GPT") +
                  ")");
}

void launcherGpus(const LaunchScript &launch, Draft &draft)
{
    const ConfigDoc &doc = *launch.flags;
    const std::string where = doc.file() + ":" + std::to_string(launch.line);
    const auto nproc = launch.launcher.find("nproc_per_node");
    const auto nnodes = launch.launcher.find("nnodes");
    if (nproc == launch.launcher.end()) {
        if (draft.options.gpus < 1)
            throw ImportError("--gpus: " + where +
                              ": the launcher gives no --nproc_per_node; give --gpus N");
        return;
    }
    const auto perNode = launch.literalNumber(nproc->second);
    std::optional<int64_t> nodes = 1;
    if (nnodes != launch.launcher.end())
        nodes = launch.literalNumber(nnodes->second);
    if (!perNode || !nodes || *perNode < 1 || *nodes < 1) {
        if (draft.options.gpus > 0)
            return;
        const ShellWord &w = !perNode ? nproc->second : nnodes->second;
        throw ImportError("--gpus: " + where + ": torchrun --" +
                          std::string(!perNode ? "nproc_per_node" : "nnodes") + " " +
                          printableLine(w.text, 40) +
                          (w.literal() ? ""
                                       : " depends on " +
                                             (w.unknowns.empty() ? w.defaulted : w.unknowns).front() +
                                             ", which the script does not set") +
                          "; give --gpus N");
    }
    draft.fileGpus = *perNode * *nodes;
    draft.fileGpusOrigin = where + ": torchrun --nproc_per_node " + nproc->second.text +
                           " x --nnodes " + std::to_string(*nodes);
    if (draft.options.gpus > 0 && draft.options.gpus != draft.fileGpus)
        draft.warn(draft.fileGpusOrigin + " gives " + std::to_string(draft.fileGpus) +
                   " GPUs, --gpus " + std::to_string(draft.options.gpus) + " is planned");
}

} // namespace

void importMegatron(LaunchScript &launch, Draft &draft)
{
    ConfigDoc &doc = *launch.flags;
    const std::string tc = defaultOrigin("megatron/core/transformer/transformer_config.py");
    const std::string args = defaultOrigin("megatron/training/arguments.py");
    draft.set("framework", "megatron",
              doc.file() + ":" + std::to_string(launch.line) + ": pretrain_gpt.py");
    launcherGpus(launch, draft);

    const int64_t tp = doc.takeInt("tensor-model-parallel-size", 1, 1 << 16).value_or(1);
    const int64_t pp = doc.takeInt("pipeline-model-parallel-size", 1, 1 << 16).value_or(1);
    const int64_t cp = doc.takeInt("context-parallel-size", 1, 1 << 16).value_or(1);
    for (const auto &[flag, path, value] :
         {std::tuple{"tensor-model-parallel-size", "parallelism.tensor_parallel", tp},
          std::tuple{"pipeline-model-parallel-size", "parallelism.pipeline_parallel", pp},
          std::tuple{"context-parallel-size", "parallelism.context_parallel", cp}})
        if (doc.find(flag))
            draft.set(path, value, doc.origin(flag));
    if (const auto ep = doc.takeInt("expert-model-parallel-size", 1, 1 << 16))
        draft.set("parallelism.expert_parallel", *ep, doc.origin("expert-model-parallel-size"));
    if (const auto vpp = doc.takeInt("virtual-pipeline-model-parallel-size", 1, 1 << 16))
        draft.set("parallelism.virtual_pipeline_parallel", *vpp,
                  doc.origin("virtual-pipeline-model-parallel-size"));
    if (doc.takeBool("sequence-parallel").value_or(false))
        draft.set("parallelism.sequence_parallel", tp > 1,
                  doc.origin("sequence-parallel") +
                      (tp > 1 ? "" : " (off at tensor parallel 1: megatron/training/arguments.py)"));
    if (doc.takeBool("use-distributed-optimizer").value_or(false))
        draft.set("parallelism.zero_stage", 1,
                  doc.origin("use-distributed-optimizer") +
                      " (main parameters and optimizer states sharded: ZeRO-1)");
    if (doc.takeBool("use-torch-fsdp2").value_or(false)) {
        draft.set("parallelism.zero_stage", 3, doc.origin("use-torch-fsdp2"));
        draft.set("parallelism.fsdp_version", 2, doc.origin("use-torch-fsdp2"));
    }

    const auto micro = doc.takeInt("micro-batch-size", 1, big);
    if (!micro)
        throw ImportError(doc.file() + ":" + std::to_string(launch.line) +
                          ": pretrain_gpt.py requires --micro-batch-size (megatron/training/arguments.py)");
    draft.set("training.micro_batch_size", *micro, doc.origin("micro-batch-size"));
    if (const auto global = doc.takeInt("global-batch-size", 1, big)) {
        const int64_t gpus = draft.gpuCount();
        const int64_t model = tp * pp * cp;
        if (gpus > 0) {
            if (gpus % model != 0)
                doc.fail("tensor-model-parallel-size",
                         std::to_string(gpus) + " GPUs are not a multiple of TP x PP x CP = " +
                             std::to_string(model));
            const int64_t dp = gpus / model;
            if (*global % (*micro * dp) != 0)
                doc.fail("global-batch-size",
                         std::to_string(*global) + " is not divisible by --micro-batch-size x " +
                             std::to_string(dp) + " data-parallel ranks (megatron/training/arguments.py)");
            draft.set("training.gradient_accumulation_steps", *global / (*micro * dp),
                      doc.origin("global-batch-size") + " " + std::to_string(*global) +
                          " / (--micro-batch-size " + std::to_string(*micro) + " x " +
                          std::to_string(dp) + " data-parallel ranks)");
        }
    }
    if (doc.take("step-batch-size-schedule") || doc.take("rampup-batch-size"))
        draft.warn(doc.origin(doc.find("step-batch-size-schedule") ? "step-batch-size-schedule"
                                                                    : "rampup-batch-size") +
                   ": the batch grows during the run; the final --global-batch-size is planned");
    if (const auto seq = doc.takeInt("seq-length", 1, big))
        draft.set("training.sequence_length", *seq, doc.origin("seq-length"));

    const bool bf16 = doc.takeBool("bf16").value_or(false);
    const bool fp16 = doc.takeBool("fp16").value_or(false);
    const auto fp8 = doc.takeString("fp8-format");
    if (fp8)
        draft.set("training.precision", "fp8_mixed",
                  doc.origin("fp8-format") + " " + *fp8 + " (Transformer Engine FP8 GEMMs over " +
                      (bf16 ? "--bf16" : "16-bit") + " weights with fp32 main parameters)");
    else if (bf16)
        draft.set("training.precision", "bf16_mixed",
                  doc.origin("bf16") + " (fp32 main parameters and gradients in the optimizer)");
    else if (fp16)
        draft.set("training.precision", "fp16_mixed", doc.origin("fp16"));
    else
        draft.set("training.precision", "fp32", "no --bf16 or --fp16: fp32 (" + args + ")");
    for (const char *flag : {"fp8-amax-history-len", "fp8-amax-compute-algo", "fp8-recipe"})
        doc.use(flag);
    if (doc.takeBool("fp8-param-gather").value_or(false))
        draft.warn(doc.origin("fp8-param-gather") +
                   ": FP8 copies of the parameters for the all-gather are not modelled");

    const std::string optimizer = doc.takeString("optimizer").value_or("adam");
    const std::string optOrigin = doc.find("optimizer") ? doc.origin("optimizer")
                                                        : args + ": --optimizer adam";
    if (optimizer == "adam")
        draft.set("training.optimizer", "adamw",
                  optOrigin + " (Adam with decoupled weight decay: AdamW)");
    else if (optimizer == "sgd")
        draft.set("training.optimizer", "sgd_momentum", optOrigin + " (--sgd-momentum 0.9)");
    else
        draft.warn(optOrigin + ": '" + optimizer + "' is not an optimizer the planner models");
    if (doc.takeBool("use-precision-aware-optimizer").value_or(false))
        draft.warn(doc.origin("use-precision-aware-optimizer") +
                   ": the optimizer's dtypes (--main-params-dtype, --exp-avg-dtype) are not read "
                   "from flags; set training.optimizer_precision");

    // Recomputation: --recompute-activations is selective; --recompute-granularity full with
    // --recompute-method uniform (chunks of --recompute-num-layers layers, every layer) or block
    // (the first --recompute-num-layers layers of each pipeline stage).
    std::string granularity = doc.takeString("recompute-granularity").value_or("");
    std::string recomputeOrigin = doc.origin("recompute-granularity");
    if (doc.takeBool("recompute-activations").value_or(false)) {
        granularity = "selective";
        recomputeOrigin = doc.origin("recompute-activations");
    }
    const auto method = doc.takeString("recompute-method");
    const auto count = doc.takeInt("recompute-num-layers", 1, 1 << 16);
    if (granularity == "full") {
        draft.set("training.activation_recompute", "full", recomputeOrigin);
        if (method == "block" && count)
            draft.set("training.recompute_layers", *count,
                      doc.origin("recompute-num-layers") + " (--recompute-method block)");
        else if (method && *method != "uniform" && *method != "block")
            doc.fail("recompute-method", "must be uniform or block, got '" + *method + "'");
    } else if (granularity == "selective") {
        draft.set("training.activation_recompute", "selective", recomputeOrigin);
    } else if (!granularity.empty()) {
        doc.fail("recompute-granularity", "must be full or selective, got '" + granularity + "'");
    }

    const std::string backend = doc.takeString("attention-backend").value_or("auto");
    const bool eager = backend == "unfused" || backend == "local";
    draft.set("training.attention", eager ? "eager" : "flash",
              (doc.find("attention-backend") ? doc.origin("attention-backend")
                                             : tc + ": attention_backend auto") +
                  (eager ? "" : " (Transformer Engine's flash or cuDNN fused attention)"));
    if (doc.takeBool("use-flash-attn").value_or(false))
        draft.set("training.attention", "flash", doc.origin("use-flash-attn"));
    const nlohmann::json *dropout = doc.take("hidden-dropout");
    if (dropout && !dropout->is_number())
        doc.fail("hidden-dropout", "must be a number, got " + describeJson(*dropout));
    draft.set("training.dropout", dropout ? dropout->get<double>() : 0.1,
              dropout ? doc.origin("hidden-dropout") : tc + ": hidden_dropout 0.1");
    doc.use("attention-dropout");
    // --cross-entropy-loss-fusion: the native impl (torch.compile'd steps) holds one more fp32
    // block than the unfused loss; Transformer Engine's (--cross-entropy-fusion-impl te) writes
    // the fp32 gradient in forward and keeps it, as the unfused loss keeps its softmax
    // (transformer_engine/pytorch/triton/cross_entropy.py): the standard loss's bytes.
    if (doc.takeBool("cross-entropy-loss-fusion").value_or(false)) {
        const std::string impl = doc.takeString("cross-entropy-fusion-impl").value_or("native");
        if (impl == "native")
            draft.set("training.loss", "fused",
                      doc.origin("cross-entropy-loss-fusion") + " (native impl)");
        else if (impl == "te")
            draft.set("training.loss", "standard",
                      doc.origin("cross-entropy-fusion-impl") +
                          " (Transformer Engine's kernel keeps what the unfused loss keeps)");
        else
            doc.fail("cross-entropy-fusion-impl", "must be native or te, got '" + impl + "'");
    } else {
        doc.use("cross-entropy-fusion-impl");
    }
    // --moe-grouped-gemm: the experts through Transformer Engine's GroupedLinear, with a cuBLAS
    // workspace per compute stream (process_buffers.cpp).
    if (doc.takeBool("moe-grouped-gemm").value_or(false))
        draft.set("training.grouped_gemm", true, doc.origin("moe-grouped-gemm"));

    if (draft.options.model.empty())
        importModel(doc, draft, tp);
    for (auto &w : launchWarnings(launch))
        draft.warn(std::move(w));
    for (auto &n : launch.notes)
        draft.warn(std::move(n));
}

} // namespace vramplan::imports
