#pragma once
// How an inference server is named where several are seen together (issue 21 #7, #8): a
// comparison's entry and an exported chart's summary say what tells one server from another
// (the engine, the weights' and the KV cache's storage, max_model_len, the layout and the GPU)
// instead of a training run's precision and optimizer, which a server has none of.

#include "charts/units.h"
#include "estimate.h"
#include "scenario.h"

#include <QString>

namespace vramplan::ui {

// "Llama-3.1-70B, vLLM, fp8 weights, fp8 KV cache, max_model_len 32k, TP 2, 2 x H100-80GB"; the
// settings left at their defaults are named as the engine resolves them (serving.h).
QString servingLabel(const Scenario &scenario);

// The label, then what the plan comes to: "...: KV cache 9.10 GiB, 59,392 tokens, 1.81
// requests of 32k at once", or "...: the engine would not start".
QString servingSummary(const Estimate &estimate, const Scenario &scenario, Unit unit);

} // namespace vramplan::ui
