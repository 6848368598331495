#pragma once
// Scenario files on disk (SPEC §3, *.vramplan.json): read with an error that names the file,
// the field and the problem; written through QSaveFile so that a failed write leaves the old
// file whole.

#include "parsed.h"
#include "scenario.h"

#include <QString>

namespace vramplan::ui {

Parsed<Scenario> readScenarioFile(const QString &path);
// "" on success, else why not ("FILE: No space left on device").
QString writeScenarioFile(const QString &path, const Scenario &scenario);
// Writes bytes through QSaveFile: the old file stays whole if anything fails. "" or why not.
QString writeTextFile(const QString &path, const QByteArray &text);
// The text a scenario is saved as (stable: saving twice gives the same bytes).
QByteArray scenarioFileText(const Scenario &scenario);

// Whether the file is a model's config.json (a JSON object with "model_type", not a scenario):
// opened as a scenario, it is offered for import instead.
bool isModelConfigFile(const QString &path);
// A Hugging Face config.json read into model fields; the error names the file.
Parsed<ModelConfig> readHfConfigFile(const QString &path);
// A local checkpoint folder: its config.json read into a model, with the parameters its
// safetensors headers (or its index) hold (model.checkpoint_parameters).
Parsed<ModelConfig> readCheckpointFolderModel(const QString &path);

} // namespace vramplan::ui
