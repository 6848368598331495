#pragma once
// Scales a model of one family to another size, for the planner's model-size slider: hidden
// width, layers and FFN width grow together (depth and width in the ratio the family's preset
// has), head width and the query/key-value grouping stay as they are.
//
// Example: Llama-2-7B (32 layers, 4096 wide) scaled to 13e9 parameters gives about 39 layers
// of width 5120, within a few percent of the requested count.

#include "scenario.h"

namespace vramplan {

ModelConfig scaleModel(const ModelConfig &base, double targetParameters);

// Sets the layer count; a per-layer plan (layer kinds) repeats its pattern to the new count
// (Qwen3.5's three Gated DeltaNet layers to one of attention stay three to one).
void resizeLayers(ModelConfig &model, int64_t layers);

} // namespace vramplan
