// The two JSON summaries a run may have written: the peak of
// torch.distributed._tools.mem_tracker.MemTracker and torch.cuda.memory_stats().

#include "runs/data_doc.h"
#include "runs/run_source.h"

namespace vramplan {

namespace {

// A byte count in `dict` under `key`: empty when absent; an error when not a whole number >= 0.
std::optional<int64_t> bytesAt(const DataDoc &doc, DataValue dict, std::string_view key,
                               const std::string &where, std::string &error)
{
    const auto v = doc.find(dict, key);
    if (!v || !error.empty())
        return std::nullopt;
    auto i = doc.integer(*v);
    if (!i) { // json.dump of a float that holds a whole number (1.0e9)
        const auto d = doc.number(*v);
        if (d && *d >= 0 && *d < 9.2e18 && *d == double(int64_t(*d)))
            i = int64_t(*d);
    }
    if (!i || *i < 0) {
        error = where + "." + std::string(key) + ": must be a whole number >= 0, got " +
                doc.describe(*v);
        return std::nullopt;
    }
    return i;
}

// A figure of memory_stats(), flat ("allocated_bytes.all.peak") or nested
// (memory_stats_as_nested_dict: allocated_bytes -> all -> peak).
std::optional<int64_t> statAt(const DataDoc &doc, DataValue stats, const std::string &metric,
                              const std::string &where, std::string &error)
{
    if (auto flat = bytesAt(doc, stats, metric + ".all.peak", where, error))
        return flat;
    const auto nested = doc.find(stats, metric);
    const auto all = nested ? doc.find(*nested, "all") : std::nullopt;
    return all ? bytesAt(doc, *all, "peak", where + "." + metric + ".all", error) : std::nullopt;
}

std::string cudaKey(int device)
{
    return "cuda:" + std::to_string(device);
}

} // namespace

// MemTracker's categories to the report's components (what each holds: mem_tracker.py's
// _MemRefType): parameters = PARAM + BUFFER (module buffers live with the weights, as in the
// estimate), gradients = GRAD, optimizer_states = OPT, activations = ACT, temporary = TEMP,
// framework = OTH (memory MemTracker saw but could not attribute). Total goes to the source's
// details: MemTracker counts tensor storages, not the allocator's blocks, so it is not
// torch.cuda.max_memory_allocated and the report's allocated peak stays null.
Parsed<RunSource> memTrackerSource(const DataDoc &doc, int device)
{
    using Result = Parsed<RunSource>;
    const auto peak = doc.find(doc.root(), "peak");
    if (doc.kind(*peak) != DataKind::Dict)
        return Result::fail("peak: must be a dict of devices, got " + doc.describe(*peak));
    const std::string key = cudaKey(device);
    const auto figures = doc.find(*peak, key);
    if (!figures || doc.kind(*figures) != DataKind::Dict) {
        std::string keys;
        doc.forEachEntry(*peak, [&](DataValue k, DataValue) {
            keys += (keys.empty() ? "" : ", ") + doc.describe(k);
        });
        return Result::fail("peak: no \"" + key + "\" dict (it has " +
                            (keys.empty() ? std::string("nothing") : keys) + ")");
    }
    std::string error;
    const std::string where = "peak." + key;
    auto at = [&](const char *name) { return bytesAt(doc, *figures, name, where, error); };
    const auto param = at("PARAM"), buffer = at("BUFFER"), grad = at("GRAD"), act = at("ACT"),
               temp = at("TEMP"), opt = at("OPT"), other = at("OTH"), total = at("Total");
    if (!error.empty())
        return Result::fail(error);
    RunSource s;
    s.kind = "mem_tracker";
    int64_t weights = 0;
    if (param && buffer && __builtin_add_overflow(*param, *buffer, &weights))
        return Result::fail(where + ": PARAM + BUFFER pass 2^63 bytes");
    if (param && buffer)
        s.components[int(RunComponent::Parameters)] = weights;
    s.components[int(RunComponent::Gradients)] = grad;
    s.components[int(RunComponent::OptimizerStates)] = opt;
    s.components[int(RunComponent::Activations)] = act;
    s.components[int(RunComponent::Temporary)] = temp;
    s.components[int(RunComponent::Framework)] = other;
    static constexpr const char *categories[runComponentCount] = {
        "MemTracker's PARAM + BUFFER", "MemTracker's GRAD", "MemTracker's OPT", "MemTracker's ACT",
        "MemTracker's TEMP",           "MemTracker's OTH"};
    for (int c = 0; c < runComponentCount; ++c)
        if (s.components[size_t(c)])
            s.rules.push_back({RunComponent(c), categories[c], *s.components[size_t(c)], 0});
    s.details["device"] = device;
    if (total)
        s.details["tracked_total_bytes"] = *total;
    return Result::ok(std::move(s));
}

// torch.cuda.memory_stats(): allocated_bytes.all.peak and reserved_bytes.all.peak, the figures
// of max_memory_allocated and max_memory_reserved. The stats are one device's; a dict of them
// by "cuda:N" is read for --device N.
Parsed<RunSource> memoryStatsSource(const DataDoc &doc, int device)
{
    using Result = Parsed<RunSource>;
    DataValue stats = doc.root();
    std::string where = "memory_stats";
    if (const auto perDevice = doc.find(stats, cudaKey(device))) {
        stats = *perDevice;
        where = cudaKey(device);
    } else if (!doc.find(stats, "allocated_bytes.all.peak") &&
               !doc.find(stats, "allocated_bytes") && !doc.find(stats, "reserved_bytes.all.peak") &&
               !doc.find(stats, "reserved_bytes")) {
        return Result::fail("no \"" + cudaKey(device) + "\" in the memory stats");
    }
    std::string error;
    RunSource s;
    s.kind = "memory_stats";
    s.allocated = statAt(doc, stats, "allocated_bytes", where, error);
    s.reserved = statAt(doc, stats, "reserved_bytes", where, error);
    const auto requested = statAt(doc, stats, "requested_bytes", where, error);
    if (!error.empty())
        return Result::fail(error);
    if (!s.allocated && !s.reserved)
        return Result::fail(where + ": neither allocated_bytes.all.peak nor "
                                    "reserved_bytes.all.peak is there");
    if (requested)
        s.details["requested_bytes_peak"] = *requested;
    return Result::ok(std::move(s));
}

} // namespace vramplan
