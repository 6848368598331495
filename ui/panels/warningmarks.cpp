#include "panels/warningmarks.h"

#include "formats/estimate_json.h"
#include "panels/logslider.h"
#include "serving/serving.h"
#include "training/capabilities.h"

#include <QAbstractButton>
#include <QDoubleSpinBox>
#include <QVariant>
#include <QWidget>

namespace vramplan::ui {
namespace {

constexpr const char *warningProperty = "vramplanWarning";
constexpr const char *plainTipProperty = "vramplanPlainTip";

// The scenario field of the control that sets a knob (the controls' addRow names).
QString knobField(Knob knob)
{
    switch (knob) {
    case Knob::Zero1:
    case Knob::Zero2:
    case Knob::Zero3:
        return QStringLiteral("parallelism.zero_stage");
    case Knob::OffloadOptimizerCpu:
    case Knob::OffloadOptimizerNvme:
        return QStringLiteral("parallelism.offload_optimizer");
    case Knob::OffloadParametersCpu:
    case Knob::OffloadParametersNvme:
        return QStringLiteral("parallelism.offload_parameters");
    case Knob::TensorParallel:
        return QStringLiteral("parallelism.tensor_parallel");
    case Knob::SequenceParallel:
        return QStringLiteral("parallelism.sequence_parallel");
    case Knob::PipelineParallel:
        return QStringLiteral("parallelism.pipeline_parallel");
    case Knob::VirtualPipeline:
        return QStringLiteral("parallelism.virtual_pipeline_parallel");
    case Knob::ContextParallel:
        return QStringLiteral("parallelism.context_parallel");
    case Knob::ExpertParallel:
        return QStringLiteral("parallelism.expert_parallel");
    case Knob::RecomputeSelective:
    case Knob::RecomputeFull:
    case Knob::RecomputePartial:
        return QStringLiteral("training.activation_recompute");
    case Knob::Lora:
    case Knob::Qlora:
        return QStringLiteral("training.finetune.method");
    case Knob::Fp8:
        return QStringLiteral("training.precision");
    case Knob::EightBitOptimizer:
    case Knob::PagedOptimizer:
        return QStringLiteral("training.optimizer");
    case Knob::ChunkedLoss:
    case Knob::FusedLinearLoss:
    case Knob::FusedLoss:
        return QStringLiteral("training.loss");
    case Knob::GroupedGemm:
        return QStringLiteral("training.grouped_gemm");
    case Knob::Compile:
        return QStringLiteral("training.compile");
    case Knob::LigerKernels:
        return QStringLiteral("training.kernels");
    case Knob::PrecisionAwareOptimizer:
    case Knob::LowBitOptimizerStates:
        return QStringLiteral("training.optimizer_precision.exp_avg");
    default: // a knob without a control of its own: the framework's field says it
        break;
    }
    return {};
}

// Where a mark is drawn: a slider's number box, else the control itself.
QWidget *framed(QWidget *control)
{
    if (auto *slider = qobject_cast<LogSlider *>(control))
        return slider->spinBox();
    return control;
}

} // namespace

QStringList warningFields(const Warning &w)
{
    switch (w.code) {
    case WarningCode::EagerScoresLarge:
        return {QStringLiteral("training.attention"), QStringLiteral("training.sequence_length")};
    case WarningCode::ZeroWithoutDataParallel:
        return {QStringLiteral("parallelism.zero_stage")};
    case WarningCode::OffloadParametersNeedsZero3:
        return {QStringLiteral("parallelism.offload_parameters")};
    case WarningCode::SequenceBeyondPositions:
    case WarningCode::ImageTokensBeyondSequence:
        return {QStringLiteral("training.sequence_length")};
    case WarningCode::PagedStatesOutsideAllocator:
    case WarningCode::PagedStatesSpill:
        return {QStringLiteral("training.optimizer")};
    case WarningCode::PipelineStagesUneven:
        return {QStringLiteral("parallelism.pipeline_parallel")};
    case WarningCode::FrameworkLacks: {
        // The knob, and the framework that lacks it: either is the one to change.
        QStringList fields{knobField(static_cast<Knob>(int(w.value)))};
        fields << QStringLiteral("framework");
        fields.removeAll(QString());
        return fields;
    }
    case WarningCode::Float8AllGatherIgnored:
        return {QStringLiteral("parallelism.fsdp_float8_all_gather")};
    case WarningCode::GenericModel:
    case WarningCode::CheckpointDiffers:
    case WarningCode::VisionInputsWithoutTower:
        return {QStringLiteral("model.preset")};
    case WarningCode::DoesNotFit: // the status line's verdict says it
    case WarningCode::Clamped:
    case WarningCode::ServingFails: // the serving group and the status line say it
        return {};
    }
    return {};
}

QList<QPair<QString, QStringList>> warningsByField(const Estimate &e)
{
    QList<QPair<QString, QStringList>> out;
    for (const Warning &w : e.warnings) {
        if (w.code == WarningCode::DoesNotFit || w.code == WarningCode::ServingFails)
            continue;
        out.append({QString::fromStdString(warningText(w)), warningFields(w)});
    }
    return out;
}

void markWarning(QWidget *control, const QString &text)
{
    if (!control)
        return;
    // The tooltip under the warning is what the control says without it (what it does, or why
    // it is disabled), which the groups may have set again since the last mark.
    const QString prefix = QStringLiteral("\u26a0 ");
    const QString current = control->toolTip();
    if (!current.startsWith(prefix))
        control->setProperty(plainTipProperty, current);
    const QString plain = control->property(plainTipProperty).toString();
    const bool was = !warningOf(control).isEmpty();
    control->setProperty(warningProperty, text);
    control->setToolTip(text.isEmpty() ? plain
                                       : prefix + text +
                                             (plain.isEmpty() ? QString()
                                                              : QStringLiteral("\n\n") + plain));
    if (text.isEmpty() == !was)
        return; // the frame is already right; a style sheet set again re-polishes the widget
    // An amber frame (a check box: its text), the colour of a caution, distinct from the red
    // of a refused value.
    QWidget *target = framed(control);
    const bool button = qobject_cast<QAbstractButton *>(target) != nullptr;
    target->setStyleSheet(text.isEmpty() ? QString()
                          : button       ? QStringLiteral("color: #b26a00")
                                         : QStringLiteral("border: 2px solid #e08a00"));
}

QString warningOf(const QWidget *control)
{
    return control ? control->property(warningProperty).toString() : QString();
}

} // namespace vramplan::ui
