// Timings of the core: one estimate, a pipeline-parallel estimate, a 1,000-point sweep as the
// command line runs it (without printing), parsing the default scenario, and the micro-batch
// solver. Run with `ninja bench`, or bench_core --benchmark_repetitions=10.

#include "advice/advisor.h"
#include "catalog.h"
#include "estimate.h"
#include "formats/numeric_fields.h"
#include "formats/scenario_json.h"
#include "advice/serving_advice.h"
#include "advice/solvers.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <string>

using namespace vramplan;

namespace {

Scenario parseOrDie(std::string_view text)
{
    auto parsed = scenarioFromText(text);
    if (!parsed) {
        std::cerr << "bench_core: scenario refused: " << parsed.error << '\n';
        std::exit(1);
    }
    return *parsed.value;
}

const Scenario &defaultScenario()
{
    static const Scenario s = parseOrDie(Catalog::builtin().defaultScenarioText());
    return s;
}

const Scenario &llama70bPipeline()
{
    static const Scenario s = parseOrDie(R"({
        "format": "vramplan-scenario", "version": 1,
        "name": "Llama-2-70B, tp 8, pp 4, vpp 2, distributed optimizer",
        "model": {"preset": "llama-2-70b"},
        "training": {"micro_batch_size": 1, "sequence_length": 4096,
                     "gradient_accumulation_steps": 64, "precision": "bf16_mixed",
                     "optimizer": "adam", "activation_recompute": "selective",
                     "attention": "flash"},
        "parallelism": {"gpus": 64, "tensor_parallel": 8, "pipeline_parallel": 4,
                        "virtual_pipeline_parallel": 2, "sequence_parallel": true,
                        "zero_stage": 1},
        "framework": "megatron",
        "gpu": {"preset": "h100-80gb"}})");
    return s;
}

// DeepSeek-V3 (671B, MLA, 3 dense + 58 MoE layers) with expert parallelism 64 and 16 pipeline
// stages. The issue asked for 256 GPUs, but expert parallelism spans data-parallel ranks
// (Megatron: expert_model_parallel_size divides tp x cp x dp), and 256 GPUs in 16 stages leave
// 16: the parser refuses that layout, so the benchmark takes 1024 GPUs (64 per stage), and
// the 256-GPU layout with EP 16.
const Scenario &deepseekV3(int64_t gpus, int64_t ep)
{
    static std::map<std::pair<int64_t, int64_t>, Scenario> cache;
    auto &s = cache[{gpus, ep}];
    if (s.name.empty())
        s = parseOrDie(R"({
        "format": "vramplan-scenario", "version": 1,
        "name": "DeepSeek-V3, pp 16, ep )" + std::to_string(ep) + R"(",
        "model": {"preset": "deepseek-v3"},
        "training": {"micro_batch_size": 1, "sequence_length": 4096,
                     "gradient_accumulation_steps": 64, "precision": "bf16_mixed",
                     "optimizer": "adamw", "activation_recompute": "full",
                     "attention": "flash"},
        "parallelism": {"gpus": )" + std::to_string(gpus) + R"(, "pipeline_parallel": 16,
                        "expert_parallel": )" + std::to_string(ep) + R"(, "zero_stage": 1},
        "framework": "megatron",
        "gpu": {"preset": "h100-80gb"}})");
    return s;
}

void BM_EstimateDeepseekV3(benchmark::State &state)
{
    const Scenario &s = deepseekV3(state.range(0), state.range(1));
    for (auto _ : state) {
        Estimate e = estimate(s);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_EstimateDeepseekV3)->Args({1024, 64})->Args({256, 16});

// The largest hybrid MoE (issue 20): Qwen3.5-397B-A17B, 45 Gated DeltaNet and 15 gated
// attention layers of 512 experts, its vision tower, Megatron with PP 8 and EP 16 on 512 H100s.
// Each of the stage's layer kinds has its own inventory; the issue asks for "near a microsecond".
void BM_EstimateHybridMoe(benchmark::State &state)
{
    static const Scenario s = parseOrDie(R"({"format":"vramplan-scenario",
        "name": "Qwen3.5-397B-A17B, pp 8, ep 16",
        "model": {"preset": "qwen3.5-397b-a17b"},
        "training": {"micro_batch_size": 1, "sequence_length": 8192,
                     "gradient_accumulation_steps": 64, "precision": "bf16_mixed",
                     "optimizer": "adamw", "activation_recompute": "selective",
                     "attention": "flash"},
        "parallelism": {"gpus": 512, "pipeline_parallel": 8, "expert_parallel": 16,
                        "zero_stage": 1},
        "framework": "megatron",
        "gpu": {"preset": "h100-80gb"}})");
    for (auto _ : state) {
        Estimate e = estimate(s);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_EstimateHybridMoe);

// The advisor over Llama-3.1-70B on 64 H100s under torchtitan: every split of the global batch,
// recomputation, ZeRO stage, offload, TP/PP/CP layout and 2-8x the GPUs (issue 12: at least
// 100,000 candidates in at most 100 ms on one core).
void BM_Advise(benchmark::State &state)
{
    static const Scenario s = parseOrDie(R"({"format":"vramplan-scenario",
        "model":{"preset":"llama-3.1-70b"},
        "training":{"micro_batch_size":4,"sequence_length":8192,"gradient_accumulation_steps":32},
        "parallelism":{"gpus":64},"framework":"torchtitan","gpu":{"preset":"h100-80gb"}})");
    int64_t searched = 0, estimated = 0;
    for (auto _ : state) {
        const Advice a = advise(s);
        searched = a.searched;
        estimated = a.estimated;
        benchmark::DoNotOptimize(a);
    }
    state.counters["searched"] = double(searched);
    state.counters["estimated"] = double(estimated);
}
BENCHMARK(BM_Advise)->Unit(benchmark::kMillisecond);

void BM_EstimateDefault(benchmark::State &state)
{
    const Scenario &s = defaultScenario();
    for (auto _ : state) {
        Estimate e = estimate(s);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_EstimateDefault);

void BM_EstimateLlama70bPipeline(benchmark::State &state)
{
    const Scenario &s = llama70bPipeline();
    for (auto _ : state) {
        Estimate e = estimate(s);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_EstimateLlama70bPipeline);

// An inference server's plan (serving.h): gpt-oss-120b under vLLM with MXFP4 experts and the
// hybrid sliding/full KV layout, the most involved serving case.
void BM_EstimateServing(benchmark::State &state)
{
    static const Scenario s = parseOrDie(R"({"format":"vramplan-scenario",
        "model":{"preset":"gpt-oss-120b"},"training":{"mode":"inference","precision":"bf16"},
        "gpu":{"preset":"h100-80gb"},
        "serving":{"engine":"vllm","gpu_memory_utilization":0.95,"quantization":"mxfp4"}})");
    for (auto _ : state) {
        Estimate e = estimate(s);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_EstimateServing);

// One RL estimate, phase by phase (core/rl/, issue 25): GRPO of Qwen2.5-7B in verl with vLLM
// colocated (the update step's training estimate, the engine's serving plan, three phases).
void BM_EstimateRl(benchmark::State &state)
{
    static const Scenario s = parseOrDie(R"({"format":"vramplan-scenario",
        "model":{"preset":"qwen2.5-7b"},
        "training":{"micro_batch_size":16,"precision":"amp_bf16","activation_recompute":"full"},
        "parallelism":{"gpus":8,"zero_stage":3},"gpu":{"preset":"h100-80gb"},
        "rl":{"algorithm":"grpo","framework":"verl","prompt_tokens":1024,"response_tokens":4096,
              "rollout":{"engine":"vllm","gpu_memory_utilization":0.5,"sleep_level":1}}})");
    for (auto _ : state) {
        Estimate e = estimate(s);
        benchmark::DoNotOptimize(e);
    }
}
BENCHMARK(BM_EstimateRl);

// The serving advice (serving_advice.h): Llama-3.1-70B under vLLM, 16 requests of 128k tokens,
// over every catalog GPU, TP 1-8 (and two stages), bf16 / fp8 / AWQ weights and auto / fp8 KV;
// each plan that serves is estimated in full. Issue 14: well under 100 ms on one core.
void BM_AdviseServing(benchmark::State &state)
{
    static const Scenario s = parseOrDie(R"({"format":"vramplan-scenario",
        "model":{"preset":"llama-3.1-70b"},"training":{"mode":"inference","precision":"bf16"},
        "gpu":{"preset":"h100-80gb"},"serving":{"engine":"vllm"}})");
    int64_t searched = 0, estimated = 0;
    for (auto _ : state) {
        const ServingAdvice a = adviseServing(s, {16, 131072});
        searched = a.searched;
        estimated = a.estimated;
        benchmark::DoNotOptimize(a);
    }
    state.counters["searched"] = double(searched);
    state.counters["estimated"] = double(estimated);
}
BENCHMARK(BM_AdviseServing)->Unit(benchmark::kMillisecond);

// As `vramplan-cli sweep FILE --vary training.micro_batch_size=1:1000`: a copy per point, the
// field set (and the scenario re-checked) through setNumericField, then one estimate.
void BM_Sweep1000(benchmark::State &state)
{
    const Scenario &base = defaultScenario();
    const NumericField *field = findNumericField("training.micro_batch_size");
    if (!field) {
        state.SkipWithError("training.micro_batch_size is not a numeric field");
        return;
    }
    for (auto _ : state) {
        for (int i = 1; i <= 1000; ++i) {
            Scenario s = base;
            std::string error = setNumericField(s, *field, double(i));
            benchmark::DoNotOptimize(error);
            if (!error.empty())
                continue;
            Estimate e = estimate(s);
            benchmark::DoNotOptimize(e);
        }
    }
    state.SetItemsProcessed(state.iterations() * 1000);
}
BENCHMARK(BM_Sweep1000);

void BM_ParseScenario(benchmark::State &state)
{
    const std::string text(Catalog::builtin().defaultScenarioText());
    for (auto _ : state) {
        auto parsed = scenarioFromText(text);
        benchmark::DoNotOptimize(parsed);
    }
    state.SetBytesProcessed(state.iterations() * int64_t(text.size()));
}
BENCHMARK(BM_ParseScenario);

// The default scenario (an 8B full fine-tune on one H100) does not fit even at micro-batch 1, which
// one estimate settles: search a model that fits a dozen sequences, as the planner's solver does.
const Scenario &tinyllamaOnH100()
{
    static const Scenario s = parseOrDie(R"({
        "format": "vramplan-scenario", "version": 1,
        "model": {"preset": "tinyllama-1.1b"},
        "training": {"sequence_length": 2048, "precision": "bf16_mixed"},
        "gpu": {"preset": "h100-80gb"}})");
    return s;
}

void BM_MaxMicroBatch(benchmark::State &state)
{
    const Scenario &s = tinyllamaOnH100();
    for (auto _ : state) {
        int64_t b = maxMicroBatchSize(s);
        benchmark::DoNotOptimize(b);
    }
    state.counters["max_micro_batch"] = double(maxMicroBatchSize(s));
}
BENCHMARK(BM_MaxMicroBatch);

} // namespace

BENCHMARK_MAIN();
