#include "panels/traininggroup.h"

#include "panels/formcontrols.h"

namespace vramplan::ui {

TrainingGroup::TrainingGroup(QWidget *parent)
    : ControlGroup(tr("Mode, precision and optimizer"), parent), m_mode(new QComboBox),
      m_precision(new QComboBox), m_optimizer(new QComboBox), m_framework(new QComboBox),
      m_statesDtype(new QComboBox), m_masterDtype(new QComboBox), m_gradientsDtype(new QComboBox)
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
    fillEnum<StateDtype>(
        m_statesDtype,
        {{StateDtype::Auto, tr("What the precision and optimizer imply: fp32 (bf16 under pure "
                               "bf16)")},
         {StateDtype::Fp32, tr("fp32 moments, as AdamW keeps them by default")},
         {StateDtype::Bf16, tr("bf16 moments: Megatron's precision-aware optimizer "
                               "(--exp-avg-dtype bf16), DeepSpeed's bf16_optimizer_states")},
         {StateDtype::Fp16, tr("fp16 moments (Megatron's precision-aware optimizer)")},
         {StateDtype::Fp8, tr("fp8 moments: Megatron (one scale per tensor) or torchao's "
                              "AdamWFp8 (a scale per 256 values)")},
         {StateDtype::Int8, tr("8-bit moments, torchao's AdamW8bit (a scale per 256 values)")},
         {StateDtype::Int4, tr("4-bit moments, torchao's AdamW4bit (a scale per 128 values)")}});
    fillEnum<MasterDtype>(
        m_masterDtype,
        {{MasterDtype::Auto, tr("What the precision implies: an fp32 copy under mixed precision")},
         {MasterDtype::Fp32, tr("An fp32 copy of the weights for the optimizer's step")},
         {MasterDtype::Fp16, tr("fp16 master weights (Megatron --main-params-dtype fp16)")},
         {MasterDtype::Bf16, tr("bf16 master weights (DeepSpeed bf16_master_weights_and_grads)")},
         {MasterDtype::None, tr("No master copy: the optimizer steps the 16-bit weights")}});
    fillEnum<GradientDtype>(
        m_gradientsDtype,
        {{GradientDtype::Auto, tr("What the precision and framework imply")},
         {GradientDtype::Fp32, tr("fp32 gradients (Megatron's main_grad buffer, FSDP's fp32 "
                                  "shards)")},
         {GradientDtype::Bf16, tr("bf16 gradients (Megatron --main-grads-dtype bf16, DeepSpeed "
                                  "bf16_master_weights_and_grads)")}});
    addRow(tr("Optimizer states"), m_statesDtype,
           QStringLiteral("training.optimizer_precision.exp_avg"), tr("optimizer states dtype"),
           tr("The dtype of the optimizer's moments (exp_avg and exp_avg_sq)"));
    addRow(tr("Master weights"), m_masterDtype,
           QStringLiteral("training.optimizer_precision.master_weights"),
           tr("master weights dtype"), tr("The dtype of the optimizer's copy of the weights"));
    addRow(tr("Gradients"), m_gradientsDtype,
           QStringLiteral("training.optimizer_precision.gradients"), tr("gradients dtype"),
           tr("The dtype the gradients are kept in for the optimizer"));
    addRow(tr("Framework"), m_framework, QStringLiteral("framework"), tr("framework"),
           tr("Whose model code and engine run the step: it decides details such as fp32 "
              "logits, chunked cross-entropy, gradient buffers and bucket sizes"));
    connect(m_mode, &QComboBox::currentIndexChanged, this, [this] {
        request(m_mode, [m = enumAt<Mode>(m_mode)](Scenario &s) {
            s.training.mode = m;
            // An `rl` section needs training.mode train (SPEC §3): inference drops it, as the
            // Post-training group's switch would.
            if (m == Mode::Inference)
                s.rl = RlConfig{};
        });
    });
    connect(m_precision, &QComboBox::currentIndexChanged, this, [this] {
        request(m_precision,
                [p = enumAt<Precision>(m_precision)](Scenario &s) { s.training.precision = p; });
    });
    connect(m_optimizer, &QComboBox::currentIndexChanged, this, [this] {
        request(m_optimizer,
                [o = enumAt<Optimizer>(m_optimizer)](Scenario &s) { s.training.optimizer = o; });
    });
    connect(m_statesDtype, &QComboBox::currentIndexChanged, this, [this] {
        request(m_statesDtype, [d = enumAt<StateDtype>(m_statesDtype)](Scenario &s) {
            s.training.optimizerPrecision.expAvg = d;
            s.training.optimizerPrecision.expAvgSq = d;
        });
    });
    connect(m_masterDtype, &QComboBox::currentIndexChanged, this, [this] {
        request(m_masterDtype, [d = enumAt<MasterDtype>(m_masterDtype)](Scenario &s) {
            s.training.optimizerPrecision.masterWeights = d;
        });
    });
    connect(m_gradientsDtype, &QComboBox::currentIndexChanged, this, [this] {
        request(m_gradientsDtype, [d = enumAt<GradientDtype>(m_gradientsDtype)](Scenario &s) {
            s.training.optimizerPrecision.gradients = d;
        });
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
    showEnum(m_statesDtype, s.training.optimizerPrecision.expAvg);
    showEnum(m_masterDtype, s.training.optimizerPrecision.masterWeights);
    showEnum(m_gradientsDtype, s.training.optimizerPrecision.gradients);
}

void TrainingGroup::refreshAvailability(const Scenario &s)
{
    for (QComboBox *box : {m_optimizer, m_statesDtype, m_masterDtype, m_gradientsDtype})
        setAvailable(box, s.training.mode == Mode::Train,
                     tr("Applies to training only (the mode is inference)"));
}

} // namespace vramplan::ui
