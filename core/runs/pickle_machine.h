#pragma once
// The pickle reader's machine, shared by pickle_reader.cpp (the main loop and the binary opcodes
// of protocols 2-5) and pickle_text_ops.cpp (the text forms of protocols 0 and 1, the refusals
// and the opcode names). Internal to this room.
//
// Its stack and marks follow CPython's _pickle.c: a MARK fences the stack, and an opcode that
// pops may not reach below the innermost fence ("stack underflow").

#include "runs/data_readers.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace vramplan::pickle {

// The opcodes (CPython Lib/pickle.py), by protocol.
// A table, one protocol a paragraph:
// clang-format off
enum Op : uint8_t
{
    MARK = '(', STOP = '.', POP = '0', POP_MARK = '1', DUP = '2', FLOAT = 'F', INT = 'I',
    BININT = 'J', BININT1 = 'K', LONG = 'L', BININT2 = 'M', NONE = 'N', PERSID = 'P',
    BINPERSID = 'Q', REDUCE = 'R', STRING = 'S', BINSTRING = 'T', SHORT_BINSTRING = 'U',
    UNICODE = 'V', BINUNICODE = 'X', APPEND = 'a', BUILD = 'b', GLOBAL = 'c', DICT = 'd',
    EMPTY_DICT = '}', APPENDS = 'e', GET = 'g', BINGET = 'h', INST = 'i', LONG_BINGET = 'j',
    LIST = 'l', EMPTY_LIST = ']', OBJ = 'o', PUT = 'p', BINPUT = 'q', LONG_BINPUT = 'r',
    SETITEM = 's', TUPLE = 't', EMPTY_TUPLE = ')', SETITEMS = 'u', BINFLOAT = 'G',
    // protocol 2
    PROTO = 0x80, NEWOBJ = 0x81, EXT1 = 0x82, EXT2 = 0x83, EXT4 = 0x84, TUPLE1 = 0x85,
    TUPLE2 = 0x86, TUPLE3 = 0x87, NEWTRUE = 0x88, NEWFALSE = 0x89, LONG1 = 0x8a, LONG4 = 0x8b,
    // protocol 3
    BINBYTES = 'B', SHORT_BINBYTES = 'C',
    // protocol 4
    SHORT_BINUNICODE = 0x8c, BINUNICODE8 = 0x8d, BINBYTES8 = 0x8e, EMPTY_SET = 0x8f,
    ADDITEMS = 0x90, FROZENSET = 0x91, NEWOBJ_EX = 0x92, STACK_GLOBAL = 0x93, MEMOIZE = 0x94,
    FRAME = 0x95,
    // protocol 5
    BYTEARRAY8 = 0x96, NEXT_BUFFER = 0x97, READONLY_BUFFER = 0x98
};
// clang-format on

// "BINUNICODE"; "" for a byte that is no opcode.
std::string_view opcodeName(uint8_t op);

class Machine
{
public:
    Machine(DataDoc &doc, ByteSource &source, const DataLimits &limits);
    // Runs to STOP; false with `error` set.
    bool run();

    DataValue result;
    std::string error;

    // --- shared with pickle_text_ops.cpp
    DataDoc &doc;
    ByteSource &source;
    const DataLimits &limits;
    // The part of the file at hand: read 256 KiB at a time, what is taken let go (bytes in
    // memory are read in place).
    std::string window;
    std::string_view in; // window's bytes
    std::size_t pos = 0; // the next byte to read, in `in`
    uint64_t base = 0;   // the file's offset of in[0]
    uint64_t opAt = 0;   // the file's offset of the current opcode
    uint8_t op = 0;
    std::vector<DataValue> stack;
    std::vector<std::size_t> marks;
    ChunkedVector<DataValue> memo;

    // "offset N: NAME (opcode 0xNN): why"; returns false.
    bool fail(const std::string &why);
    // Whether `count` bytes are at pos, reading on as needed. Views into `in` end here.
    bool more(std::size_t count);
    // False (and the error) unless `count` more bytes are there.
    bool need(std::size_t count, const char *what = "its argument");
    const unsigned char *at() const
    {
        return reinterpret_cast<const unsigned char *>(in.data()) + pos;
    }
    // A protocol 0 argument: the text up to '\n', and past it.
    bool line(std::string_view &text);
    bool push(DataValue v);
    bool pop(DataValue &v);
    // Pops the innermost MARK: the stack index its items start at.
    bool popMark(std::size_t &base);
    bool memoPut(uint64_t index);
    bool memoGet(uint64_t index);
    // A string of `length` bytes at pos, then past it.
    bool readString(std::size_t length);
    bool pushString(std::string_view text);
    // An integer from its little-endian two's complement bytes (LONG1, LONG4).
    bool pushLong(const unsigned char *bytes, std::size_t length);
    // An integer written in decimal (INT, LONG): int64, uint64, or beyond as a double.
    bool pushDecimal(std::string_view digits);
    // The items above `base` into a new container of `kind` (dicts take them in pairs).
    bool collect(DataKind kind, std::size_t base);
    // The items above `base` appended to the list, or set in the dict, just below them.
    bool extend(std::size_t base, bool dict);

    // pickle_text_ops.cpp: an opcode the main loop does not take (text forms of protocols 0 and
    // 1, refusals, unknown bytes).
    bool otherOp();

private:
    std::size_t fence() const { return marks.empty() ? 0 : marks.back(); }
};

} // namespace vramplan::pickle
