// Fuzzing the parsers that read outside input, and the estimate behind them:
//   - scenarioFromText (a *.vramplan.json file, SPEC §3),
//   - modelFieldsFromHfConfig (a Hugging Face config.json) after nlohmann::json::parse, and
//   - safetensorsTensors (a checkpoint's safetensors header, the input as its JSON header and as
//     the file's raw beginning), with classifyTensors on what it lists.
// Every scenario that parses is estimated, and the estimate must hold its invariants: every byte
// count finite and >= 0, allocated <= reserved <= device, the components summing to the device
// peak, fits agreeing with the capacity. A violation, a crash, an exception escaping the core or a
// sanitizer report ends the run with abort().
//
// Two drivers share LLVMFuzzerTestOneInput:
//   - with -DVRAMPLAN_LIBFUZZER and -fsanitize=fuzzer (Clang): libFuzzer, for long runs by hand;
//   - otherwise the main() below: a deterministic mutation loop (fixed seed) for CTest,
//       fuzz_scenario [ITERATIONS=30000] [CORPUS_DIR...]
//     over every JSON file under the corpus folders (and the scenarios and Hugging Face configs
//     nested inside them) plus built-in seeds. A failing input is written to
//     fuzz_scenario_crash.json in the working folder before the check aborts.

#include "fuzz_corpus.h"
#include "estimate.h"
#include "formats/checkpoint_folder.h"
#include "formats/estimate_json.h"
#include "model/hf_config.h"
#include "model/model_weights.h"
#include "formats/scenario_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#ifndef VRAMPLAN_LIBFUZZER
#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <vector>
#endif

const fuzz::Target fuzz::target = {"fuzz_scenario", "fuzz_scenario_crash.json"};

namespace {

using namespace vramplan;
using fuzz::check;
using fuzz::currentInput;
using fuzz::violated;

// How far inputs got, for the standalone driver's summary.
std::size_t scenariosAccepted = 0, hfConfigsAccepted = 0;


constexpr double maxReportableBytes = 4.0e18; // estimate.cpp clamps every figure here

bool finiteNonNegative(double v)
{
    return std::isfinite(v) && v >= 0;
}

// A <= B for byte counts that went through floating point: a relative slack of 1e-9.
bool notAbove(double a, double b)
{
    return a <= b + 1e-9 * std::fabs(b) + 8;
}

void checkPeak(const Peak &p, const char *which)
{
    check(finiteNonNegative(p.allocated), "peak allocated finite and >= 0", which);
    check(finiteNonNegative(p.reserved), "peak reserved finite and >= 0", which);
    check(finiteNonNegative(p.device), "peak device finite and >= 0", which);
    check(notAbove(p.allocated, p.reserved), "allocated <= reserved", which);
    check(notAbove(p.reserved, p.device), "reserved <= device", which);
}

void checkCounts(const ParameterCounts &c)
{
    check(c.total >= 0 && c.embedding >= 0 && c.perLayer >= 0 && c.layers >= 0 &&
              c.finalNorm >= 0 && c.outputHead >= 0 && c.activePerToken >= 0,
          "parameter counts >= 0");
    check(c.total >= c.embedding && c.total >= c.layers && c.total >= c.outputHead,
          "parameter total >= each of its parts");
    check(c.activePerToken <= c.total, "active parameters per token <= total");
}

void checkEstimate(const Scenario &s, const Estimate &e)
{
    checkCounts(e.parameters);
    check(e.trainableParameters >= 0, "trainable parameters >= 0");
    if (s.training.finetune.method == FinetuneMethod::Full)
        check(e.trainableParameters <= e.parameters.total,
              "full fine-tuning trains no more than the model's parameters");

    checkPeak(e.peak, "peak");
    checkPeak(e.firstStage, "first stage");
    checkPeak(e.lastStage, "last stage");

    // Beyond 4e18 bytes the estimator clamps each figure and says so with a warning; the
    // components are scaled to sum to the clamped device peak (what the bar draws).
    const bool clamped = std::any_of(e.warnings.begin(), e.warnings.end(), [](const Warning &w) {
        return w.code == WarningCode::Clamped;
    });
    double sum = 0;
    for (int c = 0; c < componentCount; ++c) {
        check(finiteNonNegative(e.perGpu[c]), "per-GPU component finite and >= 0",
              std::string(componentKey(static_cast<Component>(c))));
        check(e.perGpu[c] <= maxReportableBytes, "per-GPU component clamped at 4e18");
        sum += e.perGpu[c];
    }
    check(e.peak.device <= maxReportableBytes, "device peak clamped at 4e18");
    check(std::fabs(sum - e.peak.device) <= 1e-9 * e.peak.device + 8,
          "components sum to the device peak",
          std::to_string(sum) + " vs " + std::to_string(e.peak.device));

    for (const auto &phase : e.phases) {
        check(finiteNonNegative(phase.allocated), "phase allocated finite and >= 0");
        for (double v : phase.byComponent)
            check(finiteNonNegative(v), "phase component finite and >= 0");
        if (phase.present && !clamped)
            check(notAbove(phase.allocated, e.peak.allocated),
                  "no phase allocates more than the peak");
    }

    check(std::isfinite(e.capacityBytes) && e.capacityBytes > 0, "capacity finite and > 0");
    check(std::isfinite(e.headroomBytes), "headroom finite");
    if (!clamped)
        check(std::fabs(e.headroomBytes - (e.capacityBytes - e.peak.device)) <=
                  1e-9 * std::max(e.capacityBytes, e.peak.device) + 8,
              "headroom = capacity - device peak");
    check(e.fits == (e.peak.device <= e.capacityBytes) ||
              std::fabs(e.peak.device - e.capacityBytes) < 1024,
          "fits agrees with capacity and device peak");
    check(e.pipelineStage >= 0 &&
              e.pipelineStage < std::max<int64_t>(1, s.parallelism.pipelineParallel),
          "reported pipeline stage within the pipeline");

    for (const auto &item : e.items) {
        check(finiteNonNegative(item.perUnit), "item bytes per unit finite and >= 0",
              std::string(item.name));
        check(finiteNonNegative(item.count), "item count finite and >= 0", std::string(item.name));
        check(std::isfinite(item.bytes()), "item bytes finite", std::string(item.name));
        check(!item.name.empty(), "item has a name");
    }
    for (const auto &w : e.warnings) {
        check(std::isfinite(w.value) && std::isfinite(w.value2), "warning values finite");
        check(!warningText(w).empty(), "warning has a text");
    }

    // The outputs the command line writes must not throw (dump() throws on invalid UTF-8).
    const nlohmann::json out = estimateToJson(e, s);
    const std::string text = out.dump();
    check(!text.empty(), "estimate JSON written");
    check(out.at("format") == "vramplan-estimate", "estimate JSON format");
    check(!estimateTable(e, s).empty(), "estimate table written");
}

void checkRefusal(const std::string &error)
{
    check(!error.empty(), "a refused input has a reason");
    // An error names where and what, briefly; it may quote the input but not amplify it.
    // Known bugs (reported): JSON syntax errors echo the whole token read so far ("last read:
    // '\"xxxx...'", a control character as "<U+000A>"), and unknown-key errors the whole key,
    // so messages are only held to 8 characters per input byte rather than to a fixed length.
    const std::size_t limit = 8 * currentInput.size() + 4096;
    check(error.size() < limit, "error message no longer than 8 characters per input byte",
          error.substr(0, 200));
}

void runScenarioText(std::string_view text)
{
    const auto parsed = scenarioFromText(text);
    if (!parsed) {
        checkRefusal(parsed.error);
        return;
    }
    ++scenariosAccepted;
    const Scenario &s = *parsed.value;
    const Estimate e1 = estimate(s);
    checkEstimate(s, e1);

    // The scenario as written back (presets resolved) must read again as the same estimate.
    const nlohmann::json resolved = scenarioToJson(s);
    const auto again = scenarioFromJson(resolved);
    check(bool(again), "a resolved scenario reads again", again.error);
    const Estimate e2 = estimate(*again.value);
    check(e1.peak.device == e2.peak.device && e1.parameters.total == e2.parameters.total,
          "a resolved scenario estimates the same");
}

void runHfConfig(std::string_view text)
{
    const nlohmann::json config = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
    if (config.is_discarded())
        return;
    const auto fields = modelFieldsFromHfConfig(config, "config");
    if (!fields) {
        checkRefusal(fields.error);
        return;
    }
    check(fields.value->is_object(), "model fields form an object");
    const nlohmann::json document = {{"format", "vramplan-scenario"}, {"model", *fields.value}};
    const auto parsed = scenarioFromJson(document);
    if (!parsed) {
        checkRefusal(parsed.error);
        return;
    }
    ++hfConfigsAccepted;
    checkCounts(countParameters(parsed.value->model));
    checkEstimate(*parsed.value, estimate(*parsed.value));
}

// Inputs larger than this are cut: the parsers' cost is linear and the interesting structure is
// at the start.
constexpr std::size_t maxInputBytes = 256 * 1024;

} // namespace

namespace {

// A safetensors header: every listed tensor has a count >= 0, and the parts sum to the total.
void runSafetensorsHeader(std::string_view text)
{
    std::string file(8, '\0');
    for (int i = 0; i < 8; ++i)
        file[size_t(i)] = char((uint64_t(text.size()) >> (8 * i)) & 0xff);
    file.append(text);
    for (const std::string_view start : {std::string_view(file), text}) {
        std::vector<CheckpointTensor> tensors;
        const std::string problem = safetensorsTensors(start, "fuzz.safetensors", tensors);
        int64_t total = 0;
        for (const auto &t : tensors) {
            if (t.elements < 0)
                violated("a safetensors tensor with a negative count", t.name);
            total += t.elements;
        }
        const CheckpointParts p = classifyTensors(tensors);
        const int64_t parts = p.embedding + p.outputHead + p.attention + p.linearAttention +
                              p.mamba + p.shortConv + p.mlp + p.routedExperts +
                              p.sharedExperts + p.router + p.norms + p.vision + p.mtp + p.other;
        if (parts != total)
            violated("the checkpoint's parts do not sum to its total");
        (void)problem;
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::string_view text(reinterpret_cast<const char *>(data),
                                std::min(size, maxInputBytes));
    currentInput = text;
    try {
        runScenarioText(text);
        runHfConfig(text);
        runSafetensorsHeader(text);
    } catch (const std::exception &e) {
        violated("an exception escaped the core", e.what());
    }
    return 0;
}

#ifndef VRAMPLAN_LIBFUZZER

namespace {

// Seeds that exist without any corpus folder: a full scenario, edge layouts, and HF configs.
const char *const builtinSeeds[] = {
    // A checkpoint's safetensors header (formats/checkpoint_folder.cpp).
    R"({"model.embed_tokens.weight": {"dtype": "BF16", "shape": [256, 64],
         "data_offsets": [0, 32768]},
        "model.layers.0.mlp.experts.0.up_proj.weight": {"dtype": "F8_E4M3", "shape": [128, 64],
         "data_offsets": [32768, 40960]},
        "model.layers.0.linear_attn.conv1d.weight": {"dtype": "BF16", "shape": [96, 1, 4],
         "data_offsets": [40960, 41728]},
        "__metadata__": {"format": "pt"}})",
    // Every field of the 2024-2026 layouts (MLA, routed and shared experts, dense first
    // layers, q/k norms, sliding windows, soft-capping, sinks), with expert parallelism.
    R"({"format": "vramplan-scenario", "version": 1,
  "model": {"family": "deepseek_v3", "layers": 4, "hidden_size": 256, "attention_heads": 8,
            "ffn_hidden_size": 512, "vocab_size": 1000, "o_bias": true, "qk_norm": "head",
            "sliding_window": 64, "sliding_layers": 2, "attention_softcap": 50.0,
            "final_softcap": 30.0, "attention_sinks": true, "mtp_layers": 1,
            "mla": {"q_lora_rank": 96, "kv_lora_rank": 64, "qk_rope_head_dim": 16,
                    "qk_nope_head_dim": 32, "v_head_dim": 32},
            "moe": {"experts": 8, "experts_per_token": 2, "expert_ffn_hidden_size": 128,
                    "shared_experts": 1, "shared_expert_ffn_hidden_size": 128,
                    "dense_layers": 1, "layer_step": 1, "router_bias": true,
                    "expert_bias": true, "score_correction_bias": true,
                    "normalize_top_k": false, "router": "sigmoid", "imbalance": 1.5,
                    "capacity_factor": 1.25}},
  "training": {"precision": "amp_bf16", "attention": "eager",
               "finetune": {"method": "lora", "lora_targets": ["q_a_proj", "kv_b_proj"]}},
  "parallelism": {"gpus": 8, "pipeline_parallel": 2, "expert_parallel": 4},
  "framework": "megatron"})",
    R"({"format": "vramplan-scenario", "version": 1, "model": {"preset": "gpt2"}})",
    R"({"format": "vramplan-scenario", "version": 1, "model": {"preset": "gpt2"},
  "training": {"precision": "amp_bf16", "finetune": {"method": "lora", "lora_rank": 8,
               "lora_targets": ["c_attn", "c_proj", "query_key_value", "w2"]}}})",
    R"({"format": "vramplan-scenario", "version": 1, "model": {"preset": "falcon-7b"},
  "framework": "litgpt", "training": {"attention": "sdpa", "precision": "amp_bf16",
               "finetune": {"method": "lora"}}, "parallelism": {"gpus": 2, "zero_stage": 3}})",
    R"({"format": "vramplan-scenario", "version": 1, "model": {"preset": "llama-3.2-1b"},
  "framework": "litgpt", "training": {"finetune": {"method": "lora"}},
  "calibration": {"metric": "device", "measured_bytes": 2.5e10, "activation_scale": 0.8,
                  "overhead_bytes": -3e8}})",
    R"({"format": "vramplan-scenario", "version": 1, "name": "Llama-2-7B, 8 x A100",
  "model": {"preset": "llama-2-7b", "family": "llama", "layers": 32, "hidden_size": 4096,
            "attention_heads": 32, "kv_heads": 32, "head_dim": 128, "ffn_hidden_size": 11008,
            "ffn_type": "swiglu", "vocab_size": 32000, "norm": "rmsnorm",
            "tied_embeddings": false, "bias": false, "max_positions": 4096},
  "training": {"mode": "train", "micro_batch_size": 1, "sequence_length": 4096,
               "gradient_accumulation_steps": 1, "precision": "bf16_mixed",
               "optimizer": "adamw", "activation_recompute": "none", "recompute_layers": 32,
               "attention": "flash", "dropout": 0.0,
               "finetune": {"method": "full", "lora_rank": 16,
                            "lora_targets": ["q_proj", "v_proj"], "base_weight_bits": 16}},
  "parallelism": {"gpus": 8, "tensor_parallel": 1, "pipeline_parallel": 1,
                  "virtual_pipeline_parallel": 1, "sequence_parallel": false,
                  "context_parallel": 1, "expert_parallel": 1, "zero_stage": 0,
                  "offload_optimizer": "none", "offload_parameters": "none"},
  "framework": "transformers", "gpu": {"preset": "a100-80gb", "memory_gib": 80}})",
    R"({"format": "vramplan-scenario", "version": 1, "model": {"preset": "mixtral-8x7b",
  "moe": {"experts": 8, "experts_per_token": 2, "expert_ffn_hidden_size": 14336,
  "shared_experts": 1}}, "training": {"precision": "fp8_mixed", "optimizer": "shampoo",
  "activation_recompute": "selective", "attention": "eager", "sequence_length": 32768},
  "parallelism": {"gpus": 128, "tensor_parallel": 2, "pipeline_parallel": 4,
  "virtual_pipeline_parallel": 2, "sequence_parallel": true, "context_parallel": 2,
  "expert_parallel": 8, "zero_stage": 1}, "framework": "megatron", "gpu": {"preset": "h100-80gb"}})",
    R"({"format": "vramplan-scenario", "version": 1, "model": {"preset": "llama-3.1-8b"},
  "training": {"mode": "train", "precision": "bf16", "optimizer": "paged_adamw_8bit",
  "finetune": {"method": "qlora", "lora_rank": 64, "lora_targets": ["all-linear"],
  "base_weight_bits": 4, "lora_dropout": 0.1}}, "parallelism": {"gpus": 2, "zero_stage": 3,
  "offload_optimizer": "cpu", "offload_parameters": "nvme"}, "framework": "deepspeed",
  "gpu": {"preset": "rtx-4090"}})",
    R"({"format": "vramplan-scenario", "version": 1, "model": {"preset": "bert-base-uncased"},
  "training": {"mode": "inference", "micro_batch_size": 1048576, "sequence_length": 16777216},
  "gpu": {"memory_gib": 0.001}})",
    R"({"format": "vramplan-scenario", "version": 1, "model": {"family": "gpt2", "layers": 1,
  "hidden_size": 1, "attention_heads": 1, "vocab_size": 1, "ffn_hidden_size": 1,
  "max_positions": 1}, "training": {"micro_batch_size": 1, "sequence_length": 1},
  "gpu": {"name": "tiny", "memory_gib": 1}})",
    R"({"format": "vramplan-scenario", "version": 1, "model": {"hf_config": {"model_type":
  "qwen2", "hidden_size": 896, "num_hidden_layers": 24, "num_attention_heads": 14,
  "num_key_value_heads": 2, "intermediate_size": 4864, "vocab_size": 151936,
  "tie_word_embeddings": true}}, "training": {"optimizer": "adafactor"}})",
    R"({"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 32,
  "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
  "vocab_size": 128256, "max_position_embeddings": 131072, "tie_word_embeddings": false,
  "head_dim": 128, "hidden_act": "silu"})",
    R"({"model_type": "gpt2", "n_embd": 768, "n_layer": 12, "n_head": 12, "vocab_size": 50257,
  "n_positions": 1024, "n_inner": null, "activation_function": "gelu_new"})",
    R"({"model_type": "mixtral", "hidden_size": 4096, "num_hidden_layers": 32,
  "num_attention_heads": 32, "num_key_value_heads": 8, "intermediate_size": 14336,
  "num_local_experts": 8, "num_experts_per_tok": 2, "vocab_size": 32000})",
    R"({"model_type": "bert", "hidden_size": 768, "num_hidden_layers": 12,
  "num_attention_heads": 12, "intermediate_size": 3072, "vocab_size": 30522,
  "type_vocab_size": 2, "max_position_embeddings": 512})",
    R"({"model_type": "falcon", "hidden_size": 4544, "num_hidden_layers": 32,
  "num_attention_heads": 71, "multi_query": true, "parallel_attn": true, "vocab_size": 65024})",
};

// Replacements for numbers: limits of the JSON number grammar and of int64/double.
const char *const interestingNumbers[] = {"0",
                                          "-0",
                                          "-1",
                                          "1",
                                          "2",
                                          "3",
                                          "4.5",
                                          "0.5",
                                          "1e308",
                                          "-1e308",
                                          "1e-320",
                                          "1e30",
                                          "65536",
                                          "255",
                                          "2048",
                                          "4096",
                                          "4097",
                                          "1e15",
                                          "1e400",
                                          "2147483647",
                                          "2147483648",
                                          "4294967296",
                                          "9007199254740993",
                                          "9223372036854775807",
                                          "9223372036854775808",
                                          "18446744073709551616",
                                          "99999999999999999999",
                                          "-9223372036854775809",
                                          "1.0",
                                          "1E2",
                                          "0.000001"};

// Tokens inserted between bytes: JSON punctuation and literals, plus things JSON does not allow.
const std::string_view punctuation[] = {
    "{",        "}",         "[",       "]",       ",",    ":",        "\"",
    "\\",       " ",         "\n",      "null",    "true", "false",    "NaN",
    "Infinity", "-Infinity", "\\u0000", "\\ud800", "\xff", "\xc3\x28", std::string_view("\0", 1),
    "/*",       "//",        "'"};

// Values a key takes: every enumeration the scenario format knows, plus what the corpus holds
// under that key (model and GPU preset names, HF activation names, sizes).
using ValueTable = std::map<std::string, std::vector<nlohmann::json>>;

ValueTable knownValues()
{
    auto list = [](std::initializer_list<const char *> names) {
        std::vector<nlohmann::json> out;
        for (const char *n : names)
            out.emplace_back(n);
        return out;
    };
    return {
        {"family", list({"gpt2", "bert", "llama", "mistral", "mixtral", "qwen2", "phi3", "gemma",
                         "phi", "gpt_neox", "falcon", "qwen3", "qwen3_moe", "deepseek_v2",
                         "deepseek_v3", "llama4", "gpt_oss", "gemma2", "gemma3", "olmo2",
                         "granite", "smollm3", "glm4_moe"})},
        {"qk_norm", list({"none", "head", "full", "l2"})},
        {"router", list({"softmax", "sigmoid"})},
        {"ffn_type", list({"gelu", "swiglu", "geglu"})},
        {"norm", list({"layernorm", "rmsnorm"})},
        {"positions", list({"learned", "rope", "alibi"})},
        {"hidden_act", list({"gelu", "gelu_tanh_python", "silu", "relu"})},
        {"head", list({"lm", "classifier"})},
        {"mode", list({"train", "inference"})},
        {"precision",
         list({"fp32", "amp_fp16", "amp_bf16", "fp16_mixed", "bf16_mixed", "bf16", "fp8_mixed"})},
        {"optimizer", list({"sgd", "sgd_momentum", "adam", "adamw", "adamw_8bit", "paged_adamw",
                            "paged_adamw_8bit", "adafactor", "lion", "muon", "shampoo"})},
        {"activation_recompute", list({"none", "selective", "full"})},
        {"attention", list({"eager", "sdpa", "flash"})},
        {"method", list({"full", "lora", "qlora"})},
        {"offload_optimizer", list({"none", "cpu", "nvme"})},
        {"offload_parameters", list({"none", "cpu", "nvme"})},
        {"framework", list({"transformers", "pytorch", "litgpt", "torchtune", "torchtitan",
                            "megatron", "deepspeed"})},
        {"zero_stage", {0, 1, 2, 3}},
        {"base_weight_bits", {4, 8, 16, 32}},
    };
}

void collectValues(const nlohmann::json &j, ValueTable &out, int depth = 0)
{
    if (depth > 8 || !(j.is_object() || j.is_array()))
        return;
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (j.is_object() && (it->is_primitive() || it->is_array()) && !it->is_null()) {
            auto &values = out[it.key()];
            if (values.size() < 64 && std::find(values.begin(), values.end(), *it) == values.end())
                values.push_back(*it);
        }
        collectValues(*it, out, depth + 1);
    }
}

std::string mutateBytes(std::string s, std::mt19937 &rng, const std::vector<std::string> &seeds,
                        const std::vector<std::string> &dictionary)
{
    auto below = [&rng](std::size_t n) {
        return n == 0 ? std::size_t(0) : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
    };
    auto pick = [&](const auto &list) { return std::string(list[below(std::size(list))]); };
    // One draw per statement: the order in which a call's arguments are evaluated differs
    // between compilers, and the sequence of inputs must not.
    const std::size_t kind = below(10);
    const std::size_t insertAt = below(s.size() + 1);
    const std::size_t position = s.empty() ? 0 : below(s.size());
    switch (kind) {
    case 0: // flip a bit
        if (!s.empty())
            s[position] ^= char(1u << below(8));
        break;
    case 1: // overwrite a byte
        if (!s.empty())
            s[position] = char(below(256));
        break;
    case 2: // insert punctuation
        s.insert(insertAt, pick(punctuation));
        break;
    case 3: { // replace a run of digits (or insert a number)
        std::vector<std::size_t> starts;
        for (std::size_t i = 0; i < s.size(); ++i)
            if ((s[i] >= '0' && s[i] <= '9') && (i == 0 || !(s[i - 1] >= '0' && s[i - 1] <= '9')))
                starts.push_back(i);
        if (starts.empty()) {
            s.insert(insertAt, pick(interestingNumbers));
            break;
        }
        const std::size_t at = starts[below(starts.size())];
        std::size_t end = at;
        while (end < s.size() &&
               std::string_view("0123456789.eE+-").find(s[end]) != std::string_view::npos)
            ++end;
        s.replace(at, end - at, pick(interestingNumbers));
        break;
    }
    case 4: // truncate
        s.resize(below(s.size() + 1));
        break;
    case 5: { // duplicate a slice somewhere else
        if (s.empty())
            break;
        const std::size_t from = below(s.size());
        const std::size_t length = 1 + below(std::min<std::size_t>(s.size() - from, 256));
        s.insert(insertAt, s.substr(from, length));
        break;
    }
    case 6: { // delete a slice
        if (s.empty())
            break;
        const std::size_t from = below(s.size());
        s.erase(from, 1 + below(std::min<std::size_t>(s.size() - from, 64)));
        break;
    }
    case 7: { // splice: a prefix of this one, a suffix of another seed
        const std::string &other = seeds[below(seeds.size())];
        const std::size_t cut = below(s.size() + 1); // one call per statement: a fixed order
        s = s.substr(0, cut) + other.substr(below(other.size() + 1));
        break;
    }
    case 8: { // replace a string literal by a known key or value
        std::vector<std::size_t> quotes;
        for (std::size_t i = 0; i < s.size(); ++i)
            if (s[i] == '"')
                quotes.push_back(i);
        if (quotes.size() < 2 || dictionary.empty())
            break;
        const std::size_t q = below(quotes.size() - 1);
        s.replace(quotes[q] + 1, quotes[q + 1] - quotes[q] - 1,
                  dictionary[below(dictionary.size())]);
        break;
    }
    default: // a dictionary word anywhere
        if (!dictionary.empty())
            s.insert(insertAt, "\"" + dictionary[below(dictionary.size())] + "\"");
        break;
    }
    return s;
}

// Structure-aware: parse the input as JSON, set one leaf (or add a key) to an odd value, write it
// back. This keeps the document valid so the mutation reaches validation and the estimate.
bool mutateStructure(std::string &s, std::mt19937 &rng, const std::vector<std::string> &dictionary,
                     const ValueTable &values)
{
    nlohmann::json doc = nlohmann::json::parse(s, nullptr, false);
    if (doc.is_discarded() || !doc.is_object())
        return false;
    auto below = [&rng](std::size_t n) {
        return n == 0 ? std::size_t(0) : std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
    };
    // Walk down a few random levels of objects.
    nlohmann::json *node = &doc;
    for (int depth = 0; depth < 4; ++depth) {
        std::vector<std::string> objectKeys;
        for (auto it = node->begin(); it != node->end(); ++it)
            if (it->is_object())
                objectKeys.push_back(it.key());
        if (objectKeys.empty() || below(3) == 0)
            break;
        node = &(*node)[objectKeys[below(objectKeys.size())]];
    }
    std::string key;
    if (!node->empty() && below(8) != 0) {
        auto it = node->begin();
        std::advance(it, below(node->size()));
        key = it.key();
    } else if (!dictionary.empty()) {
        key = dictionary[below(dictionary.size())];
    } else {
        return false;
    }
    const nlohmann::json old = node->contains(key) ? (*node)[key] : nlohmann::json();
    auto word = [&] {
        return dictionary.empty() ? std::string("x") : dictionary[below(dictionary.size())];
    };
    auto plausibleSize = [&] {
        return below(2) ? std::int64_t(1) << below(17) : std::int64_t(below(64)) + 1;
    };
    nlohmann::json value;
    const auto known = values.find(key);
    if (below(2) == 0 && known != values.end() && !known->second.empty()) {
        value = known->second[below(known->second.size())];
    } else if (below(2) == 0 && !old.is_null()) {
        // Keep the type, so that the document mostly stays valid and reaches the estimate.
        if (old.is_number_integer())
            // Doubled (wrapping like unsigned arithmetic: the core must cope with any int64).
            value = below(4) ? nlohmann::json(plausibleSize())
                             : nlohmann::json(
                                   std::int64_t(std::uint64_t(old.get<std::int64_t>()) * 2u + 1u));
        else if (old.is_number())
            value = old.get<double>() * (below(2) ? 2.0 : 0.5);
        else if (old.is_string())
            value = word();
        else if (old.is_boolean())
            value = !old.get<bool>();
        else if (old.is_array())
            value = below(2) ? nlohmann::json::array({word()})
                             : nlohmann::json::array({"q_proj", "all-linear"});
        else
            value = nlohmann::json::object({{word(), plausibleSize()}});
    } else {
        switch (below(8)) {
        case 0:
            value = nlohmann::json::parse(interestingNumbers[below(std::size(interestingNumbers))],
                                          nullptr, false);
            if (value.is_discarded())
                value = 1e308;
            break;
        case 1:
            value = std::int64_t(below(200)) - 20;
            break;
        case 2:
            value = std::ldexp(1.0, int(below(80))); // 1 .. 2^79
            break;
        case 3:
            value = word();
            break;
        case 4:
            value = below(2) == 0;
            break;
        case 5:
            value = nullptr;
            break;
        case 6:
            value = plausibleSize();
            break;
        default:
            value = nlohmann::json::array({"q_proj", "all-linear"});
            break;
        }
    }
    (*node)[key] = value;
    s = doc.dump(below(2) ? -1 : 1);
    return true;
}

void collectStrings(const nlohmann::json &j, std::set<std::string> &out, int depth = 0)
{
    if (depth > 8 || out.size() > 2000)
        return;
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            out.insert(it.key());
            collectStrings(it.value(), out, depth + 1);
        }
    } else if (j.is_array()) {
        for (const auto &item : j)
            collectStrings(item, out, depth + 1);
    } else if (j.is_string() && j.get_ref<const std::string &>().size() <= 40) {
        out.insert(j.get<std::string>());
    }
}

// Objects inside a corpus file that are themselves inputs: scenarios and HF configs nested in
// the measurement lists and model catalogs.
void collectNestedSeeds(const nlohmann::json &j, std::vector<std::string> &out, int depth = 0)
{
    if (depth > 6 || out.size() > 4000)
        return;
    if (j.is_object() && depth > 0 && (j.contains("format") || j.contains("model_type")))
        out.push_back(j.dump(1));
    if (j.is_object() || j.is_array())
        for (const auto &item : j)
            collectNestedSeeds(item, out, depth + 1);
}

} // namespace

int main(int argc, char **argv)
{
    const long iterations = argc > 1 ? std::strtol(argv[1], nullptr, 10) : 30000;
    if (iterations < 0) {
        std::fprintf(stderr, "usage: fuzz_scenario [ITERATIONS] [CORPUS_DIR...]\n");
        return 2;
    }

    std::vector<std::string> seeds(std::begin(builtinSeeds), std::end(builtinSeeds));
    std::vector<std::string> corpusNames;
    std::size_t corpusFiles = 0;
    std::vector<fuzz::CorpusFile> corpus;
    if (!fuzz::readCorpus(argc, argv, 4 * 1024 * 1024,
                          [](const auto &path) { return path.extension() == ".json"; }, corpus))
        return 2;
    for (auto &file : corpus) {
        corpusNames.push_back(file.path.stem().string()); // model presets are named by file
        seeds.push_back(std::move(file.text));
        ++corpusFiles;
    }
    std::set<std::string> words = {
        "format", "version", "vramplan-scenario", "model", "training", "parallelism",
        "gpu",    "preset",  "hf_config",         "moe"};
    ValueTable values = knownValues();
    for (const auto &name : corpusNames)
        values["preset"].emplace_back(name);
    const std::size_t fileSeeds = seeds.size();
    for (std::size_t i = 0; i < fileSeeds; ++i) {
        const nlohmann::json j = nlohmann::json::parse(seeds[i], nullptr, false);
        if (j.is_discarded())
            continue;
        collectStrings(j, words);
        collectValues(j, values);
        collectNestedSeeds(j, seeds);
    }
    words.insert(corpusNames.begin(), corpusNames.end());
    const std::vector<std::string> dictionary(words.begin(), words.end());

    const auto start = std::chrono::steady_clock::now();
    auto run = [](const std::string &input) {
        LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(input.data()), input.size());
    };
    for (const auto &seed : seeds)
        run(seed);

    std::mt19937 rng(20240611u);
    // Inputs that got through a parser are kept (a ring of 512 per parser) and mutated further:
    // a poor man's coverage feedback that reaches combinations no seed holds.
    std::array<std::vector<std::string>, 2> accepted;
    std::array<std::size_t, 2> acceptedNext{};
    auto keep = [&](int pool, const std::string &input) {
        if (accepted[pool].size() < 512)
            accepted[pool].push_back(input);
        else
            accepted[pool][acceptedNext[pool]++ % 512] = input;
    };
    std::string previous = seeds.front();
    std::size_t structured = 0;
    auto below = [&rng](std::size_t n) {
        return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
    };
    for (long i = 0; i < iterations; ++i) {
        const std::size_t base = below(10);
        const auto &pool = accepted[base % 2];
        std::string input = base < 2                    ? previous
                            : base < 7 && !pool.empty() ? pool[below(pool.size())]
                                                        : seeds[below(seeds.size())];
        // A third of the inputs get structural mutations only (valid JSON that reaches the
        // checks between fields and the estimate), a third bytes only, a third both.
        const std::size_t kind = below(3);
        const std::size_t rounds = 1 + below(3);
        for (std::size_t r = 0; r < rounds; ++r) {
            const bool structural = kind == 0 || (kind == 2 && below(2) == 0);
            if (structural && mutateStructure(input, rng, dictionary, values))
                ++structured;
            else
                input = mutateBytes(std::move(input), rng, seeds, dictionary);
            if (input.size() > maxInputBytes)
                input.resize(maxInputBytes);
        }
        const std::size_t scenariosBefore = scenariosAccepted, hfBefore = hfConfigsAccepted;
        run(input);
        if (scenariosAccepted != scenariosBefore)
            keep(0, input);
        if (hfConfigsAccepted != hfBefore)
            keep(1, input);
        previous = std::move(input);
    }

    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("fuzz_scenario: %zu seeds (%zu corpus files), %ld mutated inputs "
                "(%zu structural mutations); estimated %zu scenarios and %zu HF configs; "
                "%.1f s, no invariant violated\n",
                seeds.size(), corpusFiles, iterations, structured, scenariosAccepted,
                hfConfigsAccepted, seconds);
    return 0;
}

#endif // VRAMPLAN_LIBFUZZER
