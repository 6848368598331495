#pragma once
// What the activation inventory (activations.cpp) and the logits and loss terms
// (logits_loss.cpp) share: the per-GPU sizes of one micro-batch.

#include "estimate_context.h"

namespace vramplan {

// Sizes of one micro-batch on this GPU, with tensor, sequence and context parallelism applied.
struct Dims
{
    double tokens, scores; // per micro-batch on this GPU: b*s/cp and b*a*s*s/(tp*cp)
    double tp, outsideDiv; // outsideDiv: tp under sequence parallelism, else 1
    double h, qWidth, kvSavedWidth, kvWidth, ffn; // per-GPU widths (TP applied)
    double c, normIn; // activation bytes; bytes of what a norm saves of its input
};

// Whether torch's SDPA runs its math path, keeping the b*a*s^2 probabilities (activations.cpp).
bool sdpaMathPath(const StageContext &c);

// The final norm's input, the logits and the loss of the last stage, and the evaluation phases
// of frameworks that have them (logits_loss.cpp).
void addLogitsAndLoss(const StageContext &c, const Dims &d, ItemSink &out);

} // namespace vramplan
