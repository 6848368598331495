// vramplan-cli as scripts use it (SPEC §3, "Command line"): the program at VRAMPLAN_CLI is run
// with QProcess and judged by its exit status, stdout and stderr only.
//
// The contract for bad input: exit status 2, nothing on stdout, and exactly one line on stderr
// that names the file ("<stdin>" for -), the field (as a dotted path) and the problem.
// Expected substrings below may list alternatives separated by '|' ("nest|name": either).

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace {

QString dataPath(const QString &relative)
{
    return QStringLiteral(VRAMPLAN_TEST_DATA) + QLatin1Char('/') + relative;
}

QString scenarioPath(const QString &name)
{
    return dataPath(QStringLiteral("scenarios/") + name);
}

// The scenarios under tests/data/scenarios used below.
const QString gpt2H100 = QStringLiteral("gpt2-h100.vramplan.json");
const QString llama7bZero3 = QStringLiteral("llama-2-7b-zero3-4gpu.vramplan.json");
const QString llama405bRtx4090 = QStringLiteral("llama-3.1-405b-rtx4090.vramplan.json");
const QString llama8bVllm = QStringLiteral("llama-3.1-8b-vllm-h100.vramplan.json");

QByteArray readAll(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

// A scenario document with the header and the given members.
QByteArray scenario(const QByteArray &members)
{
    return R"({"format": "vramplan-scenario", "version": 1, )" + members + "}";
}

// A GPT-2 scenario with one extra section (a small model that parses quickly).
QByteArray gpt2With(const QByteArray &members)
{
    return scenario(R"("model": {"preset": "gpt2"}, )" + members);
}

struct CliResult
{
    bool started = false;
    bool finished = false;
    bool crashed = false;
    int exitCode = -1;
    QByteArray out;
    QByteArray err;

    QString describe() const
    {
        return QStringLiteral("exit %1%2\n--- stdout (%3 bytes):\n%4\n--- stderr:\n%5")
            .arg(exitCode)
            .arg(crashed ? QStringLiteral(" (crashed)") : QString())
            .arg(out.size())
            .arg(QString::fromUtf8(out.left(2000)), QString::fromUtf8(err.left(2000)));
    }
};

CliResult runCli(const QStringList &arguments, const QByteArray &input = {}, int timeoutMs = 60000)
{
    QProcess process;
    process.setProgram(QStringLiteral(VRAMPLAN_CLI));
    process.setArguments(arguments);
    process.start();
    CliResult r;
    r.started = process.waitForStarted(30000);
    if (!r.started)
        return r;
    if (!input.isEmpty())
        process.write(input);
    process.closeWriteChannel();
    r.finished = process.waitForFinished(timeoutMs);
    if (!r.finished) {
        process.kill();
        process.waitForFinished(5000);
    }
    r.crashed = process.exitStatus() == QProcess::CrashExit;
    r.exitCode = process.exitCode();
    r.out = process.readAllStandardOutput();
    r.err = process.readAllStandardError();
    return r;
}

// Started, finished within the time limit, and not killed by a signal.
#define VERIFY_RAN(r)                                                                              \
    do {                                                                                           \
        QVERIFY2((r).started, "vramplan-cli did not start: " VRAMPLAN_CLI);                        \
        QVERIFY2((r).finished, qPrintable("vramplan-cli hung:\n" + (r).describe()));               \
        QVERIFY2(!(r).crashed, qPrintable("vramplan-cli crashed:\n" + (r).describe()));            \
    } while (false)

#define COMPARE_EXIT(r, expected)                                                                  \
    QVERIFY2((r).exitCode == (expected),                                                           \
             qPrintable(QStringLiteral("expected exit %1, got ").arg(expected) + (r).describe()))

bool isOneLine(const QByteArray &text)
{
    return text.endsWith('\n') && text.count('\n') == 1 && !text.contains('\r') &&
           !text.trimmed().isEmpty();
}

// The expected substrings that text lacks; an entry "a|b" is satisfied by either.
QStringList missingFrom(const QString &text, const QStringList &expected)
{
    QStringList missing;
    for (const QString &entry : expected) {
        const QStringList alternatives = entry.split(QLatin1Char('|'));
        const bool found = std::any_of(alternatives.begin(), alternatives.end(),
                                       [&](const QString &a) { return text.contains(a); });
        if (!found)
            missing << entry;
    }
    return missing;
}

// Splits one CSV line (fields may be quoted with "; "" inside quotes is a quote).
QStringList csvFields(const QString &line)
{
    QStringList fields;
    QString field;
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == QLatin1Char('"') && i + 1 < line.size() && line[i + 1] == QLatin1Char('"')) {
                field += c;
                ++i;
            } else if (c == QLatin1Char('"')) {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == QLatin1Char('"')) {
            quoted = true;
        } else if (c == QLatin1Char(',')) {
            fields << field;
            field.clear();
        } else {
            field += c;
        }
    }
    fields << field;
    return fields;
}

QStringList outputLines(const QByteArray &out)
{
    QString text = QString::fromUtf8(out);
    if (text.endsWith(QLatin1Char('\n')))
        text.chop(1);
    return text.isEmpty() ? QStringList() : text.split(QLatin1Char('\n'));
}

enum class Source
{
    File,
    Stdin,
    MissingFile,
    Directory
};

} // namespace

Q_DECLARE_METATYPE(Source)

class TestCli : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();

    // Bad scenario files (and stdin) through every command that reads one.
    void badScenario_data();
    void badScenario();

    // estimate on valid scenarios: the JSON contract of SPEC §3.
    void estimateJson_data();
    void estimateJson();
    void estimateTable_data();
    void estimateTable();

    // params on the Hugging Face configs with known parameter counts.
    void params_data();
    void params();
    void paramsBadConfig_data();
    void paramsBadConfig();
    void paramsGeneric();
    void paramsCheckpoint_data();
    void paramsCheckpoint();
    void paramsBrokenCheckpoint();

    void sweepMicroBatch();
    void sweepWithStep();
    void sweepTensorParallelRowErrors();
    void sweepBadVary_data();
    void sweepBadVary();
    void sweepRlFields();

    void advise();
    void adviseRefusesBadOptions_data();
    void adviseRefusesBadOptions();
    void adviseServing();
    void adviseServingRefusesBadOptions_data();
    void adviseServingRefusesBadOptions();
    void solvers_data();
    void solvers();

    void usage_data();
    void usage();
    void calibrate_data();
    void calibrate();
    void badOptions_data();
    void badOptions();
    void catalogLists_data();
    void catalogLists();
    void catalogGpuMemory_data();
    void catalogGpuMemory();

private:
    QTemporaryDir m_dir;
};

void TestCli::initTestCase()
{
    QVERIFY2(QFileInfo(QStringLiteral(VRAMPLAN_CLI)).isExecutable(),
             "vramplan-cli not built at " VRAMPLAN_CLI);
    QVERIFY(m_dir.isValid());
    for (const QString &name : {gpt2H100, llama7bZero3, llama405bRtx4090})
        QVERIFY2(QFileInfo::exists(scenarioPath(name)), qPrintable(scenarioPath(name)));
}

// ---------------------------------------------------------------------------------------------
// Bad input

void TestCli::badScenario_data()
{
    QTest::addColumn<QStringList>("arguments"); // "%1" stands for the file (or -)
    QTest::addColumn<Source>("source");
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QStringList>("expected"); // besides the file name or <stdin>

    const QStringList estimate = {QStringLiteral("estimate"), QStringLiteral("%1")};
    auto row = [&](const char *tag, const QByteArray &content, const QStringList &expected,
                   const QStringList &arguments = {}, Source source = Source::File) {
        QTest::newRow(tag) << (arguments.isEmpty() ? estimate : arguments) << source << content
                           << expected;
    };

    // Not a JSON object.
    row("empty file", "", {"empty"});
    row("whitespace only", " \n\t\r\n  \n", {"empty"});
    row("not JSON: {", "{", {"not valid JSON", "line 1"});
    row("truncated JSON", R"({"format": "vramplan-scenario", "version": 1, "model": {"pres)",
        {"not valid JSON"});
    row("trailing garbage", gpt2With(R"("name": "x")") + " trailing", {"not valid JSON"});
    row("top level an array", R"([{"format": "vramplan-scenario", "version": 1}])",
        {"top level", "object", "array"});
    row("top level a string", R"("vramplan-scenario")", {"top level", "object"});
    row("NaN is not JSON", gpt2With(R"("training": {"dropout": NaN})"), {"not valid JSON"});
    row("Infinity is not JSON", gpt2With(R"("training": {"dropout": Infinity})"),
        {"not valid JSON"});
    row("-Infinity is not JSON", gpt2With(R"("training": {"dropout": -Infinity})"),
        {"not valid JSON"});
    // nlohmann's parser would stop at a NUL byte; the core refuses such text instead.
    row("NUL byte and garbage after the document",
        gpt2With(R"("name": "x")") + QByteArray("\0garbage {{{", 12), {"not valid JSON"});
    row("invalid UTF-8 in name", gpt2With("\"name\": \"\xff\xfe\""), {"not valid JSON|name"});

    // The header.
    row("wrong format string", R"({"format": "vramplan-estimate", "version": 1})",
        {"format", "vramplan-estimate"});
    row("missing format", R"({"version": 1, "model": {"preset": "gpt2"}})", {"format", "missing"});
    row("version 2 (newer)",
        R"({"format": "vramplan-scenario", "version": 2, "model": {"preset": "gpt2"}})",
        {"version", "2", "newer"});
    row("version a string",
        R"({"format": "vramplan-scenario", "version": "1", "model": {"preset": "gpt2"}})",
        {"version", "whole number"});

    // Numbers out of range or of the wrong type.
    row("micro_batch_size 0", gpt2With(R"("training": {"micro_batch_size": 0})"),
        {"training.micro_batch_size", "got 0"});
    row("micro_batch_size -3", gpt2With(R"("training": {"micro_batch_size": -3})"),
        {"training.micro_batch_size", "-3"});
    row("micro_batch_size \"4\" (string)", gpt2With(R"("training": {"micro_batch_size": "4"})"),
        {"training.micro_batch_size", "whole number"});
    row("micro_batch_size 4.5", gpt2With(R"("training": {"micro_batch_size": 4.5})"),
        {"training.micro_batch_size", "4.5"});
    // A number beyond double: nlohmann reports it as an exception without position or field.
    row("micro_batch_size 1e400 (overflows double)",
        gpt2With(R"("training": {"micro_batch_size": 1e400})"),
        {"training.micro_batch_size|line 1"});
    row("sequence_length 1e30", gpt2With(R"("training": {"sequence_length": 1e30})"),
        {"training.sequence_length", "<="});
    row("layers 1e30 in model", scenario(R"("model": {"preset": "gpt2", "layers": 1e30})"),
        {"model.layers"});
    row("zero_stage 4", gpt2With(R"("parallelism": {"zero_stage": 4})"),
        {"parallelism.zero_stage", "4"});
    row("gpu memory_gib -1", gpt2With(R"("gpu": {"memory_gib": -1})"), {"gpu.memory_gib", "-1"});

    // Unknown keys and values.
    row("unknown top-level key", gpt2With(R"("colour": "blue")"), {"colour", "unknown key"});
    row("unknown key in training", gpt2With(R"("training": {"micro_batch": 4})"),
        {"training.micro_batch:", "unknown"});
    row("unknown key in training.finetune",
        gpt2With(R"("training": {"finetune": {"lora_rnk": 8}})"),
        {"training.finetune.lora_rnk", "unknown"});
    row("unknown key in model.moe",
        scenario(R"("model": {"preset": "mixtral-8x7b", "moe": {"expertz": 4}})"),
        {"model.moe.expertz", "unknown"});
    row("unknown precision", gpt2With(R"("training": {"precision": "fp12"})"),
        {"training.precision", "fp12", "bf16_mixed"});
    row("precision a number", gpt2With(R"("training": {"precision": 16})"), {"training.precision"});
    row("unknown model preset", scenario(R"("model": {"preset": "gpt-17"})"),
        {"model.preset", "gpt-17"});
    row("unknown gpu preset", gpt2With(R"("gpu": {"preset": "rtx-9999"})"),
        {"gpu.preset", "rtx-9999"});
    row("model a string", scenario(R"("model": "gpt2")"), {"model", "object"});
    row("hf_config of an unknown model_type without the standard fields",
        scenario(R"("model": {"hf_config": {"model_type": "unknown_arch"}})"),
        {"model.hf_config", "unknown_arch"});

    // Constraints between fields.
    row("hidden_size 4097, 32 heads, no head_dim",
        scenario(R"("model": {"family": "llama", "layers": 2, "hidden_size": 4097,
                   "attention_heads": 32, "vocab_size": 1000})"),
        {"model.hidden_size", "head_dim"});
    row("kv_heads 5 with 32 heads", scenario(R"("model": {"preset": "llama-2-7b", "kv_heads": 5})"),
        {"model.kv_heads", "5", "32"});
    row("gpus 6 with tensor_parallel 4", scenario(R"("model": {"preset": "llama-2-7b"},
                    "parallelism": {"gpus": 6, "tensor_parallel": 4})"),
        {"parallelism.gpus", "6", "tensor_parallel"});
    row("tensor_parallel 3 with 32 heads", scenario(R"("model": {"preset": "llama-2-7b"},
                    "parallelism": {"gpus": 3, "tensor_parallel": 3})"),
        {"parallelism.tensor_parallel", "3", "32"});
    row("expert_parallel 3 with 8 experts", scenario(R"("model": {"preset": "mixtral-8x7b"},
                    "parallelism": {"gpus": 8, "expert_parallel": 3})"),
        {"parallelism.expert_parallel", "3"});

    // Hostile sizes.
    const int depth = 10000;
    row("10,000 levels of arrays in name",
        gpt2With("\"name\": " + QByteArray(depth, '[') + QByteArray(depth, ']')), {"nest|name"});
    QByteArray objects;
    for (int i = 0; i < 100000; ++i)
        objects += "{\"a\":";
    objects += "1" + QByteArray(100000, '}');
    row("100,000 levels of objects in training", gpt2With("\"training\": " + objects),
        {"nest|training"});
    row("2 MB string for name", gpt2With("\"name\": \"" + QByteArray(2 << 20, 'x') + "\""),
        {"name", "longer than"});
    // The unknown-key error must not quote a 1 MB key whole.
    row("1 MB unknown key", gpt2With("\"" + QByteArray(1 << 20, 'k') + "\": 1"), {"unknown key"});
    // Control characters in a key or value must not reach the terminal raw (ESC, BEL, TAB;
    // only \n and \r are replaced).
    row("control characters in an unknown key",
        gpt2With(R"("training": {"a\u001b[2Jb\u0007c\td": 1})"), {"training.a", "unknown key"});
    row("control characters in a preset name", scenario(R"("model": {"preset": "x\u001b[31my"})"),
        {"model.preset"});
    // The JSON syntax error must not echo the whole 2 MB token ("last read: ...").
    row("2 MB string with a bad escape",
        gpt2With("\"name\": \"" + QByteArray(2 << 20, 'x') + "\\q\""), {"not valid JSON"});

    // Files that are not there or not files. The directory row is a known bug (see below).
    row("non-existent file", {}, {"cannot|no such|not found|does not exist"}, estimate,
        Source::MissingFile);
    row("a directory", {}, {"directory|not a regular file|cannot be read"}, estimate,
        Source::Directory);

    // Standard input.
    row("stdin: missing format", R"({"version": 1})", {"format", "missing"}, estimate,
        Source::Stdin);
    row("stdin: empty", "", {"empty"}, estimate, Source::Stdin);
    row("stdin: micro_batch_size 0", gpt2With(R"("training": {"micro_batch_size": 0})"),
        {"training.micro_batch_size"}, estimate, Source::Stdin);
    row("stdin: not JSON", "{\"format\": ", {"not valid JSON"}, estimate, Source::Stdin);
    row("stdin: 2 MB string for name", gpt2With("\"name\": \"" + QByteArray(2 << 20, 'y') + "\""),
        {"name", "longer than"}, estimate, Source::Stdin);

    // The other commands that read a scenario say the same.
    const QStringList table = {"estimate", "%1", "--format", "table"};
    const QStringList maxBatch = {"max-batch", "%1"};
    const QStringList maxSequence = {"max-sequence", "%1"};
    const QStringList minGpus = {"min-gpus", "%1"};
    const QStringList sweep = {"sweep", "%1", "--vary", "training.micro_batch_size=1:4"};
    row("estimate --format table: unknown gpu preset", gpt2With(R"("gpu": {"preset": "rtx-9999"})"),
        {"gpu.preset"}, table);
    row("max-batch: micro_batch_size 0", gpt2With(R"("training": {"micro_batch_size": 0})"),
        {"training.micro_batch_size"}, maxBatch);
    row("max-batch: stdin, unknown key", gpt2With(R"("training": {"micro_batch": 4})"),
        {"training.micro_batch:"}, maxBatch, Source::Stdin);
    row("max-sequence: kv_heads 5", scenario(R"("model": {"preset": "llama-2-7b", "kv_heads": 5})"),
        {"model.kv_heads"}, maxSequence);
    row("min-gpus: not JSON", "{", {"not valid JSON"}, minGpus);
    row("sweep: unknown key in parallelism", gpt2With(R"("parallelism": {"gpu": 2})"),
        {"parallelism.gpu:", "unknown"}, sweep);
    row("sweep: non-existent file", {}, {"cannot|no such|not found|does not exist"}, sweep,
        Source::MissingFile);
}

void TestCli::badScenario()
{
    QFETCH(QStringList, arguments);
    QFETCH(Source, source);
    QFETCH(QByteArray, content);
    QFETCH(QStringList, expected);

    QString path = QStringLiteral("-");
    QString shownAs = QStringLiteral("<stdin>");
    QByteArray input;
    const QString tag =
        QString::fromUtf8(QTest::currentDataTag())
            .replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")), QStringLiteral("_"));
    switch (source) {
    case Source::Stdin:
        input = content;
        break;
    case Source::File: {
        path = m_dir.filePath(tag + QStringLiteral(".vramplan.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(content), content.size());
        f.close();
        shownAs = QFileInfo(path).fileName();
        break;
    }
    case Source::MissingFile:
        path = m_dir.filePath(QStringLiteral("no-such-folder/missing.vramplan.json"));
        shownAs = QStringLiteral("missing.vramplan.json");
        break;
    case Source::Directory:
        path = m_dir.filePath(QStringLiteral("a-folder.vramplan.json"));
        QVERIFY(QDir().mkpath(path));
        shownAs = QStringLiteral("a-folder.vramplan.json");
        break;
    }
    arguments.replaceInStrings(QStringLiteral("%1"), path);

    const CliResult r = runCli(arguments, input);
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 2);
    QVERIFY2(r.out.isEmpty(), qPrintable("stdout should be empty:\n" + r.describe()));
    QVERIFY2(isOneLine(r.err), qPrintable("stderr should be exactly one line:\n" + r.describe()));

    const QString message = QString::fromUtf8(r.err);
    QVERIFY2(message.contains(shownAs),
             qPrintable("the message should name " + shownAs + ":\n" + message));
    QVERIFY2(!message.contains(QLatin1String("internal error")),
             qPrintable("bad input should not be an internal error:\n" + message));

    const QStringList missing = missingFrom(message, expected);
    QVERIFY2(missing.isEmpty(),
             qPrintable("the message lacks [" + missing.join(QStringLiteral("], [")) + "]:\n" +
                        message));

    // One line for people: no echo of the input beyond a short excerpt.
    QVERIFY2(message.size() < 1024, qPrintable(QStringLiteral("a message of %1 characters: %2...")
                                                   .arg(message.size())
                                                   .arg(message.left(300))));

    // Nothing that a terminal would act on: no control characters but the final newline.
    const QString line = message.chopped(1);
    QVERIFY2(std::none_of(line.begin(), line.end(),
                          [](QChar c) { return c.unicode() < 0x20 || c.unicode() == 0x7f; }),
             qPrintable("control characters in: " + line.toUtf8().toPercentEncoding(" :'\"(),.")));
}

// ---------------------------------------------------------------------------------------------
// estimate

void TestCli::estimateJson_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QByteArray>("input");

    const QStringList files =
        QDir(dataPath(QStringLiteral("scenarios")))
            .entryList({QStringLiteral("*.vramplan.json")}, QDir::Files, QDir::Name);
    QVERIFY(files.size() >= 3);
    for (const QString &file : files)
        QTest::newRow(qPrintable(file))
            << QStringList{"estimate", scenarioPath(file)} << QByteArray();
    QTest::newRow("stdin (-)") << QStringList{"estimate", "-"} << readAll(scenarioPath(gpt2H100));
    QTest::newRow("--default") << QStringList{"estimate", "--default"} << QByteArray();
    QTest::newRow("--format json")
        << QStringList{"estimate", scenarioPath(gpt2H100), "--format", "json"} << QByteArray();
    QTest::newRow("explicit model fields, no preset")
        << QStringList{"estimate", "-"}
        << scenario(R"("model": {"family": "llama", "layers": 4, "hidden_size": 512,
                       "attention_heads": 8, "kv_heads": 2, "ffn_hidden_size": 1376,
                       "vocab_size": 32000}, "gpu": {"memory_gib": 24})");
}

void TestCli::estimateJson()
{
    QFETCH(QStringList, arguments);
    QFETCH(QByteArray, input);

    const CliResult r = runCli(arguments, input);
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 0);
    QVERIFY2(r.err.isEmpty(), qPrintable(r.describe()));

    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(r.out, &error);
    QVERIFY2(error.error == QJsonParseError::NoError && doc.isObject(),
             qPrintable("stdout is not a JSON object: " + error.errorString()));
    const QJsonObject root = doc.object();
    QCOMPARE(root.value(QLatin1String("format")).toString(), QStringLiteral("vramplan-estimate"));
    QCOMPARE(root.value(QLatin1String("version")).toInteger(), 1);

    const QJsonObject parameters = root.value(QLatin1String("parameters")).toObject();
    QVERIFY(parameters.value(QLatin1String("total")).toDouble() > 0);
    QVERIFY(parameters.value(QLatin1String("trainable")).toDouble() >= 0);
    QVERIFY(parameters.value(QLatin1String("trainable")).toDouble() <=
            parameters.value(QLatin1String("total")).toDouble());

    const QJsonObject perGpu = root.value(QLatin1String("per_gpu_bytes")).toObject();
    // kv_cache: the serving extension's component (docs/serving.md), zero without `serving`.
    const QStringList components = {"parameters",  "gradients",       "optimizer_states",
                                    "activations", "logits_and_loss", "temporary",
                                    "framework",   "kv_cache"};
    double sum = 0;
    for (const QString &key : components) {
        QVERIFY2(perGpu.value(key).isDouble(), qPrintable("per_gpu_bytes." + key + " missing"));
        const double bytes = perGpu.value(key).toDouble();
        QVERIFY2(bytes >= 0, qPrintable("per_gpu_bytes." + key + " is negative"));
        sum += bytes;
    }

    const QJsonObject peak = root.value(QLatin1String("peak")).toObject();
    for (const char *key : {"allocated_bytes", "reserved_bytes", "device_bytes"})
        QVERIFY2(peak.value(QLatin1String(key)).isDouble(), key);
    const double allocated = peak.value(QLatin1String("allocated_bytes")).toDouble();
    const double reserved = peak.value(QLatin1String("reserved_bytes")).toDouble();
    const double device = peak.value(QLatin1String("device_bytes")).toDouble();
    QVERIFY(allocated > 0);
    QVERIFY2(allocated <= reserved,
             qPrintable(QStringLiteral("%1 > %2").arg(allocated).arg(reserved)));
    QVERIFY2(reserved <= device, qPrintable(QStringLiteral("%1 > %2").arg(reserved).arg(device)));
    QVERIFY2(std::fabs(sum - device) <= 8,
             qPrintable(QStringLiteral("per_gpu_bytes sum to %1, peak.device_bytes is %2")
                            .arg(sum, 0, 'f', 0)
                            .arg(device, 0, 'f', 0)));
    QVERIFY(!peak.value(QLatin1String("phase")).toString().isEmpty());

    const QJsonObject gpu = root.value(QLatin1String("gpu")).toObject();
    const double capacity = gpu.value(QLatin1String("capacity_bytes")).toDouble();
    QVERIFY(capacity > 0);
    QVERIFY(!gpu.value(QLatin1String("name")).toString().isEmpty());
    QVERIFY(root.value(QLatin1String("fits")).isBool());
    QCOMPARE(root.value(QLatin1String("fits")).toBool(), device <= capacity);
    QVERIFY(std::fabs(root.value(QLatin1String("headroom_bytes")).toDouble() -
                      (capacity - device)) <= 8);

    const QJsonArray items = root.value(QLatin1String("items")).toArray();
    QVERIFY(!items.isEmpty());
    for (const QJsonValue &v : items) {
        const QJsonObject item = v.toObject();
        QVERIFY(components.contains(item.value(QLatin1String("component")).toString()));
        QVERIFY(!item.value(QLatin1String("name")).toString().isEmpty());
        QVERIFY(item.value(QLatin1String("bytes")).toDouble() >= 0);
    }
    QVERIFY(root.value(QLatin1String("warnings")).isArray());
    // An inference scenario with `serving` has the serving object of SPEC §3's extension.
    if (root.value(QLatin1String("scenario")).toObject().contains(QLatin1String("serving"))) {
        const QJsonObject serving = root.value(QLatin1String("serving")).toObject();
        for (const char *key : {"weights_bytes", "activation_bytes", "non_torch_bytes",
                                "cuda_graph_bytes", "kv_cache_bytes", "kv_cache_tokens",
                                "max_concurrency"})
            QVERIFY2(serving.value(QLatin1String(key)).isDouble(), key);
        QVERIFY(serving.value(QLatin1String("kv_cache_tokens")).toDouble() > 0);
        QCOMPARE(serving.value(QLatin1String("kv_cache_bytes")).toDouble(),
                 perGpu.value(QLatin1String("kv_cache")).toDouble());
    }
}

void TestCli::estimateTable_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QByteArray>("input");
    QTest::addColumn<QStringList>("expected");
    QTest::addColumn<QString>("forbidden");

    const QString gpt2 = scenarioPath(gpt2H100);
    QTest::newRow("--format table") << QStringList{"estimate", gpt2, "--format", "table"}
                                    << QByteArray() << QStringList{"peak", "GiB"} << QString();
    QTest::newRow("--format=table") << QStringList{"estimate", gpt2, "--format=table"}
                                    << QByteArray() << QStringList{"peak", "GiB"} << QString();
    QTest::newRow("--units gb") << QStringList{"estimate", gpt2,      "--format",
                                               "table",    "--units", "gb"}
                                << QByteArray() << QStringList{"peak", "GB"}
                                << QStringLiteral("GiB");
    QTest::newRow("table from stdin")
        << QStringList{"estimate", "-", "--format", "table"} << readAll(gpt2)
        << QStringList{"peak", "GiB", "GPT-2"} << QString();
    QTest::newRow("table: does not fit")
        << QStringList{"estimate", scenarioPath(llama405bRtx4090), "--format", "table"}
        << QByteArray() << QStringList{"peak", "GiB", "not fit|NOT FIT"} << QString();
    QTest::newRow("table: vLLM serving")
        << QStringList{"estimate", scenarioPath(llama8bVllm), "--format", "table"}
        << QByteArray()
        << QStringList{"peak", "GiB", "serving (vllm, per GPU)", "KV tokens", "max concurrency"}
        << QStringLiteral("warnings");
    QTest::newRow("table: vLLM start-up fails")
        << QStringList{"estimate", "-", "--format", "table"}
        << scenario(R"("model": {"preset": "llama-3.1-8b"}, "training": {"mode": "inference"},
                       "gpu": {"preset": "rtx-3090"},
                       "serving": {"gpu_memory_utilization": 0.5})")
        << QStringList{"peak", "GiB", "No available memory for the cache blocks"} << QString();
}

void TestCli::estimateTable()
{
    QFETCH(QStringList, arguments);
    QFETCH(QByteArray, input);
    QFETCH(QStringList, expected);
    QFETCH(QString, forbidden);

    const CliResult r = runCli(arguments, input);
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 0);
    QVERIFY2(r.err.isEmpty(), qPrintable(r.describe()));
    const QString text = QString::fromUtf8(r.out);

    // "peak" and the unit on one line.
    const QStringList lines = outputLines(r.out);
    const QString unit = expected.at(1);
    QVERIFY2(std::any_of(lines.begin(), lines.end(),
                         [&](const QString &line) {
                             return line.contains(QLatin1String("peak")) && line.contains(unit);
                         }),
             qPrintable("no line with 'peak' and '" + unit + "':\n" + text));
    const QStringList missing = missingFrom(text, expected);
    QVERIFY2(missing.isEmpty(),
             qPrintable("missing [" + missing.join(QStringLiteral("], [")) + "] in:\n" + text));
    if (!forbidden.isEmpty())
        QVERIFY2(!text.contains(forbidden), qPrintable("'" + forbidden + "' in:\n" + text));
}

// ---------------------------------------------------------------------------------------------
// params

void TestCli::params_data()
{
    QTest::addColumn<QString>("config");
    QTest::addColumn<qint64>("expectedTotal");

    const QDir dir(dataPath(QStringLiteral("hf_configs")));
    QJsonParseError error;
    const QJsonObject counts =
        QJsonDocument::fromJson(readAll(dir.filePath(QStringLiteral("param_counts.json"))), &error)
            .object();
    QVERIFY2(error.error == QJsonParseError::NoError && !counts.isEmpty(),
             "hf_configs/param_counts.json missing or unreadable");

    const QStringList files = dir.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    int rows = 0;
    for (const QString &file : files) {
        if (file == QLatin1String("param_counts.json"))
            continue;
        const QString name = QFileInfo(file).completeBaseName();
        QVERIFY2(counts.contains(name),
                 qPrintable("no count for " + name + " in param_counts.json"));
        QTest::newRow(qPrintable(name)) << dir.filePath(file) << counts.value(name).toInteger();
        ++rows;
    }
    QVERIFY(rows >= 6);
}

void TestCli::params()
{
    QFETCH(QString, config);
    QFETCH(qint64, expectedTotal);

    const CliResult r = runCli({QStringLiteral("params"), config});
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 0);
    QJsonParseError error;
    const QJsonObject out = QJsonDocument::fromJson(r.out, &error).object();
    QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(r.describe()));
    QVERIFY(out.value(QLatin1String("total")).isDouble());
    QCOMPARE(out.value(QLatin1String("total")).toInteger(), expectedTotal);
}

// A model_type vramplan was not taught, with the standard fields: counted as a generic decoder
// (issue 20), said so in the output.
void TestCli::paramsGeneric()
{
    QJsonObject config = QJsonDocument::fromJson(readAll(dataPath(QStringLiteral(
                                                     "hf_configs/llama-2-7b.json"))))
                             .object();
    config.insert(QLatin1String("model_type"), QStringLiteral("unknown_arch"));
    const CliResult r =
        runCli({QStringLiteral("params"), QStringLiteral("-")}, QJsonDocument(config).toJson());
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 0);
    const QJsonObject out = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(out.value(QLatin1String("total")).toInteger(), qint64(6738415616));
    QVERIFY(out.value(QLatin1String("generic")).toString().contains(QLatin1String("unknown_arch")));
    QCOMPARE(out.value(QLatin1String("model")).toObject().value(QLatin1String("family")).toString(),
             QStringLiteral("generic"));
}

// A checkpoint folder (tests/data/checkpoints, make_checkpoints.py): the tensors of its
// safetensors headers counted exactly and sorted into parts, or its index's total.
void TestCli::paramsCheckpoint_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<qint64>("total");
    QTest::addColumn<qint64>("held");
    QTest::addColumn<bool>("exact");
    QTest::addColumn<bool>("agrees");
    QTest::addColumn<qint64>("other");
    // 256 x 64 embedding and head, 2 layers of q (64 x 64), k and v (32 x 64 each), o, q/k norms
    // of 16, a 128-wide SwiGLU and two norms, a final norm: 106,880.
    QTest::newRow("tiny-qwen3 (two files)") << "tiny-qwen3" << qint64(106880) << qint64(106880)
                                            << true << true << qint64(0);
    // The same shapes without q/k norms, planned generically; its extra_proj (64 x 64) is a
    // tensor no modelled layer holds.
    QTest::newRow("tiny-brandnew (unknown type)") << "tiny-brandnew" << qint64(106816)
                                                  << qint64(110912) << true << false
                                                  << qint64(4096);
    QTest::newRow("qwen3.5-2b index only") << "qwen3.5-2b-index" << qint64(1881825088)
                                           << qint64(1881825088) << false << true << qint64(0);
}

void TestCli::paramsCheckpoint()
{
    QFETCH(QString, folder);
    QFETCH(qint64, total);
    QFETCH(qint64, held);
    QFETCH(bool, exact);
    QFETCH(bool, agrees);
    QFETCH(qint64, other);
    const QString path = dataPath(QStringLiteral("checkpoints/") + folder);
    if (!QFileInfo(path).isDir())
        QSKIP("fixture not generated (tests/data/checkpoints/make_checkpoints.py)");
    const CliResult r = runCli({QStringLiteral("params"), path});
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 0);
    const QJsonObject out = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(out.value(QLatin1String("total")).toInteger(), total);
    const QJsonObject checkpoint = out.value(QLatin1String("checkpoint")).toObject();
    QCOMPARE(checkpoint.value(QLatin1String("total")).toInteger(), held);
    QCOMPARE(checkpoint.value(QLatin1String("exact")).toBool(), exact);
    QCOMPARE(checkpoint.value(QLatin1String("agrees_with_config")).toBool(), agrees);
    if (exact)
        QCOMPARE(checkpoint.value(QLatin1String("parts")).toObject().value(QLatin1String("other"))
                     .toInteger(),
                 other);
}

// A safetensors header that runs past its file: exit 2, one line naming the file.
void TestCli::paramsBrokenCheckpoint()
{
    const QString path = dataPath(QStringLiteral("checkpoints/broken-header"));
    const CliResult r = runCli({QStringLiteral("params"), path});
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 2);
    QVERIFY(r.out.isEmpty());
    QVERIFY2(r.err.contains("broken-header/model.safetensors") &&
                 r.err.contains("ends inside its safetensors header"),
             qPrintable(r.describe()));
}

void TestCli::paramsBadConfig_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<bool>("viaStdin");
    QTest::addColumn<QStringList>("expected");

    const QByteArray llama = readAll(dataPath(QStringLiteral("hf_configs/llama-2-7b.json")));
    QVERIFY(!llama.isEmpty());
    auto llamaWithout = [&](const char *key) {
        QJsonObject o = QJsonDocument::fromJson(llama).object();
        o.remove(QLatin1String(key));
        return QJsonDocument(o).toJson();
    };
    auto llamaWith = [&](const char *key, const QJsonValue &value) {
        QJsonObject o = QJsonDocument::fromJson(llama).object();
        o.insert(QLatin1String(key), value);
        return QJsonDocument(o).toJson();
    };

    // A type vramplan was not taught is planned generically when the config has the standard
    // fields (paramsGeneric); without them it is refused with the types it knows.
    QTest::newRow("model_type unknown_arch without the standard fields")
        << QByteArray(R"({"model_type": "unknown_arch", "hidden_size": 64})") << false
        << QStringList{"model_type", "unknown_arch", "gpt2", "llama", "mixtral", "qwen2",
                       "intermediate_size"};
    QTest::newRow("missing num_hidden_layers")
        << llamaWithout("num_hidden_layers") << false << QStringList{"num_hidden_layers"};
    QTest::newRow("missing model_type")
        << llamaWithout("model_type") << false << QStringList{"model_type"};
    QTest::newRow("num_key_value_heads 0")
        << llamaWith("num_key_value_heads", 0) << false << QStringList{"num_key_value_heads"};
    QTest::newRow("num_hidden_layers 1e30")
        << QByteArray(llama).replace("\"num_hidden_layers\": 32", "\"num_hidden_layers\": 1e30")
        << false << QStringList{"num_hidden_layers"};
    QTest::newRow("hidden_size a string")
        << llamaWith("hidden_size", QStringLiteral("4096")) << false << QStringList{"hidden_size"};
    QTest::newRow("not JSON") << QByteArray("{\"model_type\": ") << false << QStringList{"JSON"};
    QTest::newRow("top level an array") << QByteArray("[1, 2]") << false << QStringList{"object"};
    QTest::newRow("empty") << QByteArray() << false << QStringList{};
    // params names stdin "-" where estimate says "<stdin>" (reported; see params()).
    QTest::newRow("stdin: model_type unknown_arch")
        << QByteArray(R"({"model_type": "unknown_arch", "hidden_size": 64})") << true
        << QStringList{"<stdin>", "model_type", "unknown_arch"};
}

void TestCli::paramsBadConfig()
{
    QFETCH(QByteArray, content);
    QFETCH(bool, viaStdin);
    QFETCH(QStringList, expected);

    QString path = QStringLiteral("-");
    if (!viaStdin) {
        path = m_dir.filePath(QString::fromUtf8(QTest::currentDataTag())
                                  .replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_.-]+")),
                                           QStringLiteral("_")) +
                              QStringLiteral(".config.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(content);
        f.close();
        expected << QFileInfo(path).fileName();
    }
    const CliResult r = runCli({QStringLiteral("params"), path}, viaStdin ? content : QByteArray());
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 2);
    QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
    QVERIFY2(isOneLine(r.err), qPrintable("stderr should be exactly one line:\n" + r.describe()));
    const QStringList missing = missingFrom(QString::fromUtf8(r.err), expected);
    QVERIFY2(missing.isEmpty(),
             qPrintable("the message lacks [" + missing.join(QStringLiteral("], [")) + "]:\n" +
                        QString::fromUtf8(r.err)));
}

// ---------------------------------------------------------------------------------------------
// sweep

namespace {

struct Csv
{
    QStringList header;
    QList<QStringList> rows;
    int column(const QString &name) const { return header.indexOf(name); }
};

Csv parseCsv(const QByteArray &out)
{
    Csv csv;
    const QStringList lines = outputLines(out);
    if (lines.isEmpty())
        return csv;
    csv.header = csvFields(lines.front());
    for (qsizetype i = 1; i < lines.size(); ++i)
        csv.rows << csvFields(lines.at(i));
    return csv;
}

} // namespace

void TestCli::sweepMicroBatch()
{
    const CliResult r =
        runCli({"sweep", scenarioPath(gpt2H100), "--vary", "training.micro_batch_size=1:8"});
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 0);
    QVERIFY2(r.err.isEmpty(), qPrintable(r.describe()));
    const Csv csv = parseCsv(r.out);
    QCOMPARE(csv.rows.size(), 8);
    const int device = csv.column(QStringLiteral("device_bytes"));
    QVERIFY2(device > 0, qPrintable(csv.header.join(QLatin1Char(','))));
    QCOMPARE(csv.header.front(), QStringLiteral("value"));
    double previous = 0;
    for (int i = 0; i < csv.rows.size(); ++i) {
        const QStringList &row = csv.rows.at(i);
        QCOMPARE(row.size(), csv.header.size());
        QCOMPARE(row.front(), QString::number(i + 1));
        bool ok = false;
        const double bytes = row.at(device).toDouble(&ok);
        QVERIFY2(ok && bytes > 0, qPrintable(row.join(QLatin1Char(','))));
        QVERIFY2(bytes >= previous, qPrintable(QStringLiteral("device_bytes fell at %1: %2 < %3")
                                                   .arg(i + 1)
                                                   .arg(bytes, 0, 'f', 0)
                                                   .arg(previous, 0, 'f', 0)));
        QVERIFY(row.back().isEmpty()); // no error
        previous = bytes;
    }
}

void TestCli::sweepWithStep()
{
    const CliResult r =
        runCli({"sweep", scenarioPath(gpt2H100), "--vary", "training.micro_batch_size=1:64:8"});
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 0);
    const Csv csv = parseCsv(r.out);
    QCOMPARE(csv.rows.size(), 8);
    for (int i = 0; i < csv.rows.size(); ++i)
        QCOMPARE(csv.rows.at(i).front(), QString::number(1 + 8 * i));
}

void TestCli::sweepTensorParallelRowErrors()
{
    // Llama-2-7B (32 heads) on 4 GPUs: tensor_parallel 3 is no layout (4 GPUs are not a multiple
    // of 3, and 3 does not divide 32 heads); the row says so and the sweep goes on.
    const CliResult r =
        runCli({"sweep", scenarioPath(llama7bZero3), "--vary", "parallelism.tensor_parallel=1:4"});
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 0);
    const Csv csv = parseCsv(r.out);
    QCOMPARE(csv.rows.size(), 4);
    const int device = csv.column(QStringLiteral("device_bytes"));
    QVERIFY(device > 0);
    QCOMPARE(csv.header.back(), QStringLiteral("error"));
    for (int i = 0; i < 4; ++i) {
        const QStringList &row = csv.rows.at(i);
        QCOMPARE(row.size(), csv.header.size());
        QCOMPARE(row.front(), QString::number(i + 1));
        if (i + 1 == 3) {
            QVERIFY2(row.back().contains(QLatin1String("tensor_parallel")) &&
                         (row.back().contains(QLatin1String("multiple")) ||
                          row.back().contains(QLatin1String("divide"))),
                     qPrintable(row.back()));
            QVERIFY2(row.at(device).isEmpty(), qPrintable(row.join(QLatin1Char(','))));
        } else {
            QVERIFY2(row.back().isEmpty(), qPrintable(row.back()));
            bool ok = false;
            QVERIFY(row.at(device).toDouble(&ok) > 0 && ok);
        }
    }
}

// The rl section's fields sweep like the others (each row is the RL step's peak phase); on a
// scenario without the section, every row says so.
void TestCli::sweepRlFields()
{
    const QString file = scenarioPath(QStringLiteral("rl_grpo_verl_qwen2.5-7b.vramplan.json"));
    const CliResult r = runCli({"sweep", file, "--vary", "rl.response_tokens=1024:4096:1024"});
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 0);
    const Csv csv = parseCsv(r.out);
    QCOMPARE(csv.rows.size(), 4);
    const int device = csv.column(QStringLiteral("device_bytes"));
    QVERIFY(device > 0);
    // The file's own 1024 response tokens: the row is the file's estimate.
    const CliResult own = runCli({"estimate", file});
    VERIFY_RAN(own);
    const auto peak = QJsonDocument::fromJson(own.out).object().value("peak").toObject();
    QCOMPARE(csv.rows.at(0).at(device),
             QString::number(qint64(peak.value("device_bytes").toDouble())));
    double previous = 0;
    for (const QStringList &row : csv.rows) {
        QVERIFY2(row.back().isEmpty(), qPrintable(row.back()));
        const double bytes = row.at(device).toDouble();
        QVERIFY2(bytes > previous, qPrintable(row.join(QLatin1Char(','))));
        previous = bytes;
    }

    const CliResult plain =
        runCli({"sweep", scenarioPath(gpt2H100), "--vary", "rl.group_size=4:5"});
    VERIFY_RAN(plain);
    COMPARE_EXIT(plain, 0);
    const Csv refused = parseCsv(plain.out);
    QCOMPARE(refused.rows.size(), 2);
    for (const QStringList &row : refused.rows)
        QCOMPARE(row.back(), QStringLiteral("rl.group_size: the scenario has no rl section"));
}

void TestCli::sweepBadVary_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QStringList>("expected");

    const QString file = scenarioPath(gpt2H100);
    auto vary = [&](const char *spec) { return QStringList{"sweep", file, "--vary", spec}; };
    QTest::newRow("unknown field")
        << vary("not.a.field=1:2") << QStringList{"not.a.field", "training.micro_batch_size"};
    QTest::newRow("TO below FROM")
        << vary("training.micro_batch_size=5:1") << QStringList{"--vary", "TO"};
    QTest::newRow("step 0") << vary("training.micro_batch_size=1:8:0")
                            << QStringList{"--vary", "STEP"};
    QTest::newRow("negative step")
        << vary("training.micro_batch_size=1:8:-1") << QStringList{"--vary", "STEP"};
    QTest::newRow("no range") << vary("training.micro_batch_size") << QStringList{"--vary"};
    QTest::newRow("one number") << vary("training.micro_batch_size=4") << QStringList{"--vary"};
    QTest::newRow("four numbers") << vary("training.micro_batch_size=1:2:3:4")
                                  << QStringList{"--vary"};
    QTest::newRow("not numbers") << vary("training.micro_batch_size=a:b")
                                 << QStringList{"--vary", "'a'"};
    QTest::newRow("nan") << vary("training.micro_batch_size=nan:4") << QStringList{"--vary"};
    QTest::newRow("1e400") << vary("training.micro_batch_size=1e400:1e401")
                           << QStringList{"--vary"};
    QTest::newRow("ten million points")
        << vary("training.micro_batch_size=1:10000000") << QStringList{"--vary"};
    QTest::newRow("no --vary") << QStringList{"sweep", file} << QStringList{"--vary"};
    QTest::newRow("--vary without value")
        << QStringList{"sweep", file, "--vary"} << QStringList{"--vary"};
}

void TestCli::sweepBadVary()
{
    QFETCH(QStringList, arguments);
    QFETCH(QStringList, expected);
    const CliResult r = runCli(arguments);
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 2);
    QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
    QVERIFY2(isOneLine(r.err), qPrintable("stderr should be exactly one line:\n" + r.describe()));
    const QStringList missing = missingFrom(QString::fromUtf8(r.err), expected);
    QVERIFY2(missing.isEmpty(),
             qPrintable("the message lacks [" + missing.join(QStringLiteral("], [")) + "]:\n" +
                        QString::fromUtf8(r.err)));
}

// ---------------------------------------------------------------------------------------------
// max-batch, max-sequence, min-gpus

void TestCli::solvers_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("field"); // the field the answer is for
    QTest::addColumn<int>("step");      // > 0: answer + step does not fit; < 0: answer + step
    QTest::addColumn<bool>("fits");     // whether any answer exists (else 0 is printed)

    const QString batch = QStringLiteral("training.micro_batch_size");
    const QString sequence = QStringLiteral("training.sequence_length");
    const QString gpus = QStringLiteral("parallelism.gpus");
    QTest::newRow("max-batch: gpt2 on h100-80gb")
        << QStringLiteral("max-batch") << scenarioPath(gpt2H100) << batch << 1 << true;
    QTest::newRow("max-batch: llama-2-7b ZeRO-3 on 4 x a100-80gb")
        << QStringLiteral("max-batch") << scenarioPath(llama7bZero3) << batch << 1 << true;
    QTest::newRow("max-batch: llama-3.1-405b full fine-tune on one rtx-4090")
        << QStringLiteral("max-batch") << scenarioPath(llama405bRtx4090) << batch << 1 << false;
    QTest::newRow("max-sequence: gpt2 on h100-80gb")
        << QStringLiteral("max-sequence") << scenarioPath(gpt2H100) << sequence << 256 << true;
    QTest::newRow("max-sequence: llama-2-7b ZeRO-3")
        << QStringLiteral("max-sequence") << scenarioPath(llama7bZero3) << sequence << 256 << true;
    QTest::newRow("max-sequence: llama-3.1-405b on rtx-4090")
        << QStringLiteral("max-sequence") << scenarioPath(llama405bRtx4090) << sequence << 256
        << false;
    QTest::newRow("min-gpus: gpt2 on h100-80gb")
        << QStringLiteral("min-gpus") << scenarioPath(gpt2H100) << gpus << -1 << true;
    QTest::newRow("min-gpus: llama-2-7b ZeRO-3")
        << QStringLiteral("min-gpus") << scenarioPath(llama7bZero3) << gpus << -1 << true;
    QTest::newRow("min-gpus: llama-3.1-405b without ZeRO")
        << QStringLiteral("min-gpus") << scenarioPath(llama405bRtx4090) << gpus << -1 << false;
}

void TestCli::solvers()
{
    QFETCH(QString, command);
    QFETCH(QString, file);
    QFETCH(QString, field);
    QFETCH(int, step);
    QFETCH(bool, fits);

    const CliResult r = runCli({command, file});
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 0);
    QVERIFY2(r.err.isEmpty(), qPrintable(r.describe()));
    if (!fits) {
        // Not a bare 0: the 0 scripts read, then why (issue 12).
        static const QRegularExpression nothing(
            QStringLiteral("^0: nothing fits, (not even|up to) .* \\(over by \\d+\\.\\d\\d GiB on .+\\)\\n$"));
        QVERIFY2(nothing.match(QString::fromUtf8(r.out)).hasMatch(), qPrintable(r.describe()));
        return;
    }
    static const QRegularExpression integerLine(QStringLiteral("^\\d+\\n$"));
    QVERIFY2(integerLine.match(QString::fromUtf8(r.out)).hasMatch(),
             qPrintable("expected one integer:\n" + r.describe()));
    const qint64 answer = r.out.trimmed().toLongLong();
    if (!fits) {
        QCOMPARE(answer, qint64(0));
        return;
    }
    QVERIFY(answer >= 1);

    // The answer agrees with the estimate: it fits, one step beyond it does not.
    const qint64 neighbour = answer + step;
    const qint64 from = std::max<qint64>(1, std::min(answer, neighbour));
    const qint64 to = std::max(answer, neighbour);
    const CliResult sweep =
        runCli({"sweep", file, "--vary",
                QStringLiteral("%1=%2:%3:%4").arg(field).arg(from).arg(to).arg(std::abs(step))});
    VERIFY_RAN(sweep);
    COMPARE_EXIT(sweep, 0);
    const Csv csv = parseCsv(sweep.out);
    const int fitsColumn = csv.column(QStringLiteral("fits"));
    QVERIFY(fitsColumn > 0);
    for (const QStringList &row : csv.rows) {
        const bool atAnswer = row.front() == QString::number(answer);
        QVERIFY2(row.front() == QString::number(answer) ||
                     row.front() == QString::number(neighbour),
                 qPrintable(row.join(QLatin1Char(','))));
        QCOMPARE(row.at(fitsColumn), atAnswer ? QStringLiteral("true") : QStringLiteral("false"));
    }
    QCOMPARE(csv.rows.size(), qsizetype(from == to ? 1 : 2));
}

// ---------------------------------------------------------------------------------------------
// Usage and options

void TestCli::usage_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<QString>("stdoutHas"); // "" means stdout must be empty
    QTest::addColumn<QString>("stderrHas"); // "" means stderr must be empty

    QTest::newRow("--help") << QStringList{"--help"} << 0 << QStringLiteral("usage") << QString();
    QTest::newRow("-h") << QStringList{"-h"} << 0 << QStringLiteral("usage") << QString();
    QTest::newRow("--version") << QStringList{"--version"} << 0 << QStringLiteral("vramplan-cli")
                               << QString();
    QTest::newRow("no arguments") << QStringList{} << 2 << QString() << QStringLiteral("usage");
    QTest::newRow("unknown command")
        << QStringList{"frobnicate"} << 2 << QString() << QStringLiteral("frobnicate");
    QTest::newRow("unknown command with a file") << QStringList{"estimat", scenarioPath(gpt2H100)}
                                                 << 2 << QString() << QStringLiteral("estimat");
}

void TestCli::usage()
{
    QFETCH(QStringList, arguments);
    QFETCH(int, exitCode);
    QFETCH(QString, stdoutHas);
    QFETCH(QString, stderrHas);

    const CliResult r = runCli(arguments);
    VERIFY_RAN(r);
    COMPARE_EXIT(r, exitCode);
    if (stdoutHas.isEmpty())
        QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
    else
        QVERIFY2(QString::fromUtf8(r.out).contains(stdoutHas), qPrintable(r.describe()));
    if (stderrHas.isEmpty())
        QVERIFY2(r.err.isEmpty(), qPrintable(r.describe()));
    else
        QVERIFY2(QString::fromUtf8(r.err).contains(stderrHas), qPrintable(r.describe()));
}

void TestCli::badOptions_data()
{
    QTest::addColumn<QStringList>("arguments");
    QTest::addColumn<QString>("expected");

    const QString file = scenarioPath(gpt2H100);
    QTest::newRow("--format xml") << QStringList{"estimate", file, "--format", "xml"}
                                  << QStringLiteral("--format");
    QTest::newRow("--format without value")
        << QStringList{"estimate", file, "--format"} << QStringLiteral("--format");
    QTest::newRow("--units mib") << QStringList{"estimate", file, "--units", "mib"}
                                 << QStringLiteral("--units");
    QTest::newRow("unknown option")
        << QStringList{"estimate", file, "--bogus"} << QStringLiteral("--bogus");
    QTest::newRow("estimate without file") << QStringList{"estimate"} << QStringLiteral("estimate");
    QTest::newRow("estimate with two files")
        << QStringList{"estimate", file, file} << QStringLiteral("estimate");
    QTest::newRow("params without file") << QStringList{"params"} << QStringLiteral("params");
    QTest::newRow("max-batch without file")
        << QStringList{"max-batch"} << QStringLiteral("max-batch");
    QTest::newRow("calibrate: unknown metric")
        << QStringList{"calibrate", file, "--metric", "smi", "--measured", "20GB"}
        << QStringLiteral("--metric: must be allocated, reserved or device, got 'smi'");
    QTest::newRow("calibrate: no measurement")
        << QStringList{"calibrate", file, "--metric", "reserved"}
        << QStringLiteral("--measured: is required");
    QTest::newRow("calibrate: unknown unit")
        << QStringList{"calibrate", file, "--metric", "reserved", "--measured", "20XB"}
        << QStringLiteral("--measured: unknown unit 'xb'");
    QTest::newRow("calibrate: not a size")
        << QStringList{"calibrate", file, "--metric", "reserved", "--measured", "lots"}
        << QStringLiteral("--measured: expected a size");
    QTest::newRow("calibrate: below the weights")
        << QStringList{"calibrate", file, "--metric", "allocated", "--measured", "1MB"}
        << QStringLiteral("calibrate: the measured 0.00 GiB is below");
}

// The fitted scenario reproduces the measurement when estimated again, in every unit spelling.
void TestCli::calibrate_data()
{
    QTest::addColumn<QString>("metric");
    QTest::addColumn<QString>("measured");
    QTest::addColumn<double>("bytes");
    QTest::newRow("reserved 20GB") << "reserved" << "20GB" << 20e9;
    QTest::newRow("device 18 GiB") << "device" << "18 GiB" << 18.0 * 1073741824.0;
    QTest::newRow("allocated in bytes") << "allocated" << "17000000000" << 17e9;
}

void TestCli::calibrate()
{
    QFETCH(QString, metric);
    QFETCH(QString, measured);
    QFETCH(double, bytes);
    const CliResult fitted = runCli(
        {"calibrate", scenarioPath(gpt2H100), "--metric", metric, "--measured", measured});
    VERIFY_RAN(fitted);
    COMPARE_EXIT(fitted, 0);
    const CliResult again = runCli({"estimate", "-"}, fitted.out);
    VERIFY_RAN(again);
    COMPARE_EXIT(again, 0);
    const QJsonObject peak = QJsonDocument::fromJson(again.out).object().value("peak").toObject();
    const double value = peak.value(metric + "_bytes").toDouble();
    QVERIFY2(std::fabs(value - bytes) <= 1e-6 * bytes,
             qPrintable(QString("%1: %2, expected %3").arg(metric).arg(value).arg(bytes)));
}

void TestCli::badOptions()
{
    QFETCH(QStringList, arguments);
    QFETCH(QString, expected);
    const CliResult r = runCli(arguments);
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 2);
    QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
    QVERIFY2(isOneLine(r.err), qPrintable("stderr should be exactly one line:\n" + r.describe()));
    QVERIFY2(QString::fromUtf8(r.err).contains(expected), qPrintable(r.describe()));
}

void TestCli::catalogLists_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QStringList>("ids");
    // The presets and GPUs the scenarios here rely on.
    QTest::newRow("presets") << QStringLiteral("presets")
                             << QStringList{"gpt2", "llama-2-7b", "llama-3.1-405b", "mixtral-8x7b"};
    QTest::newRow("gpus") << QStringLiteral("gpus")
                          << QStringList{"h100-80gb", "a100-80gb", "rtx-4090"};
}

void TestCli::catalogLists()
{
    QFETCH(QString, command);
    QFETCH(QStringList, ids);
    const CliResult r = runCli({command});
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 0);
    QStringList firstWords;
    for (const QString &line : outputLines(r.out))
        firstWords << line.section(QLatin1Char(' '), 0, 0, QString::SectionSkipEmpty);
    for (const QString &id : ids)
        QVERIFY2(firstWords.contains(id), qPrintable(id + " not listed:\n" + r.describe()));
}

void TestCli::catalogGpuMemory_data()
{
    QTest::addColumn<QString>("id");
    QTest::addColumn<QString>("mib");
    QTest::addColumn<QString>("architecture");
    // GPUs people rent that the catalog gained (issue 21): `gpus` prints each with the total
    // nvidia-smi (rocm-smi) reports, not the marketing capacity (resources/gpus.json names
    // the log each figure was seen in).
    QTest::newRow("A800") << "a800-80gb" << "81920" << "ampere";
    QTest::newRow("H800") << "h800-80gb" << "81559" << "hopper";
    QTest::newRow("H20") << "h20-96gb" << "97871" << "hopper";
    QTest::newRow("L20 (ECC on)") << "l20-48gb" << "46068" << "ada";
    QTest::newRow("RTX 4090 D") << "rtx-4090d" << "24564" << "ada";
    QTest::newRow("A40 (ECC on)") << "a40-48gb" << "46068" << "ampere";
    QTest::newRow("MI325X") << "mi325x-256gb" << "262128" << "cdna3";
    QTest::newRow("B300") << "b300-288gb" << "275040" << "blackwell";
    QTest::newRow("GB200, one GPU") << "gb200-186gb" << "189471" << "blackwell";
    QTest::newRow("RTX PRO 6000 Blackwell") << "rtx-pro-6000-96gb" << "97887" << "blackwell";
}

void TestCli::catalogGpuMemory()
{
    QFETCH(QString, id);
    QFETCH(QString, mib);
    QFETCH(QString, architecture);
    const CliResult r = runCli({"gpus"});
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 0);
    for (const QString &line : outputLines(r.out)) {
        const QStringList words = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        if (words.isEmpty() || words.first() != id)
            continue;
        QVERIFY2(words.size() >= 4, qPrintable(line));
        QCOMPARE(words.at(words.size() - 1), architecture);
        QCOMPARE(words.at(words.size() - 2), QStringLiteral("MiB"));
        QCOMPARE(words.at(words.size() - 3), mib);
        return;
    }
    QFAIL(qPrintable(id + " not listed:\n" + r.describe()));
}

// ---------------------------------------------------------------------------------------------
// advise

void TestCli::advise()
{
    // The default scenario does not fit: JSON by the contract, every suggestion fits.
    const CliResult r = runCli({"advise", scenarioPath(llama7bZero3)});
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 0);
    QVERIFY2(r.err.isEmpty(), qPrintable(r.describe()));
    const auto j = nlohmann::json::parse(r.out.toStdString(), nullptr, false);
    QVERIFY2(!j.is_discarded(), qPrintable(r.describe()));
    QCOMPARE(QString::fromStdString(j.value("format", "")), QStringLiteral("vramplan-advice"));
    QVERIFY(j["searched"].get<int64_t>() >= j["estimated"].get<int64_t>());
    for (const auto &sg : j["suggestions"])
        QVERIFY(sg["fits"].get<bool>() && sg["headroom_bytes"].get<int64_t>() >= 0);
    // The table for people.
    const CliResult t = runCli({"advise", scenarioPath(gpt2H100), "--format", "table", "--mfu", "0.3"});
    VERIFY_RAN(t);
    COMPARE_EXIT(t, 0);
    QVERIFY2(t.out.contains("candidates") && t.out.contains("largest micro-batch"),
             qPrintable(t.describe()));
    // Llama-3.1-405B on one 24 GB card without other hardware: only QLoRA with everything
    // offloaded to the host fits (DeepSpeed-style ZeRO-3 offload on one GPU).
    const CliResult n = runCli({"advise", scenarioPath(llama405bRtx4090), "--format", "table",
                                "--no-hardware"});
    VERIFY_RAN(n);
    COMPARE_EXIT(n, 0);
    QVERIFY2(n.out.contains("does not fit as it is") && n.out.contains("finetune.method qlora") &&
                 n.out.contains("offload_parameters cpu"),
             qPrintable(n.describe()));
}

void TestCli::adviseRefusesBadOptions_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    QTest::newRow("mfu above 1") << QStringList{"advise", "%1", "--mfu", "2"}
                                 << "vramplan-cli: --mfu: must be a number above 0 and at most 1, got '2'";
    QTest::newRow("mfu not a number") << QStringList{"advise", "%1", "--mfu", "fast"}
                                      << "vramplan-cli: --mfu: must be a number above 0 and at most 1, got 'fast'";
    QTest::newRow("format csv") << QStringList{"advise", "%1", "--format", "csv"}
                                << "vramplan-cli: --format must be json or table, got csv";
}

void TestCli::adviseRefusesBadOptions()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    for (QString &a : args)
        a = a.arg(scenarioPath(gpt2H100));
    const CliResult r = runCli(args);
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 2);
    QCOMPARE(QString::fromUtf8(r.err).trimmed(), message);
}

// advise on an inference scenario with a serving section: the cheapest GPU / TP / quantisation
// that serves N requests of L tokens (docs/serving.md "Advice").
void TestCli::adviseServing()
{
    // Llama-3.1-8B on one H100 under vLLM holds 442912 KV tokens at 32k (13.5 requests): 16
    // do not fit as it is, and every suggestion serves them.
    const CliResult r =
        runCli({"advise", scenarioPath(llama8bVllm), "--requests", "16", "--tokens", "32768"});
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 0);
    QVERIFY2(r.err.isEmpty(), qPrintable(r.describe()));
    const auto j = nlohmann::json::parse(r.out.toStdString(), nullptr, false);
    QVERIFY2(!j.is_discarded(), qPrintable(r.describe()));
    QCOMPARE(QString::fromStdString(j.value("format", "")), QStringLiteral("vramplan-advice"));
    QCOMPARE(j["fits_now"].get<bool>(), false);
    QCOMPARE(j["target"]["kv_tokens"].get<int64_t>(), int64_t(16) * 32768);
    QCOMPARE(j["now"]["kv_cache_tokens"].get<int64_t>(), int64_t(442912));
    QVERIFY(!j["suggestions"].empty() && !j.contains("nearest"));
    double previous = 0;
    for (const auto &sg : j["suggestions"]) {
        const auto &sv = sg["serving"];
        QVERIFY(sg["fits"].get<bool>() && sv["serves"].get<bool>() && sv["starts"].get<bool>());
        QVERIFY(sv["max_concurrency"].get<double>() >= 16);
        QVERIFY(sv["kv_cache_tokens"].get<int64_t>() >= 16 * 32768);
        QVERIFY(sv["relative_cost"].get<double>() >= previous);
        previous = sv["relative_cost"].get<double>();
        QCOMPARE(sg["scenario"]["serving"]["max_model_len"].get<int64_t>(), int64_t(32768));
        const std::string kind = sg["kind"].get<std::string>();
        QVERIFY(kind == "same_semantics" || kind == "numerics");
        QCOMPARE(kind == "numerics", sg["changes"].contains("serving.quantization") ||
                                         sg["changes"].contains("serving.kv_cache_dtype"));
    }
    // The suggestion's scenario is a file the estimator takes, and it starts there too.
    QTemporaryDir dir;
    const QString file = dir.filePath(QStringLiteral("first.vramplan.json"));
    {
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(j["suggestions"][0]["scenario"].dump()));
    }
    const CliResult e = runCli({"estimate", file});
    VERIFY_RAN(e);
    COMPARE_EXIT(e, 0);
    const auto ej = nlohmann::json::parse(e.out.toStdString(), nullptr, false);
    QVERIFY2(ej["serving"]["starts"].get<bool>() && ej["serving"]["max_concurrency"].get<double>() >= 16,
             qPrintable(e.describe()));
    // The table for people; its defaults (issue 21 #6): the scenario's own target
    // (serving.target_requests, target_tokens), else one request of max_model_len, never
    // max_num_seqs (a cap on the engine's batch, not a number of users).
    const CliResult t = runCli({"advise", scenarioPath(llama8bVllm), "--format", "table"});
    VERIFY_RAN(t);
    COMPARE_EXIT(t, 0);
    QVERIFY2(t.out.contains("target: 1 concurrent request of 32768 tokens") &&
                 t.out.contains("kv tokens") && t.out.contains("GPU memory rented"),
             qPrintable(t.describe()));
    // An impossible target: nothing serves, the nearest is named.
    const CliResult n = runCli({"advise", scenarioPath(llama8bVllm), "--requests", "1048576",
                                "--tokens", "131072", "--format", "table"});
    VERIFY_RAN(n);
    COMPARE_EXIT(n, 0);
    QVERIFY2(n.out.contains("nothing serves the target: the nearest is"), qPrintable(n.describe()));
    const CliResult nj =
        runCli({"advise", scenarioPath(llama8bVllm), "--requests", "1048576", "--tokens", "131072"});
    VERIFY_RAN(nj);
    const auto nearest = nlohmann::json::parse(nj.out.toStdString(), nullptr, false);
    QVERIFY2(nearest["suggestions"].empty() && nearest["nearest"]["over_by_bytes"].get<int64_t>() > 0,
             qPrintable(nj.describe()));
    // --no-hardware keeps the H100.
    const CliResult h = runCli({"advise", scenarioPath(llama8bVllm), "--requests", "16",
                                "--no-hardware"});
    VERIFY_RAN(h);
    const auto hj = nlohmann::json::parse(h.out.toStdString(), nullptr, false);
    QVERIFY(!hj["suggestions"].empty());
    for (const auto &sg : hj["suggestions"])
        QCOMPARE(sg["serving"]["gpu"].get<std::string>(), std::string("h100-80gb"));
}

void TestCli::adviseServingRefusesBadOptions_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("message");
    const QString serving = scenarioPath(llama8bVllm);
    const QString training = scenarioPath(gpt2H100);
    QTest::newRow("requests 0") << QStringList{"advise", serving, "--requests", "0"}
                                << "vramplan-cli: --requests: must be a whole number from 1 to "
                                   "1048576, got '0'";
    QTest::newRow("tokens not a number")
        << QStringList{"advise", serving, "--tokens", "8k"}
        << "vramplan-cli: --tokens: must be a whole number from 1 to 1073741824, got '8k'";
    QTest::newRow("requests without a value") << QStringList{"advise", serving, "--requests"}
                                              << "vramplan-cli: --requests needs a value";
    QTest::newRow("requests on a training scenario")
        << QStringList{"advise", training, "--requests", "4"}
        << training + ": --requests and --tokens need an inference scenario with a serving "
                      "section (training.mode inference, serving)";
}

void TestCli::adviseServingRefusesBadOptions()
{
    QFETCH(QStringList, args);
    QFETCH(QString, message);
    const CliResult r = runCli(args);
    VERIFY_RAN(r);
    COMPARE_EXIT(r, 2);
    QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
    QCOMPARE(QString::fromUtf8(r.err).trimmed(), message);
}

QTEST_APPLESS_MAIN(TestCli)

#include "tst_cli.moc"
