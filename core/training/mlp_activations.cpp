// The MLP sublayer's saved tensors: dense and shared MLPs, and a mixture-of-experts layer's
// router, token dispatch and experts (gpt-oss's fused experts among them).

#include "training/activation_dims.h"
#include "training/stage_context.h"

#include <algorithm>

namespace vramplan {
namespace {

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

} // namespace

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
    const bool deepseek = f == Family::DeepseekV3 || f == Family::DeepseekV2 ||
                          f == Family::Glm4Moe || f == Family::KimiLinear;
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
