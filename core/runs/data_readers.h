#pragma once
// Reading a measured run's file into a DataDoc: a pickle of plain data (our own reader: nothing
// in it is ever imported, called or built) or JSON.
//
// The pickle reader takes protocols 2-5 (and the text forms of 0 and 1): the opcodes that
// pickle.dump writes for dicts, lists, tuples, str, bytes (read as str), int of any length,
// float, bool and None, with the memo and FRAMEs. It refuses, naming the opcode and its offset,
// every opcode that would import, call or build an object (GLOBAL, STACK_GLOBAL, REDUCE, BUILD,
// INST, OBJ, NEWOBJ, NEWOBJ_EX, EXT1/2/4, PERSID, BINPERSID) and the few that hold no plain data
// (sets, out-of-band buffers). Truncated input is an error, never a read past the end.
//
// Both read from a ByteSource, piece by piece: the file is never held whole.
//
// Example: readPickle(bytesOf("step.pickle")) gives the snapshot dict, or
// "offset 2: GLOBAL (opcode 0x63, 'os system') would import a Python object: refused ...".

#include "parsed.h"
#include "runs/byte_source.h"
#include "runs/data_doc.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace vramplan {

// Bounds on what a file may make the reader hold, each checked (a file past one is refused
// with a sentence that names it). Strings are also held to DataDoc::maxStringBytes and all
// containers together to DataDoc::maxItems.
struct DataLimits
{
    std::size_t maxStack = std::size_t(1) << 25;         // values waiting on the pickle stack
    std::size_t maxDepth = 512;                          // open MARKs, or JSON nesting
    std::size_t maxMemo = std::size_t(1) << 28;          // memo entries
    std::size_t maxStringBytes = std::size_t(256) << 20; // one string
};

Parsed<DataDoc> readPickle(ByteSource &source, const DataLimits &limits = {});
Parsed<DataDoc> readPickle(std::string_view bytes, const DataLimits &limits = {});
Parsed<DataDoc> readJsonData(ByteSource &source, const DataLimits &limits = {});
Parsed<DataDoc> readJsonData(std::string_view text, const DataLimits &limits = {});

} // namespace vramplan
