#include "formats/estimate_json.h"

#include "training/capabilities.h"
#include "formats/enum_names.h"
#include "formats/rl_phases_json.h"
#include "formats/scenario_json.h"

#include <cmath>
#include <cstdio>

namespace vramplan {
namespace {

int64_t asBytes(double v)
{
    if (!std::isfinite(v) || v < 0)
        return 0;
    return static_cast<int64_t>(std::llround(std::min(v, 4.0e18)));
}

// A warning's text; a serving failure carries the engine's own message (serving.h).
std::string warningTextOf(const Estimate &e, const Warning &w)
{
    if (w.code == WarningCode::ServingFails && e.serving.present)
        return servingFailureText(e.serving);
    return warningText(w);
}

// The `serving` object of SPEC §3's extension: per GPU, as the engine reports it; the resolved
// settings and the failure text beside them.
nlohmann::json servingJson(const ServingPlan &p)
{
    const auto &r = p.settings;
    double concurrency = std::isfinite(p.maxConcurrency) ? p.maxConcurrency : 0.0;
    nlohmann::json out = {{"weights_bytes", asBytes(p.weightsBytes)},
            {"activation_bytes", asBytes(p.activationBytes)},
            {"non_torch_bytes", asBytes(p.nonTorchBytes)},
            {"cuda_graph_bytes", asBytes(p.cudaGraphBytes)},
            // vLLM 0.21+: the profiler's estimate of the graphs, taken out of the KV budget.
            {"cuda_graph_estimate_bytes", asBytes(p.cudaGraphEstimateBytes)},
            {"kv_cache_bytes", asBytes(p.kvCacheBytes)},
            {"kv_cache_tokens", p.kvCacheTokens},
            {"max_concurrency", std::round(concurrency * 100) / 100},
            {"kv_bytes_per_token", asBytes(p.kvBytesPerToken)},
            {"kv_cache_blocks", p.kvBlocks},
            {"cuda_total_bytes", asBytes(p.cudaTotalBytes)},
            {"budget_bytes", asBytes(p.budgetBytes)},
            {"starts", p.status == ServingStatus::Ok},
            {"failure", servingFailureText(p)},
            {"pipeline_stage", p.stage},
            {"resolved",
             {{"engine", toString(r.engine)},
              {"gpu_memory_utilization", r.utilization},
              {"max_model_len", r.maxModelLen},
              {"max_num_seqs", r.maxNumSeqs},
              {"max_num_batched_tokens", r.maxNumBatchedTokens},
              {"block_size", r.blockSize}}}};
    // Hybrid models: one sequence's recurrent state in every such layer of this GPU.
    if (p.stateBytesPerSequence > 0)
        out["state_bytes_per_sequence"] = asBytes(p.stateBytesPerSequence);
    return out;
}

} // namespace

std::string formatBytes(double bytes, SizeUnit unit)
{
    const double scale = unit == SizeUnit::GiB ? 1073741824.0 : 1.0e9;
    char text[48];
    std::snprintf(text, sizeof text, "%.2f %s", bytes / scale,
                  unit == SizeUnit::GiB ? "GiB" : "GB");
    return text;
}

std::string warningText(const Warning &w)
{
    switch (w.code) {
    case WarningCode::EagerScoresLarge: {
        char text[200];
        std::snprintf(text, sizeof text,
                      "eager attention at %.0fk tokens: the scores alone are %s per layer; use "
                      "sdpa or flash attention",
                      w.value2 / 1024.0, formatBytes(w.value).c_str());
        return text;
    }
    case WarningCode::ZeroWithoutDataParallel:
        return "ZeRO/FSDP stage " + std::to_string(int(w.value)) +
               " has no effect without data parallelism (one data-parallel rank)";
    case WarningCode::OffloadParametersNeedsZero3:
        return "parameter offload needs ZeRO stage 3 / FSDP full shard; it is ignored here";
    case WarningCode::SequenceBeyondPositions:
        return "the sequence (" + std::to_string(int64_t(w.value2)) +
               " tokens) is longer than the model's " + std::to_string(int64_t(w.value)) +
               " positions";
    case WarningCode::PagedStatesOutsideAllocator:
        return "paged optimizer states live in CUDA unified memory: they count in nvidia-smi "
               "but not in torch.cuda.max_memory_allocated/reserved, and spill to the host "
               "under pressure";
    case WarningCode::PipelineStagesUneven:
        return std::to_string(int64_t(w.value)) + " layers do not split evenly over " +
               std::to_string(int64_t(w.value2)) +
               " pipeline stages; the most loaded stage is reported";
    case WarningCode::DoesNotFit:
        return "does not fit: " + formatBytes(w.value) + " over the GPU's capacity";
    case WarningCode::Clamped:
        return "some figures exceed 4e18 bytes and are clamped";
    case WarningCode::FrameworkLacks:
        return std::string(toString(static_cast<Framework>(int(w.value2)))) + " has no " +
               std::string(knobLabel(static_cast<Knob>(int(w.value)))) +
               ": the estimate shows what it would take, but the run cannot be set up this way";
    case WarningCode::ServingFails:
        return "the inference server would not start: its KV cache cannot hold one request";
    case WarningCode::Float8AllGatherIgnored:
        return "parallelism.fsdp_float8_all_gather applies to fp8_mixed training under FSDP2 "
               "full shard (zero_stage 3, more than one data-parallel rank); it is ignored here";
    case WarningCode::ImageTokensBeyondSequence:
        return "the images of a sample make " + std::to_string(int64_t(w.value)) +
               " image tokens, more than the sequence of " + std::to_string(int64_t(w.value2)) +
               " tokens that holds them; raise training.sequence_length";
    case WarningCode::GenericModel:
        return "model_type is not one vramplan knows: planned as a generic decoder (attention, "
               "a gated MLP and RMSNorms from the config's standard fields, any checkpoint "
               "tensors beyond them as parameters of their own); items are marked generic";
    case WarningCode::CheckpointDiffers:
        return "the checkpoint's tensors hold " + std::to_string(int64_t(w.value)) +
               " parameters, the model's layers " + std::to_string(int64_t(w.value2)) +
               ": some tensors are not modelled";
    case WarningCode::PagedStatesSpill:
        return "the GPU cannot hold all the paged optimizer states: " + formatBytes(w.value) +
               " of them stay in host memory and move over PCIe at every optimizer step "
               "(the step runs, slower)";
    case WarningCode::VisionInputsWithoutTower:
        return "training.vision gives images, but the model has no vision tower vramplan counts; "
               "they are ignored";
    }
    return {};
}

nlohmann::json estimateToJson(const Estimate &e, const Scenario &s)
{
    using nlohmann::json;
    json perGpu = json::object();
    for (int i = 0; i < componentCount; ++i)
        perGpu[std::string(componentKey(static_cast<Component>(i)))] = asBytes(e.perGpu[i]);

    json items = json::array();
    for (const auto &item : e.items) {
        items.push_back({{"component", componentKey(item.component)},
                         {"name", item.name},
                         {"bytes", asBytes(item.bytes())},
                         {"count", item.count},
                         {"bytes_per_unit", asBytes(item.perUnit)},
                         {"formula", item.formula},
                         {"source", item.source},
                         {"at_peak", item.aliveIn(e.peak.phase)},
                         {"outside_allocator", item.outsideAllocator}});
        // A model planned generically (SPEC §3 layer kinds): every term rests on it.
        if (s.model.family == Family::Generic)
            items.back()["generic"] = true;
    }
    json timeline = json::array();
    for (const auto &ph : e.phases) {
        if (!ph.present)
            continue;
        json parts = json::object();
        for (int i = 0; i < componentCount; ++i)
            parts[std::string(componentKey(static_cast<Component>(i)))] =
                asBytes(ph.byComponent[i]);
        timeline.push_back({{"phase", phaseKey(ph.phase)},
                            {"label", phaseLabel(ph.phase)},
                            {"allocated_bytes", asBytes(ph.allocated)},
                            {"components", parts}});
    }
    json warnings = json::array();
    for (const auto &w : e.warnings)
        warnings.push_back(warningTextOf(e, w));

    json out = {{"format", "vramplan-estimate"},
            {"version", 1},
            {"parameters",
             {{"total", e.parameters.total},
              {"trainable", e.trainableParameters},
              {"embedding", e.parameters.embedding},
              {"per_layer", e.parameters.perLayer},
              {"output_head", e.parameters.outputHead}}},
            {"per_gpu_bytes", perGpu},
            {"peak",
             {{"allocated_bytes", asBytes(e.peak.allocated)},
              {"reserved_bytes", asBytes(e.peak.reserved)},
              {"device_bytes", asBytes(e.peak.device)},
              {"phase", phaseKey(e.peak.phase)},
              {"phase_label", phaseLabel(e.peak.phase)},
              {"pipeline_stage", e.pipelineStage}}},
            {"pipeline_stages",
             {{"first",
               {{"allocated_bytes", asBytes(e.firstStage.allocated)},
                {"reserved_bytes", asBytes(e.firstStage.reserved)},
                {"device_bytes", asBytes(e.firstStage.device)},
                {"phase", phaseKey(e.firstStage.phase)}}},
              {"last",
               {{"allocated_bytes", asBytes(e.lastStage.allocated)},
                {"reserved_bytes", asBytes(e.lastStage.reserved)},
                {"device_bytes", asBytes(e.lastStage.device)},
                {"phase", phaseKey(e.lastStage.phase)}}}}},
            {"gpu", {{"name", s.gpu.name}, {"capacity_bytes", asBytes(e.capacityBytes)}}},
            {"fits", e.fits},
            {"headroom_bytes",
             static_cast<int64_t>(std::llround(std::clamp(e.headroomBytes, -4.0e18, 4.0e18)))},
            {"items", items},
            {"timeline", timeline},
            {"warnings", warnings},
            {"scenario", scenarioToJson(s)}};
    if (e.serving.present)
        out["serving"] = servingJson(e.serving);
    if (e.rl.present) {
        out["rl_phases"] = rlPhasesJson(e.rl);
        out["rl"] = rlSummaryJson(e.rl);
    }
    return out;
}

std::string estimateTable(const Estimate &e, const Scenario &s, SizeUnit unit)
{
    std::string out;
    char line[256];
    std::snprintf(line, sizeof line, "%s\n",
                  s.name.empty() ? "(unnamed scenario)" : s.name.c_str());
    out += line;
    std::snprintf(line, sizeof line, "parameters: %.3f B total, %.3f B trainable\n",
                  double(e.parameters.total) / 1e9, double(e.trainableParameters) / 1e9);
    out += line;
    out += "\ncomponent            per GPU\n";
    for (int i = 0; i < componentCount; ++i) {
        // The KV cache is a component of serving plans only (serving.h).
        if (static_cast<Component>(i) == Component::KvCache && !e.serving.present &&
            !e.rl.present)
            continue;
        std::snprintf(line, sizeof line, "%-20s %12s\n",
                      std::string(componentLabel(static_cast<Component>(i))).c_str(),
                      formatBytes(e.perGpu[i], unit).c_str());
        out += line;
    }
    std::snprintf(
        line, sizeof line, "\npeak (%s): allocated %s, reserved %s, device %s\n",
        std::string(phaseLabel(e.peak.phase)).c_str(), formatBytes(e.peak.allocated, unit).c_str(),
        formatBytes(e.peak.reserved, unit).c_str(), formatBytes(e.peak.device, unit).c_str());
    out += line;
    std::snprintf(line, sizeof line, "GPU %s: %s; %s %s\n", s.gpu.name.c_str(),
                  formatBytes(e.capacityBytes, unit).c_str(),
                  e.fits ? "fits, headroom" : "DOES NOT FIT, over by",
                  formatBytes(std::fabs(e.headroomBytes), unit).c_str());
    out += line;
    out += "\nitems at the peak\n";
    for (const auto &item : e.items) {
        if (!item.aliveIn(e.peak.phase) || item.bytes() < 1)
            continue;
        std::snprintf(line, sizeof line, "  %-17s %-58.58s %12s\n",
                      std::string(componentKey(item.component)).c_str(),
                      std::string(item.name).c_str(), formatBytes(item.bytes(), unit).c_str());
        out += line;
    }
    if (const ServingPlan &p = e.serving; p.present) {
        out += "\nserving (" + std::string(toString(p.settings.engine)) + ", per GPU)\n";
        std::snprintf(line, sizeof line, "  budget             %12s of %s that CUDA reports\n",
                      formatBytes(p.budgetBytes, unit).c_str(),
                      formatBytes(p.cudaTotalBytes, unit).c_str());
        out += line;
        const std::pair<const char *, double> terms[] = {
            {"weights", p.weightsBytes},     {"activation peak", p.activationBytes},
            {"non-torch", p.nonTorchBytes}, {"CUDA graphs", p.cudaGraphBytes},
            {"KV cache", p.kvCacheBytes}};
        for (const auto &[label, bytes] : terms) {
            std::snprintf(line, sizeof line, "  %-18s %12s\n", label,
                          formatBytes(std::max(0.0, bytes), unit).c_str());
            out += line;
        }
        std::snprintf(line, sizeof line,
                      "  KV tokens          %12lld (%lld blocks of %lld, %.0f bytes per token)\n"
                      "  max concurrency    %12.2f requests of %lld tokens\n",
                      (long long)p.kvCacheTokens, (long long)p.kvBlocks,
                      (long long)p.settings.blockSize, p.kvBytesPerToken, p.maxConcurrency,
                      (long long)p.settings.maxModelLen);
        out += line;
        if (p.stateBytesPerSequence > 0) {
            std::snprintf(line, sizeof line,
                          "  recurrent state    %12s per sequence (in the KV cache's pool)\n",
                          formatBytes(p.stateBytesPerSequence, unit).c_str());
            out += line;
        }
    }
    if (e.rl.present)
        out += rlPhasesTable(e.rl, unit);
    if (!e.warnings.empty()) {
        out += "\nwarnings\n";
        for (const auto &w : e.warnings)
            out += "  - " + warningTextOf(e, w) + "\n";
    }
    return out;
}

} // namespace vramplan
