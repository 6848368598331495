#pragma once
// The model: a preset found by typing part of its name, a size slider that scales the family,
// and the architecture field by field (layers, widths, heads, vocabulary, experts), with a
// summary of what no box shows (MLA, windows, soft-capping). Editing a field makes the model
// custom; the expert load imbalance, a property of the run, keeps the preset.

#include "panels/controlgroup.h"

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace vramplan::ui {

class LogSlider;
class PresetPicker;

// What scaling `before` to `after` changed of the architecture, for the user to read:
// "scaled the architecture: layers 32 -> 80, hidden size 4096 -> 8192 (one undo step)"; empty
// when no field changed.
QString scaledModelNote(const ModelConfig &before, const ModelConfig &after);

class ModelGroup : public ControlGroup
{
    Q_OBJECT

public:
    explicit ModelGroup(QWidget *parent = nullptr);

    void refreshAvailability(const Scenario &scenario) override;

    PresetPicker *presetPicker() const { return m_preset; }
    LogSlider *modelSize() const { return m_modelSize; }
    QDoubleSpinBox *imbalanceBox() const { return m_imbalance; }
    QLabel *architectureSummary() const { return m_notes; }

protected:
    void display(const Scenario &scenario) override;

private:
    void buildArchitecture();
    // A field of the architecture: the edit makes the model custom.
    void connectField(QSpinBox *box, std::function<void(ModelConfig &, int)> set);

    PresetPicker *m_preset;
    LogSlider *m_modelSize;
    QSpinBox *m_layers = nullptr, *m_hidden = nullptr, *m_heads = nullptr, *m_kvHeads = nullptr,
             *m_ffn = nullptr, *m_vocab = nullptr, *m_experts = nullptr,
             *m_expertsPerToken = nullptr, *m_sharedExperts = nullptr, *m_denseLayers = nullptr;
    QDoubleSpinBox *m_imbalance = nullptr;
    QCheckBox *m_tied = nullptr;
    class QFormLayout *m_archForm = nullptr;
    QLabel *m_notes = nullptr;
};

} // namespace vramplan::ui
