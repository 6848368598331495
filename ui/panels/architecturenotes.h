#pragma once
// What a model's architecture does that no box of the panel shows, one short line each:
// "MLA: kv rank 512 + rope 64, q rank 1536", "21 of 24 layers slide over 128 tokens",
// "Soft-capping: attention 50, logits 30". Empty for a plain dense transformer.

#include "scenario.h"

#include <QStringList>

namespace vramplan::ui {

QStringList architectureNotes(const ModelConfig &model);

} // namespace vramplan::ui
