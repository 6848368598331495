// The pickle opcodes the main loop leaves: the text forms of protocols 0 and 1 (INT, LONG,
// FLOAT, STRING, UNICODE, DICT, LIST, GET, PUT), the refusals (anything that would import, call
// or build an object), and the opcode names errors use.

#include "runs/pickle_machine.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

namespace vramplan::pickle {

std::string_view opcodeName(uint8_t op)
{
    switch (op) {
// clang-format off
#define VRAMPLAN_OPCODE(name) \
    case name:                \
        return #name;
        VRAMPLAN_OPCODE(MARK) VRAMPLAN_OPCODE(STOP) VRAMPLAN_OPCODE(POP)
        VRAMPLAN_OPCODE(POP_MARK) VRAMPLAN_OPCODE(DUP) VRAMPLAN_OPCODE(FLOAT)
        VRAMPLAN_OPCODE(INT) VRAMPLAN_OPCODE(BININT) VRAMPLAN_OPCODE(BININT1)
        VRAMPLAN_OPCODE(LONG) VRAMPLAN_OPCODE(BININT2) VRAMPLAN_OPCODE(NONE)
        VRAMPLAN_OPCODE(PERSID) VRAMPLAN_OPCODE(BINPERSID) VRAMPLAN_OPCODE(REDUCE)
        VRAMPLAN_OPCODE(STRING) VRAMPLAN_OPCODE(BINSTRING) VRAMPLAN_OPCODE(SHORT_BINSTRING)
        VRAMPLAN_OPCODE(UNICODE) VRAMPLAN_OPCODE(BINUNICODE) VRAMPLAN_OPCODE(APPEND)
        VRAMPLAN_OPCODE(BUILD) VRAMPLAN_OPCODE(GLOBAL) VRAMPLAN_OPCODE(DICT)
        VRAMPLAN_OPCODE(EMPTY_DICT) VRAMPLAN_OPCODE(APPENDS) VRAMPLAN_OPCODE(GET)
        VRAMPLAN_OPCODE(BINGET) VRAMPLAN_OPCODE(INST) VRAMPLAN_OPCODE(LONG_BINGET)
        VRAMPLAN_OPCODE(LIST) VRAMPLAN_OPCODE(EMPTY_LIST) VRAMPLAN_OPCODE(OBJ)
        VRAMPLAN_OPCODE(PUT) VRAMPLAN_OPCODE(BINPUT) VRAMPLAN_OPCODE(LONG_BINPUT)
        VRAMPLAN_OPCODE(SETITEM) VRAMPLAN_OPCODE(TUPLE) VRAMPLAN_OPCODE(EMPTY_TUPLE)
        VRAMPLAN_OPCODE(SETITEMS) VRAMPLAN_OPCODE(BINFLOAT) VRAMPLAN_OPCODE(PROTO)
        VRAMPLAN_OPCODE(NEWOBJ) VRAMPLAN_OPCODE(EXT1) VRAMPLAN_OPCODE(EXT2)
        VRAMPLAN_OPCODE(EXT4) VRAMPLAN_OPCODE(TUPLE1) VRAMPLAN_OPCODE(TUPLE2)
        VRAMPLAN_OPCODE(TUPLE3) VRAMPLAN_OPCODE(NEWTRUE) VRAMPLAN_OPCODE(NEWFALSE)
        VRAMPLAN_OPCODE(LONG1) VRAMPLAN_OPCODE(LONG4) VRAMPLAN_OPCODE(BINBYTES)
        VRAMPLAN_OPCODE(SHORT_BINBYTES) VRAMPLAN_OPCODE(SHORT_BINUNICODE)
        VRAMPLAN_OPCODE(BINUNICODE8) VRAMPLAN_OPCODE(BINBYTES8) VRAMPLAN_OPCODE(EMPTY_SET)
        VRAMPLAN_OPCODE(ADDITEMS) VRAMPLAN_OPCODE(FROZENSET) VRAMPLAN_OPCODE(NEWOBJ_EX)
        VRAMPLAN_OPCODE(STACK_GLOBAL) VRAMPLAN_OPCODE(MEMOIZE) VRAMPLAN_OPCODE(FRAME)
        VRAMPLAN_OPCODE(BYTEARRAY8) VRAMPLAN_OPCODE(NEXT_BUFFER)
        VRAMPLAN_OPCODE(READONLY_BUFFER)
#undef VRAMPLAN_OPCODE
            // clang-format on
            default : return {};
    }
}

namespace {

void appendUtf8(std::string &out, uint32_t c)
{
    if (c < 0x80) {
        out += char(c);
    } else if (c < 0x800) {
        out += char(0xc0 | c >> 6);
        out += char(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        out += char(0xe0 | c >> 12);
        out += char(0x80 | (c >> 6 & 0x3f));
        out += char(0x80 | (c & 0x3f));
    } else {
        out += char(0xf0 | c >> 18);
        out += char(0x80 | (c >> 12 & 0x3f));
        out += char(0x80 | (c >> 6 & 0x3f));
        out += char(0x80 | (c & 0x3f));
    }
}

bool hexValue(std::string_view digits, uint32_t &value)
{
    value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value, 16);
    return ec == std::errc() && end == digits.data() + digits.size();
}

// UNICODE's raw-unicode-escape: \uXXXX and \UXXXXXXXX, every other byte a Latin-1 character.
bool rawUnicodeEscape(std::string_view text, std::string &out)
{
    for (std::size_t i = 0; i < text.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(text[i]);
        const std::size_t width = i + 1 < text.size() && c == '\\' ? (text[i + 1] == 'u'   ? 4
                                                                      : text[i + 1] == 'U' ? 8
                                                                                           : 0)
                                                                   : 0;
        if (width == 0) {
            appendUtf8(out, c);
            continue;
        }
        uint32_t code = 0;
        if (i + 2 + width > text.size() || !hexValue(text.substr(i + 2, width), code) ||
            code > 0x10ffff)
            return false;
        appendUtf8(out, code);
        i += 1 + width;
    }
    return true;
}

// STRING's quoted repr (Python 2 str): the escapes of codecs.escape_decode.
bool escapeDecode(std::string_view text, std::string &out)
{
    if (text.size() < 2 || (text.front() != '\'' && text.front() != '"') ||
        text.back() != text.front())
        return false;
    text = text.substr(1, text.size() - 2);
    static const std::string_view simple = "\\\\''\"\"a\ab\bf\fn\nr\rt\tv\v";
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\' || i + 1 == text.size()) {
            out += text[i];
            continue;
        }
        const char e = text[++i];
        if (const auto at = simple.find(e); at != std::string_view::npos && at % 2 == 0) {
            out += simple[at + 1];
        } else if (e == '\n') {
            // a line continuation: nothing
        } else if (e == 'x') {
            uint32_t v = 0;
            if (i + 2 >= text.size() || !hexValue(text.substr(i + 1, 2), v))
                return false;
            out += char(v);
            i += 2;
        } else if (e >= '0' && e <= '7') {
            uint32_t v = 0;
            std::size_t n = 0;
            while (n < 3 && i + n < text.size() && text[i + n] >= '0' && text[i + n] <= '7')
                v = v * 8 + uint32_t(text[i + n++] - '0');
            out += char(v & 0xff);
            i += n - 1;
        } else {
            out += '\\';
            out += e;
        }
    }
    return true;
}

bool decimalLine(Machine &m, uint64_t &value)
{
    std::string_view line;
    if (!m.line(line))
        return false;
    const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), value);
    if (ec != std::errc() || end != line.data() + line.size())
        return m.fail("expected a memo index, got text");
    return true;
}

// What each refused opcode would have done, for the error.
const char *refusal(uint8_t op)
{
    switch (op) {
    case GLOBAL:
    case STACK_GLOBAL:
    case EXT1:
    case EXT2:
    case EXT4:
        return "would import a Python object";
    case INST:
        return "would import a class and call it";
    case REDUCE:
    case OBJ:
    case NEWOBJ:
    case NEWOBJ_EX:
        return "would call an object";
    case BUILD:
        return "would set an object's state";
    case PERSID:
    case BINPERSID:
        return "would ask the loader for an object outside the file";
    default:
        return nullptr;
    }
}

} // namespace

bool Machine::pushDecimal(std::string_view digits)
{
    const char *first = digits.data(), *last = digits.data() + digits.size();
    if (first != last && *first == '+')
        ++first;
    int64_t i = 0;
    if (auto [end, ec] = std::from_chars(first, last, i); ec == std::errc() && end == last)
        return push(doc.makeInt(i));
    uint64_t u = 0;
    if (auto [end, ec] = std::from_chars(first, last, u); ec == std::errc() && end == last)
        return push(doc.makeUInt(u));
    double d = 0;
    if (auto [end, ec] = std::from_chars(first, last, d, std::chars_format::fixed);
        (ec == std::errc() || ec == std::errc::result_out_of_range) && end == last &&
        first != last && digits.find_first_not_of("+-0123456789") == std::string_view::npos) {
        if (!std::isfinite(d) || ec == std::errc::result_out_of_range)
            return fail("an integer of " + std::to_string(digits.size()) +
                        " digits is beyond a double's range");
        return push(doc.makeFloat(d));
    }
    return fail("expected a whole number");
}

bool Machine::otherOp()
{
    std::string_view arg;
    std::string text;
    std::size_t first = 0;
    uint64_t index = 0;
    if (const char *why = refusal(op)) {
        std::string what;
        if (op == GLOBAL || op == INST) { // name the module and the object it asks for
            more(120);                    // as much of the names as there is
            const std::string_view rest = in.substr(pos, 120);
            const std::size_t one = rest.find('\n');
            const std::size_t two = one == std::string_view::npos ? one : rest.find('\n', one + 1);
            if (two != std::string_view::npos)
                what = " '" + std::string(rest.substr(0, one)) + " " +
                       std::string(rest.substr(one + 1, two - one - 1)) + "'";
        }
        return fail(std::string(why) + what +
                    ": refused, only plain data is read (nothing was imported or run)");
    }
    switch (op) {
    case INT: // "I00" and "I01" are False and True (protocol 0 and 1)
        if (!line(arg))
            return false;
        if (arg == "00" || arg == "01")
            return push(DataDoc::makeBool(arg == "01"));
        return pushDecimal(arg);
    case LONG:
        if (!line(arg))
            return false;
        if (!arg.empty() && arg.back() == 'L')
            arg.remove_suffix(1);
        return pushDecimal(arg);
    case FLOAT: {
        if (!line(arg))
            return false;
        double d = 0;
        const auto [end, ec] = std::from_chars(arg.data(), arg.data() + arg.size(), d);
        if (ec != std::errc() || end != arg.data() + arg.size())
            return fail("expected a number");
        return push(doc.makeFloat(d));
    }
    case STRING:
        if (!line(arg))
            return false;
        if (!escapeDecode(arg, text))
            return fail("expected a quoted string");
        return pushString(text);
    case UNICODE:
        if (!line(arg))
            return false;
        if (!rawUnicodeEscape(arg, text))
            return fail("a \\u or \\U escape is malformed");
        return pushString(text);
    case DICT:
    case LIST:
        return popMark(first) && collect(op == DICT ? DataKind::Dict : DataKind::List, first);
    case GET:
        return decimalLine(*this, index) && memoGet(index);
    case PUT:
        return decimalLine(*this, index) && memoPut(index);
    case EMPTY_SET:
    case ADDITEMS:
    case FROZENSET:
        return fail("a set is not read (no memory snapshot holds one, and JSON has none)");
    case NEXT_BUFFER:
    case READONLY_BUFFER:
        return fail("out-of-band buffers are not read (a file has none)");
    default:
        return fail("not a pickle opcode");
    }
}

} // namespace vramplan::pickle
