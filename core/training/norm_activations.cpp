// The norms' saved tensors: a layer's norms before its sublayers (or its unnormed input), and
// the q/k and post-sublayer norms of the 2024-2026 families (transformers v4.56, op by op).

#include "training/activation_dims.h"
#include "training/stage_context.h"

namespace vramplan {

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

void addNorm(const StageContext &c, const Dims &d, Inventory &inv, bool outputSaved, double readers,
             bool inputShared)
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

namespace {

// Rows of one RMSNorm's per-row statistic (the rsqrt the multiply keeps), 4 bytes each.
constexpr double rowStatBytes = 4;

} // namespace

// transformers' RMSNorms upcast their input to fp32 (kept by pow and by the multiply), keep the
// per-row rsqrt, and keep the normalised input for the weight's gradient (full fine-tune). The
// inputs here are linear outputs, in the compute dtype even under autocast, which is the dtype
// the normalised input is cast back to.
void addRmsNormOf(const StageContext &c, const Dims &d, Inventory &inv, std::string_view name,
                  std::string_view formula, double width, double rows, bool weighted)
{
    double bytes = d.tokens * width * 4 + d.tokens * rows * rowStatBytes;
    if (weighted && c.full)
        bytes += d.tokens * width * normalisedBytes(c, d.c);
    // Megatron's fused (Transformer Engine) RMSNorm keeps its 16-bit input and the rstd.
    if (!c.eagerModelCode())
        bytes = d.tokens * width * d.c + d.tokens * rows * rowStatBytes;
    inv.push_back({name, formula, bytes});
}

double normalisedBytes(const StageContext &c, double inputBytes)
{
    // Gemma's norms multiply by (1 + weight) in fp32 and OLMo 2's by the weight in fp32 before
    // casting back (modeling_gemma2.py Gemma2RMSNorm, modeling_olmo2.py Olmo2RMSNorm); Llama's
    // multiplies the weight by x.to(input dtype).
    const Family f = c.m.family;
    // gpt-oss multiplies its fp32 weight (_keep_in_fp32_modules) before casting back.
    // Qwen3-Next and Qwen3.5 norm as Gemma does (Qwen3NextRMSNorm, Qwen3_5RMSNorm).
    if (c.hfModelCode() &&
        (f == Family::Gemma2 || f == Family::Gemma3 || f == Family::Olmo2 || f == Family::GptOss ||
         f == Family::Qwen3Next || f == Family::Qwen35 || f == Family::Qwen35Moe))
        return 4;
    return inputBytes;
}

void addQkNorms(const StageContext &c, const Dims &d, Inventory &inv)
{
    if (c.m.qkNorm == QkNorm::None || !c.eagerModelCode())
        return;
    const double heads = d.qWidth / double(c.m.headDim);
    const double kvHeads = d.kvWidth / double(c.m.headDim);
    switch (c.m.qkNorm) {
    case QkNorm::Head:
        // Qwen3Attention / Gemma3Attention: q_norm(q_proj(x).view(..., heads, head_dim)), one
        // statistic per head and token.
        addRmsNormOf(c, d, inv, "q_norm fp32 input, per-head rsqrt, normalised",
                     "b*s*a*d*4 + b*s*a*4 (+ b*s*a*d*c trained)", d.qWidth, heads, true);
        addRmsNormOf(c, d, inv, "k_norm fp32 input, per-head rsqrt, normalised",
                     "b*s*kv*d*4 + b*s*kv*4 (+ b*s*kv*d*c trained)", d.kvWidth, kvHeads, true);
        break;
    case QkNorm::Full:
        // Olmo2Attention: q_norm(q_proj(x)) over the whole projection, before the head split.
        addRmsNormOf(c, d, inv, "q_norm fp32 input, rsqrt, normalised",
                     "b*s*a*d*4 + b*s*4 (+ b*s*a*d*4 trained)", d.qWidth, 1, true);
        addRmsNormOf(c, d, inv, "k_norm fp32 input, rsqrt, normalised",
                     "b*s*kv*d*4 + b*s*4 (+ b*s*kv*d*4 trained)", d.kvWidth, 1, true);
        break;
    case QkNorm::L2:
        // Llama4TextL2Norm: x.float() * rsqrt(mean(x^2)); no weight.
        addRmsNormOf(c, d, inv, "q/k L2 norm fp32 inputs and rsqrt", "b*s*(a + kv)*(d*4 + 4)",
                     d.qWidth + d.kvWidth, heads + kvHeads, false);
        break;
    case QkNorm::None:
        break;
    }
}

void addPostNorm(const StageContext &c, const Dims &d, Inventory &inv)
{
    // A norm on a sublayer's output feeds only the residual add, which keeps nothing: the norm
    // keeps its fp32 input and statistic, and its normalised input for a trained weight.
    if (!c.eagerModelCode())
        return;
    double bytes = d.tokens * d.h * 4 + d.tokens * rowStatBytes;
    if (c.full)
        bytes += d.tokens * d.h * normalisedBytes(c, c.amp ? 4.0 : d.c);
    inv.push_back({"post-sublayer RMSNorm fp32 input, rsqrt, normalised",
                   "b*s*h*4 + b*s*4 (+ b*s*h*4 trained)", bytes / d.outsideDiv});
}

} // namespace vramplan
