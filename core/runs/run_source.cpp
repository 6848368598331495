// Which kind of file a measured run's file is, and a torch snapshot's figures: the replay, the
// phases and the components at the peak.

#include "runs/run_source.h"
#include "runs/byte_source.h"
#include "runs/data_readers.h"
#include "runs/snapshot_components.h"
#include "runs/snapshot_replay.h"

#include <cctype>

namespace vramplan {

std::string_view runComponentKey(RunComponent c)
{
    static constexpr std::string_view keys[] = {"parameters",  "gradients", "optimizer_states",
                                                "activations", "temporary", "framework",
                                                "unknown"};
    return keys[static_cast<int>(c)];
}

Parsed<RunSource> snapshotSource(const DataDoc &doc, int device)
{
    using Result = Parsed<RunSource>;
    auto trace = SnapshotTrace::open(doc, device);
    if (!trace)
        return Result::fail(trace.error);
    auto replay = replaySnapshot(*trace.value);
    if (!replay)
        return Result::fail(replay.error);
    const SnapshotReplay &r = *replay.value;
    RunSource s;
    s.kind = "torch_snapshot";
    s.allocated = r.peakAllocated;
    s.reserved = r.peakReserved;
    s.timeline = std::move(replay.value->timeline);
    nlohmann::json &d = s.details;
    d["device"] = device;
    d["trace_entries"] = trace.value->entries;
    d["end_allocated_bytes"] = trace.value->endAllocated;
    d["end_reserved_bytes"] = trace.value->endReserved;
    if (trace.value->entries == 0) {
        // Only the moment of the snapshot is known: no peak, no components (never guessed).
        d["note"] = "no trace for this device (history not recorded): only the state when the "
                    "snapshot was taken is known";
        return Result::ok(std::move(s));
    }
    d["allocated_at_trace_start_bytes"] = r.startAllocated;
    d["reserved_at_trace_start_bytes"] = r.startReserved;
    d["t_us_from"] = r.timeFromTrace ? "time_us" : "entry index";
    if (r.timeFromTrace)
        d["time_origin_us"] = r.timeOriginUs;
    d["peak_state"] = r.peakState; // 0: before the first entry; k: after entry k-1

    FrameFacts facts(doc);
    auto phases = stepPhases(*trace.value, facts);
    if (!phases)
        return Result::fail(phases.error);
    d["phases_from"] = phases.value->source;
    if (r.peakState > 0)
        if (const auto key = stepPhaseKey(phases.value->ofEntry[r.peakState - 1]); !key.empty())
            s.phase = std::string(key);
    auto components =
        componentsAtPeak(*trace.value, *phases.value, facts, r.peakState, *r.peakAllocated);
    if (!components)
        return Result::fail(components.error);
    s.components = components.value->bytes;
    s.unknownBytes = components.value->unknownBytes;
    s.rules = std::move(components.value->rules);
    return Result::ok(std::move(s));
}

namespace {

// What the dict at a file's top says it is.
Parsed<RunSource> sourceOfDoc(const DataDoc &doc, int device)
{
    const DataValue root = doc.root();
    if (doc.kind(root) == DataKind::Dict) {
        if (doc.find(root, "segments") || doc.find(root, "device_traces"))
            return snapshotSource(doc, device);
        if (doc.find(root, "peak"))
            return memTrackerSource(doc, device);
        bool stats = false;
        doc.forEachEntry(root, [&](DataValue key, DataValue) {
            const auto k = doc.string(key);
            stats = stats || (k && (k->starts_with("allocated_bytes") ||
                                    k->starts_with("reserved_bytes") || k->starts_with("cuda:")));
        });
        if (stats)
            return memoryStatsSource(doc, device);
    }
    return Parsed<RunSource>::fail(
        "not a run file vramplan reads: expected a torch memory snapshot (a dict with segments "
        "and device_traces), MemTracker's peak (a dict with peak) or torch.cuda.memory_stats() "
        "(allocated_bytes.all.peak ...), got " +
        doc.describe(root));
}

bool looksLikeCsv(std::string_view text)
{
    std::string head(text.substr(0, 9));
    for (char &c : head)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    // nvidia-smi's timestamp: 2024/05/01 12:00:00.123
    const bool dated = text.size() > 10 && std::isdigit(static_cast<unsigned char>(text[0])) &&
                       text[4] == '/' && text[7] == '/';
    return head == "timestamp" || dated;
}

} // namespace

Parsed<RunSource> readRunSource(const std::string &name, ByteSource &bytes, int device)
{
    using Result = Parsed<RunSource>;
    // The first bytes say the kind; whitespace and a UTF-8 BOM before JSON or CSV are skipped.
    const std::string_view head = bytes.peek(4096);
    std::size_t start = head.substr(0, 3) == "\xef\xbb\xbf" ? 3 : 0;
    while (start < head.size() && std::isspace(static_cast<unsigned char>(head[start])))
        ++start;
    if (start == head.size())
        return Result::fail(head.empty() ? "empty file" : "nothing but white space");
    const unsigned char first = static_cast<unsigned char>(head[start]);
    Parsed<RunSource> source;
    std::string encoding;
    if (first == 0x80 || (start == 0 && (first == '(' || first == '}' || first == ']'))) {
        // A pickle: protocol 2 and later begin with PROTO; 0 and 1 with a MARK or an empty
        // dict or list.
        encoding = "pickle";
        auto doc = readPickle(bytes);
        source = doc ? sourceOfDoc(*doc.value, device) : Result::fail(doc.error);
    } else if (first == '{' || first == '[') {
        encoding = "json";
        auto doc = readJsonData(bytes);
        source = doc ? sourceOfDoc(*doc.value, device) : Result::fail(doc.error);
    } else if (looksLikeCsv(head.substr(start))) {
        encoding = "csv";
        const std::string text = bytes.rest();
        source = nvidiaSmiSource(std::string_view(text).substr(start), device);
    } else {
        return Result::fail("not a run file vramplan reads: expected a torch memory snapshot "
                            "(pickle or JSON), MemTracker or memory_stats JSON, or an "
                            "nvidia-smi CSV log");
    }
    if (source) {
        source.value->file = name;
        source.value->details["encoding"] = encoding;
    }
    return source;
}

Parsed<RunSource> readRunSource(const std::string &name, std::string_view bytes, int device)
{
    ByteSource source(bytes);
    return readRunSource(name, source, device);
}

} // namespace vramplan
