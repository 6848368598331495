// The saved tensors of the layer parts that the 2024-2026 architectures added: multi-head latent
// attention, q/k norms, post-sublayer norms and the routers of their mixture-of-experts layers.
// Each follows the transformers modelling code of the family (v4.56, the first release that
// has every one of them) op by op: which tensors an op keeps for backward decides the bytes.
// The CPU measurements in tests/measure reproduce these blocks and hold the formulas to bytes.

#include "activation_dims.h"
#include "estimate_context.h"

#include <cmath>

namespace vramplan {
namespace {

// Rows of one RMSNorm's per-row statistic (the rsqrt the multiply keeps), 4 bytes each.
constexpr double rowStatBytes = 4;

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

} // namespace

double normalisedBytes(const StageContext &c, double inputBytes)
{
    // Gemma's norms multiply by (1 + weight) in fp32 and OLMo 2's by the weight in fp32 before
    // casting back (modeling_gemma2.py Gemma2RMSNorm, modeling_olmo2.py Olmo2RMSNorm); Llama's
    // multiplies the weight by x.to(input dtype).
    const Family f = c.m.family;
    // gpt-oss multiplies its fp32 weight (_keep_in_fp32_modules) before casting back.
    if (c.hfModelCode() &&
        (f == Family::Gemma2 || f == Family::Gemma3 || f == Family::Olmo2 || f == Family::GptOss))
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

void addMlaAttention(const StageContext &c, const Dims &d, Inventory &inv)
{
    // transformers DeepseekV3Attention.forward: q = q_b_proj(q_a_layernorm(q_a_proj(x)));
    // kv = kv_a_proj_with_mqa(x) split into the latent and the rope key; the latent goes
    // through kv_a_layernorm and kv_b_proj; queries and keys are concatenations of the
    // no-rope and rope parts (new tensors); values are a view of kv_b_proj's output.
    const auto &mla = c.m.mla;
    const double heads = double(c.m.attentionHeads) / d.tp;
    const double qk = double(mla.qkHeadDim());
    const double v = double(mla.vHeadDim);
    const double kvr = double(mla.kvLoraRank);
    if (mla.qLoraRank > 0) {
        const double qr = double(mla.qLoraRank);
        addRmsNormOf(c, d, inv, "q_a_layernorm fp32 input, rsqrt, normalised",
                     "b*s*q_lora_rank*4 + b*s*4 (+ b*s*q_lora_rank*c trained)", qr, 1, true);
        if (linearSavesInput(c, "q_b_proj"))
            inv.push_back({"q_a_layernorm output (q_b_proj input)", "b*s*q_lora_rank*c",
                           d.tokens * qr * d.c});
    }
    // In fp32, k_pass.to(float32) is the split view itself, which keeps kv_a_proj_with_mqa's
    // whole output (latent and rope key) for pow and the multiply.
    addRmsNormOf(c, d, inv, "kv_a_layernorm fp32 input, rsqrt, normalised",
                 "b*s*kv_lora_rank*4 + b*s*4 (+ b*s*kv_lora_rank*c trained)", kvr, 1, true);
    if (c.fp32 && c.hfModelCode())
        inv.push_back({"kv_a_proj_with_mqa's rope columns (held by the fp32 norm input view)",
                       "b*s*rope*4", d.tokens * double(mla.qkRopeHeadDim) * 4});
    if (linearSavesInput(c, "kv_b_proj"))
        inv.push_back({"kv_a_layernorm output (kv_b_proj input)", "b*s*kv_lora_rank*c",
                       d.tokens * kvr * d.c});
    inv.push_back({"query: no-rope and rope parts concatenated", "b*s*a*(nope + rope)*c",
                   d.tokens * heads * qk * d.c, false, true});
    inv.push_back({"key: no-rope part and the shared rope key concatenated",
                   "b*s*a*(nope + rope)*c", d.tokens * heads * qk * d.c});
    const bool eager = c.t.attention == Attention::Eager;
    // Only transformers pads: cuDNN / Transformer Engine and SDPA's memory-efficient kernel
    // take a value head size that differs from the query's.
    const bool flash = c.t.attention == Attention::Flash && c.hfModelCode();
    // transformers' SDPA path hands the kernel contiguous q, k and v (sdpa_attention.py), so
    // the value is its own copy; eager attention keeps the view, which holds kv_b_proj's output.
    const bool sdpa = c.t.attention == Attention::Sdpa && c.hfModelCode();
    if (flash && v != qk)
        // flash_attention_2 needs one head size: values are padded to nope + rope.
        inv.push_back({"value padded to the query head size (flash)", "b*s*a*(nope + rope)*c",
                       d.tokens * heads * qk * d.c});
    else if (sdpa || !c.hfModelCode())
        inv.push_back({"value (saved by attention)", "b*s*a*v*c", d.tokens * heads * v * d.c});
    else
        inv.push_back({"value, a view holding kv_b_proj's whole output", "b*s*a*(nope + v)*c",
                       d.tokens * heads * (double(mla.qkNopeHeadDim) + v) * d.c});
    if (eager) {
        inv.push_back({"attention probabilities (fp32 softmax output)", "b*a*s^2*4",
                       d.scores * 4, true});
        if (c.t.dropout > 0)
            inv.push_back({"attention dropout mask and output", "b*a*s^2*(1 + c)",
                           d.scores * (1 + d.c), true});
        else
            inv.push_back(
                {"attention probabilities cast to 16 bits", "b*a*s^2*c", d.scores * d.c, true});
        if (linearSavesInput(c, "o_proj"))
            inv.push_back({"attention context (o_proj input)", "b*s*a*v*c",
                           d.tokens * heads * v * d.c});
    } else {
        inv.push_back({"attention output (kept by the kernel, o_proj input)", "b*s*a*v*c",
                       d.tokens * heads * (flash && v != qk ? qk : v) * d.c, false, true});
        if (flash && v != qk && linearSavesInput(c, "o_proj"))
            // The padded output is sliced back to v before o_proj, which keeps that copy.
            inv.push_back({"attention context sliced to v (o_proj input)", "b*s*a*v*c",
                           d.tokens * heads * v * d.c});
        // SDPA's memory-efficient kernel (flash takes no query head size that differs from the
        // value's) pads its logsumexp to a multiple of 32 rows.
        const double s = double(c.t.sequenceLength) / double(c.cp);
        const double rows = sdpa && v != qk ? std::ceil(s / 32) * 32 / s : 1.0;
        inv.push_back({"softmax logsumexp per row", "b*a*s*4", d.tokens * heads * 4 * rows, false,
                       true});
    }
    addLora(c, d, inv, mla.qLoraRank > 0 ? "q_a_proj" : "q_proj", d.h, true);
    if (mla.qLoraRank > 0)
        addLora(c, d, inv, "q_b_proj", double(mla.qLoraRank), false);
    addLora(c, d, inv, "kv_a_proj_with_mqa", d.h, true);
    addLora(c, d, inv, "kv_b_proj", kvr, false);
    addLora(c, d, inv, "o_proj", heads * v, false);
}

double routedTokenFactor(const StageContext &c)
{
    const auto &moe = c.m.moe;
    // With a capacity factor, experts take (and grouped-GEMM engines pad to) at most that
    // multiple of the balanced share (Megatron moe_expert_capacity_factor,
    // moe_pad_expert_input_to_capacity).
    if (moe.capacityFactor > 0)
        return c.hfModelCode() ? std::min(moe.imbalance, moe.capacityFactor) : moe.capacityFactor;
    // Dropless: a GPU that holds some of the experts receives the tokens routed to them from
    // the whole expert-parallel group; the busiest one `imbalance` times the balanced share, at
    // most every token of the group (ep ranks x top-k, capped at its experts). Without expert
    // parallelism every routed token stays here whatever the balance.
    if (c.ep <= 1)
        return 1.0;
    const double localExperts = double(moe.experts) / double(c.ep);
    const double ceiling =
        double(c.ep) * std::min(double(moe.expertsPerToken), localExperts) /
        double(moe.expertsPerToken);
    return std::min(moe.imbalance, ceiling);
}

void addRouterAndDispatch(const StageContext &c, const Dims &d, Inventory &inv)
{
    const double E = double(c.m.moe.experts);
    const double k = double(c.m.moe.expertsPerToken);
    const double T = d.tokens;
    const double routed = T * k * routedTokenFactor(c);
    if (!c.hfModelCode()) {
        // Grouped-GEMM engines (Megatron's MoELayer with the all-to-all dispatcher, torchtitan's
        // GroupedExperts): fp32 router logits and probabilities (moe_router_dtype), the tokens
        // permuted to this GPU's experts (kept by the first grouped GEMM), and the experts'
        // outputs kept by the unpermute weighting together with their probabilities.
        inv.push_back({"router logits and probabilities (fp32)", "b*s*E*(4 + 4)", T * E * 8});
        if (linearSavesInput(c, "up_proj"))
            inv.push_back({"tokens permuted to this GPU's experts", "b*s*k*h*c * imbalance",
                           routed * d.h * d.c});
        inv.push_back({"expert outputs and probabilities kept by unpermute",
                       "b*s*k*(h*c + 4) * imbalance", routed * (d.h * d.c + 4)});
        return;
    }
    const Family f = c.m.family;
    // DeepSeek's router computes in fp32 (F.linear(x.float(), weight.float())), except under
    // autocast, which runs linear in 16 bits whatever its inputs.
    const bool deepseek = f == Family::DeepseekV3 || f == Family::DeepseekV2 || f == Family::Glm4Moe;
    const double routerBytes = deepseek && !c.amp ? 4.0 : d.c;
    if (c.m.moe.router == RouterScore::Sigmoid && f != Family::Llama4) {
        // DeepseekV3TopkRouter: a trained router keeps its (fp32, or autocast's 16-bit) input
        // copy; the sigmoid keeps its output; gather keeps the top-k indices; the normalising
        // division keeps the weights and their sum. (In fp32 the input is the norm output.)
        if (c.full && !c.fp32)
            inv.push_back({"router input copy (fp32, 16-bit under autocast)", "b*s*h*bytes",
                           T * d.h * routerBytes});
        inv.push_back({"router sigmoid scores", "b*s*E*bytes", T * E * routerBytes});
        inv.push_back({"top-k indices and normalised weights", "b*s*k*(8 + bytes) + b*s*bytes",
                       T * k * (8 + routerBytes) + T * routerBytes});
    } else if (f == Family::GptOss) {
        // GptOssTopKRouter: topk of the logits (indices kept), softmax over the top-k in the
        // compute dtype (output kept).
        inv.push_back({"top-k indices and softmax over the top-k", "b*s*k*(8 + c)",
                       T * k * (8 + d.c)});
    } else {
        // Mixtral / Qwen3-MoE: softmax over all experts in fp32, topk (indices kept), and the
        // renormalisation of the top-k weights (norm_topk_prob).
        inv.push_back({"router softmax (fp32)", "b*s*E*4", T * E * 4});
        inv.push_back({"top-k indices", "b*s*k*8", T * k * 8});
        if (c.m.moe.normalizeTopK)
            inv.push_back({"top-k weights and their sum (renormalisation)", "b*s*k*4 + b*s*4",
                           T * k * 4 + T * 4});
    }
    // The per-expert loop: hidden_states[token_idx] (a copy the expert's first linears keep;
    // under autocast each reading linear keeps its own 16-bit cast of the fp32 copy), the
    // expert's output and its gathered routing weight kept by the weighting multiply, the
    // weighted output kept by index_add_ (its backward expands to the source: derivatives.yaml
    // index_add), and the int64 token and slot indices of torch.where, one storage per expert.
    // Routing weights: Qwen3-MoE casts them to the hidden dtype (fp32 under autocast),
    // DeepSeek keeps its fp32 router's, gpt-oss its router's dtype.
    const double hidden = c.amp ? 4.0 : d.c;
    const double weightBytes = deepseek ? routerBytes : (f == Family::GptOss ? d.c : hidden);
    const double sourceBytes = deepseek ? std::max(d.c, routerBytes) : hidden;
    const bool gptOss = f == Family::GptOss;
    const bool inputKept = gptOss ? c.full || c.qlora
                                  : linearSavesInput(c, "up_proj") || linearSavesInput(c, "gate_proj");
    const double readers = c.amp ? (gptOss || c.m.ffnType == FfnType::Gelu ? 1.0 : 2.0) : 1.0;
    if (inputKept)
        inv.push_back({"tokens dispatched to experts", "b*s*k*h*c (per reading linear under autocast)",
                       routed * d.h * d.c * readers});
    inv.push_back({"expert outputs and routing weights kept by the weighting",
                   "b*s*k*(h*c + weight bytes)",
                   routed * (d.h * (gptOss ? gptOssExpertBytes(c, d) : d.c) + weightBytes)});
    inv.push_back({"weighted expert outputs kept by index_add_", "b*s*k*h*(hidden bytes)",
                   routed * d.h * sourceBytes});
    inv.push_back({"token and slot indices of the dispatch (int64)", "b*s*k*2*8", routed * 16});
}

bool addFusedExperts(const StageContext &c, const Dims &d, Inventory &inv)
{
    if (c.m.family != Family::GptOss || !c.hfModelCode())
        return false;
    // GptOssExperts, training path (the per-expert loop): gate_up = x @ W + b keeps x (the
    // dispatched copy, counted with the dispatch); gate and up are strided views of gate_up,
    // so both clamps keep the whole gate_up; gate * sigmoid(gate * alpha) keeps the clamped gate
    // and the sigmoid; (up + 1) * glu keeps both; the down projection keeps its input (a 16-bit
    // cast under autocast) when its weight trains. Under autocast the fp32 bias makes every
    // elementwise tensor fp32 (CPU-measured).
    const double routed = d.tokens * double(c.m.moe.expertsPerToken) * routedTokenFactor(c);
    const double kf = routed * d.ffn;
    const double eb = gptOssExpertBytes(c, d);
    inv.push_back({"gate_up output (kept by both clamps)", "b*s*k*2f*(expert bytes)", 2 * kf * eb,
                   false, true});
    inv.push_back({"clamped gate, sigmoid, up + 1 and glu", "b*s*k*4f*(expert bytes)", 4 * kf * eb});
    if (c.full || c.qlora)
        inv.push_back({"gated output (down projection input)", "b*s*k*f*c", kf * d.c});
    return true;
}

double gptOssExpertBytes(const StageContext &c, const Dims &d)
{
    return c.amp ? 4.0 : d.c;
}

} // namespace vramplan
