#include "panels/traininggroup.h"

#include "panels/formcontrols.h"

namespace vramplan::ui {

TrainingGroup::TrainingGroup(QWidget *parent)
    : ControlGroup(tr("Mode, precision and optimizer"), parent), m_mode(new QComboBox),
      m_precision(new QComboBox), m_optimizer(new QComboBox), m_framework(new QComboBox)
{
    fillEnum<Mode>(m_mode, {{Mode::Train, tr("A training step: weights, gradients, optimizer "
                                             "states and the activations saved for backward")},
                            {Mode::Inference, tr("Forward only: weights and the KV cache, no "
                                                 "gradients or optimizer states")}});
    fillEnum<Precision>(
        m_precision,
        {{Precision::Fp32, tr("Everything in fp32: 4 bytes per weight, gradient and activation")},
         {Precision::AmpFp16, tr("PyTorch autocast to fp16 over fp32 weights (HF Trainer --fp16): "
                                 "fp32 weights, gradients and states, fp16 activations, 16-bit "
                                 "weight copies during forward")},
         {Precision::AmpBf16, tr("PyTorch autocast to bf16 over fp32 weights (HF Trainer --bf16): "
                                 "fp32 weights, gradients and states, bf16 activations, 16-bit "
                                 "weight copies during forward")},
         {Precision::Fp16Mixed, tr("fp16 weights and gradients with an fp32 master copy and fp32 "
                                   "optimizer states (Megatron, DeepSpeed fp16), loss scaling")},
         {Precision::Bf16Mixed, tr("bf16 weights and gradients with an fp32 master copy and fp32 "
                                   "optimizer states (Megatron, DeepSpeed bf16, FSDP mixed "
                                   "precision)")},
         {Precision::Bf16, tr("Pure bf16: weights, gradients and optimizer states all in bf16, no "
                              "master copy")},
         {Precision::Fp8Mixed, tr("FP8 GEMMs (Transformer Engine): 16-bit weights plus fp8 copies "
                                  "of the GEMM weights, fp32 master and states")}});
    fillEnum<Optimizer>(
        m_optimizer,
        {{Optimizer::Sgd, tr("Plain SGD: no state")},
         {Optimizer::SgdMomentum, tr("SGD with momentum: one state per weight")},
         {Optimizer::Adam, tr("Adam: two states per weight (exp_avg, exp_avg_sq)")},
         {Optimizer::Adamw, tr("AdamW: two states per weight (exp_avg, exp_avg_sq)")},
         {Optimizer::Adamw8bit, tr("bitsandbytes 8-bit AdamW: two 1-byte states per weight plus "
                                   "block-wise scales")},
         {Optimizer::PagedAdamw, tr("bitsandbytes paged AdamW: the states in unified memory, paged "
                                    "out of the GPU under pressure")},
         {Optimizer::PagedAdamw8bit, tr("bitsandbytes paged 8-bit AdamW")},
         {Optimizer::Adafactor, tr("Adafactor: a factored second moment (a row and a column per "
                                   "matrix)")},
         {Optimizer::Lion, tr("Lion: one momentum state per weight")},
         {Optimizer::Muon, tr("Muon: one momentum buffer per weight")},
         {Optimizer::Shampoo, tr("Shampoo: preconditioner statistics per matrix block, 1 to 6 "
                                 "times the parameters")}});
    fillEnum<Framework>(
        m_framework,
        {{Framework::Transformers, tr("Hugging Face models under Trainer, accelerate, TRL, PEFT or "
                                      "a plain loop")},
         {Framework::Pytorch, tr("A plain PyTorch training loop")},
         {Framework::Litgpt, tr("Lightning's LitGPT scripts (validation and generation phases)")},
         {Framework::Torchtune, tr("torchtune recipes (chunked cross-entropy, optimizer in "
                                   "backward)")},
         {Framework::Torchtitan, tr("torchtitan (FSDP2, float8)")},
         {Framework::Megatron, tr("Megatron-LM / Megatron-Core (main_grad buffers, distributed "
                                  "optimizer)")},
         {Framework::Deepspeed, tr("DeepSpeed ZeRO engine (communication buckets)")},
         {Framework::Unsloth, tr("Unsloth (its fused kernels and loss, 16-bit frozen base, "
                                 "checkpoints offloaded to the host)")}});
    addRow(tr("Mode"), m_mode, QStringLiteral("training.mode"), tr("mode"),
           tr("Training (a full step) or inference (forward only)"));
    addRow(tr("Precision"), m_precision, QStringLiteral("training.precision"), tr("precision"),
           tr("How weights, gradients, optimizer states and activations are stored; each "
              "choice's tooltip says how"));
    addRow(tr("Optimizer"), m_optimizer, QStringLiteral("training.optimizer"), tr("optimizer"),
           tr("What the optimizer keeps per trainable weight; each choice's tooltip says what"));
    addRow(tr("Framework"), m_framework, QStringLiteral("framework"), tr("framework"),
           tr("Whose model code and engine run the step: it decides details such as fp32 "
              "logits, chunked cross-entropy, gradient buffers and bucket sizes"));
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] {
        request(m_mode, [m = enumAt<Mode>(m_mode)](Scenario &s) { s.training.mode = m; });
    });
    connect(m_precision, &QComboBox::currentIndexChanged, this, [this] {
        request(m_precision,
                [p = enumAt<Precision>(m_precision)](Scenario &s) { s.training.precision = p; });
    });
    connect(m_optimizer, &QComboBox::currentIndexChanged, this, [this] {
        request(m_optimizer,
                [o = enumAt<Optimizer>(m_optimizer)](Scenario &s) { s.training.optimizer = o; });
    });
    connect(m_framework, &QComboBox::currentIndexChanged, this, [this] {
        request(m_framework,
                [f = enumAt<Framework>(m_framework)](Scenario &s) { s.framework = f; });
    });
}

void TrainingGroup::display(const Scenario &s)
{
    showEnum(m_mode, s.training.mode);
    showEnum(m_precision, s.training.precision);
    showEnum(m_optimizer, s.training.optimizer);
    showEnum(m_framework, s.framework);
}

void TrainingGroup::refreshAvailability(const Scenario &s)
{
    setAvailable(m_optimizer, s.training.mode == Mode::Train,
                 tr("Applies to training only (the mode is inference)"));
}

} // namespace vramplan::ui
