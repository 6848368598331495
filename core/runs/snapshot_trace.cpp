#include "runs/snapshot_trace.h"

#include <set>

namespace vramplan {

namespace {

// A byte count: a whole number >= 0, or the error naming `where`.
std::string byteCount(const DataDoc &doc, DataValue v, const std::string &where, int64_t &out)
{
    const auto i = doc.integer(v);
    if (!i || *i < 0)
        return where + ": must be a whole number >= 0, got " + doc.describe(v);
    out = *i;
    return {};
}

std::string addBytes(int64_t &sum, int64_t bytes, const std::string &where)
{
    if (__builtin_add_overflow(sum, bytes, &sum))
        return where + ": the sizes add up past 2^63 bytes";
    return {};
}

std::string segmentPath(std::size_t i)
{
    return "segments[" + std::to_string(i) + "]";
}

} // namespace

Parsed<SnapshotTrace> SnapshotTrace::open(const DataDoc &doc, int device)
{
    using Result = Parsed<SnapshotTrace>;
    SnapshotTrace t;
    t.doc = &doc;
    t.device = device;
    const DataValue root = doc.root();
    const auto segments = doc.find(root, "segments");
    if (doc.kind(root) != DataKind::Dict || !segments)
        return Result::fail("not a memory snapshot: expected a dict with segments and "
                            "device_traces, got " +
                            doc.describe(root));
    if (doc.kind(*segments) != DataKind::List)
        return Result::fail("segments: must be a list, got " + doc.describe(*segments));

    std::string error;
    std::set<int64_t> devices; // for the error when the device is not there
    std::size_t segmentIndex = 0;
    bool deviceSeen = false;
    doc.forEachItem(*segments, [&](DataValue segment) {
        const std::string path = segmentPath(segmentIndex++);
        const auto deviceValue = doc.find(segment, "device");
        const auto deviceOf = deviceValue ? doc.integer(*deviceValue) : std::nullopt;
        if (!deviceOf) {
            error = path + ".device: must be a whole number, got " +
                    (deviceValue ? doc.describe(*deviceValue) : std::string("nothing"));
            return false;
        }
        devices.insert(*deviceOf);
        if (*deviceOf != device)
            return true;
        deviceSeen = true;
        int64_t total = 0;
        const auto totalValue = doc.find(segment, "total_size");
        const auto blocks = doc.find(segment, "blocks");
        if (!totalValue)
            error = path + ".total_size: missing";
        else if (!blocks || doc.kind(*blocks) != DataKind::List)
            error = path + ".blocks: must be a list, got " +
                    (blocks ? doc.describe(*blocks) : std::string("nothing"));
        if (error.empty())
            error = byteCount(doc, *totalValue, path + ".total_size", total);
        if (error.empty())
            error = addBytes(t.endReserved, total, path + ".total_size");
        std::size_t blockIndex = 0;
        if (error.empty())
            doc.forEachItem(*blocks, [&](DataValue block) {
                const std::string where = path + ".blocks[" + std::to_string(blockIndex++) + "]";
                const auto state = doc.find(block, "state");
                const auto stateText = state ? doc.string(*state) : std::nullopt;
                if (!stateText) {
                    error = where + ".state: must be a string, got " +
                            (state ? doc.describe(*state) : std::string("nothing"));
                    return false;
                }
                // "active_awaiting_free" is the older releases' word for active_pending_free.
                const bool live = *stateText == "active_allocated" ||
                                  *stateText == "active_pending_free" ||
                                  *stateText == "active_awaiting_free";
                if (!live && *stateText != "inactive") {
                    error = where + ".state: unknown state " + doc.describe(*state);
                    return false;
                }
                if (!live)
                    return true;
                auto sizeValue = doc.find(block, "requested_size");
                const char *sizeKey = "requested_size";
                if (!sizeValue) {
                    sizeValue = doc.find(block, "size");
                    sizeKey = "size";
                }
                LiveBlock b;
                if (!sizeValue) {
                    error = where + ".size: missing";
                    return false;
                }
                error = byteCount(doc, *sizeValue, where + "." + sizeKey, b.bytes);
                if (error.empty())
                    error = addBytes(t.endAllocated, b.bytes, where + "." + sizeKey);
                const auto address = doc.find(block, "address");
                if (const auto a = address ? doc.unsignedInteger(*address) : std::nullopt)
                    b.address = *a;
                b.frames = doc.find(block, "frames");
                t.liveBlocks.push_back(b);
                return error.empty();
            });
        return error.empty();
    });
    if (!error.empty())
        return Result::fail(error);

    if (const auto traces = doc.find(root, "device_traces")) {
        if (doc.kind(*traces) != DataKind::List)
            return Result::fail("device_traces: must be a list, got " + doc.describe(*traces));
        const std::size_t count = doc.size(*traces);
        if (device >= 0 && std::size_t(device) < count) {
            t.trace_ = doc.at(*traces, std::size_t(device));
            if (doc.kind(*t.trace_) != DataKind::List)
                return Result::fail("device_traces[" + std::to_string(device) +
                                    "]: must be a list, got " + doc.describe(*t.trace_));
            t.entries = doc.size(*t.trace_);
        }
        if (std::size_t(device) >= count && !deviceSeen)
            return Result::fail("no device " + std::to_string(device) + " in the snapshot (" +
                                std::to_string(devices.size()) +
                                " device(s) in segments, device_traces for " +
                                std::to_string(count) + ")");
    } else if (!deviceSeen) {
        return Result::fail("no device " + std::to_string(device) + " in the snapshot");
    }
    if (const auto annotations = doc.find(root, "external_annotations")) {
        if (doc.kind(*annotations) != DataKind::List)
            return Result::fail("external_annotations: must be a list, got " +
                                doc.describe(*annotations));
        t.annotations = annotations;
    }
    return Result::ok(std::move(t));
}

namespace {

enum Field : uint8_t
{
    OtherField,
    ActionField,
    AddrField,
    SizeField,
    TimeField,
    FramesField
};

// 255: not a string (no action at all).
constexpr uint8_t notText = 255;

} // namespace

uint8_t SnapshotTrace::fieldOf(DataValue key) const
{
    for (const auto &[bits, field] : fields_)
        if (bits == key.bits())
            return field;
    const auto k = doc->string(key);
    const uint8_t field = !k                ? OtherField
                          : *k == "action"  ? ActionField
                          : *k == "addr"    ? AddrField
                          : *k == "size"    ? SizeField
                          : *k == "time_us" ? TimeField
                          : *k == "frames"  ? FramesField
                                            : OtherField;
    if (fields_.size() < 64)
        fields_.emplace_back(key.bits(), field);
    return field;
}

TraceAction SnapshotTrace::actionOf(DataValue action) const
{
    for (const auto &[bits, a] : actions_)
        if (bits == action.bits())
            return TraceAction(a);
    static constexpr std::pair<std::string_view, TraceAction> names[] = {
        {"alloc", TraceAction::Alloc},
        {"free_requested", TraceAction::FreeRequested},
        {"free_completed", TraceAction::FreeCompleted},
        {"segment_alloc", TraceAction::SegmentAlloc},
        {"segment_free", TraceAction::SegmentFree},
        {"segment_map", TraceAction::SegmentMap},
        {"segment_unmap", TraceAction::SegmentUnmap}};
    const auto text = doc->string(action);
    uint8_t found = text ? uint8_t(TraceAction::Other) : notText;
    for (const auto &[name, a] : names)
        if (text && *text == name)
            found = uint8_t(a);
    if (actions_.size() < 64)
        actions_.emplace_back(action.bits(), found);
    return TraceAction(found);
}

std::string SnapshotTrace::readEntry(std::size_t index, DataValue v, TraceEntry &out) const
{
    const auto where = [&](const char *key) {
        return "device_traces[" + std::to_string(device) + "][" + std::to_string(index) + "]" +
               (key[0] ? "." : "") + key;
    };
    if (doc->kind(v) != DataKind::Dict)
        return where("") + ": must be a dict, got " + doc->describe(v);
    out = TraceEntry{};
    std::optional<DataValue> action, addr, size, time;
    // One pass over the entry's keys (a few each; this runs for every entry of the trace).
    doc->forEachEntry(v, [&](DataValue key, DataValue value) {
        switch (fieldOf(key)) {
        case ActionField:
            action = value;
            break;
        case AddrField:
            addr = value;
            break;
        case SizeField:
            size = value;
            break;
        case TimeField:
            time = value;
            break;
        case FramesField:
            out.frames = value;
            break;
        default:
            break;
        }
    });
    const uint8_t a = action ? uint8_t(actionOf(*action)) : notText;
    if (a == notText)
        return where("action") + ": must be a string, got " +
               (action ? doc->describe(*action) : std::string("nothing"));
    out.action = TraceAction(a);
    if (time) {
        const auto t = doc->integer(*time);
        if (!t)
            return where("time_us") + ": must be a whole number, got " + doc->describe(*time);
        out.timeUs = *t;
    }
    if (out.action == TraceAction::Other)
        return {};
    if (!size)
        return where("size") + ": missing";
    const auto bytes = doc->integer(*size); // (the error's path is built only for an error)
    if (!bytes || *bytes < 0)
        return byteCount(*doc, *size, where("size"), out.size);
    out.size = *bytes;
    const auto addrValue = addr ? doc->unsignedInteger(*addr) : std::nullopt;
    if (!addrValue)
        return where("addr") + ": must be a whole number >= 0, got " +
               (addr ? doc->describe(*addr) : std::string("nothing"));
    out.addr = *addrValue;
    return {};
}

} // namespace vramplan
