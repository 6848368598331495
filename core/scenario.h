#pragma once
// The input of every estimate: one training (or inference) set-up, as plain values.
// Field meanings and defaults follow SPEC §3 (the scenario file); the JSON mapping lives in
// scenario_json.cpp. Defaults here are the documented defaults of a file that omits the field.

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
    Falcon
};
enum class FfnType
{
    Gelu,
    Swiglu,
    Geglu
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
    Deepspeed
};

struct MoeConfig
{
    int64_t experts = 0;         // 0: a dense model
    int64_t expertsPerToken = 0; // top-k
    int64_t expertFfnHiddenSize = 0;
    int64_t sharedExperts = 0;
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

    bool isMoe() const { return moe.experts > 0; }
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
    GpuConfig gpu;
    Calibration calibration;
};

} // namespace vramplan
