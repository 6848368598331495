#pragma once
// Every knob of a scenario, grouped: model, batch and sequence, mode, precision and optimizer,
// memory savers, parallelism, GPU. The panel computes nothing: it shows a scenario, and when
// the user turns a knob it emits the edited scenario (already checked for consistency). Knobs
// that cannot apply are disabled with a tooltip that says why.

#include "scenario.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace vramplan::ui {

class LogSlider;
class PresetPicker;

class ControlsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ControlsPanel(QWidget *parent = nullptr);

    // Shows a scenario without emitting anything.
    void setScenario(const Scenario &scenario);
    const Scenario &scenario() const { return m_scenario; }

    // For tests and the window: the controls by the scenario field they edit.
    LogSlider *microBatch() const { return m_microBatch; }
    LogSlider *sequenceLength() const { return m_sequence; }
    LogSlider *gpuCount() const { return m_gpus; }
    LogSlider *modelSize() const { return m_modelSize; }
    QComboBox *presetBox() const;
    PresetPicker *presetPicker() const { return m_preset; }
    QDoubleSpinBox *imbalanceBox() const { return m_imbalance; }
    // Facts of the architecture no box shows (MLA ranks, sliding windows, soft-capping, ...);
    // hidden when there are none.
    QLabel *architectureSummary() const { return m_notes; }
    QComboBox *gpuBox() const { return m_gpu; }
    QComboBox *zeroBox() const { return m_zero; }
    QComboBox *tensorParallelBox() const { return m_tp; }
    QComboBox *modeBox() const { return m_mode; }
    QComboBox *recomputeBox() const { return m_recompute; }
    QComboBox *finetuneBox() const { return m_finetune; }
    QComboBox *precisionBox() const { return m_precision; }
    QComboBox *optimizerBox() const { return m_optimizer; }
    QComboBox *attentionBox() const { return m_attention; }
    QWidget *controlFor(const QString &field) const; // "training.gradient_accumulation_steps"

signals:
    // A consistent scenario after one user action; `dragging` while a slider is held, so
    // that a drag can be merged into one undo step.
    void edited(const vramplan::Scenario &scenario, bool dragging);
    // An edit that would make the scenario inconsistent was refused: the reason, for the
    // status bar ("parallelism.tensor_parallel: 3 does not divide the 32 attention heads").
    void refused(const QString &reason);

private:
    void build();
    QGroupBox *buildModelGroup();
    QGroupBox *buildBatchGroup();
    QGroupBox *buildTrainingGroup();
    QGroupBox *buildSaversGroup();
    QGroupBox *buildParallelGroup();
    QGroupBox *buildGpuGroup();
    void refreshAvailability();
    void refreshModelDetails();
    // Applies an edit to a copy; emits it when consistent, otherwise restores the controls.
    template <typename Edit> void apply(Edit edit, bool dragging = false);

    Scenario m_scenario;
    bool m_updating = false;

    PresetPicker *m_preset = nullptr;
    LogSlider *m_modelSize = nullptr;
    QSpinBox *m_layers = nullptr, *m_hidden = nullptr, *m_heads = nullptr, *m_kvHeads = nullptr,
             *m_ffn = nullptr, *m_vocab = nullptr, *m_experts = nullptr,
             *m_expertsPerToken = nullptr, *m_sharedExperts = nullptr, *m_denseLayers = nullptr;
    QDoubleSpinBox *m_imbalance = nullptr;
    QCheckBox *m_tied = nullptr;
    QFormLayout *m_archForm = nullptr;
    QLabel *m_notes = nullptr;

    LogSlider *m_microBatch = nullptr, *m_sequence = nullptr, *m_accumulation = nullptr;

    QComboBox *m_mode = nullptr, *m_precision = nullptr, *m_optimizer = nullptr,
              *m_framework = nullptr;

    QComboBox *m_zero = nullptr, *m_offloadOptimizer = nullptr, *m_offloadParameters = nullptr,
              *m_recompute = nullptr, *m_attention = nullptr, *m_finetune = nullptr,
              *m_baseBits = nullptr;
    QSpinBox *m_recomputeLayers = nullptr, *m_loraRank = nullptr;
    QLineEdit *m_loraTargets = nullptr;

    LogSlider *m_gpus = nullptr;
    QComboBox *m_tp = nullptr;
    QSpinBox *m_pp = nullptr, *m_vpp = nullptr, *m_cp = nullptr, *m_ep = nullptr;
    QCheckBox *m_sp = nullptr;

    QComboBox *m_gpu = nullptr;
    QDoubleSpinBox *m_capacity = nullptr;
};

} // namespace vramplan::ui
