#include "panels/saversgroup.h"

#include "panels/formcontrols.h"

#include <QLineEdit>

namespace vramplan::ui {

SaversGroup::SaversGroup(QWidget *parent)
    : ControlGroup(tr("Memory savers"), parent), m_zero(new QComboBox),
      m_offloadOptimizer(new QComboBox), m_offloadParameters(new QComboBox),
      m_recompute(new QComboBox), m_attention(new QComboBox), m_recomputeLayers(spinBox(0, 2048))
{
    // Short names in the box, what each shards in its tooltip.
    const std::pair<const char *, const char *> stages[] = {
        {QT_TR_NOOP("0: DDP"), QT_TR_NOOP("Every data-parallel GPU holds a full replica (DDP)")},
        {QT_TR_NOOP("1: states"),
         QT_TR_NOOP("Optimizer states sharded over the data-parallel GPUs (ZeRO-1, Megatron's "
                    "distributed optimizer)")},
        {QT_TR_NOOP("2: + gradients"),
         QT_TR_NOOP("Optimizer states and gradients sharded (ZeRO-2, FSDP shard-grad-op)")},
        {QT_TR_NOOP("3: + parameters"),
         QT_TR_NOOP("Optimizer states, gradients and parameters sharded (ZeRO-3, FSDP full "
                    "shard): each layer's weights gathered while it runs")}};
    for (int stage = 0; stage < 4; ++stage) {
        m_zero->addItem(tr(stages[stage].first), stage);
        m_zero->setItemData(stage, tr(stages[stage].second), Qt::ToolTipRole);
    }
    const std::initializer_list<std::pair<Offload, QString>> offload = {
        {Offload::None, tr("Kept on the GPU")},
        {Offload::Cpu, tr("Moved to CPU memory (DeepSpeed/FSDP CPU offload)")},
        {Offload::Nvme, tr("Moved to NVMe (DeepSpeed ZeRO-Infinity)")}};
    fillEnum<Offload>(m_offloadOptimizer, offload);
    fillEnum<Offload>(m_offloadParameters, offload);
    fillEnum<Recompute>(
        m_recompute,
        {{Recompute::None, tr("Every layer keeps what backward needs")},
         {Recompute::Selective, tr("The attention core is recomputed in backward (Megatron "
                                   "selective recomputation)")},
         {Recompute::Full, tr("Each recomputed layer keeps only its input and runs its forward "
                              "again in backward (gradient checkpointing)")}});
    fillEnum<Attention>(m_attention,
                        {{Attention::Eager, tr("Attention in plain PyTorch ops: the s x s scores "
                                               "and probabilities are kept")},
                         {Attention::Sdpa, tr("torch scaled_dot_product_attention (a fused kernel "
                                              "where the inputs allow it)")},
                         {Attention::Flash, tr("FlashAttention: no s x s scores, only the output "
                                               "and a log-sum-exp per row")}});
    addRow(tr("ZeRO / FSDP"), m_zero, QStringLiteral("parallelism.zero_stage"),
           tr("ZeRO / FSDP stage"),
           tr("What is sharded over the data-parallel GPUs; each stage's tooltip says what"));
    addRow(tr("Offload optimizer"), m_offloadOptimizer,
           QStringLiteral("parallelism.offload_optimizer"), tr("optimizer offload"),
           tr("Where the optimizer states live"));
    addRow(tr("Offload parameters"), m_offloadParameters,
           QStringLiteral("parallelism.offload_parameters"), tr("parameter offload"),
           tr("Where the sharded parameters live between uses (ZeRO-3 / FSDP full shard)"));
    addRow(tr("Recompute"), m_recompute, QStringLiteral("training.activation_recompute"),
           tr("recomputation"),
           tr("Activations recomputed in backward instead of kept: less memory, more compute"));
    addRow(tr("Recomputed layers"), m_recomputeLayers, QStringLiteral("training.recompute_layers"),
           tr("recomputed layers"), tr("Layers recomputed per stage (the rest keep everything)"));
    addRow(tr("Attention"), m_attention, QStringLiteral("training.attention"),
           tr("attention kernel"),
           tr("The attention implementation: it decides whether the "
              "s x s scores are kept"));
    connect(m_zero, &QComboBox::currentIndexChanged, this, [this] {
        request(m_zero,
                [z = m_zero->currentData().toInt()](Scenario &s) { s.parallelism.zeroStage = z; });
    });
    connect(m_offloadOptimizer, &QComboBox::currentIndexChanged, this, [this] {
        request(m_offloadOptimizer, [o = enumAt<Offload>(m_offloadOptimizer)](Scenario &s) {
            s.parallelism.offloadOptimizer = o;
        });
    });
    connect(m_offloadParameters, &QComboBox::currentIndexChanged, this, [this] {
        request(m_offloadParameters, [o = enumAt<Offload>(m_offloadParameters)](Scenario &s) {
            s.parallelism.offloadParameters = o;
        });
    });
    connect(m_recompute, &QComboBox::currentIndexChanged, this, [this] {
        request(m_recompute,
                [r = enumAt<Recompute>(m_recompute)](Scenario &s) { s.training.recompute = r; });
    });
    connect(m_recomputeLayers, &QSpinBox::valueChanged, this, [this](int v) {
        request(m_recomputeLayers, [v](Scenario &s) { s.training.recomputeLayers = v; });
    });
    connect(m_attention, &QComboBox::currentIndexChanged, this, [this] {
        request(m_attention,
                [a = enumAt<Attention>(m_attention)](Scenario &s) { s.training.attention = a; });
    });
    buildFinetuning();
}

void SaversGroup::buildFinetuning()
{
    m_finetune = new QComboBox;
    fillEnum<FinetuneMethod>(
        m_finetune,
        {{FinetuneMethod::Full, tr("Every weight is trained: gradients and optimizer states for "
                                   "all of them")},
         {FinetuneMethod::Lora, tr("Low-rank adapters on the target modules are trained; the base "
                                   "weights stay frozen in 16-bit")},
         {FinetuneMethod::Qlora, tr("LoRA over base weights quantised to 4-bit NF4")}});
    m_loraRank = spinBox(1, 1 << 16);
    m_loraTargets = new QLineEdit;
    m_loraTargets->setPlaceholderText(tr("q_proj, v_proj (or all-linear)"));
    m_baseBits = new QComboBox;
    const std::pair<int, const char *> bits[] = {
        {4, QT_TR_NOOP("NF4 (bitsandbytes), with block-wise scales: QLoRA")},
        {8, QT_TR_NOOP("LLM.int8 (bitsandbytes)")},
        {16, QT_TR_NOOP("bf16 or fp16: plain LoRA")},
        {32, QT_TR_NOOP("fp32")}};
    for (const auto &[size, about] : bits) {
        m_baseBits->addItem(tr("%1-bit").arg(size), size);
        m_baseBits->setItemData(m_baseBits->count() - 1, tr(about), Qt::ToolTipRole);
    }
    addRow(tr("Fine-tuning"), m_finetune, QStringLiteral("training.finetune.method"),
           tr("fine-tuning"), tr("Which weights are trained"));
    addRow(tr("LoRA rank"), m_loraRank, QStringLiteral("training.finetune.lora_rank"),
           tr("LoRA rank"),
           tr("The adapters' rank r: each adapts a matrix with r x (in + out) "
              "trainable weights"));
    addRow(tr("LoRA targets"), m_loraTargets, QStringLiteral("training.finetune.lora_targets"),
           tr("LoRA targets"),
           tr("Modules to adapt, as PEFT's target_modules: q_proj ... down_proj, a family's own "
              "names (query, value, c_attn, c_proj, fc1, fc2, query_key_value, dense_h_to_4h, "
              "w1 ... w3), or all-linear. A fused q/k/v module gets one adapter."));
    addRow(tr("Base weights"), m_baseBits, QStringLiteral("training.finetune.base_weight_bits"),
           tr("base weight bits"), tr("Bits per frozen base weight under LoRA (QLoRA: 4)"));
    connect(m_finetune, &QComboBox::currentIndexChanged, this, [this] {
        request(m_finetune, [m = enumAt<FinetuneMethod>(m_finetune)](Scenario &s) {
            s.training.finetune.method = m;
            if (m == FinetuneMethod::Qlora)
                s.training.finetune.baseWeightBits = 4;
            else if (s.training.finetune.baseWeightBits == 4)
                s.training.finetune.baseWeightBits = 16;
        });
    });
    connect(m_loraRank, &QSpinBox::valueChanged, this, [this](int v) {
        request(m_loraRank, [v](Scenario &s) { s.training.finetune.loraRank = v; });
    });
    connect(m_loraTargets, &QLineEdit::editingFinished, this, [this] {
        std::vector<std::string> targets;
        for (const QString &t : m_loraTargets->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
            if (!t.trimmed().isEmpty())
                targets.push_back(t.trimmed().toStdString());
        request(m_loraTargets,
                [targets](Scenario &s) { s.training.finetune.loraTargets = targets; });
    });
    connect(m_baseBits, &QComboBox::currentIndexChanged, this, [this] {
        request(m_baseBits, [bits = m_baseBits->currentData().toInt()](Scenario &s) {
            s.training.finetune.baseWeightBits = bits;
        });
    });
}

void SaversGroup::display(const Scenario &s)
{
    showData(m_zero, int(s.parallelism.zeroStage));
    showEnum(m_offloadOptimizer, s.parallelism.offloadOptimizer);
    showEnum(m_offloadParameters, s.parallelism.offloadParameters);
    showEnum(m_recompute, s.training.recompute);
    showInt(m_recomputeLayers,
            s.training.recomputeLayers >= 0 ? s.training.recomputeLayers : s.model.layers);
    showEnum(m_attention, s.training.attention);
    showEnum(m_finetune, s.training.finetune.method);
    showInt(m_loraRank, s.training.finetune.loraRank);
    QStringList targets;
    for (const auto &t : s.training.finetune.loraTargets)
        targets << QString::fromStdString(t);
    {
        const QSignalBlocker b(m_loraTargets);
        m_loraTargets->setText(targets.join(QStringLiteral(", ")));
    }
    showData(m_baseBits, int(s.training.finetune.baseWeightBits));
}

void SaversGroup::refreshAvailability(const Scenario &s)
{
    const bool training = s.training.mode == Mode::Train;
    const QString trainingOnly = tr("Applies to training only (the mode is inference)");
    setAvailable(m_recompute, training, trainingOnly);
    setAvailable(m_offloadOptimizer, training, trainingOnly);
    setAvailable(m_zero, training && s.parallelism.dataParallel() > 1,
                 training ? tr("ZeRO/FSDP shards over data-parallel GPUs: with %n GPU(s) and this "
                               "layout there is one data-parallel rank",
                               nullptr, int(s.parallelism.gpus))
                          : trainingOnly);
    setAvailable(m_offloadParameters, training && s.parallelism.zeroStage == 3,
                 training ? tr("Parameter offload needs ZeRO stage 3 / FSDP full shard")
                          : trainingOnly);
    setAvailable(m_recomputeLayers, training && s.training.recompute == Recompute::Full,
                 training ? tr("Only with full recomputation") : trainingOnly);
    // Fine-tuning chooses which weights train: nothing trains in inference.
    setAvailable(m_finetune, training, trainingOnly);
    const bool lora = training && s.training.finetune.method != FinetuneMethod::Full;
    const QString loraOnly = training ? tr("Only for LoRA and QLoRA fine-tuning") : trainingOnly;
    setAvailable(m_loraRank, lora, loraOnly);
    setAvailable(m_loraTargets, lora, loraOnly);
    setAvailable(m_baseBits, lora, loraOnly);
}

} // namespace vramplan::ui
