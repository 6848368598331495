// What a training process allocates whatever the model's size: the GEMM libraries' workspaces.
// torch and Transformer Engine take them from the caching allocator the first time a thread runs
// a GEMM and keep them, so they count in max_memory_allocated on every step after the first
// (docs/accuracy.md, "What is modelled"; the fixed buffers read and left out are under "What is
// not modelled").

#include "training/model_states.h"

namespace vramplan {
namespace {

constexpr double MiB = 1024.0 * 1024.0;

// The release of torch a scenario ran with: its framework_version where the framework is plain
// PyTorch; elsewhere the release is not stated, and the current one is meant (as for
// FrameworkVersion itself).
FrameworkVersion torchRelease(const Scenario &s)
{
    return s.framework == Framework::Pytorch ? s.frameworkVersion : FrameworkVersion{};
}

bool amd(const std::string &architecture)
{
    return architecture.rfind("cdna", 0) == 0;
}

struct Workspace
{
    double bytes = 0;
    std::string_view formula;
};

// One cuBLAS (hipBLAS) workspace of ATen, as parseChosenWorkspaceSize sizes it without
// CUBLAS_WORKSPACE_CONFIG (aten/src/ATen/cuda/CublasHandlePool.cpp):
// - torch 2.0 (pytorch#89027/#91564, Jan 2023) allocates it from the caching allocator,
//   ":4096:2:16:8" (2 x 4 MiB + 8 x 16 KiB) by default and 32 MiB on sm90 (major 9, minor 0:
//   H100, H200, GH200, H20). Before 2.0 cuBLAS kept its own pool outside the allocator.
// - pytorch#175344 (2026-02-19) gives Blackwell (majors 10 and 12) the 32 MiB too; 2.12 is the
//   first release certainly cut after it.
// - ROCm: hipBLAS's workspace from the allocator since pytorch#138791 (Oct 2024, torch 2.6):
//   32 MiB, 128 MiB on MI300 (gfx94x, CDNA3). rocBLAS kept its own before.
Workspace torchBlasWorkspace(const Scenario &s)
{
    const FrameworkVersion torch = torchRelease(s);
    const std::string &arch = s.gpu.architecture;
    if (amd(arch)) {
        if (!torch.atLeast(2, 6))
            return {};
        if (arch == "cdna3")
            return {128 * MiB, "128 MiB (MI300, gfx94x) per thread that runs GEMMs"};
        return {32 * MiB, "32 MiB (ROCm) per thread that runs GEMMs"};
    }
    if (!torch.atLeast(2, 0))
        return {};
    if (arch == "hopper" || (arch == "blackwell" && torch.atLeast(2, 12)))
        return {32 * MiB, "32 MiB (Hopper, sm90) per thread that runs GEMMs"};
    return {2 * 4 * MiB + 8 * 16 * 1024.0,
            "2 x 4 MiB + 8 x 16 KiB (:4096:2:16:8) per thread that runs GEMMs"};
}

// Transformer Engine's one cuBLASLt workspace of the process (lru_cache'd per device), for
// every TE GEMM of forward and backward: get_cublas_workspace_size_bytes, 32 MiB + 1 KiB (NVFP4
// scales) where the compute capability's major is 9 or more, 4 MiB otherwise
// (transformer_engine/pytorch/cpp_extensions/gemm.py, v2.8+; 32 MiB exactly in
// module/base.py get_workspace up to v2.7). Megatron-core builds its layers from TE modules by
// default (transformer_config.py transformer_impl = "transformer_engine", d98e8a64); the
// scenario cannot say `local`. A grouped GEMM (training.grouped_gemm) takes one more per
// compute stream (below); Userbuffers' three (--tp-comm-overlap) cannot be stated. The ROCm
// fork of TE is another code base.
Workspace teWorkspace(const Scenario &s)
{
    const std::string &arch = s.gpu.architecture;
    if (s.framework != Framework::Megatron || amd(arch))
        return {};
    if (arch == "hopper" || arch == "blackwell")
        return {32 * MiB + 1024, "32 MiB + 1 KiB (compute capability 9 and later)"};
    return {4 * MiB, "4 MiB (before compute capability 9)"};
}

} // namespace

void addProcessBuffers(const StageContext &c, ItemSink &out)
{
    constexpr auto F = Component::Framework;
    // One workspace per (handle, stream): handles are per thread (DeviceThreadHandlePool), and
    // a training step runs GEMMs on two threads on the same stream, the main one (forward, the
    // optimizer step) and autograd's device thread (backward, recomputation included). Both
    // stay allocated from the first step on, evaluation passes included.
    const Workspace torch = torchBlasWorkspace(c.s);
    out.add(F, "cuBLAS workspaces (main thread and autograd's backward thread)", torch.formula,
            "torch aten/src/ATen/cuda/CublasHandlePool.cpp getChosenWorkspaceSize (2.0+)",
            torch.bytes, 2, allPhases);
    const Workspace te = teWorkspace(c.s);
    out.add(F, "Transformer Engine cuBLAS workspace", te.formula,
            "TransformerEngine pytorch/cpp_extensions/gemm.py get_cublas_workspace (v2.8+)",
            te.bytes, 1, allPhases);
    // Megatron's --moe-grouped-gemm runs the experts through TE's GroupedLinear, whose GEMMs
    // spread over the library's compute streams, each with a workspace of the same size, cached
    // apart from the one above (get_cublas_workspace(device, ub, grouped_gemm) is lru_cache'd;
    // common/util/multi_stream.cpp: num_compute_streams = 4).
    if (c.s.training.groupedGemm && c.m.isMoe())
        out.add(F, "Transformer Engine grouped-GEMM workspaces (one per compute stream)",
                "4 compute streams x the workspace above",
                "TransformerEngine pytorch/cpp_extensions/gemm.py get_cublas_workspace "
                "(grouped_gemm); common/util/multi_stream.cpp",
                te.bytes, 4, allPhases);
}

} // namespace vramplan
