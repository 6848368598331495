// Measured runs (core/runs/, SPEC §3 "Measured runs"): the figures of every kind of file, exact
// to the byte on fixtures whose figures are known by construction (tests/data/runs/
// make_snapshots.py: one training step, allocated peak 30 MiB in backward, reserved 40 MiB),
// the replay of a trace that lost its oldest entries, the component rules, the timeline's
// bound, the merge of several files, the comparison with an estimate, and malformed files.

#include "estimate.h"
#include "formats/estimate_json.h"
#include "formats/scenario_json.h"
#include "runs/byte_source.h"
#include "runs/run_report.h"
#include "runs/run_source.h"

#include <QFile>
#include <QTest>

#include <sstream>
#include <string>

using namespace vramplan;

namespace {

constexpr qint64 MiB = 1 << 20;
constexpr qint64 null = -1; // a figure the file cannot give

std::string fixture(const QString &name)
{
    QFile f(QStringLiteral(VRAMPLAN_TEST_DATA "/runs/") + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

qint64 orNull(const std::optional<int64_t> &v)
{
    return v ? qint64(*v) : null;
}

qint64 orNull(const nlohmann::json &v)
{
    return v.is_number() ? qint64(v.get<int64_t>()) : null;
}

RunSource readOrFail(const QString &file, int device = 0)
{
    auto s = readRunSource(file.toStdString(), fixture(file), device);
    if (!s) {
        QTest::qFail(("refused: " + s.error).c_str(), __FILE__, __LINE__);
        return {};
    }
    return *s.value;
}

// A snapshot (JSON) of one segment and the given trace entries.
std::string snapshotJson(int64_t segment, const std::string &blocks, const std::string &trace)
{
    return R"({"segments": [{"device": 0, "address": 0, "total_size": )" + std::to_string(segment) +
           R"(, "blocks": [)" + blocks + R"(]}], "device_traces": [[)" + trace + "]]}";
}

} // namespace

class TestRunReport : public QObject
{
    Q_OBJECT

private slots:
    void snapshots_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("device");
        QTest::addColumn<qint64>("allocated");
        QTest::addColumn<qint64>("reserved");
        QTest::addColumn<QString>("phase");
        QTest::addColumn<QList<qint64>>("components"); // parameters .. framework
        QTest::addColumn<qint64>("unknown");
        QTest::addColumn<QString>("phasesFrom");
        QTest::addColumn<QString>("gradientRule");
        const QList<qint64> step = {6 * MiB, 4 * MiB, 0, 8 * MiB, 12 * MiB, null};
        const QString accumulate = QStringLiteral("made by AccumulateGrad");
        const QString lifetime =
            QStringLiteral("made in backward and alive into the optimizer step");
        for (const char *f :
             {"snapshot_p2.pickle", "snapshot_p4.pickle", "snapshot_p5.pickle", "snapshot.json"})
            QTest::newRow(f) << QString::fromLatin1(f) << 0 << 30 * MiB << 40 * MiB << "backward"
                             << step << qint64(0) << "annotations" << accumulate;
        // stacks="python", no time_us, no annotations: phases from the frames; the autograd
        // engine records no frames, so gradients fall to the lifetime rule.
        for (const char *f :
             {"snapshot_frames.pickle", "snapshot_frames_p0.pickle", "snapshot_frames_p1.pickle"})
            QTest::newRow(f) << QString::fromLatin1(f) << 0 << 30 * MiB << 40 * MiB << "backward"
                             << step << qint64(0) << "frames" << lifetime;
        // The trace lost its first five entries (A1's alloc among them): the same peaks; A1 is
        // made before the trace, so its 3 MiB are unknown.
        QTest::newRow("lost oldest entries")
            << "snapshot_lost_oldest.pickle" << 0 << 30 * MiB << 40 * MiB << "backward"
            << QList<qint64>{6 * MiB, 4 * MiB, 0, 5 * MiB, 12 * MiB, null} << 3 * MiB
            << "annotations" << accumulate;
        // Device 1: no stacks, no phases: every component null, the peak unknown.
        QTest::newRow("device 1") << "snapshot_p4.pickle" << 1 << MiB << 2 * MiB << ""
                                  << QList<qint64>{null, null, null, null, null, null} << MiB
                                  << "none"
                                  << "";
    }
    void snapshots()
    {
        QFETCH(QString, file);
        QFETCH(int, device);
        QFETCH(qint64, allocated);
        QFETCH(qint64, reserved);
        QFETCH(QString, phase);
        QFETCH(QList<qint64>, components);
        QFETCH(qint64, unknown);
        QFETCH(QString, phasesFrom);
        QFETCH(QString, gradientRule);
        const RunSource s = readOrFail(file, device);
        QCOMPARE(QString::fromStdString(s.kind), QStringLiteral("torch_snapshot"));
        QCOMPARE(orNull(s.allocated), allocated);
        QCOMPARE(orNull(s.reserved), reserved);
        QCOMPARE(orNull(s.device), null);
        QCOMPARE(QString::fromStdString(s.phase.value_or("")), phase);
        for (int c = 0; c < runComponentCount; ++c)
            QVERIFY2(orNull(s.components[size_t(c)]) == components[c],
                     runComponentKey(RunComponent(c)).data());
        QCOMPARE(orNull(s.unknownBytes), unknown);
        QCOMPARE(QString::fromStdString(s.details["phases_from"].get<std::string>()), phasesFrom);
        // The rules' bytes add up to the peak, unknown included.
        int64_t sum = 0;
        QString gradients;
        for (const auto &r : s.rules) {
            sum += r.bytes;
            if (r.component == RunComponent::Gradients)
                gradients = QString::fromStdString(r.rule);
        }
        QCOMPARE(qint64(sum), allocated);
        QCOMPARE(gradients, gradientRule);
        // The timeline holds the peak and ends at the final state.
        qint64 highest = 0;
        for (const auto &p : s.timeline)
            highest = std::max<qint64>(highest, *p.allocated);
        QCOMPARE(highest, allocated);
        QCOMPARE(qint64(*s.timeline.back().allocated), qint64(s.details["end_allocated_bytes"]));
        QCOMPARE(s.timeline.front().tUs, int64_t(0));
    }

    // Without a trace only the end is known: the peaks and components are null, not the end.
    void stateOnly()
    {
        const RunSource s = readOrFail(QStringLiteral("snapshot_state_only.pickle"));
        QVERIFY(!s.allocated && !s.reserved && !s.phase && !s.unknownBytes);
        for (const auto &c : s.components)
            QVERIFY(!c);
        QCOMPARE(s.timeline.size(), std::size_t(1));
        QCOMPARE(qint64(*s.timeline[0].allocated), 22 * MiB + 2000000);
    }

    // A long trace: at most maxTimelinePoints points, the peak among them, t_us from time_us.
    void timelineDecimated()
    {
        std::string trace;
        const int n = 50000;
        for (int i = 0; i < n; ++i) {
            const int64_t size = i == 31337 ? 7 * MiB : 1000 + i % 100;
            trace += (i ? "," : "") + std::string(R"({"action": "alloc", "addr": )") +
                     std::to_string(4096 * i) + R"(, "size": )" + std::to_string(size) +
                     R"(, "time_us": )" + std::to_string(5000000 + 10 * i) + "}," +
                     R"({"action": "free_completed", "addr": )" + std::to_string(4096 * i) +
                     R"(, "size": )" + std::to_string(size) + R"(, "time_us": )" +
                     std::to_string(5000000 + 10 * i + 5) + "}";
        }
        auto s = readRunSource("long.json", snapshotJson(64 * MiB, "", trace), 0);
        QVERIFY2(s, s.error.c_str());
        QCOMPARE(orNull(s.value->allocated), 7 * MiB);
        QVERIFY(s.value->timeline.size() <= maxTimelinePoints);
        QVERIFY(s.value->timeline.size() > maxTimelinePoints / 2);
        bool peakShown = false;
        for (const auto &p : s.value->timeline)
            peakShown = peakShown || (*p.allocated == 7 * MiB && p.tUs == 10 * 31337);
        QVERIFY(peakShown);
    }

    // From a stream (as the command line reads files): the same figures; the kind is told by
    // the first bytes, white space and a UTF-8 BOM before JSON or CSV skipped.
    void streamed_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("prefix");
        QTest::newRow("pickle") << "snapshot_p4.pickle" << QByteArray();
        QTest::newRow("pickle, protocol 0") << "snapshot_frames_p0.pickle" << QByteArray();
        QTest::newRow("JSON after a BOM") << "snapshot.json" << QByteArray("\xef\xbb\xbf\n ");
        QTest::newRow("CSV after white space") << "nvidia_smi.csv" << QByteArray("\n\n");
        QTest::newRow("memory_stats") << "memory_stats.json" << QByteArray();
    }
    void streamed()
    {
        QFETCH(QString, file);
        QFETCH(QByteArray, prefix);
        const std::string bytes = prefix.toStdString() + fixture(file);
        const auto inMemory = readRunSource("f", std::string_view(bytes), 0);
        QVERIFY2(inMemory, inMemory.error.c_str());
        std::istringstream stream(bytes);
        ByteSource source(stream);
        const auto streamedSource = readRunSource("f", source, 0);
        QVERIFY2(streamedSource, streamedSource.error.c_str());
        QCOMPARE(orNull(streamedSource.value->allocated), orNull(inMemory.value->allocated));
        QCOMPARE(orNull(streamedSource.value->reserved), orNull(inMemory.value->reserved));
        QCOMPARE(orNull(streamedSource.value->device), orNull(inMemory.value->device));
        QVERIFY(runReportJson({*streamedSource.value}, 0) == runReportJson({*inMemory.value}, 0));
        QVERIFY(inMemory.value->allocated || inMemory.value->device);
    }

    void otherFiles()
    {
        // MemTracker: per_component_bytes exactly (parameters = PARAM + BUFFER ...).
        RunSource m = readOrFail(QStringLiteral("mem_tracker_peak.json"));
        QCOMPARE(QString::fromStdString(m.kind), QStringLiteral("mem_tracker"));
        const QList<qint64> expected = {16060522496 + 262144, 16060522496, 32121044992,
                                        5368709120,           1073741824,  4096};
        for (int c = 0; c < runComponentCount; ++c)
            QCOMPARE(orNull(m.components[size_t(c)]), expected[c]);
        QVERIFY(!m.allocated && !m.reserved && !m.device);
        QVERIFY(!readRunSource("m.json", fixture(QStringLiteral("mem_tracker_peak.json")), 3));
        // memory_stats(): the allocator's own peaks.
        RunSource st = readOrFail(QStringLiteral("memory_stats.json"));
        QCOMPARE(orNull(st.allocated), qint64(32212254720));
        QCOMPARE(orNull(st.reserved), qint64(36507222016));
        QVERIFY(!st.device && !st.components[0]);
        // nvidia-smi: the device's peak and its samples.
        RunSource smi = readOrFail(QStringLiteral("nvidia_smi.csv"));
        QCOMPARE(orNull(smi.device), 33500 * MiB);
        QCOMPARE(smi.timeline.size(), std::size_t(6));
        QCOMPARE(smi.timeline[3].tUs, int64_t(3000000));
        RunSource gpu1 = readOrFail(QStringLiteral("nvidia_smi_2gpu.csv"), 1);
        QCOMPARE(orNull(gpu1.device), 45000 * MiB);
        QCOMPARE(orNull(readOrFail(QStringLiteral("nvidia_smi_2gpu.csv"), 0).device), 40000 * MiB);
    }

    // Several files of one run, and the comparison with an estimate.
    void mergedAndCompared()
    {
        std::vector<RunSource> sources = {readOrFail(QStringLiteral("snapshot_p4.pickle")),
                                          readOrFail(QStringLiteral("nvidia_smi.csv"))};
        nlohmann::json report = runReportJson(sources, 0);
        QCOMPARE(report["format"].get<std::string>(), std::string("vramplan-run"));
        QCOMPARE(orNull(report["peak"]["allocated_bytes"]), 30 * MiB);
        QCOMPARE(orNull(report["peak"]["device_bytes"]), 33500 * MiB);
        QCOMPARE(report["peak"]["phase"].get<std::string>(), std::string("backward"));
        QCOMPARE(orNull(report["per_component_bytes"]["activations"]), 8 * MiB);
        QVERIFY(report["per_component_bytes"]["framework"].is_null());
        QVERIFY(report["comparison"].is_null());
        QCOMPARE(report["device_timeline"].size(), std::size_t(6));

        QFile f(QStringLiteral(VRAMPLAN_TEST_DATA "/scenarios/gpt2-h100.vramplan.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto scenario = scenarioFromText(f.readAll().toStdString());
        QVERIFY2(scenario, scenario.error.c_str());
        const nlohmann::json plan = estimateToJson(estimate(*scenario.value), *scenario.value);
        report = runReportJson(sources, 0, &plan);
        const nlohmann::json &diff = report["comparison"]["difference_bytes"];
        QVERIFY(report["comparison"]["estimate"] == plan);
        QCOMPARE(orNull(diff["allocated"]),
                 30 * MiB - std::llround(plan["peak"]["allocated_bytes"].get<double>()));
        QCOMPARE(orNull(diff["device"]),
                 33500 * MiB - std::llround(plan["peak"]["device_bytes"].get<double>()));
        const double plannedActivations = plan["per_gpu_bytes"]["activations"].get<double>() +
                                          plan["per_gpu_bytes"]["logits_and_loss"].get<double>();
        QCOMPARE(orNull(diff["per_component"]["activations"]),
                 8 * MiB - std::llround(plannedActivations));
        QVERIFY(diff["per_component"]["framework"].is_null());
        const std::string table = runReportTable(report);
        QVERIFY2(table.find("activations ") != std::string::npos &&
                     table.find(" than planned") != std::string::npos,
                 table.c_str());

        // memory_stats' exact peak wins over the snapshot's window; the phase then is unknown.
        sources.push_back(readOrFail(QStringLiteral("memory_stats.json")));
        report = runReportJson(sources, 0);
        QCOMPARE(orNull(report["peak"]["allocated_bytes"]), qint64(32212254720));
        QVERIFY(report["peak"]["phase"].is_null());
    }

    // Malformed files: one sentence naming the field, never a guess.
    void malformed_data()
    {
        QTest::addColumn<QByteArray>("file");
        QTest::addColumn<QString>("expected");
        const auto block = [](const char *state, int64_t size) {
            return R"({"address": 0, "size": )" + std::to_string(size) +
                   ", \"state\": \"" + // (a raw string here trips moc)
                   state + "\"}";
        };
        const auto row = [](const char *name, const std::string &text, const char *e) {
            QTest::newRow(name) << QByteArray::fromStdString(text) << QString::fromUtf8(e);
        };
        row("not a dict", "[1, 2]", "not a run file vramplan reads");
        row("unknown dict", R"({"hello": 1})", "not a run file vramplan reads");
        row("negative size", snapshotJson(10, block("active_allocated", -5), ""),
            "segments[0].blocks[0].size: must be a whole number >= 0, got -5");
        row("unknown state", snapshotJson(10, block("half_allocated", 5), ""),
            "segments[0].blocks[0].state: unknown state \"half_allocated\"");
        row("total_size missing", R"({"segments": [{"device": 0, "blocks": []}]})",
            "segments[0].total_size: missing");
        row("device missing", R"({"segments": [{"total_size": 1, "blocks": []}]})",
            "segments[0].device: must be a whole number");
        row("entry without size", snapshotJson(10, "", R"({"action": "alloc", "addr": 0})"),
            "device_traces[0][0].size: missing");
        row("entry without action", snapshotJson(10, "", R"({"addr": 0, "size": 1})"),
            "device_traces[0][0].action: must be a string");
        row("a trace of another run",
            snapshotJson(10, "", R"({"action": "alloc", "addr": 0, "size": 5})"),
            "allocated memory would be below zero before the first entry");
        row("the device is not there", R"({"segments": [], "device_traces": []})", "no device 0");
        row("MemTracker without the device", R"({"peak": {"cpu": {}}})", "peak: no \"cuda:0\"");
        row("MemTracker negative", R"({"peak": {"cuda:0": {"PARAM": -1}}})",
            "peak.cuda:0.PARAM: must be a whole number >= 0");
        row("memory_stats string", R"({"allocated_bytes.all.peak": "x"})",
            "allocated_bytes.all.peak: must be a whole number >= 0");
        row("CSV bad memory", "timestamp, memory.used [MiB]\n2025/01/01 00:00:00.000, lots\n",
            "line 2: memory.used: expected a size");
        row("CSV bad time", "timestamp, memory.used [MiB]\nyesterday, 5 MiB\n",
            "line 2: timestamp");
        row("empty", "", "empty file");
        row("text", "hello", "not a run file vramplan reads");
    }
    void malformed()
    {
        QFETCH(QByteArray, file);
        QFETCH(QString, expected);
        const auto s = readRunSource("bad", file.toStdString(), 0);
        QVERIFY(!s);
        QVERIFY2(QString::fromStdString(s.error).contains(expected), s.error.c_str());
        QVERIFY(s.error.find('\n') == std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestRunReport)

#include "tst_runreport.moc"
