#include "formats/enum_names.h"

#include <array>

namespace vramplan {

VRAMPLAN_ENUM_TABLE(Family, {Family::Gpt2, "gpt2"}, {Family::Bert, "bert"},
                    {Family::Llama, "llama"}, {Family::Mistral, "mistral"},
                    {Family::Mixtral, "mixtral"}, {Family::Qwen2, "qwen2"}, {Family::Phi3, "phi3"},
                    {Family::Gemma, "gemma"}, {Family::Phi, "phi"}, {Family::GptNeox, "gpt_neox"},
                    {Family::Falcon, "falcon"}, {Family::Qwen3, "qwen3"},
                    {Family::Qwen3Moe, "qwen3_moe"}, {Family::DeepseekV2, "deepseek_v2"},
                    {Family::DeepseekV3, "deepseek_v3"}, {Family::Llama4, "llama4"},
                    {Family::GptOss, "gpt_oss"}, {Family::Gemma2, "gemma2"},
                    {Family::Gemma3, "gemma3"}, {Family::Olmo2, "olmo2"},
                    {Family::Granite, "granite"}, {Family::Smollm3, "smollm3"},
                    {Family::Glm4Moe, "glm4_moe"})
VRAMPLAN_ENUM_TABLE(QkNorm, {QkNorm::None, "none"}, {QkNorm::Head, "head"}, {QkNorm::Full, "full"},
                    {QkNorm::L2, "l2"})
VRAMPLAN_ENUM_TABLE(RouterScore, {RouterScore::Softmax, "softmax"},
                    {RouterScore::Sigmoid, "sigmoid"})
VRAMPLAN_ENUM_TABLE(FfnType, {FfnType::Gelu, "gelu"}, {FfnType::Swiglu, "swiglu"},
                    {FfnType::Geglu, "geglu"})
VRAMPLAN_ENUM_TABLE(NormType, {NormType::LayerNorm, "layernorm"}, {NormType::RmsNorm, "rmsnorm"})
VRAMPLAN_ENUM_TABLE(PositionKind, {PositionKind::Learned, "learned"}, {PositionKind::Rope, "rope"},
                    {PositionKind::Alibi, "alibi"})
VRAMPLAN_ENUM_TABLE(Activation, {Activation::Gelu, "gelu"},
                    {Activation::GeluTanhPython, "gelu_tanh_python"}, {Activation::Silu, "silu"},
                    {Activation::Relu, "relu"})
VRAMPLAN_ENUM_TABLE(Head, {Head::LanguageModel, "lm"}, {Head::Classifier, "classifier"})
VRAMPLAN_ENUM_TABLE(Mode, {Mode::Train, "train"}, {Mode::Inference, "inference"})
VRAMPLAN_ENUM_TABLE(Precision, {Precision::Fp32, "fp32"}, {Precision::AmpFp16, "amp_fp16"},
                    {Precision::AmpBf16, "amp_bf16"}, {Precision::Fp16Mixed, "fp16_mixed"},
                    {Precision::Bf16Mixed, "bf16_mixed"}, {Precision::Bf16, "bf16"},
                    {Precision::Fp8Mixed, "fp8_mixed"})
VRAMPLAN_ENUM_TABLE(Optimizer, {Optimizer::Sgd, "sgd"}, {Optimizer::SgdMomentum, "sgd_momentum"},
                    {Optimizer::Adam, "adam"}, {Optimizer::Adamw, "adamw"},
                    {Optimizer::Adamw8bit, "adamw_8bit"}, {Optimizer::PagedAdamw, "paged_adamw"},
                    {Optimizer::PagedAdamw8bit, "paged_adamw_8bit"},
                    {Optimizer::Adafactor, "adafactor"}, {Optimizer::Lion, "lion"},
                    {Optimizer::Muon, "muon"}, {Optimizer::Shampoo, "shampoo"})
VRAMPLAN_ENUM_TABLE(Recompute, {Recompute::None, "none"}, {Recompute::Selective, "selective"},
                    {Recompute::Full, "full"})
VRAMPLAN_ENUM_TABLE(Attention, {Attention::Eager, "eager"}, {Attention::Sdpa, "sdpa"},
                    {Attention::Flash, "flash"})
VRAMPLAN_ENUM_TABLE(LossKind, {LossKind::Standard, "standard"}, {LossKind::Chunked, "chunked"},
                    {LossKind::FusedLinear, "fused_linear"})
VRAMPLAN_ENUM_TABLE(FinetuneMethod, {FinetuneMethod::Full, "full"}, {FinetuneMethod::Lora, "lora"},
                    {FinetuneMethod::Qlora, "qlora"})
VRAMPLAN_ENUM_TABLE(Offload, {Offload::None, "none"}, {Offload::Cpu, "cpu"},
                    {Offload::Nvme, "nvme"})
VRAMPLAN_ENUM_TABLE(Framework, {Framework::Transformers, "transformers"},
                    {Framework::Pytorch, "pytorch"}, {Framework::Litgpt, "litgpt"},
                    {Framework::Torchtune, "torchtune"}, {Framework::Torchtitan, "torchtitan"},
                    {Framework::Megatron, "megatron"}, {Framework::Deepspeed, "deepspeed"},
                    {Framework::Unsloth, "unsloth"})
VRAMPLAN_ENUM_TABLE(Kernels, {Kernels::None, "none"}, {Kernels::Liger, "liger"})
VRAMPLAN_ENUM_TABLE(TrainingLoop, {TrainingLoop::Custom, "custom"},
                    {TrainingLoop::Trainer, "trainer"})
VRAMPLAN_ENUM_TABLE(MemoryMetric, {MemoryMetric::Allocated, "allocated"},
                    {MemoryMetric::Reserved, "reserved"}, {MemoryMetric::Device, "device"})


} // namespace vramplan
