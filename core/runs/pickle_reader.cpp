// The pickle reader's main loop and the binary opcodes of protocols 2-5: what pickle.dump
// writes for a torch memory snapshot, read at hundreds of MB/s (tests/bench/bench_runs.cpp).

#include "runs/pickle_machine.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace vramplan {
namespace pickle {

namespace {

// A little-endian integer of sizeof(T) bytes, whatever the machine's byte order.
template <typename T> T readLittle(const unsigned char *p)
{
    if constexpr (std::endian::native == std::endian::little) {
        T v;
        std::memcpy(&v, p, sizeof v);
        return v;
    } else {
        using U = std::make_unsigned_t<T>;
        U u = 0;
        for (std::size_t i = sizeof(T); i-- > 0;)
            u = U(u << 8 | p[i]);
        return T(u);
    }
}

} // namespace

bool Machine::run()
{
    for (;;) {
        if (!more(1)) {
            error = "offset " + std::to_string(base + pos) +
                    ": truncated: the pickle ends without STOP";
            return false;
        }
        opAt = base + pos;
        op = at()[0];
        ++pos;
        std::size_t first = 0; // where the items above a MARK begin
        DataValue a;
        switch (op) {
        case PROTO:
            if (!need(1))
                return false;
            if (at()[0] > 5)
                return fail("protocol " + std::to_string(at()[0]) + " is newer than 5");
            ++pos;
            break;
        case FRAME: // a length hint before the opcodes it frames: read on
            if (!need(8))
                return false;
            pos += 8;
            break;
        case EMPTY_DICT:
            if (!push(doc.newContainer(DataKind::Dict)))
                return false;
            break;
        case EMPTY_LIST:
            if (!push(doc.newContainer(DataKind::List)))
                return false;
            break;
        case EMPTY_TUPLE:
            if (!push(doc.newContainer(DataKind::Tuple)))
                return false;
            break;
        case MARK:
            if (marks.size() >= limits.maxDepth)
                return fail("more than " + std::to_string(limits.maxDepth) +
                            " MARKs open (nesting too deep)");
            marks.push_back(stack.size());
            break;
        case BININT:
            if (!need(4) || !push(doc.makeInt(readLittle<int32_t>(at()))))
                return false;
            pos += 4;
            break;
        case BININT1:
            if (!need(1) || !push(doc.makeInt(at()[0])))
                return false;
            pos += 1;
            break;
        case BININT2:
            if (!need(2) || !push(doc.makeInt(readLittle<uint16_t>(at()))))
                return false;
            pos += 2;
            break;
        case LONG1:
        case LONG4: {
            const std::size_t width = op == LONG1 ? 1 : 4;
            if (!need(width))
                return false;
            const int64_t n = op == LONG1 ? at()[0] : readLittle<int32_t>(at());
            if (n < 0)
                return fail("negative length " + std::to_string(n));
            pos += width;
            if (!need(std::size_t(n), "the integer") || !pushLong(at(), std::size_t(n)))
                return false;
            pos += std::size_t(n);
            break;
        }
        case BINFLOAT: { // big-endian IEEE 754 double
            if (!need(8))
                return false;
            uint64_t bits = 0;
            for (int i = 0; i < 8; ++i)
                bits = bits << 8 | at()[i];
            pos += 8;
            if (!push(doc.makeFloat(std::bit_cast<double>(bits))))
                return false;
            break;
        }
        case SHORT_BINUNICODE:
        case SHORT_BINBYTES:
        case SHORT_BINSTRING: // protocol 1's str (Python 2): its bytes, as a string
            if (!need(1))
                return false;
            ++pos;
            if (!readString(at()[-1]))
                return false;
            break;
        case BINUNICODE:
        case BINBYTES:
        case BINSTRING: {
            if (!need(4))
                return false;
            const int64_t n =
                op == BINSTRING ? readLittle<int32_t>(at()) : int64_t(readLittle<uint32_t>(at()));
            if (n < 0)
                return fail("negative length " + std::to_string(n));
            pos += 4;
            if (!readString(std::size_t(n)))
                return false;
            break;
        }
        case BINUNICODE8:
        case BINBYTES8:
        case BYTEARRAY8: {
            if (!need(8))
                return false;
            const uint64_t n = readLittle<uint64_t>(at());
            pos += 8;
            if (!readString(std::size_t(std::min<uint64_t>(n, SIZE_MAX))))
                return false;
            break;
        }
        case NONE:
            if (!push(DataDoc::none()))
                return false;
            break;
        case NEWTRUE:
        case NEWFALSE:
            if (!push(DataDoc::makeBool(op == NEWTRUE)))
                return false;
            break;
        case TUPLE1:
        case TUPLE2:
        case TUPLE3: {
            const std::size_t n = std::size_t(op - TUPLE1 + 1);
            if (stack.size() < fence() + n)
                return fail("stack underflow (a tuple of " + std::to_string(n) + " needs " +
                            std::to_string(n) + " values above the last MARK)");
            if (!collect(DataKind::Tuple, stack.size() - n))
                return false;
            break;
        }
        case TUPLE:
            if (!popMark(first) || !collect(DataKind::Tuple, first))
                return false;
            break;
        case APPEND:
            if (stack.size() < fence() + 1)
                return fail("stack underflow");
            if (!extend(stack.size() - 1, false))
                return false;
            break;
        case APPENDS:
            if (!popMark(first) || !extend(first, false))
                return false;
            break;
        case SETITEM:
            if (stack.size() < fence() + 2)
                return fail("stack underflow");
            if (!extend(stack.size() - 2, true))
                return false;
            break;
        case SETITEMS:
            if (!popMark(first) || !extend(first, true))
                return false;
            break;
        case BINPUT:
            if (!need(1) || !memoPut(at()[0]))
                return false;
            pos += 1;
            break;
        case LONG_BINPUT:
            if (!need(4) || !memoPut(readLittle<uint32_t>(at())))
                return false;
            pos += 4;
            break;
        case MEMOIZE:
            if (!memoPut(memo.size()))
                return false;
            break;
        case BINGET:
            if (!need(1) || !memoGet(at()[0]))
                return false;
            pos += 1;
            break;
        case LONG_BINGET:
            if (!need(4) || !memoGet(readLittle<uint32_t>(at())))
                return false;
            pos += 4;
            break;
        case POP: // CPython: the top value, or the innermost MARK where no value is above it
            if (stack.size() > fence())
                stack.pop_back();
            else if (!popMark(first))
                return false;
            break;
        case POP_MARK:
            if (!popMark(first))
                return false;
            stack.resize(first);
            break;
        case DUP:
            if (!pop(a) || !push(a) || !push(a))
                return false;
            break;
        case STOP:
            if (!pop(result))
                return false;
            return true; // what follows STOP is not read, as in Python
        default:
            if (!otherOp())
                return false;
            break;
        }
    }
}

} // namespace pickle

Parsed<DataDoc> readPickle(ByteSource &source, const DataLimits &limits)
{
    DataDoc doc;
    pickle::Machine machine(doc, source, limits);
    if (!machine.run())
        return Parsed<DataDoc>::fail(machine.error);
    doc.setRoot(machine.result);
    return Parsed<DataDoc>::ok(std::move(doc));
}

Parsed<DataDoc> readPickle(std::string_view bytes, const DataLimits &limits)
{
    ByteSource source(bytes);
    return readPickle(source, limits);
}

} // namespace vramplan
