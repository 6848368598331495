// The pickle reader of core/runs (data_readers.h): every opcode a torch memory snapshot's pickle
// uses, protocols 0-5, values of every width, the memo's sharing, the refusal of everything that
// would import, call or build an object, the bounds, and truncation at every offset.

#include "runs/data_readers.h"

#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

using namespace vramplan;

namespace {

std::string fixture(const char *name)
{
    QFile f(QStringLiteral(VRAMPLAN_TEST_DATA "/runs/") + QLatin1String(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

// The pickle's value as compact JSON, or "error: ..." where it is refused.
std::string read(const QByteArray &pickle, const DataLimits &limits = {})
{
    const std::string bytes = pickle.toStdString();
    auto doc = readPickle(std::string_view(bytes), limits);
    if (!doc)
        return "error: " + doc.error;
    auto json = doc.value->toJson(doc.value->root(), 64, 10000);
    return json ? json.value->dump() : "toJson error: " + json.error;
}

// A literal's bytes, NULs included (QByteArray(const char *) stops at the first).
template <std::size_t N> QByteArray bytes(const char (&literal)[N])
{
    return QByteArray(literal, int(N - 1));
}

} // namespace

class TestPickleReader : public QObject
{
    Q_OBJECT

private slots:
    void values_data()
    {
        QTest::addColumn<QByteArray>("pickle");
        QTest::addColumn<QString>("json");
        const auto row = [](const char *name, const QByteArray &p, const char *json) {
            QTest::newRow(name) << p << QString::fromUtf8(json);
        };
        const QByteArray v2("\x80\x02", 2), v4("\x80\x04", 2);
        // clang-format off
        row("NONE", v2 + "N.", "null");
        row("NEWTRUE", v2 + "\x88.", "true");
        row("NEWFALSE", v2 + "\x89.", "false");
        row("BININT -1", v2 + bytes("J\xff\xff\xff\xff."), "-1");
        row("BININT1 255", v2 + "K\xff.", "255");
        row("BININT2 65535", v2 + "M\xff\xff.", "65535");
        row("LONG1 empty is 0", v2 + bytes("\x8a\x00."), "0");
        row("LONG1 2^40 (an address)", v2 + bytes("\x8a\x06\x00\x00\x00\x00\x00\x01."),
            "1099511627776");
        row("LONG1 2^63-1", v2 + bytes("\x8a\x08\xff\xff\xff\xff\xff\xff\xff\x7f."),
            "9223372036854775807");
        row("LONG1 -2^63", v2 + bytes("\x8a\x08\x00\x00\x00\x00\x00\x00\x00\x80."),
            "-9223372036854775808");
        row("LONG1 2^63 as uint64",
            v2 + bytes("\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x80\x00."),
            "9223372036854775808");
        row("LONG1 2^64 as a double",
            v2 + bytes("\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\x01."),
            "1.8446744073709552e+19");
        row("LONG1 -2^64 as a double",
            v2 + bytes("\x8a\x09\x00\x00\x00\x00\x00\x00\x00\x00\xff."),
            "-1.8446744073709552e+19");
        row("LONG1 -1 in nine bytes", v2 + bytes("\x8a\x09\xff\xff\xff\xff\xff\xff\xff\xff\xff."),
            "-1");
        row("LONG4 300", v2 + bytes("\x8b\x02\x00\x00\x00\x2c\x01."), "300");
        row("BINFLOAT 1.5", v2 + bytes("G\x3f\xf8\x00\x00\x00\x00\x00\x00."), "1.5");
        row("SHORT_BINUNICODE", v4 + "\x8c\x06h\xc3\xa9llo.", "\"h\xc3\xa9llo\"");
        row("BINUNICODE", v2 + bytes("X\x02\x00\x00\x00ok."), "\"ok\"");
        row("BINUNICODE8", v4 + bytes("\x8d\x02\x00\x00\x00\x00\x00\x00\x00ok."), "\"ok\"");
        row("SHORT_BINBYTES as a string", bytes("\x80\x03" "C\x02" "ab."), "\"ab\"");
        row("BINBYTES as a string", bytes("\x80\x03" "B\x01\x00\x00\x00z."), "\"z\"");
        row("EMPTY_TUPLE", v2 + ").", "[]");
        row("TUPLE1", v2 + "K\x01\x85.", "[1]");
        row("TUPLE2 (segment_pool_id)", v2 + bytes("K\x00K\x00\x86."), "[0,0]");
        row("TUPLE3", v2 + "K\x01K\x02K\x03\x87.", "[1,2,3]");
        row("MARK TUPLE", v2 + "(K\x01K\x02K\x03K\x04t.", "[1,2,3,4]");
        row("EMPTY_LIST APPENDS", v2 + "](K\x01K\x02" "e.", "[1,2]");
        row("APPEND", v2 + "]K\x07" "a.", "[7]");
        row("EMPTY_DICT SETITEMS", v2 + bytes("}(X\x01\x00\x00\x00" "aK\x01u."),
            "{\"a\":1}");
        row("SETITEM", v4 + "}\x8c\x01kNs.", "{\"k\":null}");
        row("int keys become decimal text", v2 + "}(K\x01K\x02J\xfe\xff\xff\xffK\x03u.",
            "{\"-2\":3,\"1\":2}");
        row("None and bool keys", v2 + "}(NK\x01\x88K\x02u.", "{\"null\":1,\"true\":2}");
        row("a key given twice: the last", v4 + "}(\x8c\x01" "aK\x01\x8c\x01" "aK\x02u.",
            "{\"a\":2}");
        row("FRAME and MEMOIZE",
            v4 + bytes("\x95\x06\x00\x00\x00\x00\x00\x00\x00]\x94K\x01" "a."), "[1]");
        row("BINPUT BINGET", v2 + bytes("X\x01\x00\x00\x00sq\x00h\x00\x86."), "[\"s\",\"s\"]");
        row("LONG_BINPUT LONG_BINGET",
            v2 + bytes("K\x05r\x00\x00\x00\x00j\x00\x00\x00\x00\x86."), "[5,5]");
        // The memo shares, as Python does: items appended to L after it was referenced show in
        // both places.
        row("memo sharing",
            v4 + "}\x94(\x8c\x01" "a]\x94\x8c\x01" "bh\x01uh\x01K\x07" "a0.",
            "{\"a\":[7],\"b\":[7]}");
        row("DUP", v2 + "K\x02" "2\x86.", "[2,2]");
        row("POP", v2 + "K\x01K\x02" "0.", "1");
        row("POP of a MARK", v2 + "K\x01(0.", "1");
        row("POP_MARK", v2 + "K\x01(K\x02K\x03" "1.", "1");
        row("PROTO mid-stream", v2 + "\x80\x04K\x01.", "1");
        row("what follows STOP is not read", v2 + "N.garbage", "null");
        // Protocols 0 and 1: the text forms.
        row("INT", "I42\n.", "42");
        row("INT 01 is True", "I01\n.", "true");
        row("INT 00 is False", "I00\n.", "false");
        row("LONG", "L12345678901234L\n.", "12345678901234");
        row("LONG beyond 64 bits", "L123456789012345678901234567890L\n.", "1.2345678901234568e+29");
        row("FLOAT", "F1.25\n.", "1.25");
        row("STRING with escapes", "S'a\\nb\\x41\\''\n.", "\"a\\nbA'\"");
        row("UNICODE raw-unicode-escape", "Vcaf\\u00e9 \\U0001f600\n.",
            "\"caf\xc3\xa9 \xf0\x9f\x98\x80\"");
        row("UNICODE Latin-1 byte", "V\xe9\n.", "\"\xc3\xa9\"");
        row("LIST with PUT and APPEND", "(lp0\nI1\naI2\na.", "[1,2]");
        row("DICT with SETITEM", "(dp0\nVk\np1\nI1\ns.", "{\"k\":1}");
        row("TUPLE of protocol 0 with GET", "(I1\np0\ng0\nt.", "[1,1]");
        row("SHORT_BINSTRING", "U\x03" "abc.", "\"abc\"");
        row("BINSTRING", bytes("T\x02\x00\x00\x00hi."), "\"hi\"");
        // clang-format on
    }
    void values()
    {
        QFETCH(QByteArray, pickle);
        QFETCH(QString, json);
        QCOMPARE(QString::fromStdString(read(pickle)), json);
    }

    // Everything that would import, call or build an object is refused, naming the opcode and
    // its offset; so are sets, out-of-band buffers and bytes that are no opcode.
    void refused_data()
    {
        QTest::addColumn<QByteArray>("pickle");
        QTest::addColumn<QString>("expected"); // in the error
        const QByteArray v2("\x80\x02", 2);
        const auto row = [](const char *name, const QByteArray &p, const char *e) {
            QTest::newRow(name) << p << QString::fromUtf8(e);
        };
        // clang-format off
        row("GLOBAL", v2 + "cos\nsystem\n.",
            "offset 2: GLOBAL (opcode 0x63): would import a Python object 'os system': refused");
        row("STACK_GLOBAL", "\x80\x04\x8c\x02os\x8c\x06system\x93.",
            "offset 14: STACK_GLOBAL (opcode 0x93): would import");
        row("REDUCE", v2 + "N)R.", "offset 4: REDUCE (opcode 0x52): would call an object");
        row("BUILD", v2 + "}}b.", "offset 4: BUILD (opcode 0x62): would set an object's state");
        row("INST", "(iexample\nThing\n.",
            "offset 1: INST (opcode 0x69): would import a class and call it 'example Thing'");
        row("OBJ", v2 + "(N)o.", "offset 5: OBJ (opcode 0x6f): would call");
        row("NEWOBJ", v2 + "N)\x81.", "offset 4: NEWOBJ (opcode 0x81): would call");
        row("NEWOBJ_EX", "\x80\x04N)}\x92.", "offset 5: NEWOBJ_EX (opcode 0x92): would call");
        row("EXT1", v2 + "\x82\x01.", "offset 2: EXT1 (opcode 0x82): would import");
        row("EXT2", v2 + bytes("\x83\x01\x00."), "offset 2: EXT2 (opcode 0x83): would import");
        row("EXT4", v2 + bytes("\x84\x01\x00\x00\x00."),
            "offset 2: EXT4 (opcode 0x84): would import");
        row("PERSID", "Pid\n.", "offset 0: PERSID (opcode 0x50): would ask the loader");
        row("BINPERSID", v2 + "NQ.", "offset 3: BINPERSID (opcode 0x51): would ask the loader");
        row("EMPTY_SET", "\x80\x04\x8f.", "EMPTY_SET (opcode 0x8f): a set is not read");
        row("ADDITEMS", "\x80\x04(\x90.", "ADDITEMS (opcode 0x90): a set is not read");
        row("NEXT_BUFFER", "\x80\x05\x97.", "NEXT_BUFFER (opcode 0x97): out-of-band");
        row("unknown byte", v2 + "\xff.", "offset 2: unknown opcode 0xff: not a pickle opcode");
        row("protocol 6", "\x80\x06N.", "protocol 6 is newer than 5");
        // clang-format on
    }
    void refused()
    {
        QFETCH(QByteArray, pickle);
        QFETCH(QString, expected);
        const QString error = QString::fromStdString(read(pickle));
        QVERIFY2(error.startsWith(QLatin1String("error: ")) && error.contains(expected),
                 qPrintable(error));
        if (expected.contains(QLatin1String("would")))
            QVERIFY2(error.contains(QLatin1String("nothing was imported or run")),
                     qPrintable(error));
    }

    // Malformed pickles and the bounds: an error with a sentence, never a crash.
    void malformed_data()
    {
        QTest::addColumn<QByteArray>("pickle");
        QTest::addColumn<int>("limit"); // 0: the defaults; else every bound set to it
        QTest::addColumn<QString>("expected");
        const QByteArray v2("\x80\x02", 2);
        const auto row = [](const char *name, const QByteArray &p, int limit, const char *e) {
            QTest::newRow(name) << p << limit << QString::fromUtf8(e);
        };
        // clang-format off
        row("empty", "", 0, "offset 0: truncated: the pickle ends without STOP");
        row("STOP on an empty stack", v2 + ".", 0, "stack underflow");
        row("STOP above a MARK only", v2 + "N(.", 0, "stack underflow");
        row("APPENDS without MARK", v2 + "]e.", 0, "no MARK");
        row("APPEND to a dict", v2 + "}Na.", 0, "needs a list below its items, found dict of 0");
        row("APPENDS to a tuple", v2 + ")(Ne.", 0, "needs a list");
        row("SETITEM on a list", v2 + "]NNs.", 0, "needs a dict");
        row("SETITEMS odd", v2 + "}(Nu.", 0, "pairs");
        row("unhashable key", v2 + "}]Ns.", 0, "a dict key is a list (unhashable)");
        row("TUPLE3 short", v2 + "NN\x87.", 0, "stack underflow");
        row("BINGET unset", v2 + "h\x05.", 0, "memo entry 5 was never stored");
        row("LONG_BINPUT far", v2 + bytes("Nr\xff\xff\xff\x7f."), 0, "out of sequence");
        row("BINPUT on an empty stack", v2 + bytes("q\x00."), 0, "stack underflow");
        row("LONG4 negative length", v2 + bytes("\x8b\xff\xff\xff\xff."), 0, "negative length");
        row("LONG4 past a double", v2 + bytes("\x8b\xc8\x00\x00\x00") +
                                       QByteArray(200, '\x7f') + ".", 0, "beyond a double's range");
        row("BINSTRING negative length", bytes("T\xff\xff\xff\xff."), 0, "negative length");
        row("INT not a number", "Ixyz\n.", 0, "expected a whole number");
        row("FLOAT not a number", "Fxyz\n.", 0, "expected a number");
        row("STRING unquoted", "Sabc\n.", 0, "expected a quoted string");
        row("UNICODE bad escape", "V\\u12\n.", 0, "malformed");
        row("string over the limit", "\x80\x04\x8c\x05hello.", 4, "over the limit of 4");
        row("MARKs past the depth", v2 + "((((N.", 3, "more than 3 MARKs open");
        row("stack past its bound", v2 + "NNNNN.", 3, "more than 3 values on the stack");
        row("memo past its bound", v2 + "Nq\x05.", 3, "out of sequence");
        // clang-format on
    }
    void malformed()
    {
        QFETCH(QByteArray, pickle);
        QFETCH(int, limit);
        QFETCH(QString, expected);
        DataLimits limits;
        if (limit > 0)
            limits = DataLimits{std::size_t(limit), std::size_t(limit), std::size_t(limit),
                                std::size_t(limit)};
        const QString error = QString::fromStdString(read(pickle, limits));
        QVERIFY2(error.startsWith(QLatin1String("error: ")) && error.contains(expected),
                 qPrintable(error));
        QVERIFY2(!error.contains(QLatin1Char('\n')), qPrintable(error));
    }

    // Every prefix of a real-shaped snapshot is refused as truncated, at every protocol.
    void truncatedEverywhere_data()
    {
        QTest::addColumn<QString>("file");
        for (const char *f : {"snapshot_p2.pickle", "snapshot_p4.pickle", "snapshot_p5.pickle",
                              "snapshot_frames_p0.pickle", "snapshot_frames_p1.pickle"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void truncatedEverywhere()
    {
        QFETCH(QString, file);
        const std::string whole = fixture(file.toLatin1().constData());
        QVERIFY(whole.size() > 1000);
        QVERIFY(readPickle(whole));
        for (std::size_t cut = 0; cut < whole.size(); ++cut) {
            const auto doc = readPickle(whole.substr(0, cut));
            QVERIFY2(!doc && doc.error.find("truncated") != std::string::npos,
                     qPrintable(QStringLiteral("cut at %1: ").arg(cut) +
                                QString::fromStdString(doc.error)));
        }
    }

    // Protocols 2, 4 and 5 read as the same data as the JSON copy (tuples as lists).
    void protocolsAgreeWithJson_data()
    {
        QTest::addColumn<QString>("file");
        for (const char *f : {"snapshot_p2.pickle", "snapshot_p4.pickle", "snapshot_p5.pickle"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void protocolsAgreeWithJson()
    {
        QFETCH(QString, file);
        const nlohmann::json expected = nlohmann::json::parse(fixture("snapshot.json"));
        const auto doc = readPickle(fixture(file.toLatin1().constData()));
        QVERIFY2(doc, doc.error.c_str());
        const auto json = doc.value->toJson(doc.value->root());
        QVERIFY2(json, json.error.c_str());
        QVERIFY(*json.value == expected);
        const auto fromJson = readJsonData(fixture("snapshot.json"));
        QVERIFY2(fromJson, fromJson.error.c_str());
        QVERIFY(*fromJson.value->toJson(fromJson.value->root()).value == expected);
    }

    // A list that holds itself reads (as in Python) but has no JSON form; neither has sharing
    // that multiplies past the bound.
    void cyclesAndSharing()
    {
        const QByteArray cycle = bytes("\x80\x04]\x94h\x00"
                                       "a.");
        const std::string cycleBytes = cycle.toStdString();
        auto doc = readPickle(std::string_view(cycleBytes));
        QVERIFY2(doc, doc.error.c_str());
        QCOMPARE(doc.value->size(doc.value->root()), std::size_t(1));
        const auto json = doc.value->toJson(doc.value->root(), 64, 100000);
        QVERIFY(!json && json.error.find("nested deeper than 64") != std::string::npos);

        // L0 = [None]; L(k+1) = (Lk, Lk): 2^30 values once multiplied out.
        QByteArray doubling("\x80\x04N\x85\x94", 5);
        for (int k = 0; k < 30; ++k)
            doubling += QByteArray("h") + char(k) + "h" + char(k) + "\x86\x94";
        doubling += ".";
        const std::string doublingBytes = doubling.toStdString();
        doc = readPickle(std::string_view(doublingBytes));
        QVERIFY2(doc, doc.error.c_str());
        const auto big = doc.value->toJson(doc.value->root(), 64, 100000);
        QVERIFY(!big && big.error.find("more values") != std::string::npos);
    }

    // Read from a stream, piece by piece (256 KiB at a time): the same data as from memory,
    // across the pieces' borders; truncation too.
    void streamed()
    {
        std::string big("\x80\x04]\x94(", 5);
        for (int i = 0; i < 100000; ++i)
            big += "\x8c\x0a" + std::to_string(1000000000 + i);
        big += "e.";
        const std::string longLine = "V" + std::string(300000, 'a') + "\n.";
        for (const std::string &bytes : {big, longLine, fixture("snapshot_p4.pickle")}) {
            const auto inMemory = readPickle(std::string_view(bytes));
            QVERIFY2(inMemory, inMemory.error.c_str());
            std::istringstream stream(bytes);
            ByteSource source(stream);
            const auto streamedDoc = readPickle(source);
            QVERIFY2(streamedDoc, streamedDoc.error.c_str());
            QVERIFY(*inMemory.value->toJson(inMemory.value->root(), 64, 200000).value ==
                    *streamedDoc.value->toJson(streamedDoc.value->root(), 64, 200000).value);
            std::istringstream cut(bytes.substr(0, bytes.size() - 1));
            ByteSource cutSource(cut);
            const auto truncated = readPickle(cutSource);
            QVERIFY2(!truncated && truncated.error.find("truncated") != std::string::npos,
                     truncated.error.c_str());
        }
        std::istringstream json(fixture("snapshot.json"));
        ByteSource jsonSource(json);
        const auto doc = readJsonData(jsonSource);
        QVERIFY2(doc, doc.error.c_str());
        QVERIFY(*doc.value->toJson(doc.value->root()).value ==
                nlohmann::json::parse(fixture("snapshot.json")));
    }

    // JSON through the SAX reader: values, nesting bound, errors.
    void jsonReader()
    {
        auto doc =
            readJsonData(R"({"a": [1, -2, 3.5, true, null, "x"], "b": 18446744073709551615})");
        QVERIFY2(doc, doc.error.c_str());
        QCOMPARE(QString::fromStdString(doc.value->toJson(doc.value->root()).value->dump()),
                 QStringLiteral(R"({"a":[1,-2,3.5,true,null,"x"],"b":18446744073709551615})"));
        DataLimits shallow;
        shallow.maxDepth = 3;
        doc = readJsonData("[[[[1]]]]", shallow);
        QVERIFY(!doc && doc.error.find("nested deeper than 3") != std::string::npos);
        doc = readJsonData("{\"a\": ");
        QVERIFY(!doc && doc.error.find("parse error") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestPickleReader)

#include "tst_picklereader.moc"
