#pragma once
// Plain data read from a measured run's file (a pickle or JSON): None, bools, numbers, strings,
// lists, tuples and dicts, held compactly: a snapshot of hundreds of megabytes takes under
// twice its size (nlohmann::json would take many times it; docs/measured-runs.md).
//
// A value is 8 bytes: three bits of kind, the rest an integer, a string's place in the
// document's pool or a container's number. Containers are shared, not copied: a pickle's memo
// reference to a list is the same list, so items appended to it later show wherever it is
// referenced (as in Python), and a frames list shared by ten thousand trace entries is stored
// once. The graph may therefore hold cycles; every reader of it bounds its depth.
//
// Example: doc.find(doc.root(), "segments") gives the segments list; doc.forEachItem(it, f).

#include "parsed.h"
#include "runs/chunked_vector.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>

namespace vramplan {

enum class DataKind : uint8_t
{
    None,
    Bool,
    Int,   // fits int64
    UInt,  // above int64, fits uint64
    Float, // a float, or an integer beyond uint64 (as the nearest double)
    String,
    List,
    Tuple,
    Dict
};
std::string_view dataKindName(DataKind kind); // "list"

class DataValue
{
public:
    constexpr DataValue() = default; // None
    constexpr bool operator==(const DataValue &) const = default;
    constexpr uint64_t bits() const { return bits_; } // identity, for caches keyed by value

private:
    friend class DataDoc;
    constexpr explicit DataValue(uint64_t bits) : bits_(bits) {}
    uint64_t bits_ = 0;
};

class DataDoc
{
public:
    // --- reading
    DataValue root() const { return root_; }
    DataKind kind(DataValue v) const;
    bool isNone(DataValue v) const { return v.bits_ == 0; }
    std::optional<bool> boolean(DataValue v) const;
    std::optional<int64_t> integer(DataValue v) const;          // Int only (not bools, not floats)
    std::optional<uint64_t> unsignedInteger(DataValue v) const; // Int >= 0 or UInt
    std::optional<double> number(DataValue v) const;            // Int, UInt or Float
    std::optional<std::string_view> string(DataValue v) const;
    bool isContainer(DataValue v) const { return (v.bits_ & 7) >= tagList; }
    // Items of a list or tuple, entries of a dict (a key given twice counts twice); 0 otherwise.
    std::size_t size(DataValue v) const;
    // The value under `key` in a dict (the last one, where a key is given twice, as in Python).
    std::optional<DataValue> find(DataValue dict, std::string_view key) const;
    // Item `index` of a list or tuple.
    std::optional<DataValue> at(DataValue sequence, std::size_t index) const;

    // f(item) for each item of a list or tuple; f(key, value) for each entry of a dict. Returning
    // false from f stops early (a void f runs to the end).
    template <typename F> void forEachItem(DataValue v, F &&f) const;
    template <typename F> void forEachEntry(DataValue v, F &&f) const;

    // "list of 3", "\"abc\"", "12": a value named in one line for an error message.
    std::string describe(DataValue v) const;
    // As JSON: tuples become arrays, dict keys that are not strings become their text (an int its
    // decimal digits, None "null", a bool "true"/"false"); a key that is a container, nesting
    // deeper than maxDepth (a cycle) or more than maxValues values (sharing multiplied out) is
    // refused with a sentence. Strings keep their bytes: dump with error_handler_t::replace.
    Parsed<nlohmann::json> toJson(DataValue v, int maxDepth = 256,
                                  std::size_t maxValues = std::size_t(1) << 22) const;
    // Bytes the document holds, for the reader's memory figures.
    std::size_t bytesHeld() const;

    // --- building (the readers)
    static constexpr std::size_t maxStringBytes = (std::size_t(1) << 29) - 1;
    static constexpr std::size_t maxPoolBytes = (std::size_t(1) << 32) - 1;
    void setRoot(DataValue v) { root_ = v; }
    static DataValue none() { return DataValue(0); }
    // A value no reader ever produces: marks an empty place (a pickle's unset memo entry).
    static DataValue unset() { return DataValue(24); }
    static DataValue makeBool(bool b) { return DataValue(b ? 16 : 8); }
    DataValue makeInt(int64_t v);
    DataValue makeUInt(uint64_t v);
    DataValue makeFloat(double v);
    // A string copied into the pool; nullopt past maxStringBytes or a pool of 4 GiB. `intern`:
    // a short string already in the pool is not copied again (JSON repeats its keys; a pickle
    // needs no help: its memo shares them).
    std::optional<DataValue> makeString(std::string_view text, bool intern = false);
    DataValue newContainer(DataKind kind); // List, Tuple or Dict
    // Appends items (a dict: key, value, key, value ...); false past maxItems in all containers.
    bool append(DataValue container, const DataValue *items, std::size_t count);
    std::size_t itemsHeld() const { return slots_.size(); }
    static constexpr std::size_t maxItems = (std::size_t(1) << 32) - 2;

private:
    // The low three bits of a value.
    enum : uint64_t
    {
        tagSpecial = 0, // None 0, False 8, True 16
        tagInt = 1,     // a signed 61-bit integer
        tagBoxed = 2,   // an entry of boxed_ (wider integers, floats)
        tagString = 3,  // offset (32 bits) and length (29 bits) in pool_
        tagList = 5,
        tagTuple = 6,
        tagDict = 7
    };
    struct Boxed
    {
        DataKind kind;
        union {
            int64_t i;
            uint64_t u;
            double d;
        };
    };
    // A run of a container's items in slots_; `next` is 1 + the index of the following run in
    // runs_ (0: none). Items appended while the container's last run ends the slots extend it.
    struct Run
    {
        uint32_t begin = 0, count = 0, next = 0;
    };
    struct Container
    {
        Run first;
        uint32_t last = 0; // 1 + index in runs_ of the last run; 0: `first` is the last
    };

    static uint64_t payload(DataValue v) { return v.bits_ >> 3; }
    std::string_view stringAt(DataValue v) const;
    template <typename F> bool forEachSlot(DataValue v, F &&f) const;

    std::string pool_;
    std::unordered_map<std::string, uint64_t> interned_; // short strings, by their text
    ChunkedVector<Boxed, 8> boxed_;
    ChunkedVector<DataValue> slots_;
    ChunkedVector<Container> containers_;
    ChunkedVector<Run, 8> runs_;
    DataValue root_;
};

// --- inline iteration: the analysis walks millions of trace entries through these.

template <typename F> bool DataDoc::forEachSlot(DataValue v, F &&f) const
{
    if (!isContainer(v))
        return true;
    const Container &box = containers_[payload(v)];
    const Run *run = &box.first;
    for (;;) {
        for (uint32_t i = 0; i < run->count; ++i)
            if (!f(slots_[std::size_t(run->begin) + i]))
                return false;
        if (run->next == 0)
            return true;
        run = &runs_[run->next - 1];
    }
}

template <typename F> void DataDoc::forEachItem(DataValue v, F &&f) const
{
    if ((v.bits_ & 7) != tagList && (v.bits_ & 7) != tagTuple)
        return;
    forEachSlot(v, [&](DataValue item) {
        if constexpr (std::is_void_v<decltype(f(item))>) {
            f(item);
            return true;
        } else {
            return bool(f(item));
        }
    });
}

template <typename F> void DataDoc::forEachEntry(DataValue v, F &&f) const
{
    if ((v.bits_ & 7) != tagDict)
        return;
    DataValue key;
    bool haveKey = false;
    forEachSlot(v, [&](DataValue item) {
        if (!haveKey) {
            key = item;
            haveKey = true;
            return true;
        }
        haveKey = false;
        if constexpr (std::is_void_v<decltype(f(key, item))>) {
            f(key, item);
            return true;
        } else {
            return bool(f(key, item));
        }
    });
}

} // namespace vramplan
