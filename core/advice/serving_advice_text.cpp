// The serving advice in words (serving_advice.h): each suggestion's basis sentence, SPEC §3's
// JSON with a serving block per suggestion, and the table for people.

#include "advice/serving_advice_text.h"

#include "formats/enum_names.h"
#include "formats/estimate_json.h"
#include "formats/scenario_json.h"
#include "serving/serving.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace vramplan {
namespace {

constexpr double GiB = 1024.0 * 1024.0 * 1024.0;

std::string gibText(double bytes)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / GiB);
    return text;
}

std::string number(double v, int decimals)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.*f", decimals, v);
    return text;
}

nlohmann::json servingBlock(const ServingSuggestion &c, const ServingTarget &t)
{
    const auto &s = c.scenario;
    const auto &p = c.plan;
    nlohmann::json out = {
        {"gpu", s.gpu.preset.empty() ? s.gpu.name : s.gpu.preset},
        {"gpus", c.gpus},
        {"tensor_parallel", s.parallelism.tensorParallel},
        {"pipeline_parallel", s.parallelism.pipelineParallel},
        {"quantization", toString(s.serving.quantization)},
        {"kv_cache_dtype", toString(s.serving.kvCacheDtype)},
        {"max_model_len", t.tokens},
        {"relative_cost", std::round(c.relativeCost * 100) / 100},
        {"starts", p.status == ServingStatus::Ok},
        {"serves", c.serves},
        {"kv_cache_bytes", std::llround(std::max(0.0, p.kvCacheBytes))},
        {"kv_cache_tokens", p.kvCacheTokens},
        {"max_concurrency", std::round(p.maxConcurrency * 100) / 100},
        {"kv_headroom_tokens", c.kvHeadroomTokens},
        {"concurrency_headroom", std::round((p.maxConcurrency - double(t.requests)) * 100) / 100},
        {"weights_bytes", std::llround(p.weightsBytes)},
        {"decode_tokens_per_second_bound", std::round(c.decodeTokensPerSecond)}};
    if (!c.serves)
        out["short_by_bytes"] = std::llround(c.shortByBytes);
    if (const std::string failure = servingFailureText(p); !failure.empty())
        out["failure"] = failure;
    return out;
}

nlohmann::json changesJson(const ServingSuggestion &c)
{
    nlohmann::json out = nlohmann::json::object();
    for (const auto &[path, value] : c.changes)
        out[path] = value;
    return out;
}

std::string changesText(const ServingSuggestion &c)
{
    std::string out;
    for (const auto &[path, value] : c.changes) {
        if (path == "parallelism.gpus" || path == "gpu.preset" ||
            path == "parallelism.tensor_parallel" || path == "parallelism.pipeline_parallel")
            continue; // in their own columns
        if (!out.empty())
            out += ", ";
        out += path.substr(path.find('.') + 1) + " " +
               (value.is_string() ? value.get<std::string>() : value.dump());
    }
    return out.empty() ? "-" : out;
}

} // namespace

namespace serving_advice_internal {

std::string basisOf(const Scenario &base, const ServingSuggestion &c, const ServingTarget &t)
{
    const auto &s = c.scenario;
    std::string out = std::to_string(c.gpus) + " x " + s.gpu.name;
    out += " (TP " + std::to_string(s.parallelism.tensorParallel);
    if (s.parallelism.pipelineParallel > 1)
        out += ", PP " + std::to_string(s.parallelism.pipelineParallel);
    out += ") rents " + number(c.relativeCost, 1) +
           " GiB of GPU memory (the price proxy: the catalog has no prices)";
    std::string numerics;
    if (s.serving.quantization != base.serving.quantization)
        numerics += std::string(toString(s.serving.quantization)) + " weights";
    if (s.serving.kvCacheDtype != base.serving.kvCacheDtype)
        numerics += std::string(numerics.empty() ? "" : " and ") + "an " +
                    std::string(toString(s.serving.kvCacheDtype)) + " KV cache";
    if (!numerics.empty())
        out += "; " + numerics + " change the numerics";
    out += "; the KV cache holds " + number(c.plan.maxConcurrency, 1) + " requests of " +
           std::to_string(t.tokens) + " tokens (target " + std::to_string(t.requests) + ")";
    return out;
}

} // namespace serving_advice_internal

nlohmann::json servingAdviceToJson(const ServingAdvice &a)
{
    using nlohmann::json;
    json suggestions = json::array();
    for (const auto &c : a.suggestions)
        suggestions.push_back({{"changes", changesJson(c)},
                               {"scenario", scenarioToJson(c.scenario)},
                               {"fits", c.serves},
                               {"peak_device_bytes", std::llround(c.peakDeviceBytes)},
                               {"headroom_bytes", std::llround(c.headroomBytes)},
                               {"kind", changeKindKey(c.kind)},
                               {"relative_step_time", std::round(c.relativeStepTime * 1000) / 1000},
                               {"cost_basis", c.basis},
                               {"serving", servingBlock(c, a.target)}});
    json out = {{"format", "vramplan-advice"},
                {"version", 1},
                {"fits_now", a.servesNow},
                {"searched", a.searched},
                {"estimated", a.estimated},
                {"target",
                 {{"requests", a.target.requests},
                  {"tokens", a.target.tokens},
                  {"kv_tokens", a.target.requests * a.target.tokens}}},
                {"price_basis",
                 "relative_cost = GPUs x GiB of memory per GPU: the catalog has no prices, so "
                 "the GPU memory rented stands in for the price per hour"},
                {"now", servingBlock(a.now, a.target)},
                {"relative_step_time_of", a.relativeToOwn ? "the scenario as it is"
                                                          : "the first suggestion"},
                {"suggestions", suggestions},
                {"notes", a.notes}};
    if (a.hasNearest)
        out["nearest"] = {{"changes", changesJson(a.nearest)},
                          {"over_by_bytes", std::llround(a.nearest.shortByBytes)},
                          {"scenario", scenarioToJson(a.nearest.scenario)},
                          {"serving", servingBlock(a.nearest, a.target)}};
    return out;
}

std::string servingAdviceTable(const ServingAdvice &a, const Scenario &s)
{
    std::ostringstream out;
    const auto &t = a.target;
    out << (s.name.empty() ? std::string("scenario") : s.name) << '\n'
        << "target: " << t.requests
        << (t.requests == 1 ? " concurrent request of " : " concurrent requests of ") << t.tokens
        << " tokens (" << t.requests * t.tokens << " KV tokens) under " << toString(s.serving.engine) << "\n"
        << "as it is: " << (a.servesNow ? "serves" : "does not serve") << " ("
        << number(a.now.plan.maxConcurrency, 1) << " requests at once); searched " << a.searched
        << " candidates (" << a.estimated << " estimated)\n";
    for (const auto &note : a.notes)
        out << "note: " << note << '\n';
    out << '\n';
    if (a.suggestions.empty()) {
        out << "nothing serves the target";
        if (a.hasNearest) {
            const auto &n = a.nearest;
            out << ": the nearest is " << n.gpus << " x " << n.scenario.gpu.name << " (TP "
                << n.scenario.parallelism.tensorParallel << ", PP "
                << n.scenario.parallelism.pipelineParallel << ", " << changesText(n)
                << "), which holds " << number(n.plan.maxConcurrency, 1) << " of "
                << t.requests << " requests, short by " << gibText(n.shortByBytes)
                << " per GPU";
            if (const std::string failure = servingFailureText(n.plan); !failure.empty())
                out << "\n  " << failure;
        }
        out << '\n';
    } else {
        char line[512];
        std::snprintf(line, sizeof line, "%7s %4s  %-18s %2s %2s %11s %8s %9s %8s  %s\n", "cost",
                      "gpus", "gpu", "tp", "pp", "kv tokens", "requests", "headroom", "decode",
                      "changes");
        out << line;
        for (const auto &c : a.suggestions) {
            const auto &sc = c.scenario;
            std::snprintf(line, sizeof line, "%7.1f %4lld  %-18s %2lld %2lld %11lld %8.1f %9s %7.2fx  %s\n",
                          c.relativeCost, static_cast<long long>(c.gpus),
                          (sc.gpu.preset.empty() ? sc.gpu.name : sc.gpu.preset).c_str(),
                          static_cast<long long>(sc.parallelism.tensorParallel),
                          static_cast<long long>(sc.parallelism.pipelineParallel),
                          static_cast<long long>(c.plan.kvCacheTokens), c.plan.maxConcurrency,
                          formatBytes(c.headroomBytes).c_str(), c.relativeStepTime,
                          changesText(c).c_str());
            out << line;
        }
    }
    out << "\ncost: GPUs x GiB per GPU (GPU memory rented: the catalog has no prices); "
           "requests: concurrent requests of "
        << t.tokens
        << " tokens the KV cache holds; decode: time per decode step (memory-bandwidth "
           "roofline) over "
        << (a.relativeToOwn ? "the scenario's own" : "the first suggestion's") << "\n";
    return out.str();
}

} // namespace vramplan
