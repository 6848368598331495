#pragma once
// The model preset picker: a combo box that is also a search field. The drop-down lists every
// preset with its size, grouped under family headers and ordered by size; typing part of a name
// or id ("qwen3", "deepseek", "70b", "moe") narrows a popup to the presets that contain every
// typed word. Down and Enter pick a match, Enter alone takes the first, Escape (or leaving the
// field) puts back the current choice; text that matches nothing changes nothing. The choice
// is reported as QComboBox::currentIndexChanged, like any combo box.

#include "scenario.h"

#include <QComboBox>

#include <optional>
#include <string>
#include <vector>

class QCompleter;
class QStandardItemModel;

namespace vramplan::ui {

class PresetFilter;

// A preset's model as a scenario file naming it would get, or nothing for an unknown id.
std::optional<ModelConfig> presetModel(const std::string &id);

// "8.0 B", "124 M", "1.03 T"; with the active count of a MoE model: "30.5 B, 3.3 B active".
QString presetSizeText(const ModelConfig &model);

class PresetPicker : public QComboBox
{
    Q_OBJECT

public:
    explicit PresetPicker(QWidget *parent = nullptr);

    // Focuses the field with its text selected, ready for typing (Edit > Find Model Preset).
    void startSearch();
    // Shows the preset (empty or unknown: "Custom") without emitting anything.
    void showPreset(const std::string &id);
    // Shows a model of no preset under its name ("Qwen3-8B (imported)"); empty: "Custom".
    void showCustomName(const QString &name);
    // Every preset's total size in billions of parameters (marks for the size slider).
    const std::vector<double> &presetSizes() const { return m_sizes; }
    // The entries the search popup lists for the text typed so far, top to bottom.
    QStringList matches() const;
    QCompleter *search() const { return m_search; }

protected:
    void keyPressEvent(QKeyEvent *event) override;
    void focusInEvent(QFocusEvent *event) override;

private:
    void fill();
    void takeFirstMatch();
    void restoreText();

    QStandardItemModel *m_items;
    PresetFilter *m_filter;
    QCompleter *m_search;
    std::vector<double> m_sizes;
};

} // namespace vramplan::ui
