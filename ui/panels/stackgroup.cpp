#include "panels/stackgroup.h"

#include "training/capabilities.h"
#include "panels/formcontrols.h"
#include "formats/scenario_json.h"

#include <QCheckBox>
#include <QLineEdit>
#include <QSignalBlocker>

namespace vramplan::ui {

StackGroup::StackGroup(QWidget *parent)
    : ControlGroup(tr("Training stack"), parent), m_compile(new QCheckBox(tr("torch.compile"))),
      m_compileLoss(new QCheckBox(tr("Loss compiled too"))), m_kernels(new QComboBox),
      m_loss(new QComboBox), m_loop(new QComboBox), m_version(new QLineEdit),
      m_float8Gather(new QCheckBox(tr("Float8 all-gather"))),
      m_groupedGemm(new QCheckBox(tr("Experts as one grouped GEMM")))
{
    fillEnum<LossKind>(
        m_loss, {{LossKind::Standard, tr("The framework's own cross-entropy")},
                 {LossKind::Chunked, tr("Cross-entropy over chunks of the sequence (torchtune)")},
                 {LossKind::FusedLinear, tr("Head and cross-entropy fused: the full logits never "
                                            "exist (Liger, Cut Cross-Entropy, Unsloth)")},
                 {LossKind::Fused, tr("Fused cross-entropy kernel over the full logits "
                                      "(Megatron --cross-entropy-loss-fusion)")}});
    fillEnum<Kernels>(
        m_kernels, {{Kernels::None, tr("The model's own PyTorch ops")},
                    {Kernels::Liger, tr("Liger-Kernel's fused RMSNorm, SwiGLU/GeGLU and RoPE")}});
    fillEnum<TrainingLoop>(
        m_loop, {{TrainingLoop::Custom, tr("A loop that holds the model's outputs until backward")},
                 {TrainingLoop::Trainer, tr("HF Trainer, TRL, Axolotl, LLaMA-Factory: the returned "
                                            "logits are freed before backward")}});
    m_version->setPlaceholderText(tr("current release"));
    m_version->setClearButtonEnabled(true);
    addRow(tr("Compile"), m_compile, QStringLiteral("training.compile"), tr("compile"),
           tr("The step runs under torch.compile: elementwise ops are recomputed in backward, "
              "only matmul and attention outputs are kept"));
    addRow(QString(), m_compileLoss, QStringLiteral("training.compile_loss"), tr("loss compile"),
           tr("Whether the loss is compiled with the model (torchtitan's compile.components)"));
    addRow(tr("Kernels"), m_kernels, QStringLiteral("training.kernels"), tr("kernels"),
           tr("Fused kernels patched into the model; each choice's tooltip says which"));
    addRow(tr("Loss"), m_loss, QStringLiteral("training.loss"), tr("loss"),
           tr("How the logits and the cross-entropy are computed; each choice's tooltip says how"));
    addRow(tr("Loop"), m_loop, QStringLiteral("training.loop"), tr("training loop"),
           tr("What drives the step with Hugging Face models"));
    addRow(tr("FSDP"), m_float8Gather, QStringLiteral("parallelism.fsdp_float8_all_gather"),
           tr("float8 all-gather"),
           tr("FSDP2 all-gathers the linear weights in float8, 1 byte each (torchao; torchtitan's "
              "float8.enable_fsdp_float8_all_gather)"));
    addRow(tr("MoE"), m_groupedGemm, QStringLiteral("training.grouped_gemm"), tr("grouped GEMM"),
           tr("Megatron runs a MoE layer's experts through Transformer Engine's GroupedLinear "
              "(--moe-grouped-gemm), with four more cuBLAS workspaces"));
    addRow(tr("Release"), m_version, QStringLiteral("framework_version"), tr("framework release"),
           tr("The framework's release (\"4.57\") where its memory behaviour changed between "
              "releases; empty means the current one"));
    connect(m_compile, &QCheckBox::toggled, this, [this](bool on) {
        request(m_compile, [on](Scenario &s) { s.training.compile = on; });
    });
    connect(m_compileLoss, &QCheckBox::toggled, this, [this](bool on) {
        request(m_compileLoss, [on](Scenario &s) { s.training.compileLoss = on; });
    });
    connect(m_float8Gather, &QCheckBox::toggled, this, [this](bool on) {
        request(m_float8Gather, [on](Scenario &s) { s.parallelism.fsdpFloat8AllGather = on; });
    });
    connect(m_groupedGemm, &QCheckBox::toggled, this, [this](bool on) {
        request(m_groupedGemm, [on](Scenario &s) { s.training.groupedGemm = on; });
    });
    connect(m_kernels, &QComboBox::currentIndexChanged, this, [this] {
        request(m_kernels,
                [k = enumAt<Kernels>(m_kernels)](Scenario &s) { s.training.kernels = k; });
    });
    connect(m_loss, &QComboBox::currentIndexChanged, this, [this] {
        request(m_loss, [l = enumAt<LossKind>(m_loss)](Scenario &s) { s.training.loss = l; });
    });
    connect(m_loop, &QComboBox::currentIndexChanged, this, [this] {
        request(m_loop, [l = enumAt<TrainingLoop>(m_loop)](Scenario &s) { s.training.loop = l; });
    });
    connect(m_version, &QLineEdit::editingFinished, this, &StackGroup::requestVersion);
}

// The release goes through the scenario parser, so the window accepts exactly what a file may
// say; text it refuses becomes a version checkScenario refuses, and the refusal reaches the field
// like any other.
void StackGroup::requestVersion()
{
    const std::string text = m_version->text().trimmed().toStdString();
    request(m_version, [text](Scenario &s) {
        s.frameworkVersion = releaseOrRefused(text, toString(s.framework), "framework_version");
    });
}

void StackGroup::display(const Scenario &s)
{
    const auto &t = s.training;
    {
        const QSignalBlocker a(m_compile), b(m_compileLoss), c(m_float8Gather), d(m_groupedGemm);
        m_groupedGemm->setChecked(t.groupedGemm);
        m_compile->setChecked(t.compile);
        m_compileLoss->setChecked(t.compileLoss);
        m_float8Gather->setChecked(s.parallelism.fsdpFloat8AllGather);
    }
    showEnum(m_kernels, t.kernels);
    showEnum(m_loss, t.loss);
    showEnum(m_loop, t.loop);
    const QSignalBlocker blocker(m_version);
    m_version->setText(s.frameworkVersion.given
                           ? QString::fromStdString(frameworkVersionText(s.frameworkVersion))
                           : QString());
}

void StackGroup::refreshAvailability(const Scenario &s)
{
    const bool training = s.training.mode == Mode::Train;
    const QString inference = tr("Applies to training only (the mode is inference)");
    for (QWidget *w : {static_cast<QWidget *>(m_compile), static_cast<QWidget *>(m_kernels),
                       static_cast<QWidget *>(m_loss), static_cast<QWidget *>(m_loop)})
        setAvailable(w, training, inference);
    // A serving engine has a Release of its own (the serving group's); without one, inference
    // is transformers' forward pass, whose release still matters.
    const bool engine = !training && s.serving.present;
    setAvailable(m_version, !engine,
                 tr("An engine serves the model: its release is the serving group's"));
    setAvailable(m_compileLoss, training && s.training.compile,
                 training ? tr("Applies when the step is compiled") : inference);
    // Kept available while ticked, so that a flag the scenario no longer uses can be cleared.
    setAvailable(m_float8Gather,
                 fsdpFloat8AllGatherApplies(s) || s.parallelism.fsdpFloat8AllGather,
                 training ? tr("Applies to fp8 mixed precision under FSDP2 full shard (ZeRO "
                               "stage 3 over more than one data-parallel rank)")
                          : inference);
    setAvailable(m_groupedGemm,
                 (training && s.framework == Framework::Megatron && s.model.isMoe()) ||
                     s.training.groupedGemm,
                 training ? tr("Applies to MoE models under Megatron") : inference);
}

} // namespace vramplan::ui
