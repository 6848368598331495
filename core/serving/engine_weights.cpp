// The weights as the engine loads them on one GPU: each layer under tensor and expert
// parallelism and quantization, the embedding and head on their stages, and the rotary cache.
// Each term names the engine file it follows (docs/serving.md).

#include "serving/serving_terms.h"

#include <cmath>

namespace vramplan {

double roundUp(double v, double to)
{
    return to > 0 ? std::ceil(v / to) * to : v;
}

namespace {

// The bytes one stored element of a linear weight takes under a quantization, scales and
// zero points included.
double quantizedBytes(WeightQuantization q, int64_t rows)
{
    switch (q) {
    case WeightQuantization::Fp8:
        // fp8 e4m3 plus one fp32 weight_scale_inv per 128 x 128 block (vLLM fp8.py
        // Fp8LinearMethod with weight_block_size; DeepSeek-V3 and Qwen3 FP8 checkpoints).
        return 1.0 + 4.0 / (128.0 * 128.0);
    case WeightQuantization::Awq:
        // qweight: eight 4-bit values per int32; scales fp16 and qzeros 4-bit packed, one per
        // group of 128 inputs and output (vLLM awq.py / awq_marlin.py, group_size 128).
        return 0.5 + 2.0 / 128 + 0.5 / 128;
    case WeightQuantization::Gptq:
        // As AWQ, plus g_idx: one int32 per input feature (vLLM gptq.py create_weights).
        return 0.5 + 2.0 / 128 + 0.5 / 128 + (rows > 0 ? 4.0 / double(rows) : 0.0);
    case WeightQuantization::Bitsandbytes:
        // NF4 in blocks of 64 with double-quantised absmax (bitsandbytes Linear4bit; vLLM
        // bitsandbytes.py loads the 4-bit checkpoints as stored).
        return 0.5 + 1.0 / 64 + 4.0 / (64.0 * 256.0);
    case WeightQuantization::Mxfp4:
        // fp4 e2m1, two per byte, plus one e8m0 scale per 32 (vLLM mxfp4.py create_weights).
        return 0.5 + 1.0 / 32;
    case WeightQuantization::None:
        break;
    }
    return 2.0;
}

} // namespace

// Weights of one layer of a kind on this GPU, as the engine stores them.
double layerWeightBytes(const ServingContext &x, const WeightList &list, const GpuConfig &gpu)
{
    const auto q = x.s.serving.quantization;
    const auto &m = x.m;
    double bytes = 0;
    for (const auto &t : list) {
        const bool expert = t.place == WeightPlace::Expert;
        double n = double(t.elements());
        if (expert && x.ep > 1)
            n /= x.ep; // expert parallelism: whole experts per rank
        else if (t.tensorParallel)
            n /= x.tp;
        bool quantized = t.quantizable && q != WeightQuantization::None;
        // MXFP4 (gpt-oss): only the experts are quantised; attention, router, embeddings and
        // head stay bf16 (the checkpoint's modules_to_not_convert; vLLM Mxfp4Config returns
        // UnquantizedLinearMethod for every linear layer).
        if (q == WeightQuantization::Mxfp4 && !expert)
            quantized = false;
        double perElement = quantized ? quantizedBytes(q, t.rows) : x.c;
        if (expert && q == WeightQuantization::Mxfp4) {
            // Marlin's MoE kernel (Ampere, Ada, and Hopper without triton_kernels) needs
            // n % 256 and k % 128: the intermediate size is padded to 128 and the hidden size
            // to 256; Blackwell's FlashInfer backends pad both to 256 (vLLM mxfp4.py).
            const double h = double(m.hiddenSize);
            const double inter =
                double(m.moe.expertFfnHiddenSize > 0 ? m.moe.expertFfnHiddenSize
                                                     : m.ffnHiddenSize) /
                (x.ep > 1 ? 1.0 : x.tp);
            const double interAlign = gpu.architecture == "blackwell" ? 256 : 128;
            const double pad = roundUp(h, 256) / h * roundUp(inter, interAlign) / inter;
            if (quantized && std::isfinite(pad) && pad > 0)
                n *= pad;
            if (!t.quantizable)
                perElement = x.c; // expert biases stay bf16
        }
        bytes += n * perElement;
    }
    return bytes;
}

double globalWeightBytes(const ServingContext &x, const StageShape &st)
{
    double bytes = 0;
    const WeightList globals = globalWeights(x.m);
    for (const auto &t : globals) {
        const bool onStage = t.place == WeightPlace::Embedding ? st.first : st.last;
        if (!onStage)
            continue;
        double rows = double(t.rows);
        // VocabParallelEmbedding / ParallelLMHead pad the vocabulary to a multiple of 64
        // (vLLM vocab_parallel_embedding.py DEFAULT_VOCAB_PADDING_SIZE) and split it by TP.
        if ((t.place == WeightPlace::Embedding || t.place == WeightPlace::OutputHead) &&
            t.rows == x.m.vocabSize)
            rows = roundUp(rows, 64);
        double n = rows * double(t.cols) * double(t.copies);
        if (t.tensorParallel)
            n /= x.tp;
        bytes += n * x.c;
    }
    // The tied head shares the embedding; under pipeline parallelism the last stage holds
    // its own copy of it (vLLM ParallelLMHead tie on a separate rank).
    if (x.m.tiedEmbeddings && st.last && !st.first)
        bytes += roundUp(double(x.m.vocabSize), 64) * double(x.m.hiddenSize) / x.tp * x.c;
    return bytes;
}

// The rotary embedding's cos/sin cache: max_position x rotary_dim in the model dtype
// (vLLM rotary_embedding.py _compute_cos_sin_cache; measured: Llama-3.1-8B loads as 14.9888
// GiB = 8.03e9 * 2 B + 131072 * 128 * 2 B).
double ropeCacheBytes(const ServingContext &x)
{
    if (x.m.positions != PositionKind::Rope)
        return 0;
    const double dim = double(x.m.isMla() ? x.m.mla.qkRopeHeadDim : x.m.headDim);
    return double(x.m.maxPositions) * dim * x.c;
}

} // namespace vramplan
