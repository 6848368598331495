#pragma once
// What the files of serving/ share (internal to serving/): the byte units, one pipeline stage's
// layers, what every term of a plan reads, and the terms serving_plan.cpp adds up.

#include "model/model_weights.h"
#include "serving/serving.h"

#include <cstdint>

namespace vramplan {

constexpr double MiB = 1024.0 * 1024.0;
constexpr double GiB = 1024.0 * MiB;

// v rounded up to a multiple of `to` (engine_weights.cpp).
double roundUp(double v, double to);

// The decoder layers of one pipeline stage (the first holds the embedding, the last the head).
struct StageShape
{
    int64_t layers = 0, from = 0;
    bool first = true, last = true;
};

// What every term of one plan reads: the scenario, its model and the engine's settings.
struct ServingContext
{
    const Scenario &s;
    const ModelConfig &m;
    ResolvedServing r;
    double c = 2; // bytes of a weight and activation element (the model dtype)
    double tp = 1, ep = 1;
};

// The weights as the engine stores them on this GPU (engine_weights.cpp): one layer of a kind,
// the embedding and head on the stages that hold them, and the rotary cos/sin cache.
double layerWeightBytes(const ServingContext &x, const WeightList &list, const GpuConfig &gpu);
double globalWeightBytes(const ServingContext &x, const StageShape &st);
double ropeCacheBytes(const ServingContext &x);

// The profiling run's activation peak, the CUDA context and the CUDA graphs
// (profiling_run.cpp).
double activationPeak(const ServingContext &x, double tokens, double rows, bool sampler,
                      bool hfLogits);
double contextBytes(const GpuConfig &gpu);
double cudaGraphBytes(const ServingContext &x, int64_t stageLayers);
double cudaGraphEstimate(const ServingContext &x, int64_t stageLayers);

// Bytes one token takes in one attention layer's KV cache on this GPU (serving_plan.cpp);
// hfCache: transformers' cache (MLA decompressed).
double kvPerTokenPerLayer(const ServingContext &x, bool hfCache);

// A stage of a model with layer kinds (recurrent_state.cpp): how many of its layers keep a full
// KV cache, a sliding-window one, a recurrent state; one token's KV in an attention layer (the
// average over them); one sequence's state in a recurrent layer (the largest) and in all.
struct StageCache
{
    int64_t full = 0, sliding = 0, state = 0;
    double kvPerLayer = 0;
    double statePerLayer = 0;
    double statePerSequence = 0;
};
StageCache stageCache(const ServingContext &x, const StageShape &st, bool hfCache);
double layerStateBytes(const ServingContext &x, Mixer mixer);
// The engine's cache of such a stage from `available` bytes: vLLM's hybrid allocator or SGLang's
// state and KV pools; fills p's blocks, tokens, concurrency and longest request.
void planRecurrentCache(const ServingContext &x, const StageCache &cache, double available,
                        ServingPlan &p);
// The stage's layers by kind, and the vision tower on the first stage, as the engine loads them.
double kindsWeightBytes(const ServingContext &x, const StageShape &st, const GpuConfig &gpu);
double visionWeightBytes(const ServingContext &x, const StageShape &st);

// vLLM V1 keeps what its profiling could not see outside PyTorch: cuBLAS/cuBLASLt workspaces
// and kernels loaded during the profile, and with TP the NCCL communicator and custom
// all-reduce buffers. Published "non_torch_memory" figures: 0.16-0.35 GiB on one GPU
// (H100, RTX 3090), 0.20-0.43 GiB per rank with TP 2-4 (RTX 4090, A100-40GB).
constexpr double nonTorchOneGpu = 0.3 * GiB;
constexpr double nonTorchTensorParallel = 0.1 * GiB;

} // namespace vramplan
