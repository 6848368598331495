#pragma once
// The names of imported models (issue 21 #21): a model read from a config.json or a checkpoint
// folder has no preset, and would show as "Custom" and be named "8.19 B custom model". The
// scenario file has no field for where a model came from, so the window remembers, for this
// session, the name each imported model was read under; a model whose fields are then edited
// is no longer that model and is custom again.

#include "scenario.h"

#include <QString>

namespace vramplan::ui {

// The name a config or checkpoint folder gives its model: the last part of the config's
// "_name_or_path" ("Qwen/Qwen3-8B" -> "Qwen3-8B"), else the folder's name for a folder, else the
// file's name.
QString importedModelName(const QString &path);

// Remembers `model` as imported under `name`.
void rememberImportedModel(const ModelConfig &model, const QString &name);
// The name `model` was imported under, or empty (a preset, an edited or an unknown model).
QString importedNameOf(const ModelConfig &model);

} // namespace vramplan::ui
