#pragma once
// A scenario's name made from its settings, in the style of the bundled scenarios:
// "Llama-3.1-8B, full fine-tune, bf16 mixed, AdamW, 1 x H100-80GB",
// "Qwen3-30B-A3B, LoRA on all linear layers, 8k context, full recompute, bf16 mixed, AdamW,
// 1 x H100-80GB". A name follows the settings (every edit renames the scenario) until the user
// gives it another one.

#include "scenario.h"

#include <QString>

namespace vramplan::ui {

// In the window's language (the bundled scenarios' names are the English ones).
QString generatedName(const Scenario &scenario);

// "Llama 3.1 8B" -> "Llama-3.1-8B", "GPT-2 (124M)" -> "GPT-2": the model's preset name up to
// any parenthesis or comma, as a model id is written; empty for a model of no preset.
QString presetModelId(const ModelConfig &model);

// The name the window shows: the generated one (in the window's language) while the name follows
// the settings, else the scenario's own.
QString shownName(const Scenario &scenario);

// The file Save As proposes: the scenario's name (or the generated one) as a file system takes
// it, letters and digits kept, the rest one dash: "Qwen3-8B: 8k / 4 x A100" ->
// "Qwen3-8B-8k-4-x-A100.vramplan.json"; "scenario.vramplan.json" when nothing is left.
QString scenarioFileName(const Scenario &scenario);

// Whether the scenario's name is the one its settings make (or none at all), in the window's
// language or in English: then edits keep it in step with the settings.
bool followsSettings(const Scenario &scenario);

// `after`, renamed from its settings when `before` was named from its own and the edit did not
// change the name itself.
Scenario withFollowingName(const Scenario &before, Scenario after);

} // namespace vramplan::ui
