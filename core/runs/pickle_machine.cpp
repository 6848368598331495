// The pickle machine's stack, memo and values: what every opcode shares (pickle_machine.h).

#include "runs/pickle_machine.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace vramplan::pickle {

Machine::Machine(DataDoc &d, ByteSource &s, const DataLimits &l) : doc(d), source(s), limits(l) {}

bool Machine::more(std::size_t count)
{
    constexpr std::size_t chunk = std::size_t(256) << 10;
    if (in.size() - pos >= count)
        return true;
    if (source.inMemory()) { // read in place: the whole of it is the window
        if (in.empty() && base == 0)
            in = source.takeAll();
        return in.size() - pos >= count;
    }
    window.erase(0, pos); // what is taken goes; the rest moves to the front
    base += pos;
    pos = 0;
    while (window.size() < count) {
        const std::size_t had = window.size();
        window.resize(had + std::max(chunk, count - had));
        const std::size_t got = source.read(window.data() + had, window.size() - had);
        window.resize(had + got);
        if (got == 0)
            break;
    }
    in = window;
    return window.size() >= count;
}

bool Machine::line(std::string_view &text)
{
    constexpr std::size_t longest = std::size_t(1) << 20;
    for (std::size_t searched = 0;;) {
        const std::size_t end = in.find('\n', pos + searched);
        if (end != std::string_view::npos) {
            text = in.substr(pos, end - pos);
            pos = end + 1;
            return true;
        }
        searched = in.size() - pos;
        if (searched > longest)
            return fail("a text argument longer than 1 MiB");
        if (!more(searched + 1))
            return fail("truncated: its text argument has no end of line");
    }
}

bool Machine::fail(const std::string &why)
{
    static const char hex[] = "0123456789abcdef";
    const std::string_view name = opcodeName(op);
    std::string code = "0x";
    code += hex[op >> 4];
    code += hex[op & 15];
    error =
        "offset " + std::to_string(opAt) + ": " +
        (name.empty() ? "unknown opcode " + code : std::string(name) + " (opcode " + code + ")") +
        ": " + why;
    return false;
}

bool Machine::need(std::size_t count, const char *what)
{
    if (in.size() - pos >= count || more(count))
        return true;
    return fail(std::string("truncated: ") + what + " needs " + std::to_string(count) + " bytes, " +
                std::to_string(in.size() - pos) + " left");
}

bool Machine::push(DataValue v)
{
    if (stack.size() >= limits.maxStack)
        return fail("more than " + std::to_string(limits.maxStack) + " values on the stack");
    stack.push_back(v);
    return true;
}

bool Machine::pop(DataValue &v)
{
    if (stack.size() <= fence())
        return fail("stack underflow (nothing to take above the last MARK)");
    v = stack.back();
    stack.pop_back();
    return true;
}

bool Machine::popMark(std::size_t &base)
{
    if (marks.empty())
        return fail("no MARK to take items from");
    base = marks.back();
    marks.pop_back();
    return true;
}

bool Machine::memoPut(uint64_t index)
{
    if (stack.size() <= fence())
        return fail("stack underflow (nothing to remember)");
    // Picklers number the memo 0, 1, 2 ...: a far index would only make the memo huge.
    if (index >= limits.maxMemo || index > memo.size() + 65536)
        return fail("memo index " + std::to_string(index) + " is out of sequence (memo holds " +
                    std::to_string(memo.size()) + ")");
    memo.growTo(std::size_t(index) + 1, DataDoc::unset());
    memo[std::size_t(index)] = stack.back();
    return true;
}

bool Machine::memoGet(uint64_t index)
{
    if (index >= memo.size() || memo[std::size_t(index)] == DataDoc::unset())
        return fail("memo entry " + std::to_string(index) + " was never stored");
    return push(memo[std::size_t(index)]);
}

bool Machine::readString(std::size_t length)
{
    if (length > limits.maxStringBytes || length > DataDoc::maxStringBytes)
        return fail("a string of " + std::to_string(length) + " bytes is over the limit of " +
                    std::to_string(std::min(limits.maxStringBytes, DataDoc::maxStringBytes)));
    if (!need(length, "the string") || !pushString(in.substr(pos, length)))
        return false;
    pos += length;
    return true;
}

bool Machine::pushString(std::string_view text)
{
    const auto v = text.size() <= limits.maxStringBytes ? doc.makeString(text) : std::nullopt;
    if (!v)
        return fail("a string of " + std::to_string(text.size()) + " bytes is over the limit");
    return push(*v);
}

bool Machine::pushLong(const unsigned char *b, std::size_t n)
{
    const bool negative = n > 0 && (b[n - 1] & 0x80);
    // Bytes above the low eight that only extend the sign: the value fits 64 bits.
    std::size_t significant = n;
    while (significant > 8 && b[significant - 1] == (negative ? 0xff : 0x00))
        --significant;
    if (significant <= 8) {
        uint64_t u = negative ? ~uint64_t(0) : 0;
        for (std::size_t i = 0; i < std::min<std::size_t>(n, 8); ++i)
            u = (u & ~(uint64_t(0xff) << (8 * i))) | (uint64_t(b[i]) << (8 * i));
        const bool signOk = (u >> 63) == uint64_t(negative);
        if (signOk)
            return push(doc.makeInt(int64_t(u)));
        if (!negative && significant <= 8)
            return push(doc.makeUInt(u)); // 2^63 .. 2^64-1 (written with a ninth byte 0)
    }
    // Beyond 64 bits: the nearest double, refused past a double's range.
    if (n > 128)
        return fail("an integer of " + std::to_string(n) + " bytes is beyond a double's range");
    double magnitude = 0;
    for (std::size_t i = n; i-- > 0;)
        magnitude = magnitude * 256 + double(negative ? uint8_t(~b[i]) : b[i]);
    if (negative)
        magnitude += 1;
    if (!std::isfinite(magnitude))
        return fail("an integer of " + std::to_string(n) + " bytes is beyond a double's range");
    return push(doc.makeFloat(negative ? -magnitude : magnitude));
}

bool Machine::collect(DataKind kind, std::size_t base)
{
    const std::size_t count = stack.size() - base;
    if (kind == DataKind::Dict && count % 2 != 0)
        return fail("a dict needs keys and values in pairs, got " + std::to_string(count) +
                    " items");
    const DataValue box = doc.newContainer(kind);
    if (!doc.append(box, stack.data() + base, count))
        return fail("more items than the reader holds in all containers");
    stack.resize(base);
    return push(box);
}

bool Machine::extend(std::size_t base, bool dict)
{
    if (base == 0 || base - 1 < fence())
        return fail("stack underflow (no container below the items)");
    const DataValue target = stack[base - 1];
    const DataKind kind = doc.kind(target);
    if (kind != (dict ? DataKind::Dict : DataKind::List))
        return fail(std::string("needs a ") + (dict ? "dict" : "list") +
                    " below its items, found " + doc.describe(target));
    const std::size_t count = stack.size() - base;
    if (dict && count % 2 != 0)
        return fail("keys and values come in pairs, got " + std::to_string(count) + " items");
    for (std::size_t i = base; dict && i < stack.size(); i += 2)
        if (const DataKind k = doc.kind(stack[i]); k == DataKind::List || k == DataKind::Dict)
            return fail("a dict key is a " + std::string(dataKindName(k)) + " (unhashable)");
    if (!doc.append(target, stack.data() + base, count))
        return fail("more items than the reader holds in all containers");
    stack.resize(base);
    return true;
}

} // namespace vramplan::pickle
