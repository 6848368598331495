#pragma once
// How long one optimizer step takes, roughly: what the advisor prices each memory-saving
// change in. A roofline of the step's matmul FLOPs against the GPU's dense 16-bit peak at an
// assumed model-FLOPs utilisation, plus the communication and offload traffic that the layout
// cannot hide behind compute, and the pipeline bubble. docs/step_time.md derives every term and
// compares the absolute figures with published throughput.

#include "scenario.h"

#include <string>

namespace vramplan {

struct StepTimeOptions
{
    // Model-FLOPs utilisation of the matmuls: the share of the dense peak the kernels reach.
    // 0.40 is about what the published Llama/Megatron/torchtitan runs report on H100s.
    double mfu = 0.40;
};

// What a GPU offers the step: dense 16-bit tensor throughput, links between GPUs of one node
// and to the host (GB/s in one direction), and the network between nodes.
struct GpuThroughput
{
    double tflops = 0;      // dense bf16 (fp16 where the GPU has no bf16)
    double fp8Tflops = 0;   // dense fp8 (0: the GPU has none)
    double memoryGBs = 0;   // HBM / GDDR bandwidth
    double nodeLinkGBs = 0; // NVLink / Infinity Fabric, or PCIe where that is all there is
    double hostLinkGBs = 0; // PCIe to the CPU, for offload
    int gpusPerNode = 8;
};

// The scenario's GPU as the catalog describes it (custom GPUs take their architecture's class).
GpuThroughput gpuThroughput(const Scenario &s);

struct StepTime
{
    double seconds = 0;         // one optimizer step over the global batch
    double computeSeconds = 0;  // matmuls and attention at the assumed MFU
    double exposedCommSeconds = 0; // collectives that compute does not hide
    double offloadSeconds = 0;  // host / NVMe traffic and the CPU optimizer step
    double bubbleFraction = 0;  // pipeline idle share of the step
    double tokens = 0;          // tokens in the global batch
    double flopsPerToken = 0;   // model FLOPs (forward + backward, + recomputation)
};

StepTime stepTime(const Scenario &s, const StepTimeOptions &options = {});

} // namespace vramplan
