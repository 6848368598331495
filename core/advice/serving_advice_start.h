#pragma once
// When an inference server's engine would not start (serving.h: its KV cache is empty, or
// shorter than one request of max_model_len; transformers: out of memory), which one setting,
// changed alone, would make it start, and to what (issue 21 #6). The engine's own message names
// gpu_memory_utilization (and max_model_len), but the setting that mattered may be another:
// vLLM's profiling run grows with max_num_seqs (the sampler) and max_num_batched_tokens (the
// activations), and it comes out of the same budget as the KV cache.
//
// Each setting is searched on its own, the others as the scenario has them, by bisection on the
// plan (planServing; the KV cache shrinks as max_num_seqs, max_num_batched_tokens and
// max_model_len grow and grows with the budget):
//   serving.max_num_seqs            the largest below the current that starts;
//   serving.max_num_batched_tokens  the largest below the current, not below max_num_seqs
//                                   (vLLM's SchedulerConfig requires that), that starts;
//   serving.gpu_memory_utilization  the smallest above the current, in hundredths up to 0.99;
//   serving.max_model_len           the largest below the current that starts;
//   serving.kv_cache_dtype          fp8 where the GPU and the engine have it (kvFp8Allowed);
//   training.micro_batch_size       transformers generate: the largest batch below the current.
//
// Example (tests/core/advice/tst_servingadvice.cpp, startingSettings): Llama-3.1-8B under vLLM
// on one RTX 4090 at max_model_len 131072: the KV cache left holds fewer tokens than one
// request, and the engine's message asks for more gpu_memory_utilization; what would start it
// is a max_model_len the cache holds, an fp8 KV cache, or a higher utilization where 0.99 is
// enough.

#include "scenario.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace vramplan {

struct StartingSetting
{
    std::string path;     // the scenario field, dotted: "serving.max_num_seqs"
    nlohmann::json value; // what it would take: 64, 0.95, "fp8"
};

// Empty when the engine starts, when the scenario has no server, or when no single setting
// makes it start.
std::vector<StartingSetting> settingsThatStart(const Scenario &scenario);

} // namespace vramplan
