// Logits and loss at the end of the last stage, by whose code computes the loss (SPEC §2,
// "logits and loss"), and the evaluation phases of frameworks that run them inside training.

#include "training/activation_dims.h"
#include "training/stage_context.h"

#include <algorithm>
#include <cmath>

namespace vramplan {
namespace {

// Bytes per token per vocabulary entry of logits and cross-entropy, at the end of forward and
// at the start of backward, by whose code computes the loss.
struct LossBytes
{
    double forward, backward;
    std::string_view name, source;
    // Of `forward`, what stays for backward; the rest lives only inside the loss (the 16-bit
    // head output, shifted and upcast copies). Negative: all of it stays.
    double kept = -1;
    std::string_view keptName = {}; // the kept part's name where it differs from `name`
    // Of `kept`, the logits HF's forward returns: a loop that holds `outputs` through backward
    // keeps them; HF Trainer's compute_loss returns only the loss, so they are freed first.
    double returned = 0;
    // The name of the part that lives only at the end of forward, where it is not the loss's
    // own 16-bit and shifted copies.
    std::string_view transientName = {};
};

// Whether torch.compile covers the cross-entropy: HF's forward computes the loss inside the
// compiled module; torchtitan compiles its loss function unless `training.compile_loss` says
// otherwise (compile.components; its train.py left the loss eager from 2024-12-18 to
// 2025-04-02: "TODO: compiling loss function causes CUDA errors"). LitGPT, torchtune (chunked
// loss, compiled per chunk) and Megatron keep their own loss code.
bool compiledLoss(const StageContext &c)
{
    if (!c.compiled || !c.t.compileLoss)
        return false;
    switch (c.s.framework) {
    case Framework::Transformers:
    case Framework::Deepspeed:
    case Framework::Pytorch:
    case Framework::Unsloth:
        return true;
    case Framework::Torchtitan:
        return true;
    case Framework::Litgpt:
    case Framework::Torchtune:
    case Framework::Megatron:
        break;
    }
    return false;
}

// Unsloth's default loss since 2024.12 is Apple's Cut Cross-Entropy: the head fused with the
// loss, as `training.loss` fused_linear (unsloth_zoo loss_utils.py).
bool unslothFusedLoss(const StageContext &c)
{
    return c.s.framework == Framework::Unsloth && c.s.frameworkVersion.atLeast(2024, 12);
}

// From 2025.8 Unsloth's default loss is unsloth_zoo's unsloth_fused_ce_loss, which replaced
// Cut Cross-Entropy in its models (unsloth/models/llama.py; unsloth_zoo fused_losses/
// cross_entropy_loss.py, added 2025-08-13): the head and the loss run chunk by chunk over the
// tokens, with the chunk sized to a share of the GPU memory free at the first call.
bool unslothFreeMemoryChunkedLoss(const StageContext &c)
{
    return unslothFusedLoss(c) && c.s.frameworkVersion.atLeast(2025, 8);
}

// The chunks unsloth_fused_ce_loss splits b*s tokens into (_get_chunk_multiplier,
// get_chunk_size): the target is half the free memory at the first call (from 2026.7 at most
// 4 GiB), and the full fp32 logits over the target, divided by 4, rounded to the nearest
// integer (from 2026.7 rounded up) and times 4, at least 1. The free memory is taken as the
// GPU's capacity less the weights, which are what is resident at the first forward (the
// optimizer's states appear at the first step): 4-bit layers under QLoRA, and otherwise the
// base in the 16-bit dtype Unsloth loads it in (fp32 only for full fine-tunes under AMP).
double unslothLossChunks(const StageContext &c, double tokens, double vocab)
{
    const ParameterCounts &n = c.counts;
    const double other = double(n.embedding + n.outputHead + n.finalNorm);
    const double weightBytes =
        c.qlora ? double(n.layers) * nf4BytesPerWeight + other * 2
                : double(n.total) * (c.fp32 || (c.amp && !base16BitUnderAutocast(c)) ? 4.0 : 2.0) /
                      (c.zero3() ? c.shardGroup() : 1.0);
    const double freeGiB = std::max(0.0, c.s.gpu.memoryGiB - weightBytes / bytesPerGiB);
    const bool capped = c.s.frameworkVersion.atLeast(2026, 7);
    const double targetGiB = capped ? std::min(freeGiB * 0.5, 4.0) : freeGiB * 0.5;
    if (targetGiB <= 1e-9)
        return 1; // Unsloth raises "No or negligible GPU memory"; the weights alone do not fit
    const double exact = tokens * vocab * 4 / bytesPerGiB / targetGiB; // full fp32 logits / target
    const double chunks = capped ? (exact <= 1.0 ? 1.0 : std::ceil(exact / 4) * 4)
                                 : std::max(std::round(exact / 4) * 4, 1.0);
    return std::min(chunks, tokens);
}

LossBytes hfLossBytes(const StageContext &c);

LossBytes lossBytes(const StageContext &c)
{
    const double lc = c.act;
    if (c.t.loss == LossKind::Chunked && c.s.framework != Framework::Litgpt)
        // The head's output computed and upcast chunk by chunk (torchtune's 8 chunks): every
        // chunk's logits stay for backward, the fp32 copy only one chunk at a time.
        return {lc + 4, lc + 4.5, "logits and chunked cross-entropy (fp32 per chunk)",
                "torchtune/modules/loss/ce_chunked_output_loss.py"};
    if (compiledLoss(c))
        // Inductor fuses the fp32 upcast, the log-softmax and its backward: the head's 16-bit
        // output stays for backward with a per-row logsumexp, and backward writes the logits'
        // gradient in one kernel, in the logits' dtype (torchtitan components/loss.py
        // `torch.compile(loss_fn)`; HF Trainer torch_compile compiles the forward, loss included).
        return {lc, 2 * lc, "logits and compiled cross-entropy (upcast fused)",
                "torch.compile (Inductor) of the loss"};
    switch (c.s.framework) {
    case Framework::Unsloth:
        // Before its Cut Cross-Entropy (2024.12), Unsloth's Fast_CrossEntropyLoss kept the 16-bit
        // logits and a per-row logsumexp and wrote the gradient into the logits' own buffer
        // (unsloth/kernels/cross_entropy_loss.py). The model returns those logits; under HF
        // Trainer with --fp16 or --bf16 (mixed precision in accelerate's terms, whatever dtype
        // the model was loaded in), accelerate wraps the forward in convert_outputs_to_fp32
        // (accelerator.py prepare_model, native_amp), so an fp32 copy of the returned logits
        // exists at the end of forward until compute_loss drops `outputs`.
        if (c.t.loop == TrainingLoop::Trainer && lc < 4)
            return {lc + 4, lc, "logits and Unsloth's in-place cross-entropy",
                    "unsloth/kernels/cross_entropy_loss.py; accelerate convert_outputs_to_fp32",
                    lc, "16-bit logits (kept by the in-place cross-entropy)", 0,
                    "fp32 copy of the returned logits (accelerate convert_outputs_to_fp32)"};
        return {lc, lc, "logits and Unsloth's in-place cross-entropy",
                "unsloth/kernels/cross_entropy_loss.py Fast_CrossEntropyLoss"};
    case Framework::Megatron:
        if (c.t.loss == LossKind::Fused)
            // --cross-entropy-loss-fusion (the default `native` impl): the same steps, each a
            // jit_fuser function, which is torch.compile from torch 2.2 (megatron/core/jit.py).
            // calculate_logits_max returns the fp32 copy as a graph output, and the compiled
            // calculate_predicted_logits cannot update it in place: it writes exp(logits - max)
            // to a buffer of its own, sums it and copies it back (an input mutation), so one more
            // fp32 block lives at the end of forward (megatron/core/fusions/
            // fused_cross_entropy.py). The Megatron-LM functional test
            // gpt3_mcore_te_tp2_pp2_cross_entropy_loss_fusion peaks that block above the unfused
            // tests of the same model (meg2-05 in tests/data/measured).
            return {lc + 8, lc + 4, "logits and fused vocab-parallel cross-entropy",
                    "megatron/core/fusions/fused_cross_entropy.py (torch.compile)", lc + 4, {}, 0,
                    "fp32 exp(logits - max) of the compiled loss (transient)"};
        // Vocab-parallel cross-entropy works in place on an fp32 copy of the logits.
        return {lc + 4, lc + 4, "logits and vocab-parallel cross-entropy",
                "megatron/core/tensor_parallel/cross_entropy.py"};
    case Framework::Litgpt:
        // Fabric converts the module's output to the default dtype (fp32): fp32 logits, then
        // chunked cross-entropy keeps each chunk's fp32 log-softmax; the full-fine-tune script
        // reshapes the shifted logits into one more fp32 copy first (lightning/fabric/wrappers.py
        // _FabricModule.forward convert_output; litgpt/utils.py chunked_cross_entropy).
        return {c.full ? 12.0 : 8.0, 8.0, "fp32 logits (Fabric output) and chunked cross-entropy",
                "lightning fabric convert_output; litgpt chunked_cross_entropy"};
    case Framework::Pytorch:
        // Cross-entropy on logits in the compute dtype: logits and log-softmax, then the
        // gradient (LitGPT chunks the head but keeps every chunk's log-softmax).
        return {2 * lc, 3 * lc, "logits and cross-entropy (compute dtype)",
                "litgpt/utils.py chunked_cross_entropy; torch.nn.functional.cross_entropy"};
    case Framework::Torchtune:
        // `standard` is torch.nn.CrossEntropyLoss (the recipes' default from 0.3 is the chunked
        // loss, `training.loss: chunked`, handled above). From 0.3 the decoder still returns
        // `self.output(h).float()` (the 16-bit head output freed once cast), the recipe shifts
        // the labels rather than the logits, flattens the logits as a view and `del logits`
        // after the loss: fp32 logits and log-softmax at the end of forward, the log-softmax
        // kept. The recipe discards what training.compile_loss returns for a loss other than
        // the chunked one (torch.compile returns a new module), so this loss stays eager
        // (recipes/full_finetune_single_device.py, torchtune/training/_compile.py).
        if (c.s.frameworkVersion.atLeast(0, 3))
            return {std::max(lc + 4, 8.0), 12, "fp32 logits (model output) and cross-entropy",
                    "torchtune TransformerDecoder.forward .float(); recipe `del logits`", 4,
                    "fp32 log-softmax (kept for backward)"};
        // Before 0.3 the decoder returns `self.output(h).float()`; the recipe shifts the fp32 logits into
        // a contiguous copy, computes the loss and `del logits` before backward: the
        // log-softmax stays, then its incoming and outgoing gradients (recipes/
        // lora_finetune_single_device.py, "free logits otherwise it peaks backward memory").
        // Compiled (torchtune's compile_loss), the cross-entropy keeps its fp32 input instead of
        // a log-softmax and writes one fp32 gradient.
        if (c.compiled && c.t.compileLoss)
            return {lc + 8, 8, "fp32 logits (model output) and compiled cross-entropy",
                    "torchtune TransformerDecoder.forward .float(); training.compile_loss", 4};
        return {12, 12, "fp32 logits, shifted copy and cross-entropy",
                "torchtune TransformerDecoder.forward .float(); recipe `del logits`", 4,
                "fp32 log-softmax (kept for backward)"};
    case Framework::Torchtitan:
    case Framework::Transformers:
    case Framework::Deepspeed:
        break;
    }
    if (c.s.framework == Framework::Torchtitan)
        // loss_fn(pred.float()): 16-bit logits, the fp32 copy and the log-softmax; `del pred`
        // before backward, then log-softmax with its incoming and outgoing gradients.
        return {lc + 8, 12, "logits, fp32 upcast and cross-entropy", "torchtitan train.py"};
    LossBytes hf = hfLossBytes(c);
    if (c.t.loop == TrainingLoop::Trainer && hf.returned > 0) {
        // transformers Trainer.compute_loss: `outputs = model(**inputs)` is local to it, so the
        // returned logits are gone before loss.backward() (trainer.py training_step).
        hf.kept = (hf.kept < 0 ? hf.forward : hf.kept) - hf.returned;
        hf.backward -= hf.returned;
        hf.keptName = "log-softmax (kept for backward; Trainer drops the returned logits)";
    }
    return hf;
}

// The cross-entropy of HF's modelling code, by release and family.
LossBytes hfLossBytes(const StageContext &c)
{
    const double lc = c.act;
    // transformers up to 4.45 upcasts the logits inside forward (`logits = logits.float()`
    // rebinds the name, so the 16-bit logits are freed once copied: 16-bit + fp32 only during
    // the cast), shifts them (a second fp32 copy) and returns the fp32 logits, which a loop
    // holding `outputs` keeps through backward: fp32 + shifted copy + log-softmax at the end
    // of forward;
    // returned logits + log-softmax + its incoming and outgoing gradients in backward
    // (modeling_llama.py LlamaForCausalLM.forward; later versions: loss_utils.ForCausalLMLoss).
    const Family f = c.m.family;
    if (c.transformersAtLeast(4, 46) && f != Family::Gpt2 && f != Family::Bert &&
        f != Family::GptNeox) {
        // transformers >= 4.46 (and the 2024-2026 families, which exist only there): the model returns
        // logits in the compute dtype and ForCausalLMLoss upcasts them inside the loss (a
        // transient fp32 copy) and shifts the labels instead of the logits: the returned
        // logits and the fp32 log-softmax stay for backward (loss/loss_utils.py). Gemma 2's
        // final soft-capping divides, tanh's (kept) and multiplies the logits: one more kept
        // and one more transient block (modeling_gemma2.py Gemma2ForCausalLM.forward).
        const double upcast = lc < 4 ? 4.0 : 0.0;
        const double capKept = c.m.finalSoftcap > 0 ? lc : 0.0;
        const double capTransient = c.m.finalSoftcap > 0 ? lc : 0.0;
        return {lc + upcast + 4 + capKept + capTransient, lc + 12 + capKept,
                "logits (compute dtype) and fp32 log-softmax",
                "transformers loss_utils.py ForCausalLMLoss (>= 4.46)", lc + 4 + capKept,
                "returned logits and fp32 log-softmax (kept for backward)", lc + capKept};
    }
    if ((f == Family::Gpt2 || f == Family::Bert || f == Family::GptNeox) && c.amp)
        // Under autocast cross_entropy is on the fp32 list: the shifted 16-bit copy is cast
        // to fp32 and the log-softmax is fp32; the returned 16-bit logits stay (CPU-measured).
        return {2 * lc + 8, lc + 12, "logits (compute dtype) and fp32 log-softmax (autocast)",
                "transformers modeling_gpt2.py GPT2LMHeadModel.forward; autocast fp32 list",
                lc + 4, {}, lc};
    if (f == Family::Gpt2 || f == Family::Bert || f == Family::GptNeox)
        // GPT-2, BERT and GPT-NeoX heads do not upcast: logits, the shifted copy and the
        // log-softmax in the compute dtype; backward adds its incoming and outgoing gradients
        // (modeling_gpt2.py GPT2LMHeadModel.forward; CPU-measured, tests/data/measured).
        return {3 * lc, 4 * lc, "logits and cross-entropy (compute dtype)",
                "transformers modeling_gpt2.py GPT2LMHeadModel.forward", 2 * lc, {}, lc};
    // The returned fp32 logits and the fp32 log-softmax stay: 8 bytes.
    return {12, 16, "logits, fp32 upcast and cross-entropy",
            "transformers modeling_llama.py LlamaForCausalLM.forward", 8,
            "fp32 logits and log-softmax (kept for backward)", 4};
}

// LitGPT's finetune scripts (finetune/lora.py, full.py; litgpt/finetune/*) validate every
// eval interval under torch.no_grad: full logits, `logits[..., :-1, :]` reshaped into a copy and
// a non-chunked cross-entropy (its log-softmax): three b*s*V blocks. Then they sample a reply
// with a KV cache of one sequence sized to the model's max_seq_length (set_kv_cache(batch_size
// =1)), which the scripts set to the longest training sample. Both peaks count towards the
// max_memory_allocated they print at the end.
void addLitgptEvaluation(const StageContext &c, const Dims &d, double vocab, ItemSink &out)
{
    constexpr auto LL = Component::LogitsAndLoss;
    constexpr auto T = Component::Temporary;
    const unsigned validation = phaseBit(Phase::Validation);
    const unsigned generation = phaseBit(Phase::Generation);
    out.add(LL, "validation logits, shifted copy and log-softmax", "b*s*V*3c",
            "litgpt finetune validate(), chunked_cross_entropy(chunk_size=0)",
            d.tokens * vocab * 3 * d.c, 1, validation);
    // Without autograd a layer's intermediates are freed as soon as they are used: the widest
    // moment is the MLP (input, its two projections and their product).
    // On SDPA's math path the scores and the probabilities of one layer exist together.
    const double mathScores = sdpaMathPath(c) ? 2 * d.c : 0.0;
    out.add(T, "one layer's forward intermediates (no grad)",
            "b*s*(2h + 3f)*c (+ 2*b*a*s^2*c SDPA math path)", "forward under torch.no_grad",
            d.tokens * (2 * d.h + 3 * d.ffn) * d.c + d.scores * mathScores, 1, validation);
    const double sequence = double(c.t.sequenceLength) / double(c.cp);
    out.add(Component::Activations, "KV cache of one sample (generation)",
            "2 * s * kv * d * c per layer", "litgpt GPT.set_kv_cache(batch_size=1)",
            2 * sequence * std::max(d.kvWidth, double(c.m.headDim)) * d.c, double(c.stageLayers),
            generation);
    out.add(T, "prompt prefill: one layer's intermediates and next-token logits",
            "s*(2h + 3f)*c + V*(c + 4) (+ 2*a*s^2*c SDPA math path)", "litgpt generate()",
            sequence * (2 * d.h + 3 * d.ffn) * d.c + vocab * (d.c + 4) +
                d.scores / c.microBatch * mathScores,
            1, generation);
}

// The output projection fused with the cross-entropy, chunk by chunk over the tokens, so the
// full logits never exist: Liger-Kernel's LigerFusedLinearCrossEntropyFunction computes each
// chunk's logits, their loss and their gradient in place, and during forward already the
// gradient of the hidden states and (when the head trains) of the head's weight, which it keeps
// for backward (liger_kernel/ops/fused_linear_cross_entropy.py: chunk_size =
// next_power_of_2(ceil(BT / ceil(V / H)))). Cut Cross-Entropy and Unsloth's fused loss keep the
// same order of memory.
void addFusedLinearLoss(const StageContext &c, const Dims &d, ItemSink &out)
{
    constexpr auto LL = Component::LogitsAndLoss;
    const double vocab = double(c.m.vocabSize) / (c.eagerModelCode() ? 1.0 : d.tp);
    const double tokens = d.tokens;
    const double perChunk = std::ceil(tokens / std::ceil(vocab / d.h));
    const double chunk = std::min(tokens, std::exp2(std::ceil(std::log2(std::max(1.0, perChunk)))));
    const double heads = 1.0 + double(c.t.mtpLayers);
    if (c.t.loss == LossKind::Standard && unslothFreeMemoryChunkedLoss(c)) {
        // Each chunk: the head's 16-bit logits, the fp32 copy cross_entropy reads
        // (compute_fused_ce_loss `.float()`) and the logits' gradient, under
        // torch.func.grad_and_value; the hidden-state gradient is kept for backward.
        const double rows = std::ceil(tokens / unslothLossChunks(c, tokens, vocab));
        out.add(LL, "Unsloth fused cross-entropy: one chunk's logits, fp32 copy and gradient",
                "rows*V*(2c + 4), chunks from half the free memory",
                "unsloth_zoo fused_losses/cross_entropy_loss.py unsloth_fused_ce_loss",
                rows * vocab * (2 * d.c + 4), 1, phaseBit(Phase::Forward));
        out.add(LL, "hidden-state gradient computed in forward (fused loss)", "b*s*h*c",
                "unsloth_zoo UnslothFusedLoss (grad_inputs)", tokens * d.h * d.c, heads,
                phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward));
        return;
    }
    out.add(LL, "fused linear cross-entropy: one chunk's logits and gradient (transient)",
            "chunk*V*c, chunk = next_pow2(b*s / ceil(V/h))",
            "liger_kernel fused_linear_cross_entropy.py", chunk * vocab * d.c, 1,
            phaseBit(Phase::Forward));
    out.add(LL, "hidden-state gradient computed in forward (fused loss)", "b*s*h*c",
            "liger_kernel fused_linear_cross_entropy.py (grad_input)", tokens * d.h * d.c, heads,
            phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward));
    if (c.full)
        out.add(LL, "head weight gradient accumulated in forward (fused loss)", "V*h*weight bytes",
                "liger_kernel fused_linear_cross_entropy.py (grad_weight)",
                vocab * d.h * (c.amp || c.fp32 ? 4.0 : 2.0), 1,
                phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward));
}

} // namespace

double freedLogitsBlockBytes(const StageContext &c)
{
    if (!c.training || !c.hasHead || c.m.head != Head::LanguageModel || c.act >= 4 ||
        c.t.loss == LossKind::FusedLinear || compiledLoss(c) || unslothFusedLoss(c))
        return 0;
    const auto fw = c.s.framework;
    if (fw != Framework::Transformers && fw != Framework::Deepspeed && fw != Framework::Torchtitan)
        return 0;
    const double vocab = double(c.m.vocabSize) / (fw == Framework::Torchtitan ? double(c.tp) : 1.0);
    return c.tokens * vocab * c.act;
}

void addLogitsAndLoss(const StageContext &c, const Dims &d, ItemSink &out)
{
    constexpr auto A = Component::Activations;
    constexpr unsigned savedPhases =
        phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward) | phaseBit(Phase::LayerBackward);
    const double tp = d.tp;
    out.add(A, "final norm input", "b*s*h*norm bytes", "model code",
            d.tokens * d.h * d.normIn / d.outsideDiv, 1, savedPhases);
    if (c.m.family >= Family::Qwen3 && c.hfModelCode() && c.full && c.m.norm == NormType::RmsNorm &&
        !c.compiled && !c.fusedKernels) {
        // transformers >= 4.46 families, trained in full: the final norm keeps its normalised
        // input for its weight (fp32 where the model multiplies in fp32) and the head keeps its
        // input, the norm output (CPU-measured: the "final" and "head" regions).
        out.add(A, "final norm normalised input (for the weight gradient)", "b*s*h*bytes",
                "transformers RMSNorm", d.tokens * d.h * normalisedBytes(c, c.amp ? 4.0 : d.c), 1,
                savedPhases);
        out.add(A, "final norm output (lm_head input)", "b*s*h*c", "transformers lm_head",
                d.tokens * d.h * d.c, 1, savedPhases);
    }
    if (c.m.head == Head::Classifier)
        return; // a few logits per sequence: negligible
    if (c.t.loss == LossKind::FusedLinear || (c.t.loss == LossKind::Standard && unslothFusedLoss(c))) {
        addFusedLinearLoss(c, d, out);
        return;
    }
    const LossBytes loss = lossBytes(c);
    // Megatron and torchtitan split the vocabulary over tensor-parallel ranks (loss parallel).
    const double vocab = double(c.m.vocabSize) /
                         (c.eagerModelCode() && c.s.framework != Framework::Torchtitan ? 1.0 : tp);
    constexpr auto LL = Component::LogitsAndLoss;
    // What stays for backward and what only lives inside the loss computation. Each
    // multi-token prediction module computes its own logits and loss, kept like the model's.
    const double keptBytes = loss.kept < 0 ? loss.forward : loss.kept;
    const double heads = 1.0 + double(c.t.mtpLayers);
    out.add(LL, loss.keptName.empty() ? loss.name : loss.keptName,
            "b*s*V*bytes (end of forward)", loss.source, d.tokens * vocab * keptBytes, heads,
            phaseBit(Phase::Forward));
    out.add(LL,
            loss.transientName.empty() ? "16-bit logits and shifted copy (transient inside the loss)"
                                       : loss.transientName,
            "b*s*V*bytes",
            loss.source, d.tokens * vocab * (loss.forward - keptBytes), 1, phaseBit(Phase::Forward));
    out.add(LL, "cross-entropy backward: log-softmax and logits gradients",
            "b*s*V*bytes (start of backward)", loss.source, d.tokens * vocab * loss.backward, 1,
            phaseBit(Phase::LossBackward));
    if (c.t.mtpLayers > 0)
        out.add(LL, "multi-token prediction logits and losses (kept for backward)",
                "b*s*V*bytes per module", loss.source, d.tokens * vocab * keptBytes,
                double(c.t.mtpLayers), phaseBit(Phase::LossBackward));
    if (c.s.framework == Framework::Litgpt) {
        // The training loop's `logits` (fp32, from Fabric) lives until the next step's forward.
        out.add(LL, "fp32 logits held by the training loop", "b*s*V*4",
                "litgpt finetune train(): logits = model(input_ids)", d.tokens * vocab * 4, 1,
                phaseBit(Phase::LayerBackward) | phaseBit(Phase::BackwardEnd) |
                    phaseBit(Phase::OptimizerStep));
        addLitgptEvaluation(c, d, vocab, out);
    }
}

} // namespace vramplan
