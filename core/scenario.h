#pragma once
// The input of every estimate: one training (or inference) set-up, as plain values.
// Field meanings and defaults follow SPEC §3 (the scenario file); the JSON mapping lives in
// formats/scenario_json.cpp and its siblings. Defaults here are the documented defaults of a
// file that omits the field.

#include "model_config.h"
#include "rl_config.h"
#include "serving_config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vramplan {

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
// `training.loss`): the framework's own, over chunks of the sequence (torchtune), fused with
// the output projection so the full logits never exist (Liger's fused linear cross-entropy,
// Cut Cross-Entropy, Unsloth), or the framework's fused cross-entropy kernel over the full
// logits (Megatron's --cross-entropy-loss-fusion).
enum class LossKind
{
    Standard,
    Chunked,
    FusedLinear,
    Fused
};
// Fused elementwise kernels patched into the model (SPEC §3 extension `training.kernels`):
// Liger-Kernel's RMSNorm, SwiGLU/GeGLU and RoPE (liger_kernel/ops/rms_norm.py, swiglu.py,
// rope.py). Its fused linear cross-entropy is `training.loss` fused_linear.
enum class Kernels
{
    None,
    Liger
};
// What saves the activations of Gated DeltaNet, Mamba2 and short-convolution layers (SPEC §3
// extension `training.linear_kernels`): flash-linear-attention's chunked kernels, causal-conv1d
// and mamba_ssm's fused scan, which transformers runs when they are installed (the default), or
// the torch fallbacks of transformers' modeling files.
enum class LinearKernels
{
    Fla,
    Torch
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

// How torch.optim's optimizer runs its step (`training.optimizer_implementation`): `auto` is the
// framework's default as the estimator has always assumed it; foreach (torch.optim's default on
// CUDA) materialises a state-sized intermediate; fused and for_loop do not.
enum class OptimizerImplementation
{
    Auto,
    Foreach,
    Fused,
    ForLoop
};
// Optimizer precision (SPEC §3 extension `training.optimizer_precision`): what Megatron's
// precision-aware optimizer (--main-params-dtype, --main-grads-dtype, --exp-avg-dtype,
// --exp-avg-sq-dtype), DeepSpeed's bf16_master_weights_and_grads / bf16_optimizer_states and
// torchao's low-bit AdamW (AdamW8bit, AdamW4bit, AdamWFp8) keep. `Auto`, a field the file
// leaves out, is what `precision` and `optimizer` imply.
enum class MasterDtype
{
    Auto,
    Fp32,
    Bf16,
    Fp16,
    None
};
enum class GradientDtype
{
    Auto,
    Fp32,
    Bf16
};
enum class StateDtype
{
    Auto,
    Fp32,
    Bf16,
    Fp16,
    Fp8,
    Int8,
    Int4
};
struct OptimizerPrecision
{
    MasterDtype masterWeights = MasterDtype::Auto;
    GradientDtype gradients = GradientDtype::Auto;
    StateDtype expAvg = StateDtype::Auto;
    StateDtype expAvgSq = StateDtype::Auto;
    bool present() const
    {
        return masterWeights != MasterDtype::Auto || gradients != GradientDtype::Auto ||
               expAvg != StateDtype::Auto || expAvgSq != StateDtype::Auto;
    }
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


// The dtype of LoRA adapters on a 16-bit base (`training.finetune.lora_adapter_dtype`): `auto`
// as the estimator has assumed (the adapters' inputs not cast), `fp32` as PEFT's
// get_peft_model(autocast_adapter_dtype=True) keeps them, which casts each input to fp32
// (measured, tests/data/measured/gpu), `base` for adapters in the base's dtype.
enum class LoraAdapterDtype
{
    Auto,
    Fp32,
    Base
};

struct FinetuneConfig
{
    FinetuneMethod method = FinetuneMethod::Full;
    int64_t loraRank = 16;
    std::vector<std::string> loraTargets = {"q_proj", "v_proj"};
    int64_t baseWeightBits = 16;
    LoraAdapterDtype loraAdapterDtype = LoraAdapterDtype::Auto;
    double loraDropout = 0.05;
};

// Images a vision-language model reads per sample (SPEC §3 extension `training.vision`): their
// size (each becomes patches of the tower, merged into image tokens of the language model's
// sequence) or their image tokens, and whether the tower is trained (else frozen: no saved
// activations, no gradients or states).
struct VisionInputs
{
    int64_t imagesPerSample = 0;
    int64_t imageHeight = 0, imageWidth = 0; // pixels; 0: given as imageTokens
    int64_t imageTokens = 0;                 // per image, where the size is not given
    bool trainTower = false;

    bool present() const { return imagesPerSample > 0; }
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
    // A MoE layer's experts run as one grouped GEMM (SPEC §3 extension `training.grouped_gemm`:
    // Megatron's --moe-grouped-gemm, Transformer Engine's GroupedLinear), which keeps a cuBLAS
    // workspace per compute stream of its own.
    bool groupedGemm = false;
    Kernels kernels = Kernels::None;
    LinearKernels linearKernels = LinearKernels::Fla;
    TrainingLoop loop = TrainingLoop::Custom; // Unsloth always runs under Trainer (TRL)
    OptimizerImplementation optimizerImplementation = OptimizerImplementation::Auto;
    OptimizerPrecision optimizerPrecision;
    // Multi-token prediction modules trained beside the model (DeepSeek-V3 §2.2; Megatron
    // --mtp-num-layers): each one more layer, eh_proj and norms, and one more logits and loss.
    int64_t mtpLayers = 0;
    Attention attention = Attention::Flash;
    double dropout = 0.0;
    FinetuneConfig finetune;
    VisionInputs vision;
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
    RlConfig rl;           // post-training with a rollout engine (rl_config.h)
};

} // namespace vramplan
