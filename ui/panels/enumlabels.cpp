#include "panels/enumlabels.h"

#include <QCoreApplication>

#include <string>

namespace vramplan::ui {
namespace {

constexpr const char *context = "vramplan::ui::EnumLabel";

// Every spelling a combo box or a "Make it fit" phrase shows, with its enumeration: lupdate
// reads them here. A spelling missing from this list shows untranslated, which the GUI test of
// the Chinese interface (tst_translation) reports.
[[maybe_unused]] constexpr const char *spellings[][2] = {
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "train", "mode"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "inference", "mode"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "fp32", "precision"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "amp_fp16", "precision"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "amp_bf16", "precision"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "fp16_mixed", "precision"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "bf16_mixed", "precision"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "bf16", "precision"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "fp8_mixed", "precision"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "sgd", "optimizer"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "sgd_momentum", "optimizer"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "adam", "optimizer"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "adamw", "optimizer"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "adamw_8bit", "optimizer"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "paged_adamw", "optimizer"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "paged_adamw_8bit", "optimizer"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "adafactor", "optimizer"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "lion", "optimizer"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "muon", "optimizer"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "shampoo", "optimizer"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "auto", "master weights"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "fp32", "master weights"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "bf16", "master weights"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "fp16", "master weights"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "none", "master weights"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "auto", "gradients"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "fp32", "gradients"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "bf16", "gradients"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "auto", "optimizer states"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "fp32", "optimizer states"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "bf16", "optimizer states"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "fp16", "optimizer states"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "fp8", "optimizer states"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "int8", "optimizer states"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "int4", "optimizer states"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "transformers", "framework"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "pytorch", "framework"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "litgpt", "framework"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "torchtune", "framework"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "torchtitan", "framework"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "megatron", "framework"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "deepspeed", "framework"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "unsloth", "framework"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "none", "offload"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "cpu", "offload"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "nvme", "offload"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "none", "recompute"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "selective", "recompute"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "full", "recompute"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "eager", "attention"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "sdpa", "attention"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "flash", "attention"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "full", "fine-tuning"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "lora", "fine-tuning"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "qlora", "fine-tuning"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "standard", "loss"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "chunked", "loss"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "fused_linear", "loss"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "fused", "loss"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "none", "kernels"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "liger", "kernels"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "custom", "training loop"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "trainer", "training loop"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "vllm", "serving engine"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "sglang", "serving engine"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "transformers", "serving engine"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "auto", "KV cache dtype"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "fp8", "KV cache dtype"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "none", "weight quantization"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "fp8", "weight quantization"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "awq", "weight quantization"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "gptq", "weight quantization"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "mxfp4", "weight quantization"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "bitsandbytes", "weight quantization"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "grpo", "RL algorithm"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "ppo", "RL algorithm"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "dpo", "RL algorithm"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "orpo", "RL algorithm"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "kto", "RL algorithm"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "rloo", "RL algorithm"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "reinforce_pp", "RL algorithm"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "verl", "RL framework"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "trl", "RL framework"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "openrlhf", "RL framework"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "ms_swift", "RL framework"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "colocated", "rollout placement"),
    QT_TRANSLATE_NOOP3("vramplan::ui::EnumLabel", "separate", "rollout placement"),
};

} // namespace

const char *enumKind(Mode)
{
    return "mode";
}
const char *enumKind(MasterDtype)
{
    return "master weights";
}
const char *enumKind(GradientDtype)
{
    return "gradients";
}
const char *enumKind(StateDtype)
{
    return "optimizer states";
}
const char *enumKind(Precision)
{
    return "precision";
}
const char *enumKind(Optimizer)
{
    return "optimizer";
}
const char *enumKind(Framework)
{
    return "framework";
}
const char *enumKind(Offload)
{
    return "offload";
}
const char *enumKind(Recompute)
{
    return "recompute";
}
const char *enumKind(Attention)
{
    return "attention";
}
const char *enumKind(FinetuneMethod)
{
    return "fine-tuning";
}
const char *enumKind(LossKind)
{
    return "loss";
}
const char *enumKind(Kernels)
{
    return "kernels";
}
const char *enumKind(TrainingLoop)
{
    return "training loop";
}
const char *enumKind(ServingEngine)
{
    return "serving engine";
}
const char *enumKind(KvCacheDtype)
{
    return "KV cache dtype";
}
const char *enumKind(WeightQuantization)
{
    return "weight quantization";
}

const char *enumKind(RlAlgorithm)
{
    return "RL algorithm";
}
const char *enumKind(RlFramework)
{
    return "RL framework";
}
const char *enumKind(RolloutPlacement)
{
    return "rollout placement";
}

QString enumLabel(const char *kind, std::string_view name)
{
    const std::string spelling(name); // translate() wants it NUL-terminated
    return QCoreApplication::translate(context, spelling.c_str(), kind);
}

} // namespace vramplan::ui
