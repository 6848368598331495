#include "runs/data_doc.h"

#include <cmath>
#include <cstring>

namespace vramplan {

namespace {

constexpr int64_t inlineMin = -(int64_t(1) << 60);
constexpr int64_t inlineMax = (int64_t(1) << 60) - 1;

} // namespace

std::string_view dataKindName(DataKind kind)
{
    static constexpr std::string_view names[] = {"None", "bool", "int",   "int", "float",
                                                 "str",  "list", "tuple", "dict"};
    return names[static_cast<int>(kind)];
}

DataKind DataDoc::kind(DataValue v) const
{
    switch (v.bits_ & 7) {
    case tagSpecial:
        return v.bits_ == 0 ? DataKind::None : DataKind::Bool;
    case tagInt:
        return DataKind::Int;
    case tagBoxed:
        return boxed_[payload(v)].kind;
    case tagString:
        return DataKind::String;
    case tagList:
        return DataKind::List;
    case tagTuple:
        return DataKind::Tuple;
    default:
        return DataKind::Dict;
    }
}

std::optional<bool> DataDoc::boolean(DataValue v) const
{
    if ((v.bits_ & 7) != tagSpecial || v.bits_ == 0)
        return std::nullopt;
    return v.bits_ == 16;
}

std::optional<int64_t> DataDoc::integer(DataValue v) const
{
    if ((v.bits_ & 7) == tagInt)
        return static_cast<int64_t>(v.bits_) >> 3; // arithmetic shift (C++20)
    if ((v.bits_ & 7) == tagBoxed && boxed_[payload(v)].kind == DataKind::Int)
        return boxed_[payload(v)].i;
    return std::nullopt;
}

std::optional<uint64_t> DataDoc::unsignedInteger(DataValue v) const
{
    if (auto i = integer(v))
        return *i >= 0 ? std::optional<uint64_t>(uint64_t(*i)) : std::nullopt;
    if ((v.bits_ & 7) == tagBoxed && boxed_[payload(v)].kind == DataKind::UInt)
        return boxed_[payload(v)].u;
    return std::nullopt;
}

std::optional<double> DataDoc::number(DataValue v) const
{
    if (auto i = integer(v))
        return double(*i);
    if ((v.bits_ & 7) != tagBoxed)
        return std::nullopt;
    const Boxed &b = boxed_[payload(v)];
    return b.kind == DataKind::UInt ? double(b.u) : b.d;
}

std::string_view DataDoc::stringAt(DataValue v) const
{
    const uint64_t p = payload(v);
    const std::size_t offset = p & 0xffffffffu, length = p >> 32;
    return std::string_view(pool_).substr(offset, length);
}

std::optional<std::string_view> DataDoc::string(DataValue v) const
{
    if ((v.bits_ & 7) != tagString)
        return std::nullopt;
    return stringAt(v);
}

std::size_t DataDoc::size(DataValue v) const
{
    std::size_t n = 0;
    forEachSlot(v, [&n](DataValue) {
        ++n;
        return true;
    });
    return (v.bits_ & 7) == tagDict ? n / 2 : n;
}

std::optional<DataValue> DataDoc::find(DataValue dict, std::string_view key) const
{
    std::optional<DataValue> found;
    forEachEntry(dict, [&](DataValue k, DataValue value) {
        if ((k.bits_ & 7) == tagString && (payload(k) >> 32) == key.size() && stringAt(k) == key)
            found = value;
    });
    return found;
}

std::optional<DataValue> DataDoc::at(DataValue sequence, std::size_t index) const
{
    std::optional<DataValue> found;
    std::size_t i = 0;
    forEachItem(sequence, [&](DataValue item) {
        if (i++ == index)
            found = item;
        return !found;
    });
    return found;
}

std::string DataDoc::describe(DataValue v) const
{
    switch (kind(v)) {
    case DataKind::None:
        return "None";
    case DataKind::Bool:
        return *boolean(v) ? "True" : "False";
    case DataKind::Int:
        return std::to_string(*integer(v));
    case DataKind::UInt:
        return std::to_string(boxed_[payload(v)].u);
    case DataKind::Float:
        return nlohmann::json(boxed_[payload(v)].d).dump();
    case DataKind::String: {
        std::string text = nlohmann::json(std::string(stringAt(v).substr(0, 40)))
                               .dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
        return stringAt(v).size() > 40 ? text.substr(0, text.size() - 1) + "...\"" : text;
    }
    default:
        return std::string(dataKindName(kind(v))) + " of " + std::to_string(size(v));
    }
}

namespace {

struct JsonWriter
{
    const DataDoc &doc;
    int maxDepth;
    std::size_t budget;
    std::string error;

    bool key(DataValue k, std::string &out)
    {
        switch (doc.kind(k)) {
        case DataKind::String:
            out = std::string(*doc.string(k));
            return true;
        case DataKind::None:
            out = "null";
            return true;
        case DataKind::Bool:
            out = *doc.boolean(k) ? "true" : "false";
            return true;
        case DataKind::Int:
        case DataKind::UInt:
        case DataKind::Float:
            out = doc.describe(k); // an int's decimal digits
            return true;
        default:
            error = "a dict key is a " + std::string(dataKindName(doc.kind(k))) +
                    ", which JSON cannot hold";
            return false;
        }
    }

    bool write(DataValue v, nlohmann::json &out, int depth)
    {
        if (budget-- == 0) {
            error = "more values than a JSON copy may hold (shared lists multiply out)";
            return false;
        }
        if (depth > maxDepth) {
            error = "nested deeper than " + std::to_string(maxDepth) + " levels (a cycle?)";
            return false;
        }
        bool ok = true;
        switch (doc.kind(v)) {
        case DataKind::None:
            out = nullptr;
            break;
        case DataKind::Bool:
            out = *doc.boolean(v);
            break;
        case DataKind::Int:
            out = *doc.integer(v);
            break;
        case DataKind::UInt:
            out = *doc.unsignedInteger(v);
            break;
        case DataKind::Float:
            out = *doc.number(v);
            break;
        case DataKind::String:
            out = std::string(*doc.string(v));
            break;
        case DataKind::List:
        case DataKind::Tuple:
            out = nlohmann::json::array();
            doc.forEachItem(v, [&](DataValue item) {
                out.push_back(nullptr);
                return ok = write(item, out.back(), depth + 1);
            });
            break;
        case DataKind::Dict: {
            out = nlohmann::json::object();
            std::string name;
            doc.forEachEntry(v, [&](DataValue k, DataValue value) {
                ok = key(k, name) && write(value, out[name], depth + 1);
                return ok;
            });
            break;
        }
        }
        return ok;
    }
};

} // namespace

Parsed<nlohmann::json> DataDoc::toJson(DataValue v, int maxDepth, std::size_t maxValues) const
{
    JsonWriter writer{*this, maxDepth, maxValues, {}};
    nlohmann::json out;
    if (!writer.write(v, out, 0))
        return Parsed<nlohmann::json>::fail(writer.error);
    return Parsed<nlohmann::json>::ok(std::move(out));
}

std::size_t DataDoc::bytesHeld() const
{
    return pool_.capacity() + interned_.size() * 48 + boxed_.capacityBytes() +
           slots_.capacityBytes() + containers_.capacityBytes() + runs_.capacityBytes();
}

DataValue DataDoc::makeInt(int64_t v)
{
    if (v >= inlineMin && v <= inlineMax)
        return DataValue((static_cast<uint64_t>(v) << 3) | tagInt);
    Boxed b{DataKind::Int, {}};
    b.i = v;
    boxed_.push_back(b);
    return DataValue((uint64_t(boxed_.size() - 1) << 3) | tagBoxed);
}

DataValue DataDoc::makeUInt(uint64_t v)
{
    if (v <= uint64_t(inlineMax))
        return makeInt(int64_t(v));
    Boxed b{v <= uint64_t(INT64_MAX) ? DataKind::Int : DataKind::UInt, {}};
    b.u = v;
    boxed_.push_back(b);
    return DataValue((uint64_t(boxed_.size() - 1) << 3) | tagBoxed);
}

DataValue DataDoc::makeFloat(double v)
{
    Boxed b{DataKind::Float, {}};
    b.d = v;
    boxed_.push_back(b);
    return DataValue((uint64_t(boxed_.size() - 1) << 3) | tagBoxed);
}

std::optional<DataValue> DataDoc::makeString(std::string_view text, bool intern)
{
    if (text.size() > maxStringBytes || pool_.size() + text.size() > maxPoolBytes)
        return std::nullopt;
    intern = intern && text.size() <= 32;
    if (intern)
        if (const auto it = interned_.find(std::string(text)); it != interned_.end())
            return DataValue(it->second);
    const std::size_t offset = pool_.size();
    pool_.append(text);
    const DataValue v(((uint64_t(text.size()) << 32 | uint64_t(offset)) << 3) | tagString);
    if (intern)
        interned_.emplace(std::string(text), v.bits_);
    return v;
}

DataValue DataDoc::newContainer(DataKind kind)
{
    containers_.push_back(Container{});
    const uint64_t tag = kind == DataKind::Dict    ? tagDict
                         : kind == DataKind::Tuple ? tagTuple
                                                   : tagList;
    return DataValue((uint64_t(containers_.size() - 1) << 3) | tag);
}

bool DataDoc::append(DataValue container, const DataValue *items, std::size_t count)
{
    if (count == 0)
        return true;
    if (slots_.size() + count > maxItems)
        return false;
    Container &box = containers_[payload(container)];
    Run *last = box.last == 0 ? &box.first : &runs_[box.last - 1];
    if (last->count == 0 && box.last == 0) {
        last->begin = uint32_t(slots_.size());
    } else if (std::size_t(last->begin) + last->count != slots_.size()) {
        // The container's items no longer end the slots: start a run of its own (runs_ never
        // moves its elements, so `last` stays valid).
        runs_.push_back(Run{uint32_t(slots_.size()), 0, 0});
        last->next = uint32_t(runs_.size());
        box.last = uint32_t(runs_.size());
        last = &runs_.back();
    }
    for (std::size_t i = 0; i < count; ++i)
        slots_.push_back(items[i]);
    last->count += uint32_t(count);
    return true;
}

} // namespace vramplan
