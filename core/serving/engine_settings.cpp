// The settings an engine runs with once its defaults are filled in, and the total CUDA reports
// for a GPU. Each default names the engine file it follows (docs/serving.md).

#include "serving/serving_terms.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <string_view>

namespace vramplan {
namespace {

bool largeGpu(const GpuConfig &gpu, double total)
{
    // vllm/engine/arg_utils.py get_batch_defaults: GPUs of >= 70 GiB other than the A100 get
    // the larger batch defaults (PR #17885: the A100 loses throughput with them).
    std::string name = gpu.name + " " + gpu.preset;
    for (char &ch : name)
        ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return total >= 70 * GiB && name.find("a100") == std::string::npos;
}

} // namespace

double cudaTotalBytes(const GpuConfig &gpu)
{
    // torch.cuda.mem_get_info()'s total, as vLLM logs it (total_gpu_memory) or PyTorch's
    // out-of-memory message prints it ("... GiB total capacity"), for the catalog's cards.
    struct Known
    {
        std::string_view preset;
        double gib;
        std::string_view source;
    };
    static constexpr Known known[] = {
        {"rtx-3090", 23.58, "vLLM issue #10517 and PR #14447 logs: total_gpu_memory=23.58GiB"},
        {"h100-80gb", 79.22, "vLLM PRs #10511, #12126 logs: total_gpu_memory 79.22GiB"},
        {"a100-40gb", 39.38, "vLLM issue #16570 log: total_gpu_memory (39.38GiB)"},
        {"a100-80gb", 79.15, "PyTorch OOM messages on A100-SXM4-80GB: 79.15 GiB total capacity"},
        // The export variants carry the same memory as the cards they derive from (nvidia-smi
        // reports 81920 and 81559 MiB alike: tests/data/gpu_specs.json).
        {"a800-80gb", 79.15, "as A100-SXM4-80GB (the same 81920 MiB)"},
        {"h800-80gb", 79.22, "as H100 80GB HBM3 (the same 81559 MiB)"},
        {"t4-16gb", 14.75, "PyTorch OOM messages on Tesla T4: 14.75 GiB total capacity"},
        {"a10g-24gb", 22.19, "PyTorch OOM messages on A10G: 22.19 GiB total capacity"},
        {"v100-16gb", 15.78, "PyTorch OOM messages on V100-SXM2-16GB: 15.78 GiB total capacity"},
    };
    const double smi = std::max(0.0, gpu.memoryGiB) * GiB;
    for (const auto &k : known)
        if (k.preset == gpu.preset && std::abs(smi - k.gib * GiB) < 2 * GiB)
            return k.gib * GiB;
    // Elsewhere: nvidia-smi's total less the median of the differences above (0.43 GiB).
    return std::max(0.0, smi - 0.43 * GiB);
}

ResolvedServing resolveServing(const Scenario &s)
{
    const ServingConfig &in = s.serving;
    ResolvedServing r;
    r.engine = in.engine;
    const double total = cudaTotalBytes(s.gpu);
    const int64_t tp = std::max<int64_t>(1, s.parallelism.tensorParallel);
    const double dtype = s.training.precision == Precision::Fp32 ? 4.0 : 2.0;
    r.kvElementBytes = in.kvCacheDtype == KvCacheDtype::Fp8 ? 1.0 : dtype;
    r.maxModelLen = in.maxModelLen > 0 ? in.maxModelLen : std::max<int64_t>(1, s.model.maxPositions);
    switch (in.engine) {
    case ServingEngine::Vllm: {
        const bool large = largeGpu(s.gpu, total);
        r.utilization = in.gpuMemoryUtilization > 0 ? in.gpuMemoryUtilization : 0.9;
        r.maxNumSeqs = in.maxNumSeqs > 0 ? in.maxNumSeqs : (large ? 1024 : 256);
        r.maxNumBatchedTokens = in.maxNumBatchedTokens > 0 ? in.maxNumBatchedTokens
                                                           : (large ? 8192 : 2048);
        if (!in.engineVersion.atLeast(0, 8)) {
            // The V0 engine (the default before 0.8.0): max_num_seqs 256 on every GPU, and
            // without chunked prefill (max_model_len up to 32k) one step holds a whole
            // prompt: max_num_batched_tokens = max(max_model_len, 2048); beyond 32k `vllm
            // serve` turns chunked prefill on with 512 (vllm/config.py SchedulerConfig and
            // engine/arg_utils.py of v0.4-v0.7).
            if (in.maxNumSeqs <= 0)
                r.maxNumSeqs = 256;
            if (in.maxNumBatchedTokens <= 0)
                r.maxNumBatchedTokens =
                    r.maxModelLen <= 32768 ? std::max<int64_t>(r.maxModelLen, 2048) : 512;
        }
        r.blockSize = in.blockSize > 0 ? in.blockSize : 16;
        break;
    }
    case ServingEngine::Sglang:
        // sglang/srt/server_args.py (v0.4.x): mem_fraction_static by TP size;
        // chunked_prefill_size 8192, 2048 below 25 GB.
        r.utilization = in.gpuMemoryUtilization > 0 ? in.gpuMemoryUtilization
                        : tp >= 16                  ? 0.79
                        : tp >= 8                   ? 0.81
                        : tp >= 4                   ? 0.85
                        : tp >= 2                   ? 0.87
                                                    : 0.88;
        r.maxNumSeqs = in.maxNumSeqs > 0 ? in.maxNumSeqs : 1024;
        r.maxNumBatchedTokens = in.maxNumBatchedTokens > 0 ? in.maxNumBatchedTokens
                                : total < 25 * GiB         ? 2048
                                                           : 8192;
        r.blockSize = in.blockSize > 0 ? in.blockSize : 1;
        break;
    case ServingEngine::Transformers:
        r.utilization = 1.0;
        r.maxNumSeqs = std::max<int64_t>(1, s.training.microBatchSize);
        r.maxNumBatchedTokens = std::max<int64_t>(1, s.training.microBatchSize * s.training.sequenceLength);
        r.blockSize = 1;
        r.maxModelLen = in.maxModelLen > 0 ? in.maxModelLen
                                           : s.training.sequenceLength + in.maxNewTokens;
        break;
    }
    return r;
}

} // namespace vramplan
