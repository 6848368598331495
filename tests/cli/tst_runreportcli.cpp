// `vramplan-cli run-report` as scripts use it (SPEC §3 "Measured runs"): the program is run with
// QProcess and judged by its exit status, stdout and stderr only. Fixtures: tests/data/runs/
// (make_snapshots.py: allocated peak 30 MiB, reserved 40 MiB).
//
// The contract for bad input: exit status 2, nothing on stdout, one line on stderr naming the
// file; a pickle that would import or call anything is refused the same way, nothing run.

#include "clirun.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

namespace {

QString runs(const char *name)
{
    return QStringLiteral(VRAMPLAN_TEST_DATA "/runs/") + QLatin1String(name);
}

using Result = vramplan::test::CliRun;
using vramplan::test::cli;

qint64 bytes(const QJsonValue &v)
{
    return v.isDouble() ? qint64(v.toDouble()) : -1;
}

} // namespace

class TestRunReportCli : public QObject
{
    Q_OBJECT

private slots:
    void report_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<qint64>("allocated");
        QTest::addColumn<qint64>("reserved");
        QTest::addColumn<qint64>("device");
        QTest::addColumn<QString>("phase");
        const qint64 MiB = 1 << 20;
        QTest::newRow("pickle protocol 4") << QStringList{runs("snapshot_p4.pickle")} << 30 * MiB
                                           << 40 * MiB << qint64(-1) << "backward";
        QTest::newRow("JSON copy") << QStringList{runs("snapshot.json")} << 30 * MiB << 40 * MiB
                                   << qint64(-1) << "backward";
        QTest::newRow("protocol 0") << QStringList{runs("snapshot_frames_p0.pickle")} << 30 * MiB
                                    << 40 * MiB << qint64(-1) << "backward";
        QTest::newRow("--device 1") << QStringList{runs("snapshot_p2.pickle"),
                                                   QStringLiteral("--device"), QStringLiteral("1")}
                                    << MiB << 2 * MiB << qint64(-1) << "";
        QTest::newRow("with nvidia-smi")
            << QStringList{runs("snapshot_lost_oldest.pickle"), runs("nvidia_smi.csv")} << 30 * MiB
            << 40 * MiB << 33500 * MiB << "backward";
        QTest::newRow("history not recorded") << QStringList{runs("snapshot_state_only.pickle")}
                                              << qint64(-1) << qint64(-1) << qint64(-1) << "";
    }
    void report()
    {
        QFETCH(QStringList, arguments);
        QFETCH(qint64, allocated);
        QFETCH(qint64, reserved);
        QFETCH(qint64, device);
        QFETCH(QString, phase);
        const Result r = cli(QStringList{QStringLiteral("run-report")} + arguments);
        QVERIFY2(!r.crashed && r.exitCode == 0 && r.err.isEmpty(), qPrintable(r.describe()));
        const QJsonObject report = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(report[QLatin1String("format")].toString(), QStringLiteral("vramplan-run"));
        const QJsonObject peak = report[QLatin1String("peak")].toObject();
        QCOMPARE(bytes(peak[QLatin1String("allocated_bytes")]), allocated);
        QCOMPARE(bytes(peak[QLatin1String("reserved_bytes")]), reserved);
        QCOMPARE(bytes(peak[QLatin1String("device_bytes")]), device);
        QCOMPARE(peak[QLatin1String("phase")].toString(), phase);
        for (const char *key : {"sources", "per_component_bytes", "timeline", "comparison"})
            QVERIFY2(report.contains(QLatin1String(key)), key);
        QCOMPARE(report[QLatin1String("sources")].toArray().size(),
                 arguments.filter(QStringLiteral("/runs/")).size());
    }

    // The allocator snapshots the project recorded on an H200 (tests/measure/gpu_grid.py
    // --snapshots: the second step of a training loop, context "alloc", Python stacks) open, and
    // give the peaks torch reported for that step (tests/data/measured/gpu/
    // gpu_h200_snapshot_points.json, steps[1]): reserved exactly; allocated from the blocks'
    // requested sizes, which torch's max_memory_allocated rounds up (up to 0.2% here).
    void gpuSnapshots_data()
    {
        QTest::addColumn<QString>("point");
        QTest::newRow("Qwen3-0.6B bf16") << QStringLiteral("qwen3-0.6b-bf16-adamw-b1-s1024");
        QTest::newRow("Llama-3.2-1B LoRA")
            << QStringLiteral("llama-3.2-1b-bf16-adamw-b2-s2048-lora16");
        QTest::newRow("Nemotron 3 Nano, 6 layers")
            << QStringLiteral("nemotron-3-nano-l6-bf16-adamw-b1-s1024");
    }
    void gpuSnapshots()
    {
        QFETCH(QString, point);
        const QString dir = QStringLiteral(VRAMPLAN_TEST_DATA "/measured/gpu/");
        QFile fixture(dir + QStringLiteral("gpu_h200_snapshot_points.json"));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        QJsonObject step;
        for (const auto &entry : QJsonDocument::fromJson(fixture.readAll())
                                     .object()[QLatin1String("entries")]
                                     .toArray())
            if (entry.toObject()[QLatin1String("id")].toString() == QStringLiteral("gpu-") + point)
                step = entry.toObject()[QLatin1String("detail")]
                           .toObject()[QLatin1String("steps")]
                           .toArray()
                           .at(1)
                           .toObject();
        QVERIFY2(!step.isEmpty(), qPrintable(point));
        const Result r = cli({QStringLiteral("run-report"),
                              dir + QStringLiteral("snapshot-") + point + QStringLiteral(".pickle")});
        QVERIFY2(!r.crashed && r.exitCode == 0, qPrintable(r.describe()));
        const QJsonObject peak =
            QJsonDocument::fromJson(r.out).object()[QLatin1String("peak")].toObject();
        QCOMPARE(bytes(peak[QLatin1String("reserved_bytes")]),
                 bytes(step[QLatin1String("peak_reserved_bytes")]));
        const double measured = step[QLatin1String("peak_allocated_bytes")].toDouble();
        const double read = peak[QLatin1String("allocated_bytes")].toDouble();
        QVERIFY2(read <= measured && read >= measured * 0.998,
                 qPrintable(QStringLiteral("%1: read %2, torch %3").arg(point).arg(read).arg(measured)));
        QCOMPARE(peak[QLatin1String("phase")].toString(), QStringLiteral("backward"));
    }

    // Measured minus planned, and the table's words.
    void againstScenario()
    {
        const QString scenario =
            QStringLiteral(VRAMPLAN_TEST_DATA "/scenarios/gpt2-h100.vramplan.json");
        Result r = cli({QStringLiteral("run-report"), runs("snapshot_p4.pickle"),
                        runs("nvidia_smi.csv"), QStringLiteral("--scenario"), scenario});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        const QJsonObject report = QJsonDocument::fromJson(r.out).object();
        const QJsonObject comparison = report[QLatin1String("comparison")].toObject();
        const QJsonObject plan = comparison[QLatin1String("estimate")].toObject();
        QCOMPARE(plan[QLatin1String("format")].toString(), QStringLiteral("vramplan-estimate"));
        const QJsonObject planned = plan[QLatin1String("peak")].toObject();
        const QJsonObject diff = comparison[QLatin1String("difference_bytes")].toObject();
        QCOMPARE(bytes(diff[QLatin1String("allocated")]),
                 (30 << 20) - qRound64(planned[QLatin1String("allocated_bytes")].toDouble()));
        QCOMPARE(bytes(diff[QLatin1String("reserved")]),
                 (40 << 20) - qRound64(planned[QLatin1String("reserved_bytes")].toDouble()));
        QCOMPARE(bytes(diff[QLatin1String("device")]),
                 qint64(33500) * (1 << 20) -
                     qRound64(planned[QLatin1String("device_bytes")].toDouble()));

        r = cli({QStringLiteral("run-report"), runs("snapshot_p4.pickle"),
                 QStringLiteral("--scenario"), scenario, QStringLiteral("--format"),
                 QStringLiteral("table")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.describe()));
        const QString table = QString::fromUtf8(r.out);
        QVERIFY2(table.contains(QRegularExpression(
                     QStringLiteral("activations [0-9.]+ GiB (more|less) than planned"))),
                 qPrintable(table));
        QVERIFY2(table.contains(QLatin1String("device not measured")), qPrintable(table));
    }

    // Refused: one line on stderr naming the file, exit 2, nothing on stdout.
    void refused_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        const auto row = [](const char *name, const QStringList &a, const char *e) {
            QTest::newRow(name) << a << QString::fromUtf8(e);
        };
        row("GLOBAL os system + REDUCE", {runs("evil_global_reduce.pickle")},
            "evil_global_reduce.pickle: offset 2: GLOBAL (opcode 0x63): would import a Python "
            "object 'os system': refused");
        row("STACK_GLOBAL", {runs("evil_stack_global.pickle")}, "STACK_GLOBAL (opcode 0x93)");
        row("truncated in half", {runs("truncated_half.pickle")}, "truncated");
        row("truncated at the end", {runs("truncated_end.pickle")}, "truncated");
        row("truncated JSON", {runs("truncated.json")},
            "truncated.json: [json.exception.parse_error");
        row("a good file and a bad one", {runs("snapshot_p4.pickle"), runs("truncated_end.pickle")},
            "truncated_end.pickle");
        row("no such device",
            {runs("snapshot_p4.pickle"), QStringLiteral("--device"), QStringLiteral("5")},
            "no device 5 in the snapshot");
        row("device out of range",
            {runs("snapshot_p4.pickle"), QStringLiteral("--device"), QStringLiteral("-1")},
            "--device: must be a whole number from 0 to 1023");
        row("no file", {}, "run-report takes one or more FILEs");
        row("missing file", {runs("nothing-here.pickle")}, "nothing-here.pickle: cannot be opened");
        row("not a run file", {runs("make_snapshots.py")}, "not a run file vramplan reads");
    }
    void refused()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        const Result r = cli(QStringList{QStringLiteral("run-report")} + arguments);
        QVERIFY2(!r.crashed && r.exitCode == 2, qPrintable(r.describe()));
        QVERIFY2(r.out.isEmpty(), qPrintable(r.describe()));
        QVERIFY2(r.err.endsWith('\n') && r.err.count('\n') == 1, qPrintable(r.describe()));
        QVERIFY2(QString::fromUtf8(r.err).contains(expected), qPrintable(r.describe()));
    }

    // run-report's options stay unknown to the other commands, as before.
    void optionsOnlyForRunReport()
    {
        const Result r = cli({QStringLiteral("estimate"), QStringLiteral("--default"),
                              QStringLiteral("--device"), QStringLiteral("1")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("vramplan-cli: unknown option --device"),
                 qPrintable(r.describe()));
    }
};

QTEST_APPLESS_MAIN(TestRunReportCli)

#include "tst_runreportcli.moc"
