#pragma once
// What a model is, as plain values: its family, its layers and their kinds, attention, MLP and
// mixture-of-experts shapes, and any vision tower (SPEC §3 "model" and the layer-kind extension
// of 2026-11). Read from a Hugging Face config by model/hf_config*.cpp; counted by
// model/model_weights.cpp.

#include <algorithm>
#include <cstdint>
#include <string>

namespace vramplan {

enum class Family
{
    Gpt2,
    Bert,
    Llama,
    Mistral,
    Mixtral,
    Qwen2,
    Phi3,
    Gemma,
    Phi,
    GptNeox,
    Falcon,
    // Hugging Face model types of 2024-2026, each under its own name (SPEC §3): the family
    // decides the block's topology and the quirks of its modelling code; the numbers come from
    // the fields.
    Qwen3,
    Qwen3Moe,
    DeepseekV2,
    DeepseekV3,
    Llama4,
    GptOss,
    Gemma2,
    Gemma3,
    Olmo2,
    Granite,
    Smollm3,
    Glm4Moe,
    // Model types of 2025-2026 and the community's older ones (issue 20): hybrids of attention
    // with Gated DeltaNet (Qwen3-Next, Qwen3.5), Mamba2 (Nemotron-H, Granite 4.0-H, Falcon-H1) or
    // short convolutions (LFM2); DeepSeek sparse attention (V3.2, GLM-5); vision-language models.
    Qwen3Next,
    Qwen35,
    Qwen35Moe,
    NemotronH,
    GraniteHybrid,
    Lfm2,
    FalconH1,
    DeepseekV32,
    GlmMoeDsa,
    MinimaxM2,
    Olmo3,
    Gemma4,
    Qwen2Moe,
    Glm4,
    Chatglm,
    Internlm2,
    Internlm3,
    Hunyuan,
    HunyuanMoe,
    Ernie45,
    Ernie45Moe,
    Qwen25Vl,
    Qwen3Vl,
    KimiLinear, // Kimi Delta Attention with MLA (NoPE) layers and DeepSeek-V3-style experts
    // A decoder the planner was not taught: read from the standard config fields or a
    // checkpoint's tensors, estimated with the nearest known layer kinds (SPEC: "generic").
    Generic
};
enum class FfnType
{
    Gelu,
    Swiglu,
    Geglu
};
// Normalisation of queries and keys before attention: none; an RMSNorm over each head's
// head_dim (Qwen3, Gemma 3, GLM-4.5 with use_qk_norm); an RMSNorm over the whole projection
// width (OLMo 2); a weightless L2 norm (Llama 4).
enum class QkNorm
{
    None,
    Head,
    Full,
    L2
};
// How a mixture-of-experts router turns logits into weights: a softmax over all experts
// (Mixtral, Qwen3-MoE, gpt-oss: over the top-k) or a sigmoid per expert (DeepSeek-V3, GLM-4.5,
// Llama 4).
enum class RouterScore
{
    Softmax,
    Sigmoid
};
enum class NormType
{
    LayerNorm,
    RmsNorm
};
enum class PositionKind
{
    Learned,
    Rope,
    Alibi
};
// The activation function as the model code writes it: "gelu_tanh_python" is HF's NewGELU
// (gelu_new), four elementwise ops that each save a tensor; the others are single kernels.
enum class Activation
{
    Gelu,
    GeluTanhPython,
    Silu,
    Relu
};
// What sits on top of the last layer: a language-model head over the vocabulary, or a small
// classifier (HF AutoModelForSequenceClassification), which has no b*s*V logits.
enum class Head
{
    LanguageModel,
    Classifier
};

// What mixes the tokens of one layer (SPEC §3 extension "layer kinds"): softmax attention
// (full or sliding-window; DeepSeek's sparse attention is attention with model.indexer), Gemma 4's
// global attention (its own head width and key/value heads), Gated DeltaNet linear attention,
// a Mamba2 mixer, LFM2's gated short convolution, Falcon-H1's attention and Mamba2 side by side,
// or nothing (Nemotron-H's MLP-only blocks).
enum class Mixer : uint8_t
{
    Attention,
    GlobalAttention,
    LinearAttention,
    Mamba,
    ShortConv,
    AttentionAndMamba,
    None
};
// What follows the mixer in one layer: a dense MLP, routed experts (with any shared ones), or
// nothing (Nemotron-H's mixer-only blocks).
enum class LayerMlp : uint8_t
{
    Dense,
    Moe,
    None
};
// One layer's kind: its mixer and its MLP.
struct LayerSpec
{
    Mixer mixer = Mixer::Attention;
    LayerMlp mlp = LayerMlp::Dense;
    bool operator==(const LayerSpec &) const = default;
};

// The vision tower a vision-language checkpoint loads beside the language model.
enum class VisionTower : uint8_t
{
    None,
    Qwen25Vl, // Qwen2.5-VL: RMSNorm blocks with gated MLPs, window attention, one merger
    Qwen3Vl,  // Qwen3-VL and Qwen3.5: LayerNorm blocks, learned positions, deepstack mergers
    Gemma4    // Gemma 4: q/k-normed blocks, 2-D position table, one projection
};

struct MoeConfig
{
    int64_t experts = 0;         // 0: a dense model
    int64_t expertsPerToken = 0; // top-k
    int64_t expertFfnHiddenSize = 0;
    int64_t sharedExperts = 0;
    int64_t sharedExpertFfnHiddenSize = 0; // one shared expert's width; 0: the expert width
    // Which layers route: layer i (from 0) is a MoE layer when i >= denseLayers and
    // (i + 1) % layerStep == 0 (DeepSeek first_k_dense_replace, Qwen3-MoE decoder_sparse_step,
    // Llama 4 interleave_moe_layer_step); the others are dense MLPs of ffn_hidden_size.
    int64_t denseLayers = 0;
    int64_t layerStep = 1;
    bool routerBias = false;          // the router linear has a bias (gpt-oss)
    bool expertBias = false;          // expert linears have biases (gpt-oss)
    bool scoreCorrectionBias = false; // a per-expert buffer (DeepSeek-V3): checkpoint only
    bool normalizeTopK = true;        // top-k weights renormalised to sum to one
    RouterScore router = RouterScore::Softmax;
    double imbalance = 1.0; // tokens of the busiest expert over the balanced share (>= 1)
    // Tokens an expert accepts, as a multiple of the balanced share; 0: dropless routing
    // (Megatron moe_expert_capacity_factor; GShard-style token dropping).
    double capacityFactor = 0;
    // A sigmoid gate h -> 1 on the shared expert's output (Qwen2-MoE, Qwen3-Next, Qwen3.5-MoE).
    bool sharedExpertGate = false;
    // Routed experts work in a latent width, behind fc1/fc2 projections h <-> latent
    // (Nemotron 3 Super's moe_latent_size); 0: the hidden width.
    int64_t latentSize = 0;
    // A dense MLP of ffn_hidden_size beside the routed experts in every MoE layer (Gemma 4's
    // MoE block), with its router's scale vectors and three more norms.
    bool denseBesideExperts = false;

    bool operator==(const MoeConfig &) const = default;
};

// Gated DeltaNet (Yang et al. 2024; Qwen3-Next, Qwen3.5): q, k, v, the output gate z and the
// per-head b and a from the layer input, a depthwise causal convolution of conv_kernel over q,
// k and v, the delta rule's recurrent state of value_heads x key_head_dim x value_head_dim,
// a gated RMSNorm and out_proj.
struct LinearAttentionConfig
{
    int64_t keyHeads = 0; // 0: no linear-attention layers
    int64_t valueHeads = 0;
    int64_t keyHeadDim = 128;
    int64_t valueHeadDim = 128;
    int64_t convKernel = 4;
    // Kimi Delta Attention (Kimi Linear): a decay per key channel from the low-rank f_a/f_b_proj
    // (h -> value_head_dim -> keys), dt_bias per channel, the output gate from g_a/g_b_proj, and
    // separate q, k and v convolutions; the state and its kernels are Gated DeltaNet's.
    bool perChannelGate = false;

    int64_t keyWidth() const { return keyHeads * keyHeadDim; }
    int64_t valueWidth() const { return valueHeads * valueHeadDim; }
    int64_t convWidth() const { return 2 * keyWidth() + valueWidth(); }

    bool operator==(const LinearAttentionConfig &) const = default;
};

// A Mamba2 mixer (Dao & Gu 2024, §7): in_proj to z, x, B, C and dt; a depthwise causal
// convolution over x, B and C; the chunked state-space scan with a state of heads x head_dim x
// state_size; a gated RMSNorm and out_proj.
struct MambaConfig
{
    int64_t heads = 0; // 0: no Mamba layers
    int64_t headDim = 64;
    int64_t stateSize = 128;
    int64_t groups = 1;
    int64_t convKernel = 4;
    int64_t chunkSize = 256;
    bool convBias = true;
    bool projBias = false;  // in_proj and out_proj have biases
    bool gatedNorm = true;  // a gated RMSNorm weight of the inner width (Falcon-H1: optional)

    int64_t innerWidth() const { return heads * headDim; }
    int64_t convWidth() const { return innerWidth() + 2 * groups * stateSize; }
    int64_t inProjWidth() const { return 2 * innerWidth() + 2 * groups * stateSize + heads; }

    bool operator==(const MambaConfig &) const = default;
};

// DeepSeek sparse attention's lightning indexer (DeepSeek-V3.2 §2.1): per layer wq_b (q_lora_rank
// -> heads x head_dim), wk (h -> head_dim), a LayerNorm over head_dim and weights_proj
// (h -> heads); it picks top_k keys for each query.
struct IndexerConfig
{
    int64_t heads = 0; // 0: no indexer
    int64_t headDim = 128;
    int64_t topK = 2048;

    bool operator==(const IndexerConfig &) const = default;
};

// The vision tower and projector of a vision-language checkpoint: present in memory whenever
// the checkpoint is loaded, trained or frozen as the scenario says (training.vision).
struct VisionConfig
{
    VisionTower tower = VisionTower::None;
    int64_t depth = 0;
    int64_t hiddenSize = 0;
    int64_t intermediateSize = 0;
    int64_t heads = 16;
    int64_t headDim = 0; // Gemma 4: the blocks' q/k norm width; 0: hidden / heads
    int64_t patchSize = 14;
    int64_t temporalPatchSize = 2;
    int64_t spatialMerge = 2;
    int64_t outHiddenSize = 0; // the language model's width the merger projects to
    int64_t positionEmbeddings = 0;
    int64_t deepstackMergers = 0;
    int64_t inChannels = 3;

    bool present() const { return tower != VisionTower::None && depth > 0; }

    bool operator==(const VisionConfig &) const = default;
};

// Multi-head latent attention (DeepSeek-V2 §2.1): queries through a low-rank q_lora_rank path
// (0: a plain q_proj), keys and values from one compressed kv_lora_rank latent plus a decoupled
// rotary key of qk_rope_head_dim shared by all heads.
struct MlaConfig
{
    int64_t qLoraRank = 0;
    int64_t kvLoraRank = 0; // 0: no MLA
    int64_t qkRopeHeadDim = 64;
    int64_t qkNopeHeadDim = 128;
    int64_t vHeadDim = 128;

    int64_t qkHeadDim() const { return qkNopeHeadDim + qkRopeHeadDim; }

    bool operator==(const MlaConfig &) const = default;
};

struct ModelConfig
{
    std::string preset; // id under resources/models, empty when given field by field
    // What the user calls a model given by fields (SPEC §3 extension `model.name`): the window
    // writes an imported config's or checkpoint's name here so that the file keeps it. Never
    // read by the estimate.
    std::string name;
    Family family = Family::Llama;
    int64_t layers = 32;
    int64_t hiddenSize = 4096;
    int64_t attentionHeads = 32;
    int64_t kvHeads = 32;
    int64_t headDim = 128;
    int64_t ffnHiddenSize = 11008;
    FfnType ffnType = FfnType::Swiglu;
    Activation activation = Activation::Silu;
    int64_t vocabSize = 32000;
    NormType norm = NormType::RmsNorm;
    bool tiedEmbeddings = false;
    bool bias = false;    // every linear layer has a bias
    bool qkvBias = false; // only q, k and v have biases (Qwen2)
    bool lmHeadBias = false;
    int64_t maxPositions = 4096;
    PositionKind positions = PositionKind::Rope;
    bool parallelBlock = false; // attention and MLP read the same input (GPT-J style)
    int64_t normsPerLayer = 2;
    int64_t tokenTypes = 0; // BERT token-type embeddings
    bool pooler = false;    // BERT pooler dense layer
    Head head = Head::LanguageModel;
    int64_t classifierLabels = 2;
    MoeConfig moe;
    MlaConfig mla;
    bool oBias = false; // o_proj has a bias (gpt-oss; `bias` still means every linear)
    QkNorm qkNorm = QkNorm::None;
    int64_t slidingWindow = 0; // tokens a sliding-window (or chunked) layer attends to; 0: none
    int64_t slidingLayers = 0; // how many layers use the window
    double attentionSoftcap = 0; // Gemma 2: tanh soft-capping of the attention scores
    double finalSoftcap = 0;     // Gemma 2: tanh soft-capping of the logits
    bool attentionSinks = false; // gpt-oss: one learned sink logit per head
    int64_t mtpLayers = 0; // DeepSeek-V3 multi-token prediction layers the checkpoint stores

    // Layer kinds (SPEC §3 extension): one character per layer, empty for a model of attention
    // layers only whose MLP follows the MoE rule (isMoeLayer). mixers: 'a' attention, 'g' global
    // attention, 'l' linear attention, 'm' Mamba2, 'c' short convolution, 'p' attention and
    // Mamba2 in parallel, '-' none; mlps: 'd' dense, 'e' experts, '-' none.
    std::string layerMixers;
    std::string layerMlps;
    // Gated attention (Qwen3-Next, Qwen3.5): q_proj also produces a sigmoid gate per query
    // element (twice the query width), applied to the attention output before o_proj.
    bool attentionOutputGate = false;
    // Gemma 4's global-attention layers: their own head width and key/value heads, and keys that
    // serve as values (attention_k_eq_v: no v_proj).
    int64_t globalHeadDim = 0;
    int64_t globalKvHeads = 0;
    bool globalKeyIsValue = false;
    // A v_norm without weight after v_proj (Gemma 4), beside q_norm and k_norm.
    bool valueNorm = false;
    LinearAttentionConfig linear;
    MambaConfig mamba;
    int64_t shortConvKernel = 3; // LFM2's conv_L_cache
    // Bytes of one element of a recurrent layer's state in an inference engine; 0: the model's
    // dtype (Qwen3.5's mamba_ssm_dtype and Nemotron-H's mamba_ssm_cache_dtype say float32).
    int64_t stateElementBytes = 0;
    IndexerConfig indexer;
    VisionConfig vision;
    // A model planned generically (family generic): its config's model_type, for messages.
    std::string hfModelType;
    // The parameters a checkpoint folder's tensors hold (model.checkpoint), 0 when not read;
    // what the modelled layers leave out of it is estimated as parameters of its own.
    int64_t checkpointParameters = 0;

    // Every field, so that what is derived from a model can be kept while it stays the same
    // (training/model_derived.h).
    bool operator==(const ModelConfig &) const = default;
    bool isMoe() const { return moe.experts > 0; }
    bool isMla() const { return mla.kvLoraRank > 0; }
    // Whether the layers are of more than the classic kinds (attention with a dense or MoE MLP).
    bool hasLayerPlan() const { return !layerMixers.empty() || !layerMlps.empty(); }
    Mixer mixerOf(int64_t i) const
    {
        if (i < 0 || i >= int64_t(layerMixers.size()))
            return Mixer::Attention;
        switch (layerMixers[size_t(i)]) {
        case 'g':
            return Mixer::GlobalAttention;
        case 'l':
            return Mixer::LinearAttention;
        case 'm':
            return Mixer::Mamba;
        case 'c':
            return Mixer::ShortConv;
        case 'p':
            return Mixer::AttentionAndMamba;
        case '-':
            return Mixer::None;
        default:
            return Mixer::Attention;
        }
    }
    LayerMlp mlpOf(int64_t i) const
    {
        if (i >= 0 && i < int64_t(layerMlps.size()))
            return layerMlps[size_t(i)] == 'e'   ? LayerMlp::Moe
                   : layerMlps[size_t(i)] == '-' ? LayerMlp::None
                                                 : LayerMlp::Dense;
        return isMoeLayer(i) ? LayerMlp::Moe : LayerMlp::Dense;
    }
    LayerSpec layerSpec(int64_t i) const { return {mixerOf(i), mlpOf(i)}; }
    // Whether layer i (from 0) routes through experts.
    bool isMoeLayer(int64_t i) const
    {
        return isMoe() && i >= moe.denseLayers && (i + 1) % std::max<int64_t>(1, moe.layerStep) == 0;
    }
    // MoE layers among layers [from, to).
    int64_t moeLayersIn(int64_t from, int64_t to) const
    {
        if (!isMoe() || to <= from)
            return 0;
        const int64_t step = std::max<int64_t>(1, moe.layerStep);
        const int64_t start = std::max(from, moe.denseLayers);
        return start >= to ? 0 : to / step - start / step;
    }
};

} // namespace vramplan
