// The model load before the first step (Phase::Initialisation), where a framework's loading path
// holds more than the weights it leaves behind: the estimate's peak is then whichever is higher,
// the load or the step (SPEC §2 "peak"). Only loading paths read in the frameworks' code are
// modelled; the others load shard by shard from host memory and peak at their final weights.

#include "training/stage_context.h"

#include <algorithm>

namespace vramplan {
namespace {

// Elements of the largest matrix the base quantises to 4 bits, on this GPU: the layer kinds'
// state sums, which addModelStates has made ready for every kind on the stage.
double largestQuantisedMatrix(const StageContext &c)
{
    double largest = 0;
    for (const auto &group : c.layerGroups())
        if (group.count > 0)
            largest = std::max(largest, c.shared->states[group.slot].largestQuantised);
    return largest;
}

} // namespace

void addInitialisation(const StageContext &c, ItemSink &out)
{
    const bool torchtuneNf4 = c.s.framework == Framework::Torchtune && c.qlora &&
                              c.s.frameworkVersion.given && !c.s.frameworkVersion.atLeast(0, 2);
    if (torchtuneNf4) {
        // torchtune 0.1 builds the QLoRA model on the GPU and quantises every base weight with
        // torchao 0.1's NF4Tensor.from_tensor, twice (the random initial weight, then the
        // checkpoint's in load_state_dict). Its nearest-code search compares the whole flattened
        // weight with the 16 NF4 levels at once: (value.unsqueeze(-1) - nf4).abs() holds two
        // n x 16 bf16 tensors beside the 16-bit source and its scaled copy
        // (torchao/dtypes/nf4tensor.py convert_to_norm_float_weight, quantize_tensor_nearest).
        // Later releases are not taken to have this transient until measured.
        out.add(Component::Temporary, "NF4 quantisation of one weight at load (torchao 0.1)",
                "largest 4-bit matrix * (2 + 2 + 2 * 16 * 2) bytes",
                "torchao 0.1 NF4Tensor.quantize_tensor_nearest; torchtune 0.1 QLoRA recipe",
                largestQuantisedMatrix(c) * 68, 1, initialisationPhase);
    }
}

} // namespace vramplan
