#pragma once
// The tensors one layer saves for backward, as a list (activations.cpp builds it; the stages of
// one estimate share it through StageShared).

#include "static_vector.h"

#include <string_view>

namespace vramplan {

// One tensor a layer saves for backward, per layer, for one micro-batch on this GPU.
struct Saved
{
    std::string_view name;
    std::string_view formula;
    double bytes = 0;       // per layer, for one micro-batch on this GPU
    bool score = false;     // an s^2 attention term (dropped by selective recompute)
    bool keptBySac = false; // kept by torchtitan's per-op selective checkpointing
};

using Inventory = StaticVector<Saved, 64>;

} // namespace vramplan
