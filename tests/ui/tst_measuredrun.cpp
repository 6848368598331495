// File > Open Measured Run (issue 23, the window): a run's real files (tests/data/runs, written
// by make_snapshots.py) read on a thread of their own and laid beside the plan in the Measured
// Run window, offscreen. The table's cells read as a user reads them (the figures of
// `vramplan-cli run-report --format table` for the same files and scenario), in GiB and in GB;
// a figure the files do not give reads "not recorded"; the measured timeline is drawn over the
// planned step from min/max buckets; a bad file (a pickle that would import, a truncated one)
// is a message naming the file and the core's line, and nothing in the window changes; Cancel
// stops the reader where it is (held there by the progress hook, no timing); "Calibrate from
// This Run" calibrates the scenario to the measured reserved peak as one undoable step, and
// the table follows the new estimate. The byte source's progress hook leaves every reader's
// output as it was.

#include "document/dialogs.h"
#include "document/document.h"
#include "formats/estimate_json.h"
#include "plancontroller.h"
#include "runs/byte_source.h"
#include "runs/measuredrunactions.h"
#include "runs/measuredrunloader.h"
#include "runs/measuredrunwindow.h"
#include "runs/run_report.h"
#include "runs/run_source.h"
#include "runs/runtimelinechart.h"
#include "runs/timelinebuckets.h"
#include "uitesting.h"

#include <QAction>
#include <QMenuBar>
#include <QProgressDialog>
#include <QPushButton>
#include <QScopeGuard>
#include <QSemaphore>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QUndoStack>

#include <atomic>
#include <sstream>

using namespace vramplan;
using namespace vramplan::ui;
using namespace vramplan::test;

namespace {

QString runFile(const QString &name)
{
    return dataPath(QStringLiteral("runs/") + name);
}

// Llama-2-7B under ZeRO-3 on 4 GPUs: a plan near the run of the fixtures' MemTracker and
// memory_stats files (30 GiB allocated, 34 GiB reserved), so that it can be calibrated to them.
Scenario zero3Scenario()
{
    return dataScenario(QStringLiteral("llama-2-7b-zero3-4gpu"));
}

// The window on `s`, shown, with the files of one run read and their view open.
MeasuredRunWindow *openRun(MainWindow &w, const QStringList &files)
{
    MeasuredRunActions *runs = w.measuredRuns();
    QSignalSpy loaded(runs->loader(), &MeasuredRunLoader::loaded);
    if (!w.openMeasuredRunFiles(files) || !loaded.wait(30000))
        return nullptr;
    return runs->view();
}

// The four files of one run: a snapshot, MemTracker's peak, memory_stats, an nvidia-smi log.
QStringList fourFiles()
{
    return {runFile(QStringLiteral("snapshot_p4.pickle")),
            runFile(QStringLiteral("mem_tracker_peak.json")),
            runFile(QStringLiteral("memory_stats.json")), runFile(QStringLiteral("nvidia_smi.csv"))};
}

} // namespace

class TestMeasuredRun : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();
    void menuOpensTheChosenFiles();
    void tableReadsAsTheReport();
    void tableInGigabytes();
    void snapshotAloneSaysWhatItCannotTell();
    void timelineOverThePlannedStep();
    void bucketsKeepEverySpike();
    void badFileChangesNothing_data();
    void badFileChangesNothing();
    void cancelStopsTheReader();
    void calibrateFromThisRun();
    void calibrationOutOfReachIsRefused();
    void progressHookChangesNoOutput();
};

void TestMeasuredRun::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("vramplan-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_measuredrun"));
    Dialogs::setScripted(true);
}

void TestMeasuredRun::init()
{
    MeasuredRunLoader::setProgressHookForTests({});
}

void TestMeasuredRun::cleanup()
{
    MeasuredRunLoader::setProgressHookForTests({});
}

// File > Open Measured Run...: the files the dialog gives are read and shown.
void TestMeasuredRun::menuOpensTheChosenFiles()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(zero3Scenario());
    QVERIFY(showAt(w, QSize(1280, 800)));
    QAction *open = w.menuBar()->findChild<QAction *>(QStringLiteral("openMeasuredRun"));
    QVERIFY(open);
    QCOMPARE(open->text(), QStringLiteral("Open &Measured Run..."));
    QVERIFY(!w.measuredRuns()->view()); // nothing in the default layout until a run is read
    Dialogs::scriptFileName(runFile(QStringLiteral("memory_stats.json")));
    QSignalSpy loaded(w.measuredRuns()->loader(), &MeasuredRunLoader::loaded);
    open->trigger();
    QVERIFY(loaded.wait(30000));
    QCOMPARE(Dialogs::lastAsked().caption, QStringLiteral("Open Measured Run"));
    MeasuredRunWindow *view = w.measuredRuns()->view();
    QVERIFY(view && view->isVisible());
    QCOMPARE(view->windowTitle(), QStringLiteral("Measured Run: memory_stats.json"));
    QCOMPARE(view->cellText(QStringLiteral("peak.reserved"), MeasuredRunWindow::MeasuredColumn),
             QStringLiteral("34.00 GiB"));
    QVERIFY(!w.isModified()); // reading a run changes no scenario
}

// The four files of one run against the plan: the figures `vramplan-cli run-report
// --format table --scenario llama-2-7b-zero3-4gpu.vramplan.json` prints for them.
void TestMeasuredRun::tableReadsAsTheReport()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(zero3Scenario());
    QVERIFY(showAt(w, QSize(1280, 800)));
    MeasuredRunWindow *view = openRun(w, fourFiles());
    QVERIFY(view);
    using C = MeasuredRunWindow;
    const auto row = [&](const char *key) {
        const QString k = QString::fromLatin1(key);
        return QStringList{view->cellText(k, C::WhatColumn), view->cellText(k, C::MeasuredColumn),
                           view->cellText(k, C::PlannedColumn),
                           view->cellText(k, C::DifferenceColumn), view->cellText(k, C::FromColumn)};
    };
    QCOMPARE(row("peak.allocated"),
             (QStringList{"Allocated peak", "30.00 GiB", "31.64 GiB", "1.64 GiB less than planned",
                          "memory_stats.json"}));
    QCOMPARE(row("peak.reserved"),
             (QStringList{"Reserved peak", "34.00 GiB", "32.91 GiB", "1.09 GiB more than planned",
                          "memory_stats.json"}));
    QCOMPARE(row("peak.device"),
             (QStringList{"Device peak", "32.71 GiB", "33.90 GiB", "1.19 GiB less than planned",
                          "nvidia_smi.csv"}));
    // MemTracker tracks tensors exactly: its components win over the snapshot's.
    QCOMPARE(row("component.parameters"),
             (QStringList{"Parameters", "14.96 GiB", "3.14 GiB", "11.82 GiB more than planned",
                          "MemTracker's PARAM + BUFFER"}));
    QCOMPARE(row("component.optimizer_states"),
             (QStringList{"Optimizer states", "29.92 GiB", "18.83 GiB",
                          "11.09 GiB more than planned", "MemTracker's OPT"}));
    QCOMPARE(row("component.activations"),
             (QStringList{"Activations", "5.00 GiB", "0.00 GiB", "5.00 GiB more than planned",
                          "MemTracker's ACT"}));
    QCOMPARE(row("component.temporary"),
             (QStringList{"Temporary", "1.00 GiB", "6.52 GiB", "5.52 GiB less than planned",
                          "MemTracker's TEMP"}));
    QCOMPARE(row("component.framework"),
             (QStringList{"Framework", "0.00 GiB", "2.28 GiB", "2.28 GiB less than planned",
                          "MemTracker's OTH"}));
    QVERIFY(view->cellToolTip(QStringLiteral("component.activations"), C::PlannedColumn)
                .contains(QStringLiteral("logits and the loss")));
    QCOMPARE(view->cellText(QStringLiteral("component.unknown"), C::WhatColumn), QString());
    // The run is compared again when the scenario changes; the files are not read again.
    Scenario more = zero3Scenario();
    more.parallelism.zeroStage = 2; // the parameters whole on every GPU again
    const QString before = view->cellText(QStringLiteral("peak.allocated"), C::PlannedColumn);
    w.document()->edit(more, QStringLiteral("ZeRO stage"));
    const nlohmann::json plan = estimateToJson(estimate(more), more);
    const nlohmann::json report = runReportJson(view->run().sources, 0, &plan);
    QCOMPARE(view->report(), report);
    QCOMPARE(view->cellText(QStringLiteral("peak.allocated"), C::PlannedColumn),
             QString::fromStdString(
                 formatBytes(report["comparison"]["estimate"]["peak"]["allocated_bytes"].get<double>())));
    QVERIFY(view->cellText(QStringLiteral("peak.allocated"), C::PlannedColumn) != before);
    replotAll(*view);
    keepShot(*view, QStringLiteral("measuredrun-four-files"));
}

// View > Sizes in GB: the table follows at once.
void TestMeasuredRun::tableInGigabytes()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(zero3Scenario());
    QVERIFY(showAt(w, QSize(1280, 800)));
    MeasuredRunWindow *view = openRun(w, fourFiles());
    QVERIFY(view);
    w.setUnit(Unit::GB);
    using C = MeasuredRunWindow;
    QCOMPARE(view->cellText(QStringLiteral("peak.reserved"), C::MeasuredColumn),
             QStringLiteral("36.51 GB")); // 36,507,222,016 bytes
    QCOMPARE(view->cellText(QStringLiteral("peak.reserved"), C::DifferenceColumn),
             QStringLiteral("1.17 GB more than planned"));
    QCOMPARE(view->cellText(QStringLiteral("component.parameters"), C::MeasuredColumn),
             QStringLiteral("16.06 GB"));
    w.setUnit(Unit::GiB);
}

// A snapshot alone: no device peak, no framework (nothing in a snapshot tells it apart), each
// component with the rule that placed it.
void TestMeasuredRun::snapshotAloneSaysWhatItCannotTell()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(dataScenario(QStringLiteral("gpt2-h100")));
    QVERIFY(showAt(w, QSize(1280, 800)));
    MeasuredRunWindow *view = openRun(w, {runFile(QStringLiteral("snapshot_p4.pickle"))});
    QVERIFY(view);
    using C = MeasuredRunWindow;
    QCOMPARE(view->cellText(QStringLiteral("peak.allocated"), C::MeasuredColumn),
             QStringLiteral("0.03 GiB")); // 30 MiB
    QCOMPARE(view->cellText(QStringLiteral("peak.device"), C::MeasuredColumn),
             QStringLiteral("not recorded"));
    QCOMPARE(view->cellText(QStringLiteral("peak.device"), C::PlannedColumn),
             QStringLiteral("6.45 GiB"));
    QCOMPARE(view->cellText(QStringLiteral("peak.device"), C::DifferenceColumn),
             QStringLiteral("\u2014"));
    QCOMPARE(view->cellText(QStringLiteral("peak.phase"), C::MeasuredColumn),
             QStringLiteral("backward"));
    QCOMPARE(view->cellText(QStringLiteral("component.framework"), C::MeasuredColumn),
             QStringLiteral("not recorded"));
    QCOMPARE(view->cellText(QStringLiteral("component.framework"), C::FromColumn), QString(""));
    QCOMPARE(view->cellText(QStringLiteral("component.parameters"), C::FromColumn),
             QStringLiteral("alive from before the first forward to the end"));
    QCOMPARE(view->cellText(QStringLiteral("component.optimizer_states"), C::FromColumn),
             QStringLiteral("none alive at the peak"));
    QCOMPARE(view->cellText(QStringLiteral("component.activations"), C::DifferenceColumn),
             QStringLiteral("3.50 GiB less than planned"));
    QCOMPARE(view->cellText(QStringLiteral("component.unknown"), C::WhatColumn),
             QStringLiteral("Not placed"));
    // Calibrating to it needs a peak: reserved, 40 MiB.
    QCOMPARE(int(view->calibrationMeasurement()->metric), int(MemoryMetric::Reserved));
    QCOMPARE(view->calibrationMeasurement()->bytes, 40.0 * 1048576);
}

// The measured lines are the report's timeline; the plan's phases are its steps.
void TestMeasuredRun::timelineOverThePlannedStep()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(dataScenario(QStringLiteral("gpt2-h100")));
    QVERIFY(showAt(w, QSize(1280, 800)));
    MeasuredRunWindow *view = openRun(w, {runFile(QStringLiteral("snapshot_p4.pickle"))});
    QVERIFY(view);
    replotAll(*view);
    RunTimelineChart *chart = view->chart();
    QCOMPARE(chart->measuredPoints(), qsizetype(view->report()["timeline"].size()));
    QVERIFY(chart->measuredPoints() > 2);
    QCOMPARE(chart->drawnPoints(), chart->measuredPoints()); // fewer points than pixels
    QCOMPARE(chart->measuredTop(), 40.0 / 1024); // the reserved peak, 40 MiB, in GiB
    QCOMPARE(chart->timeAxisLabel(), QStringLiteral("Time (ms)"));
    const Estimate &e = w.controller()->estimate();
    QList<double> phases;
    for (Phase p : {Phase::Forward, Phase::LossBackward, Phase::LayerBackward, Phase::BackwardEnd,
                    Phase::OptimizerStep, Phase::Validation, Phase::Generation})
        if (e.phases[size_t(p)].present)
            phases << e.phases[size_t(p)].allocated / 1073741824.0;
    QVERIFY(!e.phases[size_t(Phase::Initialisation)].present);
    QCOMPARE(chart->plannedSteps(), phases);
    keepShot(*view, QStringLiteral("measuredrun-snapshot"));
}

void TestMeasuredRun::bucketsKeepEverySpike()
{
    // Ten points in two buckets: each keeps its lowest and highest, in order.
    QList<QPointF> points;
    const double ys[] = {5, 1, 9, 4, 3, 2, 8, 7, 0, 6};
    for (int i = 0; i < 10; ++i)
        points << QPointF(i, ys[i]);
    QCOMPARE(minMaxBuckets(points, 2),
             (QList<QPointF>{QPointF(1, 1), QPointF(2, 9), QPointF(6, 8), QPointF(8, 0)}));
    QCOMPARE(minMaxBuckets(points, 5), points); // ten points fit five buckets' two
    // A spike of one entry in a hundred thousand survives a thousand buckets.
    QList<QPointF> many;
    for (int i = 0; i < 100000; ++i)
        many << QPointF(i, i == 54321 ? 100.0 : 1.0);
    const QList<QPointF> drawn = minMaxBuckets(many, 1000);
    QVERIFY(drawn.size() <= 2000);
    QVERIFY(drawn.contains(QPointF(54321, 100.0)));
}

void TestMeasuredRun::badFileChangesNothing_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("message");
    QTest::newRow("GLOBAL os system")
        << "evil_global_reduce.pickle"
        << "evil_global_reduce.pickle: offset 2: GLOBAL (opcode 0x63): would import a Python "
           "object 'os system': refused, only plain data is read (nothing was imported or run)";
    QTest::newRow("STACK_GLOBAL")
        << "evil_stack_global.pickle"
        << "evil_stack_global.pickle: offset 16: STACK_GLOBAL (opcode 0x93): would import a "
           "Python object: refused, only plain data is read (nothing was imported or run)";
    QTest::newRow("truncated pickle")
        << "truncated_end.pickle"
        << "truncated_end.pickle: offset 3570: truncated: the pickle ends without STOP";
    QTest::newRow("missing") << "no_such_run.pickle" << "no_such_run.pickle: cannot be opened";
}

// A bad file among good ones: the message names it and the core's problem; the run shown
// before, the scenario and its history stay as they were.
void TestMeasuredRun::badFileChangesNothing()
{
    QFETCH(QString, file);
    QFETCH(QString, message);
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(zero3Scenario());
    QVERIFY(showAt(w, QSize(1280, 800)));
    MeasuredRunWindow *view = openRun(w, {runFile(QStringLiteral("memory_stats.json"))});
    QVERIFY(view);
    const nlohmann::json shown = view->report();
    const int undoSteps = w.undoStack()->count();

    MeasuredRunActions *runs = w.measuredRuns();
    QSignalSpy failed(runs->loader(), &MeasuredRunLoader::failed);
    QVERIFY(w.openMeasuredRunFiles(
        {runFile(QStringLiteral("mem_tracker_peak.json")), runFile(file)}));
    QVERIFY(failed.wait(30000));
    QCOMPARE(failed.at(0).at(0).toString(), message);
    QCOMPARE(runs->lastProblem(), message);
    QCOMPARE(w.statusBar()->currentMessage(), message); // and a message box, when not scripted
    QCOMPARE(runs->view(), view);
    QCOMPARE(view->report(), shown);
    QCOMPARE(view->run().paths, QStringList{runFile(QStringLiteral("memory_stats.json"))});
    QCOMPARE(w.undoStack()->count(), undoSteps);
    QVERIFY(!w.isModified());
    QVERIFY(!runs->progressDialog());
}

// Cancel, pressed while the reader is 4 MiB into a 9 MiB snapshot: the reader stops there, the
// window shows nothing of it, and the next load works.
void TestMeasuredRun::cancelStopsTheReader()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // The JSON snapshot with 9 MiB of white space after its opening brace: still the same
    // snapshot, and long enough for the reader to report its progress twice.
    const std::string json = readFile(runFile(QStringLiteral("snapshot.json")));
    QVERIFY(!json.empty() && json.front() == '{');
    const QString padded = dir.filePath(QStringLiteral("padded.json"));
    {
        QFile out(padded);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write("{");
        out.write(QByteArray(9 << 20, ' '));
        out.write(json.data() + 1, qint64(json.size() - 1));
    }
    const quint64 size = quint64(QFileInfo(padded).size());

    // What the reader's thread uses outlives the window, which joins that thread as it goes.
    QSemaphore reached, proceed;
    std::atomic<bool> held{false};
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(zero3Scenario());
    QVERIFY(showAt(w, QSize(1280, 800)));
    MeasuredRunActions *runs = w.measuredRuns();

    // The reader waits at its first report inside the file until Cancel has been pressed.
    MeasuredRunLoader::setProgressHookForTests([&](std::uint64_t done) {
        if (done > 0 && !held.exchange(true)) {
            reached.release();
            proceed.acquire();
        }
    });
    // A failure below must not leave the reader waiting (the window's end joins its thread).
    const auto letGo = qScopeGuard([&] { proceed.release(); });
    QSignalSpy stopped(runs->loader(), &MeasuredRunLoader::stopped);
    QSignalSpy loaded(runs->loader(), &MeasuredRunLoader::loaded);
    QVERIFY(w.openMeasuredRunFiles({padded}));
    QProgressDialog *progress = runs->progressDialog();
    QVERIFY(progress);
    QCOMPARE(progress->labelText(), QStringLiteral("Reading padded.json..."));
    QVERIFY(reached.tryAcquire(1, 30000));
    QPushButton *cancel = progress->findChild<QPushButton *>();
    QVERIFY(cancel);
    QCOMPARE(cancel->text(), QStringLiteral("Cancel"));
    cancel->click();
    proceed.release();
    QVERIFY(stopped.wait(30000));
    QCOMPARE(stopped.at(0).at(0).toULongLong(), quint64(runLoadProgressStep)); // 4 MiB read
    QCOMPARE(stopped.at(0).at(1).toULongLong(), size);
    QCOMPARE(loaded.count(), 0);
    QVERIFY(!runs->view());
    QVERIFY(runs->lastProblem().isEmpty());
    QCOMPARE(w.statusBar()->currentMessage(),
             QStringLiteral("Reading the measured run was cancelled."));
    QVERIFY(!runs->progressDialog());

    // Read to its end, the padded file is the snapshot it pads.
    MeasuredRunLoader::setProgressHookForTests({});
    MeasuredRunWindow *view = openRun(w, {padded});
    QVERIFY(view);
    QCOMPARE(view->cellText(QStringLiteral("peak.reserved"), MeasuredRunWindow::MeasuredColumn),
             QStringLiteral("0.04 GiB"));
    QCOMPARE(view->report()["peak"]["reserved_bytes"].get<double>(), 40.0 * 1048576);
}

// One click: the scenario is calibrated to the measured reserved peak (one undo step), and the
// table then reads "as planned" for it.
void TestMeasuredRun::calibrateFromThisRun()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(zero3Scenario());
    QVERIFY(showAt(w, QSize(1280, 800)));
    MeasuredRunWindow *view = openRun(w, fourFiles());
    QVERIFY(view);
    QPushButton *button = view->calibrateButton();
    QCOMPARE(button->text(), QStringLiteral("&Calibrate from This Run"));
    QVERIFY(button->isEnabled());
    QVERIFY(!w.scenario().calibration.present);
    QTest::mouseClick(button, Qt::LeftButton);
    const Calibration &c = w.scenario().calibration;
    QVERIFY(c.present);
    QCOMPARE(int(c.metric), int(MemoryMetric::Reserved));
    QCOMPARE(c.measuredBytes, 36507222016.0);
    QVERIFY(std::fabs(w.controller()->estimate().peak.reserved - 36507222016.0) < 1.0);
    QCOMPARE(w.undoStack()->undoText(), QStringLiteral("Calibrate from my run"));
    QVERIFY(w.isModified());
    using C = MeasuredRunWindow;
    QCOMPARE(view->cellText(QStringLiteral("peak.reserved"), C::PlannedColumn),
             QStringLiteral("34.00 GiB"));
    QCOMPARE(view->cellText(QStringLiteral("peak.reserved"), C::DifferenceColumn),
             QStringLiteral("as planned"));
    w.undoStack()->undo();
    QVERIFY(!w.scenario().calibration.present);
    QCOMPARE(view->cellText(QStringLiteral("peak.reserved"), C::DifferenceColumn),
             QStringLiteral("1.09 GiB more than planned"));
}

// 40 MiB cannot come from GPT-2's training on an H100: refused with the calibration's reason.
void TestMeasuredRun::calibrationOutOfReachIsRefused()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(dataScenario(QStringLiteral("gpt2-h100")));
    QVERIFY(showAt(w, QSize(1280, 800)));
    MeasuredRunWindow *view = openRun(w, {runFile(QStringLiteral("snapshot_p4.pickle"))});
    QVERIFY(view);
    const int undoSteps = w.undoStack()->count();
    QTest::mouseClick(view->calibrateButton(), Qt::LeftButton);
    QVERIFY2(w.measuredRuns()->lastProblem().startsWith(
                 QStringLiteral("Cannot calibrate to this run: the measured 0.04 GiB is below")),
             qPrintable(w.measuredRuns()->lastProblem()));
    QVERIFY(!w.scenario().calibration.present);
    QCOMPARE(w.undoStack()->count(), undoSteps);
}

// The hook that drives the progress bar and Cancel: the same figures with it as without, for
// every encoding; told the bytes taken at each step; false stops the reader.
void TestMeasuredRun::progressHookChangesNoOutput()
{
    for (const char *name : {"snapshot_p2.pickle", "snapshot_frames_p0.pickle", "snapshot.json",
                             "mem_tracker_peak.json", "nvidia_smi.csv"}) {
        const std::string bytes = readFile(runFile(QString::fromLatin1(name)));
        QVERIFY(!bytes.empty());
        const auto plain = readRunSource(name, std::string_view(bytes), 0);
        QVERIFY2(plain, plain.error.c_str());
        std::istringstream stream(bytes);
        ByteSource source(stream);
        std::vector<std::uint64_t> reports;
        source.setProgress([&](std::uint64_t taken) { return reports.push_back(taken), true; },
                           1024);
        const auto hooked = readRunSource(name, source, 0);
        QVERIFY2(hooked, hooked.error.c_str());
        QCOMPARE(runReportJson({*hooked.value}, 0), runReportJson({*plain.value}, 0));
        QVERIFY(!source.stopped());
        for (size_t i = 1; i < reports.size(); ++i)
            QVERIFY(reports[i] >= reports[i - 1] + 1024);
        if (bytes.size() > 4096 && std::string_view(name) != "nvidia_smi.csv")
            QVERIFY2(!reports.empty(), name);
    }
    // Stopped at the first report: the reader sees the file end there, and says so.
    const std::string bytes = readFile(runFile(QStringLiteral("snapshot.json")));
    std::istringstream stream(bytes);
    ByteSource source(stream);
    source.setProgress([](std::uint64_t) { return false; }, 4096);
    const auto stopped = readRunSource("snapshot.json", source, 0);
    QVERIFY(!stopped);
    QVERIFY(source.stopped());
    QCOMPARE(source.taken(), std::uint64_t(4096));
}

QTEST_MAIN(TestMeasuredRun)
#include "tst_measuredrun.moc"
