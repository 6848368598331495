// Activations as an inventory of the tensors one layer saves for backward, and the working set
// of backward (SPEC §2, "activations"); logits and loss are in logits_loss.cpp.
//
// Base inventory: Korthikanti et al. 2022, "Reducing Activation Recomputation in Large
// Transformer Models", §4.1 and Table 2: per layer 34sbh + 5as^2b bytes for a GPT layer in
// fp16 with dropout (attention 11sbh + 5as^2b, MLP 19sbh, two LayerNorms 4sbh). The eager
// PyTorch model code of transformers/LitGPT/torchtune/torchtitan differs in ways named below.

#include "activation_dims.h"
#include "estimate_context.h"

namespace vramplan {
namespace {

// Whose Hugging Face eager attention computes the softmax in fp32 (softmax(dtype=float32), then
// cast back): the Llama family and Phi; GPT-2, BERT, GPT-NeoX and Falcon stay in the compute
// dtype (modeling_gpt2.py eager_attention_forward, modeling_bert.py, modeling_gpt_neox.py).
bool upcastsSoftmax(Family f)
{
    return f != Family::Gpt2 && f != Family::Bert && f != Family::GptNeox && f != Family::Falcon;
}

bool hasResidualDropout(Family f)
{
    // Llama-family blocks have no dropout modules (attention_dropout only); these do.
    return f == Family::Gpt2 || f == Family::Bert || f == Family::Phi || f == Family::GptNeox ||
           f == Family::Falcon;
}

} // namespace

// Whether a linear layer keeps its input for backward: it needs it for its own weight's
// gradient, for a LoRA adapter without dropout, or because bitsandbytes' 4-bit matmul saves it
// (bitsandbytes/autograd/_functions.py MatMul4Bit). A frozen nn.Linear saves no input.
bool linearSavesInput(const StageContext &c, std::string_view loraName)
{
    if (c.full || c.qlora)
        return true;
    return isLoraTarget(c.t.finetune, loraName) && c.t.finetune.loraDropout == 0.0;
}

void addLora(const StageContext &c, const Dims &d, Inventory &inv, std::string_view target,
             double inWidth, bool outside, double perToken)
{
    if (!c.lora || !isLoraTarget(c.t.finetune, target))
        return;
    const double div = outside ? d.outsideDiv : 1.0;
    if (c.t.finetune.loraDropout > 0) {
        // PEFT applies a separate nn.Dropout per adapted module: mask and output per target.
        // Its adapters are fp32 (get_peft_model(autocast_adapter_dtype=True), PEFT >= 0.12) and
        // LoraLayer casts the input to their dtype first, so the dropout keeps an fp32 output.
        // Under autocast lora_A's matmul keeps its own 16-bit cast of that output instead.
        if (c.hfModelCode() && c.amp)
            inv.push_back({"LoRA dropout mask and 16-bit cast of its output (PEFT, autocast)",
                           "b*s*in*(1 + c) per target",
                           d.tokens * perToken * inWidth * (1 + d.c) / div});
        else if (c.hfModelCode())
            inv.push_back({"LoRA dropout mask and fp32 output (PEFT)", "b*s*in*(1 + 4) per target",
                           d.tokens * perToken * inWidth * (1 + 4) / div});
        else
            inv.push_back({"LoRA dropout mask and output", "b*s*in*(1 + c) per target",
                           d.tokens * perToken * inWidth * (1 + d.c) / div});
    }
    inv.push_back({"LoRA A output (saved by B)", "b*s*r*c per target",
                   d.tokens * perToken * double(c.t.finetune.loraRank) * d.c / d.tp});
}

namespace {

// LitGPT's LoRAQKVLinear adapts q, k and v of the fused qkv projection together: one dropout on
// the shared input, one lora_A for the enabled parts, and, unless all three are enabled,
// zero_pad's index_copy, whose backward keeps its whole source (the adapters' output for the
// enabled parts) (lit_gpt/lora.py LoRAQKVLinear.forward, zero_pad).
void addLitgptQkvLora(const StageContext &c, const Dims &d, Inventory &inv)
{
    if (!c.lora)
        return;
    const bool q = isLoraTarget(c.t.finetune, "q_proj");
    const bool k = isLoraTarget(c.t.finetune, "k_proj");
    const bool v = isLoraTarget(c.t.finetune, "v_proj");
    const int enabled = int(q) + int(k) + int(v);
    if (enabled == 0)
        return;
    if (c.t.finetune.loraDropout > 0)
        inv.push_back({"LoRA dropout mask and output (one for q, k, v)", "b*s*h*(1 + c)",
                       d.tokens * d.h * (1 + d.c)});
    inv.push_back({"LoRA A output (saved by B)", "b*s*r*c per enabled part",
                   d.tokens * double(c.t.finetune.loraRank) * enabled * d.c});
    if (enabled < 3)
        inv.push_back({"LoRA update kept by zero_pad's index_copy", "b*s*(enabled q/k/v widths)*c",
                       d.tokens * ((q ? d.qWidth : 0) + double(int(k) + int(v)) * d.kvWidth) * d.c});
}

// How many linear layers read one norm's output in HF's modelling code: q, k and v are separate
// projections in the Llama family, Phi and BERT, fused in GPT-2, GPT-NeoX, Falcon and Phi-3; the
// SwiGLU MLP's gate and up are separate except in Phi-3. Under autocast each of them casts the
// fp32 norm output to 16 bits on its own (casts of non-leaf tensors are not cached), and each
// keeps its copy for its weight's gradient.
double normReaders(const StageContext &c, bool attention)
{
    const Family f = c.m.family;
    if (attention)
        return f == Family::Gpt2 || f == Family::GptNeox || f == Family::Falcon ||
                       f == Family::Phi3
                   ? 1.0
                   : 3.0;
    return c.m.ffnType != FfnType::Gelu && f != Family::Phi3 ? 2.0 : 1.0;
}

void addNorm(const StageContext &c, const Dims &d, Inventory &inv, bool outputSaved,
             double readers, bool inputShared = false)
{
    const bool rms = c.m.norm == NormType::RmsNorm;
    if (c.compiled || c.fusedKernels) {
        // A fused norm keeps its input in the residual stream's dtype and one fp32 statistic
        // per row (rstd; LayerNorm also the mean) (liger_kernel/ops/rms_norm.py,
        // unsloth/kernels/rms_layernorm.py; Inductor saves the same two for its fused
        // backward). Compiled, the output the next linears read is recomputed from them;
        // with fused kernels in eager mode it is a tensor of its own that they keep.
        if (!inputShared)
            inv.push_back({"norm input and per-row statistics (fused norm)",
                           "b*s*h*(residual bytes) + b*s*4*(1 or 2)",
                           (d.tokens * d.h *
                                (c.fp32 || (c.amp && !base16BitUnderAutocast(c)) ? 4.0 : d.c) +
                            d.tokens * 4 * (rms ? 1.0 : 2.0)) /
                               d.outsideDiv});
        if (outputSaved && !c.compiled) {
            const double copies = c.amp && c.hfModelCode() && !unslothFastLora(c) ? readers : 1.0;
            inv.push_back({"norm output (input of the next linears)", "b*s*h*c per copy",
                           d.tokens * d.h * d.c * copies / d.outsideDiv});
        }
        return;
    }
    // A second norm of a parallel block reads the same x as the first (GPT-NeoX
    // use_parallel_residual, Falcon's ln_attn / ln_mlp): one saved input for both, unless each
    // norm saves its own upcast copy (HF's RMSNorm).
    const bool ownUpcastCopy = rms && c.eagerModelCode();
    if (!inputShared || ownUpcastCopy)
        inv.push_back({rms && c.eagerModelCode() ? "RMSNorm fp32 input copy" : "norm input",
                       rms && c.eagerModelCode() ? "b*s*h*4 (HF-style upcast)" : "b*s*h*c",
                       d.tokens * d.h * d.normIn / d.outsideDiv});
    // transformers' LlamaRMSNorm returns weight * x.to(dtype): the multiply keeps x for the
    // weight's gradient, a tensor apart from the output the next linear keeps.
    // Under autocast the normalised input stays fp32 (fp32 residual stream and weight).
    if (rms && c.eagerModelCode() && c.full)
        inv.push_back({"RMSNorm normalised input (for the weight gradient)", "b*s*h*c",
                       d.tokens * d.h * normalisedBytes(c, c.amp ? 4.0 : d.c) / d.outsideDiv});
    if (outputSaved && c.amp && c.hfModelCode())
        inv.push_back({"16-bit copies of the norm output, one per linear (autocast)",
                       "b*s*h*c per reading linear",
                       d.tokens * d.h * d.c * readers / d.outsideDiv});
    else if (outputSaved)
        inv.push_back({"norm output (input of the next linears)", "b*s*h*c",
                       d.tokens * d.h * d.c / d.outsideDiv});
}

// The block input read directly by the next linears, where no norm precedes them (OLMo 2
// normalises sublayer outputs instead): kept once, or once per reading linear under autocast.
void addUnnormedInput(const StageContext &c, const Dims &d, Inventory &inv, bool saved,
                      double readers)
{
    if (!saved)
        return;
    if (c.amp && c.hfModelCode())
        inv.push_back({"16-bit copies of the block input, one per linear (autocast)",
                       "b*s*h*c per reading linear", d.tokens * d.h * d.c * readers / d.outsideDiv});
    else
        inv.push_back({"block input (input of the next linears)", "b*s*h*c",
                       d.tokens * d.h * d.c / d.outsideDiv});
}

void addAttention(const StageContext &c, const Dims &d, Inventory &inv)
{
    if (c.m.isMla()) {
        addMlaAttention(c, d, inv);
        return;
    }
    const bool eager = c.t.attention == Attention::Eager;
    // HF's Phi eager attention upcasts q and k to fp32 before q @ k^T (modeling_phi.py).
    const double qkBytes = eager && c.hfModelCode() && c.m.family == Family::Phi ? 4.0 : d.c;
    inv.push_back(
        {"query (saved by attention)", "b*s*a*d*c", d.tokens * d.qWidth * qkBytes, false, true});
    inv.push_back({"key (saved by attention)", "b*s*kv*d*c (HF repeats K to all heads)",
                   d.tokens * d.kvSavedWidth * qkBytes});
    addQkNorms(c, d, inv);
    // LitGPT and HF's GPT-NeoX split the fused qkv output into views; with one query per group,
    // v stays a view that keeps the whole qkv buffer (q and k are replaced by their RoPE'd
    // copies) (litgpt/model.py CausalSelfAttention.forward: qkv.split, v.reshape;
    // modeling_gpt_neox.py GPTNeoXAttention: qkv[..., 2 * head_size:]; CPU-measured).
    const bool valueViewOfQkv =
        c.m.kvHeads == c.m.attentionHeads &&
        (c.s.framework == Framework::Litgpt ||
         (c.hfModelCode() && c.m.family == Family::GptNeox));
    if (valueViewOfQkv)
        inv.push_back({"value, a view holding the whole fused qkv output", "b*s*(a + 2kv)*d*c",
                       d.tokens * (d.qWidth + 2 * d.kvWidth) * d.c});
    else
        inv.push_back({"value (saved by attention)", "b*s*kv*d*c (HF repeats V to all heads)",
                       d.tokens * d.kvSavedWidth * d.c});
    if (eager) {
        // Softmax keeps its output; HF computes it in fp32 (Llama: softmax(dtype=float32);
        // GPT-2/BERT under autocast or fp32) and casts back; Megatron's fused kernel stays in
        // 16 bits. Dropout keeps a 1-byte mask and its output (the input of probs @ V).
        // Under autocast softmax is on the fp32 list (aten/src/ATen/autocast_mode.cpp).
        // gpt-oss appends one sink logit per head and row, takes the row maximum out and runs
        // the softmax in the scores' dtype (modeling_gpt_oss.py eager_attention_forward).
        const bool sinks = c.m.attentionSinks && c.hfModelCode();
        const bool upcast =
            (c.eagerModelCode() && upcastsSoftmax(c.m.family) && !sinks) || c.fp32 || c.amp;
        const double softmaxBytes = upcast ? 4 : d.c;
        const double seq = d.scores / std::max(1.0, d.tokens * d.qWidth / double(c.m.headDim));
        const double width = sinks ? (seq + 1) / seq : 1.0;
        if (c.m.attentionSoftcap > 0 && c.hfModelCode())
            // Gemma 2: scores / cap, tanh, * cap: tanh keeps its output (modeling_gemma2.py).
            inv.push_back({"soft-capped scores (tanh output)", "b*a*s^2*c", d.scores * d.c, true});
        if (sinks)
            inv.push_back({"row maximum indices (sinks)", "b*a*s*8",
                           d.tokens * d.qWidth / double(c.m.headDim) * 8, true});
        inv.push_back({"attention probabilities (softmax output)", "b*a*s^2*bytes",
                       d.scores * softmaxBytes * width, true});
        if (c.t.dropout > 0)
            inv.push_back({"attention dropout mask and output", "b*a*s^2*(1 + c)",
                           d.scores * (1 + d.c), true});
        else if (softmaxBytes != d.c)
            inv.push_back(
                {"attention probabilities cast to 16 bits", "b*a*s^2*c", d.scores * d.c, true});
        if (linearSavesInput(c, "o_proj"))
            inv.push_back(
                {"attention context (o_proj input)", "b*s*a*d*c", d.tokens * d.qWidth * d.c});
    } else if (sdpaMathPath(c)) {
        // q @ k^T, softmax and probs @ v as separate ops: the softmax output (compute dtype) is
        // kept for both backwards; the output itself is kept only by a trainable o_proj.
        inv.push_back({"attention probabilities (SDPA math path, broadcast key)", "b*a*s^2*c",
                       d.scores * d.c, true});
        if (linearSavesInput(c, "o_proj"))
            inv.push_back(
                {"attention context (o_proj input)", "b*s*a*d*c", d.tokens * d.qWidth * d.c});
    } else {
        // Flash / memory-efficient kernels keep the output and a per-row logsumexp instead of
        // the s^2 probabilities (Dao et al. 2022 §3.1); the output doubles as o_proj's input.
        inv.push_back({"attention output (kept by the kernel, o_proj input)", "b*s*a*d*c",
                       d.tokens * d.qWidth * d.c, false, true});
        inv.push_back({"softmax logsumexp per row", "b*a*s*4",
                       d.tokens * d.qWidth / double(c.m.headDim) * 4, false, true});
    }
    if (!c.lora) {
        // no adapters (the checks below compare target names: skip them)
    } else if (c.s.framework == Framework::Litgpt) {
        addLitgptQkvLora(c, d, inv);
    } else if (fusedQkvLoraTarget(c.t.finetune)) {
        addLora(c, d, inv, "q_proj", d.h, true); // one adapter on the fused projection
    } else {
        addLora(c, d, inv, "q_proj", d.h, true);
        addLora(c, d, inv, "k_proj", d.h, true);
        addLora(c, d, inv, "v_proj", d.h, true);
    }
    if (c.lora)
        addLora(c, d, inv, "o_proj", d.qWidth, false);
}

// One MLP's saved tensors for `k` tokens per token of the micro-batch (top-k routed experts:
// k; a dense or shared MLP: 1) at width `ffn` (per GPU).
void addMlpBody(const StageContext &c, const Dims &d, Inventory &inv, double k, double ffn)
{
    const double cf = d.tokens * ffn * d.c * k;
    if (c.m.ffnType == FfnType::Gelu) {
        const bool newGelu = c.m.activation == Activation::GeluTanhPython && c.hfModelCode();
        if (newGelu && c.amp) {
            // NewGELU under autocast: pow is on the fp32 list, so it keeps an fp32 copy of x,
            // and tanh and 1 + tanh follow it into fp32; 0.5*x stays 16-bit (CPU-measured,
            // tests/data/measured: PowBackward0.self, TanhBackward0.result, MulBackward0).
            const double f = d.tokens * ffn * k;
            inv.push_back({"fc1 output in fp32 (pow's input under autocast)", "b*s*f*4", f * 4,
                           false, true});
            inv.push_back({"gelu_new intermediates (tanh, 1+tanh in fp32; 0.5x)",
                           "b*s*f*(4 + 4 + c)", f * (8 + d.c)});
        } else {
            inv.push_back({"fc1 output (activation input)", "b*s*f*c", cf, false, true});
            if (newGelu)
                // NewGELU is four elementwise ops: x^3 path, tanh output, 0.5*x and 1 + tanh.
                inv.push_back(
                    {"gelu_new intermediates (tanh, 0.5x, 1+tanh)", "3*b*s*f*c", 3 * cf});
        }
        if (linearSavesInput(c, "down_proj") && !c.compiled)
            inv.push_back({"activation output (fc2 input)", "b*s*f*c", cf});
    } else if (c.compiled && c.eagerModelCode()) {
        // Inductor keeps the gate and up projections (matmul outputs) and recomputes the
        // activation and the product, down_proj's input included, inside backward.
        inv.push_back({"gate projection (compiled SwiGLU input)", "b*s*f*c", cf, false, true});
        inv.push_back({"up projection (compiled SwiGLU input)", "b*s*f*c", cf});
    } else if (c.fusedKernels && c.eagerModelCode()) {
        // Liger's LigerSiLUMulFunction and Unsloth's swiglu kernels keep gate and up and
        // recompute silu in backward; the product is a tensor of its own that down_proj keeps
        // (liger_kernel/ops/swiglu.py; unsloth/kernels/swiglu.py).
        inv.push_back({"gate projection (fused SwiGLU input)", "b*s*f*c", cf, false, true});
        inv.push_back({"up projection (fused SwiGLU input)", "b*s*f*c", cf});
        if (linearSavesInput(c, "down_proj") && !unslothFastLora(c))
            inv.push_back({"gated product (down_proj input)", "b*s*f*c", cf});
    } else if (c.eagerModelCode()) {
        // down(act(gate(x)) * up(x)): act keeps gate, the product keeps act and up.
        inv.push_back({"gate projection (activation input)", "b*s*f*c", cf, false, true});
        inv.push_back({"activation output (kept by the product)", "b*s*f*c", cf});
        inv.push_back({"up projection (kept by the product)", "b*s*f*c", cf});
        if (linearSavesInput(c, "down_proj"))
            inv.push_back({"gated product (down_proj input)", "b*s*f*c", cf});
    } else {
        // Megatron's fused bias-SwiGLU keeps fc1's output (gate and up) and fc2's input.
        inv.push_back(
            {"fc1 output, gate and up (fused SwiGLU input)", "2*b*s*f*c", 2 * cf, false, true});
        if (linearSavesInput(c, "down_proj"))
            inv.push_back({"SwiGLU output (fc2 input)", "b*s*f*c", cf});
    }
    addLora(c, d, inv, "gate_proj", d.h, true, k);
    addLora(c, d, inv, "up_proj", d.h, true, k);
    addLora(c, d, inv, "down_proj", ffn, false, k);
}

void addMlp(const StageContext &c, const Dims &d, Inventory &inv, LayerKind kind)
{
    if (kind == LayerKind::Dense || !c.m.isMoe()) {
        addMlpBody(c, d, inv, 1.0, c.m.isMoe() ? d.denseFfn : d.ffn);
        return;
    }
    const double k = double(c.m.moe.expertsPerToken);
    addRouterAndDispatch(c, d, inv);
    // Experts stored as 3-D parameters (gpt-oss, Llama 4) run their own kernels (below); the
    // others are nn.Linear MLPs that see only their dispatched tokens.
    if (!addFusedExperts(c, d, inv))
        addMlpBody(c, d, inv, k * routedTokenFactor(c), d.ffn);
    if (c.m.moe.sharedExperts > 0)
        addMlpBody(c, d, inv, 1.0, d.sharedFfn);
}

// The part of one layer's inventory that layers of both kinds share (its first norm, attention
// and what follows it), or the part of the given kind (its second norm and MLP).
enum class LayerPart
{
    Attention,
    Mlp
};

Inventory layerInventory(const StageContext &c, const Dims &d, LayerKind kind, LayerPart part)
{
    Inventory inv;
    const bool dropoutMasks = c.t.dropout > 0 && hasResidualDropout(c.m.family);
    const bool attnInputSaved =
        c.m.isMla() ? linearSavesInput(c, c.m.mla.qLoraRank > 0 ? "q_a_proj" : "q_proj") ||
                          linearSavesInput(c, "kv_a_proj_with_mqa")
                    : linearSavesInput(c, "q_proj") || linearSavesInput(c, "k_proj") ||
                          linearSavesInput(c, "v_proj");
    const double attnReaders = c.m.isMla() ? 2.0 : normReaders(c, true);
    // In a MoE layer the router (trainable in a full fine-tune) and the shared experts read the
    // norm output; the routed experts read gathered copies of it.
    const bool moeLayer = kind == LayerKind::Moe && c.m.isMoe();
    const bool sharedReads = moeLayer && c.m.moe.sharedExperts > 0 &&
                             (linearSavesInput(c, "up_proj") || linearSavesInput(c, "gate_proj"));
    const bool mlpInputSaved =
        moeLayer ? c.full || sharedReads
                 : linearSavesInput(c, "up_proj") || linearSavesInput(c, "gate_proj");
    const double mlpReaders =
        moeLayer ? (c.full ? 1.0 : 0.0) + (sharedReads ? normReaders(c, false) : 0.0)
                 : normReaders(c, false);
    const bool sharedNorm = c.m.parallelBlock && c.m.normsPerLayer < 2;
    // OLMo 2 has no norms before its sublayers, only after them (modeling_olmo2.py); Gemma 2
    // and 3 have both (four per layer).
    const bool preNorms = c.m.family != Family::Olmo2;
    const bool postNorms = c.m.family == Family::Olmo2 ||
                           (c.m.normsPerLayer == 4 && (c.m.family == Family::Gemma2 ||
                                                       c.m.family == Family::Gemma3));

    if (part == LayerPart::Attention) {
        if (!preNorms)
            addUnnormedInput(c, d, inv, attnInputSaved, attnReaders);
        else if (c.m.normsPerLayer > 0)
            addNorm(c, d, inv, attnInputSaved || (sharedNorm && mlpInputSaved),
                    (attnInputSaved ? attnReaders : 0.0) +
                        (sharedNorm && mlpInputSaved ? mlpReaders : 0.0));
        addAttention(c, d, inv);
        if (postNorms)
            addPostNorm(c, d, inv);
        if (dropoutMasks)
            inv.push_back(
                {"attention residual dropout mask", "b*s*h*1", d.tokens * d.h / d.outsideDiv});
        return inv;
    }
    if (!preNorms)
        addUnnormedInput(c, d, inv, mlpInputSaved, mlpReaders);
    else if (c.m.normsPerLayer > 1)
        addNorm(c, d, inv, mlpInputSaved, mlpReaders, c.m.parallelBlock);
    addMlp(c, d, inv, kind);
    if (postNorms)
        addPostNorm(c, d, inv);
    if (dropoutMasks)
        inv.push_back({"MLP residual dropout mask", "b*s*h*1", d.tokens * d.h / d.outsideDiv});
    return inv;
}

} // namespace

// Whether torch's SDPA falls back to its math path, which keeps the b*a*s^2 probabilities: its
// flash and memory-efficient kernels need as many key/value heads as query heads (before
// torch 2.5's enable_gqa). lit-gpt (2023) expands K and V for grouped queries but leaves the
// single head of multi-query models (Falcon-7B) broadcast, so those run the math path
// (lit_gpt/model.py CausalSelfAttention: `if n_query_groups != 1: k.expand(...)`;
// aten/src/ATen/native/transformers/sdp_utils_cpp.h check_batch_size_and_num_heads).
bool sdpaMathPath(const StageContext &c)
{
    return (c.s.framework == Framework::Litgpt && c.t.attention == Attention::Sdpa &&
            c.m.kvHeads == 1 && c.m.attentionHeads > 1) ||
           (sdpaWithGroupedHeads(c) && c.fp32);
}

// transformers >= 4.48 passes grouped K/V to SDPA with enable_gqa=True (torch >= 2.5, no
// padding mask) instead of repeating them (integrations/sdpa_attention.py use_gqa_in_sdpa):
// the flash kernel keeps K and V at their own width; in fp32, which flash does not take and
// the memory-efficient kernel does not take with enable_gqa, SDPA runs its math path and
// repeats them inside (CPU-measured, tests/data/measured: qwen3 sdpa fp32). The 2024-2026
// families exist only in those versions.
bool sdpaWithGroupedHeads(const StageContext &c)
{
    return c.hfModelCode() && c.transformersAtLeast(4, 48) && c.t.attention == Attention::Sdpa;
}

void addActivations(const StageContext &c, ItemSink &out)
{
    const double b = c.microBatch;
    const double s = double(c.t.sequenceLength);
    const double tp = double(c.tp);
    Dims d{};
    d.tokens = c.tokens;
    d.scores = b * double(c.m.attentionHeads) / tp * (s / double(c.cp)) * s;
    d.tp = tp;
    d.outsideDiv = c.p.sequenceParallel ? tp : 1.0;
    d.h = double(c.m.hiddenSize);
    d.qWidth = double(c.m.attentionHeads * c.m.headDim) / tp;
    d.kvWidth = double(c.m.kvHeads * c.m.headDim) / tp;
    // HF, LitGPT, torchtune and torchtitan expand K and V to every query head before sdpa;
    // transformers' flash_attention_2 and Megatron's kernels take grouped heads.
    // Compiled, the repeat is an elementwise copy Inductor recomputes from the grouped K/V.
    const bool repeatKv =
        c.eagerModelCode() && !c.compiled &&
        !(c.t.attention == Attention::Flash &&
          (c.s.framework == Framework::Transformers || c.s.framework == Framework::Deepspeed)) &&
        !(sdpaWithGroupedHeads(c) && !sdpaMathPath(c));
    d.kvSavedWidth = repeatKv ? d.qWidth : std::max(d.kvWidth, double(c.m.headDim));
    d.ffn = double(c.m.isMoe() && c.m.moe.expertFfnHiddenSize > 0 ? c.m.moe.expertFfnHiddenSize
                                                                  : c.m.ffnHiddenSize) /
            tp;
    d.denseFfn = double(c.m.ffnHiddenSize) / tp;
    d.sharedFfn = double(std::max<int64_t>(1, c.m.moe.sharedExperts) *
                         (c.m.moe.sharedExpertFfnHiddenSize > 0 ? c.m.moe.sharedExpertFfnHiddenSize
                          : c.m.moe.expertFfnHiddenSize > 0  ? c.m.moe.expertFfnHiddenSize
                                                             : c.m.ffnHiddenSize)) /
                  tp;
    d.c = c.act;
    const bool upcastNorm = c.m.norm == NormType::RmsNorm && c.eagerModelCode() &&
                            !c.compiled && !c.fusedKernels;
    d.normIn = (upcastNorm || c.amp || c.fp32) ? 4.0 : c.act;

    constexpr auto A = Component::Activations;
    constexpr unsigned savedPhases =
        phaseBit(Phase::Forward) | phaseBit(Phase::LossBackward) | phaseBit(Phase::LayerBackward);
    constexpr unsigned backwardPhases =
        phaseBit(Phase::LayerBackward) | phaseBit(Phase::BackwardEnd);

    // The inventory in three parts: what every layer keeps alike (norm, attention), and the MLP
    // part of each layer kind on this stage (a MoE model's dense layers differ only there).
    const auto groups = c.layerGroups();
    // The stages of one estimate build each part once (StageShared).
    const LayerKind attentionKind = groups[0].count > 0 ? groups[0].kind : groups[1].kind;
    StageShared &cache = *c.shared;
    if (!cache.attentionReady) {
        cache.attention = layerInventory(c, d, attentionKind, LayerPart::Attention);
        cache.attentionReady = true;
    }
    for (int g = 0; g < 2; ++g) {
        const int kind = int(groups[g].kind);
        if (groups[g].count > 0 && !cache.mlpReady[kind]) {
            cache.mlp[kind] = layerInventory(c, d, groups[g].kind, LayerPart::Mlp);
            cache.mlpReady[kind] = true;
        }
    }
    static const Inventory none = Inventory(); // once per process
    const Inventory *parts[3] = {
        &cache.attention, groups[0].count > 0 ? &cache.mlp[int(groups[0].kind)] : &none,
        groups[1].count > 0 ? &cache.mlp[int(groups[1].kind)] : &none};
    double partTotals[3] = {0, 0, 0};
    for (int i = 0; i < 3; ++i)
        for (const auto &e : *parts[i])
            partTotals[i] += e.bytes;
    const double layerTotals[2] = {partTotals[0] + partTotals[1], partTotals[0] + partTotals[2]};
    const double layerTotal = std::max(groups[0].count > 0 ? layerTotals[0] : 0.0,
                                       groups[1].count > 0 ? layerTotals[1] : 0.0);
    // The kind of the stage's first layer: DeepSeek's first stage starts with dense layers.
    const int firstKind = c.stage == 0 && groups[1].count > 0 ? 1 : (groups[0].count > 0 ? 0 : 1);

    // How many layers keep everything, and how many keep only their input (full recompute).
    // Recomputation of N layers takes each kind in proportion.
    const double L = double(c.stageLayers);
    double recomputed = 0;
    if (c.t.recompute == Recompute::Full)
        recomputed = c.t.recomputeLayers >= 0 ? std::min(L, double(c.t.recomputeLayers)) : L;
    const double keptShare = L > 0 ? (L - recomputed) / L : 0.0;
    const double kept = (L - recomputed) * c.inFlight;
    const bool selective = c.t.recompute == Recompute::Selective;
    const bool sac = selective && c.s.framework == Framework::Torchtitan;
    if (sac && kept > 0) {
        // torchtitan's per-op SAC (parallelize_llama.py _save_list): the block input, the
        // attention kernel's outputs and every other matmul output (wq, wv, w1, w2) are kept;
        // wk, wo, w3 and the elementwise ops are recomputed.
        const double sacBytes =
            d.tokens * d.c * (d.h / d.outsideDiv + d.kvWidth + d.h / d.outsideDiv);
        out.add(A, "SAC-kept block input, v and w2 outputs", "b*s*(2h + kv*d)*c",
                "torchtitan selective op AC", sacBytes, kept, savedPhases);
    }

    // Layers of each part's kind that keep their tensors on this stage.
    const double counts[3] = {(groups[0].count + groups[1].count) * keptShare * c.inFlight,
                              groups[0].count * keptShare * c.inFlight,
                              groups[1].count * keptShare * c.inFlight};
    static constexpr std::string_view partSource[3] = {
        "per-layer saved-tensor inventory", "per-layer saved-tensor inventory",
        "per-layer saved-tensor inventory (dense-MLP layers)"};
    double keptPart[3] = {0, 0, 0};
    for (int i = 0; i < 3 && kept > 0; ++i) {
        if (!(counts[i] > 0))
            continue;
        for (const auto &e : *parts[i]) {
            if (selective && !sac && e.score)
                continue; // Megatron selective recompute drops the attention core
            if (sac && !e.keptBySac)
                continue; // recomputed from the kept matmul and attention outputs
            keptPart[i] += e.bytes;
            out.add(A, e.name, e.formula, partSource[i], e.bytes, counts[i], savedPhases);
        }
    }
    const double keptPerLayer[2] = {keptPart[0] + keptPart[1], keptPart[0] + keptPart[2]};
    if (recomputed == 0 && kept > 0)
        // At the end of backward the first layer still holds what it saved, until its own
        // backward has consumed it (DeepSeek's first layers are dense).
        out.add(A, "first layer's saved tensors (consumed last)", "one layer's inventory",
                "autograd", keptPerLayer[firstKind], 1, phaseBit(Phase::BackwardEnd));
    if (recomputed > 0) {
        // torch.utils.checkpoint / Megatron recompute keep each layer's input (Korthikanti
        // §4.2: 2sbh per layer) and rebuild one layer's activations inside its backward.
        // Under autocast the residual stream between layers stays fp32 (fp32 weights and
        // embeddings), so the checkpoint keeps an fp32 input.
        const double residualBytes = c.amp ? 4.0 : d.c;
        if (c.offloadedCheckpoints)
            // Unsloth copies each checkpointed input to pinned host memory in forward and back
            // one layer ahead in backward: two layers' inputs on the GPU at a time.
            out.add(A, "checkpointed layer inputs in flight (rest offloaded to the host)",
                    "2 * b*s*h*(residual bytes)",
                    "unsloth_zoo gradient_checkpointing.py (offloaded checkpointing)",
                    d.tokens * d.h * residualBytes / d.outsideDiv,
                    std::min(2.0, recomputed * c.inFlight), savedPhases);
        else
            out.add(A, "checkpointed layer inputs", "b*s*h*(residual bytes) per layer",
                    "Korthikanti et al. §4.2", d.tokens * d.h * residualBytes / d.outsideDiv,
                    recomputed * c.inFlight, savedPhases);
        // Partial recomputation checkpoints the first layers (Megatron's "block" method), whose
        // backward comes last, when the kept layers' activations are already gone. The last
        // layer recomputed is the stage's first (a dense one of DeepSeek's first stage).
        const double firstLayerTotal = layerTotals[firstKind];
        if (recomputed >= L && layerTotal > firstLayerTotal) {
            out.add(A, "one layer recomputed during its backward", "the layer's full inventory",
                    "torch.utils.checkpoint", layerTotal, 1, phaseBit(Phase::LayerBackward));
            out.add(A, "first layer recomputed during its backward", "the layer's full inventory",
                    "torch.utils.checkpoint", firstLayerTotal, 1, phaseBit(Phase::BackwardEnd));
        } else {
            out.add(A, "one layer recomputed during its backward", "the layer's full inventory",
                    "torch.utils.checkpoint", recomputed < L ? firstLayerTotal : layerTotal, 1,
                    recomputed < L ? phaseBit(Phase::BackwardEnd) : backwardPhases);
        }
    }
    if (c.hasEmbedding && c.t.dropout > 0 && hasResidualDropout(c.m.family))
        out.add(A, "embedding dropout mask", "b*s*h*1", "nn.Dropout", d.tokens * d.h / d.outsideDiv,
                c.inFlight, savedPhases);
    if (c.t.attention == Attention::Eager && c.eagerModelCode() && c.m.family != Family::Gpt2 &&
        c.m.family != Family::Bert)
        // transformers builds one 4-D causal mask in the compute dtype for eager attention.
        out.add(A, "4-D causal mask (eager)", "b*s^2*c", "transformers modeling_attn_mask_utils",
                b * s * s / double(c.cp) * d.c, 1, savedPhases);

    // The backward working set: gradients flowing through one layer (its intermediate and
    // hidden-size gradients), and for eager attention the s^2 gradient of the probabilities.
    double working = d.tokens *
                     (2 * d.ffn * (c.m.isMoe() ? double(c.m.moe.expertsPerToken) : 1.0) + 3 * d.h) *
                     d.c;
    if (c.t.attention == Attention::Eager)
        working += d.scores * (d.c + 4);
    else if (sdpaMathPath(c))
        working += d.scores * 2 * d.c; // gradients of the probabilities and of the scores
    out.add(Component::Temporary, "backward working set of one layer",
            "b*s*(2f + 3h)*c (+ b*a*s^2*(c+4) eager, 2c SDPA math path)", "autograd", working, 1,
            backwardPhases);
    if (c.m.isMoe() && c.ep > 1 && c.mainLayers > 0)
        // The all-to-all's send and receive buffers of one MoE layer: the permuted tokens out,
        // the tokens for this GPU's experts in (and the same on the way back, and for the
        // gradients in backward) (Megatron MoEAlltoAllTokenDispatcher; torchtitan
        // expert_parallel all_to_all_single).
        out.add(Component::Temporary, "expert-parallel all-to-all buffers",
                "b*s*k*h*c * (1 + imbalance)", "Megatron token_dispatcher.py",
                d.tokens * double(c.m.moe.expertsPerToken) * d.h * d.c *
                    (1 + routedTokenFactor(c)),
                1, savedPhases | backwardPhases);

    if (c.hasHead && c.t.mtpLayers > 0) {
        // Multi-token prediction: each module runs one more layer of the last layer's kind on
        // the concatenation of the normed hidden state and the normed next-token embedding
        // (eh_proj's input, 2h), under the same recomputation as the layers (DeepSeek-V3 §2.2).
        const int lastKind = c.m.isMoeLayer(c.m.layers - 1) || !c.m.isMoe() ? 0 : 1;
        const double n = double(c.t.mtpLayers);
        const double layerBytes = recomputed > 0 ? d.tokens * d.h * (c.amp ? 4.0 : d.c)
                                                 : layerTotals[lastKind];
        out.add(A, "multi-token prediction layers' saved tensors", "one layer's inventory",
                "DeepSeek-V3 §2.2; Megatron multi_token_prediction.py", layerBytes, n,
                savedPhases);
        out.add(A, "multi-token prediction: normed hidden and embedding (eh_proj input)",
                "b*s*2h*c per module", "Megatron MultiTokenPredictionLayer",
                d.tokens * 2 * d.h * d.c, n, savedPhases);
    }

    // --- final norm, logits and loss (last stage) -----------------------------------------
    if (c.hasHead)
        addLogitsAndLoss(c, d, out);
}

} // namespace vramplan
