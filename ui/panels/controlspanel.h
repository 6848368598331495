#pragma once
// Every knob of a scenario, grouped: the name, the model, batch and sequence, mode, precision
// and optimizer, the inference server, post-training with a rollout engine (RL), memory savers,
// parallelism, the GPU (one ControlGroup each). The panel
// computes nothing: it shows a scenario, and when the user turns a knob it emits the edited
// scenario, already checked for consistency, with the step's name. An edit that would make the
// scenario inconsistent is refused, saying which value of which control and why. Knobs that
// cannot apply are disabled with a tooltip that says why. A mouse wheel over a control not
// clicked into scrolls the panel (wheelguard.h).

#include "charts/units.h"
#include "panels/controlgroup.h"
#include "scenario.h"

#include <QHash>
#include <QWidget>

#include <vector>

namespace vramplan {
struct Estimate;
}

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;

namespace vramplan::ui {

class BatchGroup;
class GpuGroup;
class LogSlider;
class ModelGroup;
class NameGroup;
class ParallelGroup;
class PresetPicker;
class RlGroup;
class SaversGroup;
class ServingGroup;
class StackGroup;
class TrainingGroup;

class ControlsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ControlsPanel(QWidget *parent = nullptr);

    // Shows a scenario without emitting anything.
    void setScenario(const Scenario &scenario);
    const Scenario &scenario() const { return m_scenario; }

    // For tests and the window: the controls by what they edit.
    QLineEdit *nameField() const;
    LogSlider *microBatch() const;
    LogSlider *sequenceLength() const;
    LogSlider *gpuCount() const;
    LogSlider *modelSize() const;
    QComboBox *presetBox() const;
    PresetPicker *presetPicker() const;
    QDoubleSpinBox *imbalanceBox() const;
    // Facts of the architecture no box shows (MLA ranks, sliding windows, soft-capping, ...);
    // hidden when there are none.
    QLabel *architectureSummary() const;
    QComboBox *gpuBox() const;
    QComboBox *zeroBox() const;
    QComboBox *tensorParallelBox() const;
    QComboBox *modeBox() const;
    QComboBox *recomputeBox() const;
    QComboBox *finetuneBox() const;
    QComboBox *precisionBox() const;
    QComboBox *optimizerBox() const;
    QComboBox *attentionBox() const;
    ServingGroup *servingGroup() const { return m_serving; }
    StackGroup *stackGroup() const { return m_stack; }
    RlGroup *rlGroup() const { return m_rl; }
    QWidget *controlFor(const QString &field) const; // "training.gradient_accumulation_steps"
    void setUnit(Unit unit); // sizes in the controls (the GPU's memory)
    // The estimate's warnings on the controls they concern (warningmarks.h), until the next.
    void showWarnings(const vramplan::Estimate &estimate);
    const std::vector<ControlGroup *> &groups() const { return m_groups; }

signals:
    // A consistent scenario after one user action, and the step's name ("Change micro-batch");
    // `dragging` while a slider is held, so that a drag can be merged into one undo step.
    void edited(const vramplan::Scenario &scenario, bool dragging, const QString &what);
    // An edit that would make the scenario inconsistent was refused: what and why ("Attention
    // heads 7 refused: model.kv_heads: 8 does not divide attention_heads 7"), and the control
    // it was made on.
    void refused(const QString &reason, QWidget *control);
    // An edit did more than the control shows: what else it changed ("Size 70.00 B scaled the
    // model: layers 32 -> 80, ..."), said on the control.
    void noted(const QString &what, QWidget *control);

private:
    void apply(QWidget *control, const ControlGroup::Edit &edit, bool dragging);
    void refreshAvailability();
    void applyWarnings();
    // Text refused in a line edit stays there, marked, until corrected or replaced.
    void keepRefusedText(QWidget *control, const QString &reason);

    Scenario m_scenario;
    QHash<QString, QString> m_warnings; // field -> the warnings on it, one a line
    bool m_updating = false;
    std::vector<ControlGroup *> m_groups;
    NameGroup *m_name;
    ModelGroup *m_model;
    BatchGroup *m_batch;
    TrainingGroup *m_training;
    StackGroup *m_stack;
    ServingGroup *m_serving;
    RlGroup *m_rl;
    SaversGroup *m_savers;
    ParallelGroup *m_parallel;
    GpuGroup *m_gpu;
};

// What a control shows, as the user sees it: "7", "bf16_mixed", "8192", "on".
QString shownValue(const QWidget *control);

} // namespace vramplan::ui
