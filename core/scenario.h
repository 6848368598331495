#pragma once
// The input of every estimate: one training (or inference) set-up, as plain values.
// Field meanings and defaults follow SPEC §3 (the scenario file); the JSON mapping lives in
// formats/scenario_json.cpp and its siblings. Defaults here are the documented defaults of a
// file that omits the field.

#include "serving_config.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

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
    Glm4Moe
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

enum class Mode
{
    Train,
    Inference
};
enum class Precision
{
    Fp32,
    AmpFp16,
    AmpBf16,
    Fp16Mixed,
    Bf16Mixed,
    Bf16,
    Fp8Mixed
};
enum class Optimizer
{
    Sgd,
    SgdMomentum,
    Adam,
    Adamw,
    Adamw8bit,
    PagedAdamw,
    PagedAdamw8bit,
    Adafactor,
    Lion,
    Muon,
    Shampoo
};
enum class Recompute
{
    None,
    Selective,
    Full
};
enum class Attention
{
    Eager,
    Sdpa,
    Flash
};
// How the loss turns the last hidden states into a cross-entropy (SPEC §3 extension
// `training.loss`): the framework's own, over chunks of the sequence (torchtune), or fused with
// the output projection so the full logits never exist (Liger's fused linear cross-entropy,
// Cut Cross-Entropy, Unsloth).
enum class LossKind
{
    Standard,
    Chunked,
    FusedLinear
};
// Fused elementwise kernels patched into the model (SPEC §3 extension `training.kernels`):
// Liger-Kernel's RMSNorm, SwiGLU/GeGLU and RoPE (liger_kernel/ops/rms_norm.py, swiglu.py,
// rope.py). Its fused linear cross-entropy is `training.loss` fused_linear.
enum class Kernels
{
    None,
    Liger
};
// What drives the step with HF models (SPEC §3 extension `training.loop`): a loop that holds
// the model's `outputs` until backward (custom loops, PEFT's and fsdp_qlora's scripts), or HF
// Trainer and what is built on it (TRL, Axolotl, LLaMA-Factory, Unsloth), whose compute_loss
// keeps only the loss.
enum class TrainingLoop
{
    Custom,
    Trainer
};
enum class FinetuneMethod
{
    Full,
    Lora,
    Qlora
};
enum class Offload
{
    None,
    Cpu,
    Nvme
};
enum class Framework
{
    Transformers,
    Pytorch,
    Litgpt,
    Torchtune,
    Torchtitan,
    Megatron,
    Deepspeed,
    // Unsloth: transformers models patched with its own Triton kernels (RMSNorm, SwiGLU, RoPE,
    // LoRA MLP/QKV autograd functions), its in-place cross-entropy and its offloaded gradient
    // checkpointing (unsloth/models/_utils.py, unsloth/kernels/).
    Unsloth
};

// The release of the framework a scenario ran with (SPEC §3 extension `framework_version`):
// FrameworkVersion, release_version.h (shared with the serving section's `engine_version`).

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
};

struct ModelConfig
{
    std::string preset; // id under resources/models, empty when given field by field
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

    bool isMoe() const { return moe.experts > 0; }
    bool isMla() const { return mla.kvLoraRank > 0; }
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

struct FinetuneConfig
{
    FinetuneMethod method = FinetuneMethod::Full;
    int64_t loraRank = 16;
    std::vector<std::string> loraTargets = {"q_proj", "v_proj"};
    int64_t baseWeightBits = 16;
    double loraDropout = 0.05;
};

struct TrainingConfig
{
    Mode mode = Mode::Train;
    int64_t microBatchSize = 1;
    int64_t sequenceLength = 4096;
    int64_t gradientAccumulationSteps = 1;
    Precision precision = Precision::Bf16Mixed;
    Optimizer optimizer = Optimizer::Adamw;
    Recompute recompute = Recompute::None;
    int64_t recomputeLayers = -1; // -1: all layers (of the most loaded stage)
    LossKind loss = LossKind::Standard;
    // The step runs under torch.compile (SPEC §3 extension `training.compile`): Inductor's
    // min-cut partitioner saves matmul and attention outputs and recomputes elementwise ops.
    bool compile = false;
    // Whether compilation covers the loss too, where the loss sits outside the model
    // (torchtitan's compile.components "loss"; its train.py left the loss eager between
    // 2024-12-18 and 2025-04-02, commits e8977b0 and bbb1b61).
    bool compileLoss = true;
    Kernels kernels = Kernels::None;
    TrainingLoop loop = TrainingLoop::Custom; // Unsloth always runs under Trainer (TRL)
    // Multi-token prediction modules trained beside the model (DeepSeek-V3 §2.2; Megatron
    // --mtp-num-layers): each one more layer, eh_proj and norms, and one more logits and loss.
    int64_t mtpLayers = 0;
    Attention attention = Attention::Flash;
    double dropout = 0.0;
    FinetuneConfig finetune;
};

struct ParallelConfig
{
    int64_t gpus = 1;
    int64_t tensorParallel = 1;
    int64_t pipelineParallel = 1;
    int64_t virtualPipelineParallel = 1;
    bool sequenceParallel = false;
    int64_t contextParallel = 1;
    int64_t expertParallel = 1;
    int64_t zeroStage = 0;
    // Which FSDP implements zero_stage 2/3 (extension `parallelism.fsdp_version`): 1 is
    // FullyShardedDataParallel's flat parameters, 2 is fully_shard's per-parameter DTensor
    // shards; 0 is the framework's default (fsdpVersionOf).
    int64_t fsdpVersion = 0;
    // torchao's float8 all-gather under FSDP2 (extension `parallelism.fsdp_float8_all_gather`;
    // torchtitan --float8.enable_fsdp_float8_all_gather): the linear weights are cast to float8
    // before the all-gather (WeightWithDynamicFloat8CastTensor.fsdp_pre_all_gather), so one
    // gathered layer holds them in 1 byte each. Applies with fp8_mixed under FSDP2 full shard
    // (fsdpFloat8AllGatherApplies); ignored with a warning otherwise.
    bool fsdpFloat8AllGather = false;
    Offload offloadOptimizer = Offload::None;
    Offload offloadParameters = Offload::None;

    int64_t dataParallel() const
    {
        const int64_t modelParallel = tensorParallel * pipelineParallel * contextParallel;
        return modelParallel > 0 ? gpus / modelParallel : 1;
    }
};

struct GpuConfig
{
    std::string preset; // id in resources/gpus.json, empty for a custom capacity
    std::string name = "custom";
    std::string architecture; // volta, ampere, hopper, ...: decides the CUDA context size
    double memoryGiB = 80.0;  // usable capacity in GiB (2^30 bytes)
};

// The three numbers measured in the wild (SPEC §2): torch.cuda.max_memory_allocated(),
// max_memory_reserved(), and nvidia-smi's per-process memory.
enum class MemoryMetric
{
    Allocated,
    Reserved,
    Device
};

// What the user measured for this scenario and the terms fitted to it (calibration.h): the
// estimate then reproduces the measurement, and nearby scenarios move from there.
struct Calibration
{
    bool present = false;
    MemoryMetric metric = MemoryMetric::Reserved;
    double measuredBytes = 0;
    double activationScale = 1.0; // multiplies activations, logits and temporaries
    double overheadBytes = 0;     // added to allocator slack (reserved) or beside it (device)
};

struct Scenario
{
    std::string name;
    ModelConfig model;
    TrainingConfig training;
    ParallelConfig parallelism;
    Framework framework = Framework::Transformers;
    FrameworkVersion frameworkVersion;
    GpuConfig gpu;
    Calibration calibration;
    ServingConfig serving; // read when training.mode is inference (serving_config.h)
};

} // namespace vramplan
