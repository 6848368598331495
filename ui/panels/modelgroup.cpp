#include "panels/modelgroup.h"

#include "document/importedmodels.h"
#include "model/model_scaling.h"
#include "model/model_weights.h"
#include "panels/architecturenotes.h"
#include "panels/formcontrols.h"
#include "panels/logslider.h"
#include "panels/presetpicker.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>

namespace vramplan::ui {

QString scaledModelNote(const ModelConfig &before, const ModelConfig &after)
{
    const std::pair<QString, int64_t ModelConfig::*> fields[] = {
        {ModelGroup::tr("layers"), &ModelConfig::layers},
        {ModelGroup::tr("hidden size"), &ModelConfig::hiddenSize},
        {ModelGroup::tr("attention heads"), &ModelConfig::attentionHeads},
        {ModelGroup::tr("KV heads"), &ModelConfig::kvHeads},
        {ModelGroup::tr("head width"), &ModelConfig::headDim},
        {ModelGroup::tr("FFN size"), &ModelConfig::ffnHiddenSize},
        {ModelGroup::tr("vocabulary"), &ModelConfig::vocabSize}};
    QStringList changes;
    for (const auto &[name, member] : fields)
        if (before.*member != after.*member)
            changes << QStringLiteral("%1 %2 \u2192 %3").arg(name).arg(before.*member).arg(after.*member);
    if (before.moe.expertFfnHiddenSize != after.moe.expertFfnHiddenSize)
        changes << QStringLiteral("%1 %2 \u2192 %3")
                       .arg(ModelGroup::tr("expert FFN size"))
                       .arg(before.moe.expertFfnHiddenSize)
                       .arg(after.moe.expertFfnHiddenSize);
    if (changes.isEmpty())
        return {};
    return ModelGroup::tr("scaled the architecture: %1 (Edit > Undo puts it back in one step)")
        .arg(changes.join(QStringLiteral(", ")));
}

ModelGroup::ModelGroup(QWidget *parent)
    : ControlGroup(tr("Model"), parent), m_preset(new PresetPicker), m_modelSize(new LogSlider)
{
    addRow(tr("Preset"), m_preset, QStringLiteral("model.preset"), tr("model preset"),
           m_preset->toolTip());
    connect(m_preset, &QComboBox::currentIndexChanged, this, [this] {
        const std::string id = m_preset->currentData().toString().toStdString();
        if (id.empty())
            return;
        if (auto model = presetModel(id))
            request(m_preset, [model = *model](Scenario &s) { s.model = model; });
    });

    // In billions of parameters: 10 M to 2 T.
    m_modelSize->setRange(0.01, 2000);
    m_modelSize->setDecimals(2);
    m_modelSize->setMarks(m_preset->presetSizes());
    m_modelSize->spinBox()->setSuffix(tr(" B"));
    addRow(tr("Size"), m_modelSize, QStringLiteral("model.size"), tr("model size"),
           tr("Scales the chosen family's depth and width to a parameter count, in billions; "
              "ticks mark the preset sizes"));
    connect(m_modelSize, &LogSlider::valueEdited, this, [this](double target, bool dragging) {
        request(
            m_modelSize,
            [target](Scenario &s) {
                // Scale from the preset the family started from, so that repeated drags do not
                // drift.
                ModelConfig base = s.model;
                if (!base.preset.empty())
                    if (auto preset = presetModel(base.preset))
                        base = *preset;
                const double imbalance = s.model.moe.imbalance; // the run's, not the model's
                s.model = scaleModel(base, target * 1e9);
                s.model.preset.clear();
                s.model.moe.imbalance = imbalance;
            },
            dragging);
    });
    buildArchitecture();
}

void ModelGroup::buildArchitecture()
{
    auto *arch = new QGroupBox(tr("Architecture"));
    arch->setFlat(true);
    m_archForm = new QFormLayout(arch);
    m_layers = spinBox(1, 2048);
    m_hidden = spinBox(1, 1 << 18);
    m_heads = spinBox(1, 1 << 14);
    m_kvHeads = spinBox(1, 1 << 14);
    m_ffn = spinBox(1, 1 << 20);
    m_vocab = spinBox(1, 1 << 24);
    m_tied = new QCheckBox(tr("Tied embeddings"));
    m_experts = spinBox(0, 1024);
    m_expertsPerToken = spinBox(0, 1024);
    m_sharedExperts = spinBox(0, 64);
    m_denseLayers = spinBox(0, 2047);
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
    QFormLayout *f = m_archForm;
    addRow(tr("Layers"), m_layers, QStringLiteral("model.layers"), tr("layers"),
           tr("Transformer blocks (num_hidden_layers)"), f);
    addRow(tr("Hidden size"), m_hidden, QStringLiteral("model.hidden_size"), tr("hidden size"),
           tr("Width of the residual stream (hidden_size)"), f);
    addRow(tr("Attention heads"), m_heads, QStringLiteral("model.attention_heads"),
           tr("attention heads"), tr("Query heads per layer (num_attention_heads)"), f);
    addRow(tr("KV heads"), m_kvHeads, QStringLiteral("model.kv_heads"), tr("KV heads"),
           tr("Key/value heads (num_key_value_heads): fewer than the attention heads is "
              "grouped-query attention; they must divide the attention heads"),
           f);
    addRow(tr("FFN size"), m_ffn, QStringLiteral("model.ffn_hidden_size"), tr("FFN size"),
           tr("Width of the MLP (intermediate_size)"), f);
    addRow(tr("Vocabulary"), m_vocab, QStringLiteral("model.vocab_size"), tr("vocabulary"),
           tr("Tokens in the vocabulary: the embedding, the output layer and the logits scale "
              "with it"),
           f);
    addRow(QString(), m_tied, QStringLiteral("model.tied_embeddings"), tr("tied embeddings"),
           tr("The output layer reuses the input embedding's weights"), f);
    addRow(tr("MoE experts"), m_experts, QStringLiteral("model.moe.experts"), tr("MoE experts"),
           tr("Routed experts per MoE layer; 0 for a dense model"), f);
    addRow(tr("Experts per token"), m_expertsPerToken,
           QStringLiteral("model.moe.experts_per_token"), tr("experts per token"),
           tr("Experts each token is routed to (top-k)"), f);
    addRow(tr("Shared experts"), m_sharedExperts, QStringLiteral("model.moe.shared_experts"),
           tr("shared experts"), tr("Experts every token passes through besides the routed ones"),
           f);
    addRow(tr("Dense first layers"), m_denseLayers, QStringLiteral("model.moe.dense_layers"),
           tr("dense first layers"),
           tr("Layers at the bottom with a dense MLP instead of experts (DeepSeek's "
              "first_k_dense_replace)"),
           f);
    addRow(tr("Expert load imbalance"), m_imbalance, QStringLiteral("model.moe.imbalance"),
           tr("expert load imbalance"),
           tr("The busiest expert's (or expert-parallel rank's) tokens over the balanced "
              "share (1.0: balanced). It scales what the routed experts keep under "
              "expert parallelism and grouped-GEMM engines."),
           f);
    f->addRow(m_notes);
    form()->addRow(arch);

    connectField(m_layers, [](ModelConfig &m, int v) { resizeLayers(m, v); });
    connectField(m_hidden, [](ModelConfig &m, int v) {
        // A head width that followed the hidden size keeps following it.
        if (m.headDim * m.attentionHeads == m.hiddenSize && v % m.attentionHeads == 0)
            m.headDim = v / m.attentionHeads;
        m.hiddenSize = v;
    });
    connectField(m_heads, [](ModelConfig &m, int v) {
        if (m.hiddenSize % v == 0)
            m.headDim = m.hiddenSize / v;
        m.attentionHeads = v;
    });
    connectField(m_kvHeads, [](ModelConfig &m, int v) { m.kvHeads = v; });
    connectField(m_ffn, [](ModelConfig &m, int v) {
        // A MoE model's box shows the expert width; dense layers (DeepSeek's first ones) keep
        // their own width.
        const bool denseLayers = m.moeLayersIn(0, m.layers) < m.layers;
        if (!m.isMoe() || !denseLayers)
            m.ffnHiddenSize = v;
        if (m.isMoe())
            m.moe.expertFfnHiddenSize = v;
    });
    connectField(m_vocab, [](ModelConfig &m, int v) { m.vocabSize = v; });
    connect(m_tied, &QCheckBox::toggled, this, [this](bool on) {
        request(m_tied, [on](Scenario &s) {
            s.model.preset.clear();
            s.model.tiedEmbeddings = on;
        });
    });
    connect(m_experts, &QSpinBox::valueChanged, this, [this](int v) {
        request(m_experts, [v](Scenario &s) {
            s.model.preset.clear();
            s.model.moe.experts = v;
            if (v > 0 && s.model.moe.expertsPerToken == 0)
                s.model.moe.expertsPerToken = std::min(2, v);
            if (v > 0 && s.model.moe.expertFfnHiddenSize == 0)
                s.model.moe.expertFfnHiddenSize = s.model.ffnHiddenSize;
            if (v == 0)
                s.parallelism.expertParallel = 1;
        });
    });
    connectField(m_expertsPerToken, [](ModelConfig &m, int v) { m.moe.expertsPerToken = v; });
    connectField(m_sharedExperts, [](ModelConfig &m, int v) { m.moe.sharedExperts = v; });
    connectField(m_denseLayers, [](ModelConfig &m, int v) { m.moe.denseLayers = v; });
    // How evenly the router spreads tokens is a property of the run, not of the architecture:
    // the preset stays chosen.
    connect(m_imbalance, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        request(m_imbalance, [v](Scenario &s) { s.model.moe.imbalance = v; });
    });
}

void ModelGroup::connectField(QSpinBox *box, std::function<void(ModelConfig &, int)> set)
{
    connect(box, &QSpinBox::valueChanged, this, [this, box, set](int v) {
        request(box, [set, v](Scenario &s) {
            s.model.preset.clear();
            set(s.model, v);
        });
    });
}

void ModelGroup::display(const Scenario &s)
{
    m_preset->showPreset(s.model.preset);
    m_preset->showCustomName(importedNameOf(s.model));
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
    const QSignalBlocker b(m_imbalance);
    m_imbalance->setValue(s.model.moe.imbalance);
}

void ModelGroup::refreshAvailability(const Scenario &s)
{
    const ModelConfig &m = s.model;
    const QString dense = tr("A dense model has no experts");
    setAvailable(m_expertsPerToken, m.isMoe(), dense);
    setAvailable(m_sharedExperts, m.isMoe(), dense);
    setAvailable(m_denseLayers, m.isMoe(), dense);
    // Without expert parallelism (and without a capacity factor) every routed token stays on
    // this GPU whatever the balance (core routedTokenFactor).
    setAvailable(m_imbalance,
                 m.isMoe() && (s.parallelism.expertParallel > 1 || m.moe.capacityFactor > 0),
                 m.isMoe() ? tr("Applies under expert parallelism (EP > 1): with one rank every "
                                "routed token stays on this GPU, balanced or not")
                           : dense);

    const QStringList notes = architectureNotes(m);
    m_notes->setText(notes.join(QLatin1Char('\n')));
    m_archForm->setRowVisible(m_notes, !notes.isEmpty());
    if (auto *label = qobject_cast<QLabel *>(m_archForm->labelForField(m_ffn)))
        label->setText(m.isMoe() ? tr("Expert FFN size") : tr("FFN size"));
    const bool denseWidth = m.isMoe() && m.moeLayersIn(0, m.layers) < m.layers;
    m_ffn->setToolTip(
        denseWidth  ? tr("Each routed expert's width; the dense layers' is %1").arg(m.ffnHiddenSize)
        : m.isMoe() ? tr("Each routed expert's width (moe_intermediate_size)")
                    : tr("Width of the MLP (intermediate_size)"));
}

} // namespace vramplan::ui
