#include "controlspanel.h"

#include "architecturenotes.h"
#include "catalog.h"
#include "enum_names.h"
#include "logslider.h"
#include "model_scaling.h"
#include "model_weights.h"
#include "presetpicker.h"
#include "scenario_json.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <cmath>

namespace vramplan::ui {
namespace {

QString qs(std::string_view text)
{
    return QString::fromUtf8(text.data(), int(text.size()));
}

template <typename E> void fillEnum(QComboBox *box)
{
    for (const auto &entry : enumNames<E>())
        box->addItem(qs(entry.name), int(entry.value));
}

template <typename E> void showEnum(QComboBox *box, E value)
{
    const QSignalBlocker blocker(box);
    box->setCurrentIndex(box->findData(int(value)));
}

template <typename E> E enumAt(QComboBox *box)
{
    return static_cast<E>(box->currentData().toInt());
}

QSpinBox *spin(int minimum, int maximum)
{
    auto *box = new QSpinBox;
    box->setRange(minimum, maximum);
    box->setKeyboardTracking(false);
    box->setAccelerated(true);
    return box;
}

void showInt(QSpinBox *box, int64_t value)
{
    const QSignalBlocker blocker(box);
    box->setValue(int(std::clamp<int64_t>(value, box->minimum(), box->maximum())));
}

// `about`: the tooltip while the control applies.
void setAvailable(QWidget *w, bool available, const QString &whyNot, const QString &about = {})
{
    w->setEnabled(available);
    w->setToolTip(available ? about : whyNot);
}

std::vector<double> powersOfTwo(double from, double to)
{
    std::vector<double> out;
    for (double v = 1; v <= to; v *= 2)
        if (v >= from)
            out.push_back(v);
    return out;
}

} // namespace

ControlsPanel::ControlsPanel(QWidget *parent) : QWidget(parent)
{
    build();
}

void ControlsPanel::build()
{
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(buildModelGroup());
    layout->addWidget(buildBatchGroup());
    layout->addWidget(buildTrainingGroup());
    layout->addWidget(buildSaversGroup());
    layout->addWidget(buildParallelGroup());
    layout->addWidget(buildGpuGroup());
    layout->addStretch(1);
    // Long item texts (GPU names, ZeRO descriptions) must not set the panel's width: the
    // charts are what the user came for. The popups still show the whole text.
    for (QComboBox *box : findChildren<QComboBox *>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(8);
    }
    for (QSpinBox *box : findChildren<QSpinBox *>())
        box->setMinimumWidth(box->fontMetrics().horizontalAdvance(QStringLiteral("00000000")));
}

QComboBox *ControlsPanel::presetBox() const
{
    return m_preset;
}

template <typename Edit> void ControlsPanel::apply(Edit edit, bool dragging)
{
    if (m_updating)
        return;
    Scenario next = m_scenario;
    edit(next);
    const std::string error = checkScenario(next);
    if (!error.empty()) {
        emit refused(QString::fromStdString(error));
        setScenario(m_scenario); // put the controls back where the scenario is
        return;
    }
    m_scenario = next;
    refreshAvailability();
    emit edited(m_scenario, dragging);
}

QGroupBox *ControlsPanel::buildModelGroup()
{
    auto *group = new QGroupBox(tr("Model"));
    auto *form = new QFormLayout(group);
    m_preset = new PresetPicker;
    form->addRow(tr("Preset"), m_preset);
    connect(m_preset, &QComboBox::currentIndexChanged, this, [this] {
        const std::string id = m_preset->currentData().toString().toStdString();
        if (id.empty())
            return;
        if (auto model = presetModel(id))
            apply([&](Scenario &s) { s.model = *model; });
    });

    m_modelSize = new LogSlider;
    // In billions of parameters: 10 M to 2 T.
    m_modelSize->setRange(0.01, 2000);
    m_modelSize->setDecimals(2);
    m_modelSize->setMarks(m_preset->presetSizes());
    m_modelSize->spinBox()->setSuffix(tr(" B"));
    m_modelSize->setToolTip(tr("Scales the chosen family's depth and width to a parameter count; "
                               "ticks mark the preset sizes"));
    form->addRow(tr("Size"), m_modelSize);
    connect(m_modelSize, &LogSlider::valueEdited, this, [this](double target, bool dragging) {
        // Scale from the preset the family started from, so that repeated drags do not drift.
        ModelConfig base = m_scenario.model;
        if (!base.preset.empty())
            if (auto preset = presetModel(base.preset))
                base = *preset;
        const ModelConfig scaled = scaleModel(base, target * 1e9);
        apply(
            [&](Scenario &s) {
                const double imbalance = s.model.moe.imbalance; // the run's, not the model's
                s.model = scaled;
                s.model.preset.clear();
                s.model.moe.imbalance = imbalance;
            },
            dragging);
    });

    auto *arch = new QGroupBox(tr("Architecture"));
    arch->setFlat(true);
    auto *archForm = m_archForm = new QFormLayout(arch);
    m_layers = spin(1, 2048);
    m_hidden = spin(1, 1 << 18);
    m_heads = spin(1, 1 << 14);
    m_kvHeads = spin(1, 1 << 14);
    m_ffn = spin(1, 1 << 20);
    m_vocab = spin(1, 1 << 24);
    m_tied = new QCheckBox(tr("Tied embeddings"));
    m_experts = spin(0, 1024);
    m_expertsPerToken = spin(0, 1024);
    m_sharedExperts = spin(0, 64);
    m_denseLayers = spin(0, 2047);
    m_imbalance = new QDoubleSpinBox;
    m_imbalance->setRange(1.0, 8.0);
    m_imbalance->setSingleStep(0.1);
    m_imbalance->setDecimals(2);
    m_imbalance->setSuffix(QStringLiteral(" \u00d7"));
    m_imbalance->setKeyboardTracking(false);
    m_notes = new QLabel;
    m_notes->setWordWrap(true);
    m_notes->setTextFormat(Qt::PlainText);
    m_notes->setToolTip(tr("Read from the model's config: what shapes its attention and layers "
                           "beyond the fields above"));
    archForm->addRow(tr("Layers"), m_layers);
    archForm->addRow(tr("Hidden size"), m_hidden);
    archForm->addRow(tr("Attention heads"), m_heads);
    archForm->addRow(tr("KV heads"), m_kvHeads);
    archForm->addRow(tr("FFN size"), m_ffn);
    archForm->addRow(tr("Vocabulary"), m_vocab);
    archForm->addRow(QString(), m_tied);
    archForm->addRow(tr("MoE experts"), m_experts);
    archForm->addRow(tr("Experts per token"), m_expertsPerToken);
    archForm->addRow(tr("Shared experts"), m_sharedExperts);
    archForm->addRow(tr("Dense first layers"), m_denseLayers);
    archForm->addRow(tr("Expert load imbalance"), m_imbalance);
    archForm->addRow(m_notes);
    form->addRow(arch);

    auto custom = [](Scenario &s) { s.model.preset.clear(); };
    connect(m_layers, &QSpinBox::valueChanged, this, [=, this](int v) {
        apply([&](Scenario &s) {
            custom(s);
            s.model.layers = v;
        });
    });
    connect(m_hidden, &QSpinBox::valueChanged, this, [=, this](int v) {
        apply([&](Scenario &s) {
            custom(s);
            // A head width that followed the hidden size keeps following it.
            if (s.model.headDim * s.model.attentionHeads == s.model.hiddenSize &&
                v % s.model.attentionHeads == 0)
                s.model.headDim = v / s.model.attentionHeads;
            s.model.hiddenSize = v;
        });
    });
    connect(m_heads, &QSpinBox::valueChanged, this, [=, this](int v) {
        apply([&](Scenario &s) {
            custom(s);
            if (s.model.hiddenSize % v == 0)
                s.model.headDim = s.model.hiddenSize / v;
            s.model.attentionHeads = v;
        });
    });
    connect(m_kvHeads, &QSpinBox::valueChanged, this, [=, this](int v) {
        apply([&](Scenario &s) {
            custom(s);
            s.model.kvHeads = v;
        });
    });
    connect(m_ffn, &QSpinBox::valueChanged, this, [=, this](int v) {
        apply([&](Scenario &s) {
            custom(s);
            // A MoE model's box shows the expert width; dense layers (DeepSeek's first ones)
            // keep their own width.
            const bool denseLayers = s.model.moeLayersIn(0, s.model.layers) < s.model.layers;
            if (!s.model.isMoe() || !denseLayers)
                s.model.ffnHiddenSize = v;
            if (s.model.isMoe())
                s.model.moe.expertFfnHiddenSize = v;
        });
    });
    connect(m_vocab, &QSpinBox::valueChanged, this, [=, this](int v) {
        apply([&](Scenario &s) {
            custom(s);
            s.model.vocabSize = v;
        });
    });
    connect(m_tied, &QCheckBox::toggled, this, [=, this](bool on) {
        apply([&](Scenario &s) {
            custom(s);
            s.model.tiedEmbeddings = on;
        });
    });
    connect(m_experts, &QSpinBox::valueChanged, this, [=, this](int v) {
        apply([&](Scenario &s) {
            custom(s);
            s.model.moe.experts = v;
            if (v > 0 && s.model.moe.expertsPerToken == 0)
                s.model.moe.expertsPerToken = std::min(2, v);
            if (v > 0 && s.model.moe.expertFfnHiddenSize == 0)
                s.model.moe.expertFfnHiddenSize = s.model.ffnHiddenSize;
            if (v == 0)
                s.parallelism.expertParallel = 1;
        });
    });
    connect(m_expertsPerToken, &QSpinBox::valueChanged, this, [=, this](int v) {
        apply([&](Scenario &s) {
            custom(s);
            s.model.moe.expertsPerToken = v;
        });
    });
    connect(m_sharedExperts, &QSpinBox::valueChanged, this, [=, this](int v) {
        apply([&](Scenario &s) {
            custom(s);
            s.model.moe.sharedExperts = v;
        });
    });
    connect(m_denseLayers, &QSpinBox::valueChanged, this, [=, this](int v) {
        apply([&](Scenario &s) {
            custom(s);
            s.model.moe.denseLayers = v;
        });
    });
    // How evenly the router spreads tokens is a property of the run, not of the architecture:
    // the preset stays chosen.
    connect(m_imbalance, &QDoubleSpinBox::valueChanged, this,
            [this](double v) { apply([&](Scenario &s) { s.model.moe.imbalance = v; }); });
    return group;
}

QGroupBox *ControlsPanel::buildBatchGroup()
{
    auto *group = new QGroupBox(tr("Batch and sequence"));
    auto *form = new QFormLayout(group);
    m_microBatch = new LogSlider;
    m_microBatch->setRange(1, 4096);
    m_microBatch->setMarks(powersOfTwo(1, 4096));
    m_sequence = new LogSlider;
    m_sequence->setRange(16, 1 << 21);
    m_sequence->setMarks(powersOfTwo(16, 1 << 21));
    m_accumulation = new LogSlider;
    m_accumulation->setRange(1, 1024);
    m_accumulation->setMarks(powersOfTwo(1, 1024));
    form->addRow(tr("Micro-batch"), m_microBatch);
    form->addRow(tr("Sequence"), m_sequence);
    form->addRow(tr("Grad. accumulation"), m_accumulation);
    connect(m_microBatch, &LogSlider::valueEdited, this, [this](double v, bool drag) {
        apply([&](Scenario &s) { s.training.microBatchSize = int64_t(v); }, drag);
    });
    connect(m_sequence, &LogSlider::valueEdited, this, [this](double v, bool drag) {
        apply([&](Scenario &s) { s.training.sequenceLength = int64_t(v); }, drag);
    });
    connect(m_accumulation, &LogSlider::valueEdited, this, [this](double v, bool drag) {
        apply([&](Scenario &s) { s.training.gradientAccumulationSteps = int64_t(v); }, drag);
    });
    return group;
}

QGroupBox *ControlsPanel::buildTrainingGroup()
{
    auto *group = new QGroupBox(tr("Mode, precision and optimizer"));
    auto *form = new QFormLayout(group);
    m_mode = new QComboBox;
    fillEnum<Mode>(m_mode);
    m_precision = new QComboBox;
    fillEnum<Precision>(m_precision);
    m_optimizer = new QComboBox;
    fillEnum<Optimizer>(m_optimizer);
    m_framework = new QComboBox;
    fillEnum<Framework>(m_framework);
    form->addRow(tr("Mode"), m_mode);
    form->addRow(tr("Precision"), m_precision);
    form->addRow(tr("Optimizer"), m_optimizer);
    form->addRow(tr("Framework"), m_framework);
    connect(m_mode, &QComboBox::currentIndexChanged, this,
            [this] { apply([&](Scenario &s) { s.training.mode = enumAt<Mode>(m_mode); }); });
    connect(m_precision, &QComboBox::currentIndexChanged, this, [this] {
        apply([&](Scenario &s) { s.training.precision = enumAt<Precision>(m_precision); });
    });
    connect(m_optimizer, &QComboBox::currentIndexChanged, this, [this] {
        apply([&](Scenario &s) { s.training.optimizer = enumAt<Optimizer>(m_optimizer); });
    });
    connect(m_framework, &QComboBox::currentIndexChanged, this,
            [this] { apply([&](Scenario &s) { s.framework = enumAt<Framework>(m_framework); }); });
    return group;
}

QGroupBox *ControlsPanel::buildSaversGroup()
{
    auto *group = new QGroupBox(tr("Memory savers"));
    auto *form = new QFormLayout(group);
    m_zero = new QComboBox;
    m_zero->addItem(tr("0: replicated (DDP)"), 0);
    m_zero->addItem(tr("1: shard optimizer states"), 1);
    m_zero->addItem(tr("2: + gradients (shard-grad-op)"), 2);
    m_zero->addItem(tr("3: + parameters (FSDP full shard)"), 3);
    m_offloadOptimizer = new QComboBox;
    fillEnum<Offload>(m_offloadOptimizer);
    m_offloadParameters = new QComboBox;
    fillEnum<Offload>(m_offloadParameters);
    m_recompute = new QComboBox;
    fillEnum<Recompute>(m_recompute);
    m_recomputeLayers = spin(0, 2048);
    m_recomputeLayers->setToolTip(tr("Layers recomputed per stage (the rest keep everything)"));
    m_attention = new QComboBox;
    fillEnum<Attention>(m_attention);
    m_finetune = new QComboBox;
    fillEnum<FinetuneMethod>(m_finetune);
    m_loraRank = spin(1, 1 << 16);
    m_loraTargets = new QLineEdit;
    m_loraTargets->setPlaceholderText(tr("q_proj, v_proj (or all-linear)"));
    m_loraTargets->setToolTip(
        tr("Modules to adapt, as PEFT's target_modules: q_proj ... down_proj, a family's own "
           "names (query, value, c_attn, c_proj, fc1, fc2, query_key_value, dense_h_to_4h, "
           "w1 ... w3), or all-linear. A fused q/k/v module gets one adapter."));
    m_baseBits = new QComboBox;
    for (int bits : {4, 8, 16, 32})
        m_baseBits->addItem(tr("%1-bit").arg(bits), bits);
    form->addRow(tr("ZeRO / FSDP"), m_zero);
    form->addRow(tr("Offload optimizer"), m_offloadOptimizer);
    form->addRow(tr("Offload parameters"), m_offloadParameters);
    form->addRow(tr("Recompute"), m_recompute);
    form->addRow(tr("Recomputed layers"), m_recomputeLayers);
    form->addRow(tr("Attention"), m_attention);
    form->addRow(tr("Fine-tuning"), m_finetune);
    form->addRow(tr("LoRA rank"), m_loraRank);
    form->addRow(tr("LoRA targets"), m_loraTargets);
    form->addRow(tr("Base weights"), m_baseBits);
    connect(m_zero, &QComboBox::currentIndexChanged, this, [this] {
        apply([&](Scenario &s) { s.parallelism.zeroStage = m_zero->currentData().toInt(); });
    });
    connect(m_offloadOptimizer, &QComboBox::currentIndexChanged, this, [this] {
        apply([&](Scenario &s) {
            s.parallelism.offloadOptimizer = enumAt<Offload>(m_offloadOptimizer);
        });
    });
    connect(m_offloadParameters, &QComboBox::currentIndexChanged, this, [this] {
        apply([&](Scenario &s) {
            s.parallelism.offloadParameters = enumAt<Offload>(m_offloadParameters);
        });
    });
    connect(m_recompute, &QComboBox::currentIndexChanged, this, [this] {
        apply([&](Scenario &s) { s.training.recompute = enumAt<Recompute>(m_recompute); });
    });
    connect(m_recomputeLayers, &QSpinBox::valueChanged, this,
            [this](int v) { apply([&](Scenario &s) { s.training.recomputeLayers = v; }); });
    connect(m_attention, &QComboBox::currentIndexChanged, this, [this] {
        apply([&](Scenario &s) { s.training.attention = enumAt<Attention>(m_attention); });
    });
    connect(m_finetune, &QComboBox::currentIndexChanged, this, [this] {
        apply([&](Scenario &s) {
            s.training.finetune.method = enumAt<FinetuneMethod>(m_finetune);
            if (s.training.finetune.method == FinetuneMethod::Qlora)
                s.training.finetune.baseWeightBits = 4;
            else if (s.training.finetune.baseWeightBits == 4)
                s.training.finetune.baseWeightBits = 16;
        });
    });
    connect(m_loraRank, &QSpinBox::valueChanged, this,
            [this](int v) { apply([&](Scenario &s) { s.training.finetune.loraRank = v; }); });
    connect(m_loraTargets, &QLineEdit::editingFinished, this, [this] {
        std::vector<std::string> targets;
        for (const QString &t : m_loraTargets->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
            if (!t.trimmed().isEmpty())
                targets.push_back(t.trimmed().toStdString());
        if (targets == m_scenario.training.finetune.loraTargets)
            return;
        apply([&](Scenario &s) { s.training.finetune.loraTargets = targets; });
    });
    connect(m_baseBits, &QComboBox::currentIndexChanged, this, [this] {
        apply([&](Scenario &s) {
            s.training.finetune.baseWeightBits = m_baseBits->currentData().toInt();
        });
    });
    return group;
}

QGroupBox *ControlsPanel::buildParallelGroup()
{
    auto *group = new QGroupBox(tr("Parallelism"));
    auto *form = new QFormLayout(group);
    m_gpus = new LogSlider;
    m_gpus->setRange(1, 16384);
    m_gpus->setMarks(powersOfTwo(1, 16384));
    m_tp = new QComboBox;
    for (int t : {1, 2, 4, 8, 16, 32, 64})
        m_tp->addItem(QString::number(t), t);
    m_pp = spin(1, 2048);
    m_vpp = spin(1, 2048);
    m_sp = new QCheckBox(tr("Sequence parallel"));
    m_cp = spin(1, 1 << 14);
    m_ep = spin(1, 1 << 14);
    form->addRow(tr("GPUs"), m_gpus);
    form->addRow(tr("Tensor parallel"), m_tp);
    form->addRow(QString(), m_sp);
    form->addRow(tr("Pipeline parallel"), m_pp);
    form->addRow(tr("Virtual stages"), m_vpp);
    form->addRow(tr("Context parallel"), m_cp);
    form->addRow(tr("Expert parallel"), m_ep);
    connect(m_gpus, &LogSlider::valueEdited, this, [this](double v, bool drag) {
        apply([&](Scenario &s) { s.parallelism.gpus = int64_t(v); }, drag);
    });
    connect(m_tp, &QComboBox::currentIndexChanged, this, [this] {
        apply([&](Scenario &s) {
            s.parallelism.tensorParallel = m_tp->currentData().toInt();
            if (s.parallelism.tensorParallel == 1)
                s.parallelism.sequenceParallel = false;
        });
    });
    connect(m_sp, &QCheckBox::toggled, this,
            [this](bool on) { apply([&](Scenario &s) { s.parallelism.sequenceParallel = on; }); });
    connect(m_pp, &QSpinBox::valueChanged, this, [this](int v) {
        apply([&](Scenario &s) {
            s.parallelism.pipelineParallel = v;
            if (v == 1)
                s.parallelism.virtualPipelineParallel = 1;
        });
    });
    connect(m_vpp, &QSpinBox::valueChanged, this, [this](int v) {
        apply([&](Scenario &s) { s.parallelism.virtualPipelineParallel = v; });
    });
    connect(m_cp, &QSpinBox::valueChanged, this,
            [this](int v) { apply([&](Scenario &s) { s.parallelism.contextParallel = v; }); });
    connect(m_ep, &QSpinBox::valueChanged, this,
            [this](int v) { apply([&](Scenario &s) { s.parallelism.expertParallel = v; }); });
    return group;
}

QGroupBox *ControlsPanel::buildGpuGroup()
{
    auto *group = new QGroupBox(tr("GPU"));
    auto *form = new QFormLayout(group);
    m_gpu = new QComboBox;
    for (const auto &g : Catalog::builtin().gpus())
        m_gpu->addItem(QStringLiteral("%1 (%2 GiB)")
                           .arg(QString::fromStdString(g.name))
                           .arg(g.memoryMiB / 1024.0, 0, 'f', 1),
                       QString::fromStdString(g.id));
    m_gpu->addItem(tr("Custom capacity"), QString());
    m_capacity = new QDoubleSpinBox;
    m_capacity->setRange(0.5, 100000);
    m_capacity->setDecimals(2);
    m_capacity->setSuffix(tr(" GiB"));
    m_capacity->setKeyboardTracking(false);
    form->addRow(tr("Card"), m_gpu);
    form->addRow(tr("Usable memory"), m_capacity);
    connect(m_gpu, &QComboBox::currentIndexChanged, this, [this] {
        const std::string id = m_gpu->currentData().toString().toStdString();
        const GpuSpec *spec = Catalog::builtin().gpu(id);
        apply([&](Scenario &s) {
            if (spec) {
                s.gpu.preset = spec->id;
                s.gpu.name = spec->name;
                s.gpu.architecture = spec->architecture;
                s.gpu.memoryGiB = spec->memoryMiB / 1024.0;
            } else {
                s.gpu.preset.clear();
                s.gpu.name = "custom";
            }
        });
    });
    connect(m_capacity, &QDoubleSpinBox::valueChanged, this, [this](double gib) {
        apply([&](Scenario &s) {
            if (std::fabs(s.gpu.memoryGiB - gib) < 0.005)
                return;
            s.gpu.memoryGiB = gib;
            s.gpu.preset.clear();
            s.gpu.name = "custom";
        });
    });
    return group;
}

void ControlsPanel::setScenario(const Scenario &s)
{
    m_updating = true;
    m_scenario = s;
    m_preset->showPreset(s.model.preset);
    m_modelSize->setValue(double(countParameters(s.model).total) / 1e9);
    showInt(m_layers, s.model.layers);
    showInt(m_hidden, s.model.hiddenSize);
    showInt(m_heads, s.model.attentionHeads);
    showInt(m_kvHeads, s.model.kvHeads);
    showInt(m_ffn, s.model.isMoe() ? s.model.moe.expertFfnHiddenSize : s.model.ffnHiddenSize);
    showInt(m_vocab, s.model.vocabSize);
    {
        const QSignalBlocker b(m_tied);
        m_tied->setChecked(s.model.tiedEmbeddings);
    }
    showInt(m_experts, s.model.moe.experts);
    showInt(m_expertsPerToken, s.model.moe.expertsPerToken);
    showInt(m_sharedExperts, s.model.moe.sharedExperts);
    showInt(m_denseLayers, s.model.moe.denseLayers);
    {
        const QSignalBlocker b(m_imbalance);
        m_imbalance->setValue(s.model.moe.imbalance);
    }

    m_microBatch->setValue(double(s.training.microBatchSize));
    m_sequence->setValue(double(s.training.sequenceLength));
    m_accumulation->setValue(double(s.training.gradientAccumulationSteps));
    showEnum(m_mode, s.training.mode);
    showEnum(m_precision, s.training.precision);
    showEnum(m_optimizer, s.training.optimizer);
    showEnum(m_framework, s.framework);
    {
        const QSignalBlocker b(m_zero);
        m_zero->setCurrentIndex(m_zero->findData(int(s.parallelism.zeroStage)));
    }
    showEnum(m_offloadOptimizer, s.parallelism.offloadOptimizer);
    showEnum(m_offloadParameters, s.parallelism.offloadParameters);
    showEnum(m_recompute, s.training.recompute);
    showInt(m_recomputeLayers,
            s.training.recomputeLayers >= 0 ? s.training.recomputeLayers : s.model.layers);
    showEnum(m_attention, s.training.attention);
    showEnum(m_finetune, s.training.finetune.method);
    showInt(m_loraRank, s.training.finetune.loraRank);
    {
        QStringList targets;
        for (const auto &t : s.training.finetune.loraTargets)
            targets << QString::fromStdString(t);
        const QSignalBlocker b(m_loraTargets);
        m_loraTargets->setText(targets.join(QStringLiteral(", ")));
    }
    {
        const QSignalBlocker b(m_baseBits);
        m_baseBits->setCurrentIndex(m_baseBits->findData(int(s.training.finetune.baseWeightBits)));
    }
    m_gpus->setValue(double(s.parallelism.gpus));
    {
        const QSignalBlocker b(m_tp);
        m_tp->setCurrentIndex(m_tp->findData(int(s.parallelism.tensorParallel)));
    }
    {
        const QSignalBlocker b(m_sp);
        m_sp->setChecked(s.parallelism.sequenceParallel);
    }
    showInt(m_pp, s.parallelism.pipelineParallel);
    showInt(m_vpp, s.parallelism.virtualPipelineParallel);
    showInt(m_cp, s.parallelism.contextParallel);
    showInt(m_ep, s.parallelism.expertParallel);
    {
        const QSignalBlocker b(m_gpu);
        m_gpu->setCurrentIndex(
            s.gpu.preset.empty()
                ? m_gpu->count() - 1
                : std::max(0, m_gpu->findData(QString::fromStdString(s.gpu.preset))));
    }
    {
        const QSignalBlocker b(m_capacity);
        m_capacity->setValue(s.gpu.memoryGiB);
    }
    refreshAvailability();
    m_updating = false;
}

void ControlsPanel::refreshAvailability()
{
    const Scenario &s = m_scenario;
    const bool training = s.training.mode == Mode::Train;
    const bool dataParallel = s.parallelism.dataParallel() > 1;
    const QString trainingOnly = tr("Applies to training only (the mode is inference)");

    setAvailable(m_accumulation, training, trainingOnly);
    setAvailable(m_optimizer, training, trainingOnly);
    setAvailable(m_recompute, training, trainingOnly);
    setAvailable(m_offloadOptimizer, training, trainingOnly);
    setAvailable(m_zero, training && dataParallel,
                 training ? tr("ZeRO/FSDP shards over data-parallel GPUs: with %1 GPU(s) and this "
                               "layout there is one data-parallel rank")
                                .arg(s.parallelism.gpus)
                          : trainingOnly);
    setAvailable(m_offloadParameters, training && s.parallelism.zeroStage == 3,
                 tr("Parameter offload needs ZeRO stage 3 / FSDP full shard"));
    setAvailable(m_recomputeLayers, training && s.training.recompute == Recompute::Full,
                 tr("Only with full recomputation"));
    const bool lora = s.training.finetune.method != FinetuneMethod::Full;
    const QString loraOnly = tr("Only for LoRA and QLoRA fine-tuning");
    setAvailable(m_loraRank, lora, loraOnly);
    setAvailable(m_loraTargets, lora, loraOnly);
    setAvailable(m_baseBits, lora, loraOnly);
    setAvailable(m_sp, s.parallelism.tensorParallel > 1,
                 tr("Sequence parallelism splits the "
                    "tensor-parallel group: needs TP > 1"));
    setAvailable(m_vpp, s.parallelism.pipelineParallel > 1,
                 tr("Virtual stages interleave a pipeline: needs PP > 1"));
    setAvailable(m_ep, s.model.isMoe(), tr("Expert parallelism needs a mixture-of-experts model"));
    const QString dense = tr("A dense model has no experts");
    setAvailable(m_expertsPerToken, s.model.isMoe(), dense);
    setAvailable(m_sharedExperts, s.model.isMoe(), dense,
                 tr("Experts every token passes through besides the routed ones"));
    setAvailable(m_denseLayers, s.model.isMoe(), dense,
                 tr("Layers at the bottom with a dense MLP instead of experts (DeepSeek's "
                    "first_k_dense_replace)"));
    // Without expert parallelism (and without a capacity factor) every routed token stays on
    // this GPU whatever the balance (core routedTokenFactor).
    setAvailable(m_imbalance,
                 s.model.isMoe() &&
                     (s.parallelism.expertParallel > 1 || s.model.moe.capacityFactor > 0),
                 s.model.isMoe() ? tr("Applies under expert parallelism (EP > 1): with one "
                                      "rank every routed token stays on this GPU, balanced "
                                      "or not")
                                 : dense,
                 tr("The busiest expert's (or expert-parallel rank's) tokens over the balanced "
                    "share (1.0: balanced). It scales what the routed experts keep under "
                    "expert parallelism and grouped-GEMM engines."));
    refreshModelDetails();
    setAvailable(m_capacity, s.gpu.preset.empty(), tr("Choose \"Custom capacity\" to type a size"));

    // Tensor-parallel sizes the heads cannot be split into are listed but disabled.
    auto *model = qobject_cast<QStandardItemModel *>(m_tp->model());
    for (int i = 0; model && i < m_tp->count(); ++i) {
        const int t = m_tp->itemData(i).toInt();
        QString why;
        if (s.model.attentionHeads % t != 0)
            why =
                tr("%1 does not divide the %2 attention heads").arg(t).arg(s.model.attentionHeads);
        else if (s.model.kvHeads % t != 0 && t % s.model.kvHeads != 0)
            why = tr("%1 and the %2 key/value heads do not divide one another")
                      .arg(t)
                      .arg(s.model.kvHeads);
        else if (t > s.parallelism.gpus)
            why = tr("more than the %1 GPUs").arg(s.parallelism.gpus);
        QStandardItem *item = model->item(i);
        item->setEnabled(why.isEmpty());
        item->setToolTip(why);
    }
}

void ControlsPanel::refreshModelDetails()
{
    const ModelConfig &m = m_scenario.model;
    const QStringList notes = architectureNotes(m);
    m_notes->setText(notes.join(QLatin1Char('\n')));
    m_archForm->setRowVisible(m_notes, !notes.isEmpty());
    if (auto *label = qobject_cast<QLabel *>(m_archForm->labelForField(m_ffn)))
        label->setText(m.isMoe() ? tr("Expert FFN size") : tr("FFN size"));
    const bool denseWidth = m.isMoe() && m.moeLayersIn(0, m.layers) < m.layers;
    m_ffn->setToolTip(
        denseWidth ? tr("Each routed expert's width; the dense layers' is %1").arg(m.ffnHiddenSize)
                   : QString());
}

QWidget *ControlsPanel::controlFor(const QString &field) const
{
    if (field == QLatin1String("model.moe.imbalance"))
        return m_imbalance;
    if (field == QLatin1String("model.moe.shared_experts"))
        return m_sharedExperts;
    if (field == QLatin1String("model.moe.dense_layers"))
        return m_denseLayers;
    if (field == QLatin1String("training.gradient_accumulation_steps"))
        return m_accumulation;
    if (field == QLatin1String("training.optimizer"))
        return m_optimizer;
    if (field == QLatin1String("training.activation_recompute"))
        return m_recompute;
    if (field == QLatin1String("training.recompute_layers"))
        return m_recomputeLayers;
    if (field == QLatin1String("training.finetune.lora_rank"))
        return m_loraRank;
    if (field == QLatin1String("parallelism.zero_stage"))
        return m_zero;
    if (field == QLatin1String("parallelism.offload_parameters"))
        return m_offloadParameters;
    if (field == QLatin1String("parallelism.sequence_parallel"))
        return m_sp;
    if (field == QLatin1String("parallelism.virtual_pipeline_parallel"))
        return m_vpp;
    if (field == QLatin1String("parallelism.pipeline_parallel"))
        return m_pp;
    if (field == QLatin1String("parallelism.expert_parallel"))
        return m_ep;
    if (field == QLatin1String("gpu.memory_gib"))
        return m_capacity;
    return nullptr;
}

} // namespace vramplan::ui
