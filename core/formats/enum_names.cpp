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
                    {Family::Glm4Moe, "glm4_moe"}, {Family::Qwen3Next, "qwen3_next"},
                    {Family::Qwen35, "qwen3_5"}, {Family::Qwen35Moe, "qwen3_5_moe"},
                    {Family::NemotronH, "nemotron_h"}, {Family::GraniteHybrid, "granitemoehybrid"},
                    {Family::Lfm2, "lfm2"}, {Family::FalconH1, "falcon_h1"},
                    {Family::DeepseekV32, "deepseek_v32"}, {Family::GlmMoeDsa, "glm_moe_dsa"},
                    {Family::MinimaxM2, "minimax_m2"}, {Family::Olmo3, "olmo3"},
                    {Family::Gemma4, "gemma4"}, {Family::Qwen2Moe, "qwen2_moe"},
                    {Family::Glm4, "glm4"}, {Family::Chatglm, "chatglm"},
                    {Family::Internlm2, "internlm2"}, {Family::Internlm3, "internlm3"},
                    {Family::Hunyuan, "hunyuan_v1_dense"}, {Family::HunyuanMoe, "hunyuan_v1_moe"},
                    {Family::Ernie45, "ernie4_5"}, {Family::Ernie45Moe, "ernie4_5_moe"},
                    {Family::Qwen25Vl, "qwen2_5_vl"}, {Family::Qwen3Vl, "qwen3_vl"},
                    {Family::KimiLinear, "kimi_linear"}, {Family::Generic, "generic"})
VRAMPLAN_ENUM_TABLE(Mixer, {Mixer::Attention, "attention"},
                    {Mixer::GlobalAttention, "global_attention"},
                    {Mixer::LinearAttention, "linear_attention"}, {Mixer::Mamba, "mamba"},
                    {Mixer::ShortConv, "short_conv"},
                    {Mixer::AttentionAndMamba, "attention_mamba"}, {Mixer::None, "none"})
VRAMPLAN_ENUM_TABLE(LayerMlp, {LayerMlp::Dense, "dense"}, {LayerMlp::Moe, "moe"},
                    {LayerMlp::None, "none"})
VRAMPLAN_ENUM_TABLE(VisionTower, {VisionTower::None, "none"},
                    {VisionTower::Qwen25Vl, "qwen2_5_vl"}, {VisionTower::Qwen3Vl, "qwen3_vl"},
                    {VisionTower::Gemma4, "gemma4"})
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
                    {LossKind::FusedLinear, "fused_linear"}, {LossKind::Fused, "fused"})
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
VRAMPLAN_ENUM_TABLE(LinearKernels, {LinearKernels::Fla, "fla"}, {LinearKernels::Torch, "torch"})
VRAMPLAN_ENUM_TABLE(TrainingLoop, {TrainingLoop::Custom, "custom"},
                    {TrainingLoop::Trainer, "trainer"})
VRAMPLAN_ENUM_TABLE(LoraAdapterDtype, {LoraAdapterDtype::Auto, "auto"},
                    {LoraAdapterDtype::Fp32, "fp32"}, {LoraAdapterDtype::Base, "base"})
VRAMPLAN_ENUM_TABLE(MasterDtype, {MasterDtype::Auto, "auto"}, {MasterDtype::Fp32, "fp32"},
                    {MasterDtype::Bf16, "bf16"}, {MasterDtype::Fp16, "fp16"},
                    {MasterDtype::None, "none"})
VRAMPLAN_ENUM_TABLE(GradientDtype, {GradientDtype::Auto, "auto"}, {GradientDtype::Fp32, "fp32"},
                    {GradientDtype::Bf16, "bf16"})
VRAMPLAN_ENUM_TABLE(StateDtype, {StateDtype::Auto, "auto"}, {StateDtype::Fp32, "fp32"},
                    {StateDtype::Bf16, "bf16"}, {StateDtype::Fp16, "fp16"},
                    {StateDtype::Fp8, "fp8"}, {StateDtype::Int8, "int8"},
                    {StateDtype::Int4, "int4"})
VRAMPLAN_ENUM_TABLE(OptimizerImplementation, {OptimizerImplementation::Auto, "auto"},
                    {OptimizerImplementation::Foreach, "foreach"},
                    {OptimizerImplementation::Fused, "fused"},
                    {OptimizerImplementation::ForLoop, "for_loop"})
VRAMPLAN_ENUM_TABLE(MemoryMetric, {MemoryMetric::Allocated, "allocated"},
                    {MemoryMetric::Reserved, "reserved"}, {MemoryMetric::Device, "device"})


} // namespace vramplan
