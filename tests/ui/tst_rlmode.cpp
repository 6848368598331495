// The window in RL mode (issue 25, docs/rl.md "In the window"), offscreen: each shipped rl
// scenario opened shows its `rl` section in the Post-training group and its three phases side
// by side in the breakdown's place, with the GiB a user reads over each bar equal to
// `vramplan-cli estimate`'s; the step timeline goes through the phases with the engine's sleep
// and wake; a new response length re-estimates; saving and reopening keeps the section; RL
// turned on from plain training gives the default section and off drops it; and "Make it fit"
// proposes the RL knobs for a plan that does not fit.

#include "uitesting.h"

#include "chartspage.h"
#include "charts/breakdownchart.h"
#include "charts/timelinechart.h"
#include "charts/units.h"
#include "document/dialogs.h"
#include "formats/scenario_json.h"
#include "panels/controlspanel.h"
#include "panels/fitadvisorpanel.h"
#include "panels/fitchip.h"
#include "panels/fitwording.h"
#include "panels/logslider.h"
#include "panels/rlgroup.h"
#include "plancontroller.h"
#include "rl/rlphasechart.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QProcess>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>

#include <nlohmann/json.hpp>

using namespace vramplan;
using namespace vramplan::test;
using namespace vramplan::ui;

namespace {

QString scenarioPath(const QString &name)
{
    return dataPath(QStringLiteral("scenarios/%1.vramplan.json").arg(name));
}

// What `vramplan-cli estimate FILE` gives for each phase's device bytes, as the window words
// them ("48.52 GiB"; "none" for a phase the algorithm does not have).
QStringList cliPhaseSizes(const QString &file)
{
    QProcess cli;
    cli.start(QStringLiteral(VRAMPLAN_CLI), {QStringLiteral("estimate"), file});
    if (!cli.waitForFinished(60000) || cli.exitCode() != 0)
        return {QStringLiteral("cli failed: ") + QString::fromUtf8(cli.readAllStandardError())};
    const auto json = nlohmann::json::parse(cli.readAllStandardOutput().toStdString());
    QStringList out;
    for (const char *name : {"generation", "experience", "training"}) {
        QString size = QStringLiteral("none");
        for (const auto &phase : json["rl_phases"])
            if (phase["name"] == name && phase.value("present", true))
                size = formatSize(phase["device_bytes"].get<double>(), Unit::GiB);
        out << size;
    }
    return out;
}

// The labels over the three bars, the peak's suffix and an engine's refusal taken off (the CLI
// says them apart).
QStringList shownSizes(const RlPhaseChart *chart)
{
    QStringList out;
    for (int i = 0; i < chart->columnCount(); ++i)
        out << chart->columnLabel(i).section(QLatin1Char('\n'), 0, 0).remove(QStringLiteral(", peak"));
    return out;
}

bool openAndShow(MainWindow &w, const QString &path)
{
    w.setUnit(Unit::GiB);
    if (!w.openFile(path))
        return false;
    return showAt(w, QSize(1280, 800));
}

} // namespace

class TestRlMode : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("vramplan-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_rlmode"));
        Dialogs::setScripted(true);
    }

    void controlsShowTheSection_data();
    void controlsShowTheSection();
    void phaseBars_data();
    void phaseBars();
    void timelineShowsSleepAndWake_data();
    void timelineShowsSleepAndWake();
    void responseTokensReestimate();
    void saveAndReopenKeepsTheSection_data();
    void saveAndReopenKeepsTheSection();
    void turningRlOnAndOff();
    void smallWindowTabsTheRlCharts();
    void advisorProposesRlKnobs();
    void rlChipPhrases_data();
    void rlChipPhrases();
};

void TestRlMode::controlsShowTheSection_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("shown"); // algorithm, framework, release, group, prompt,
                                            // response, engine, placement, TP, utilization,
                                            // sleep, log-prob micro-batch
    QTest::addColumn<QList<bool>>("switches"); // reference, reward, critic, offload params,
                                               // offload optimizer, offload reference
    QTest::newRow("verl GRPO") << "rl_grpo_verl_qwen2.5-7b"
                               << QStringList{"grpo", "verl", "0.3", "5", "1024", "1024", "vllm",
                                              "colocated", "2", "0.60", "1: weights to CPU", "16"}
                               << QList<bool>{true, false, false, true, true, true};
    QTest::newRow("TRL GRPO") << "rl_grpo_trl_qwen2.5-7b"
                              << QStringList{"grpo", "trl", "0.21", "8", "512", "1024", "vllm",
                                             "colocated", "1", "0.30", "0: stays awake",
                                             "micro-batch"}
                              << QList<bool>{true, false, false, false, false, false};
    QTest::newRow("TRL DPO") << "rl_dpo_trl_llama-3.1-8b"
                             << QStringList{"dpo", "trl", "0.21", "2", "1024", "1024",
                                            "transformers", "colocated", "1", "framework default",
                                            "framework default", "micro-batch"}
                             << QList<bool>{true, false, false, false, false, false};
}

void TestRlMode::controlsShowTheSection()
{
    QFETCH(QString, file);
    QFETCH(QStringList, shown);
    QFETCH(QList<bool>, switches);
    MainWindow w;
    QVERIFY(openAndShow(w, scenarioPath(file)));
    RlGroup *g = w.controls()->rlGroup();
    QVERIFY(g->isVisible());
    QVERIFY(g->enabledBox()->isChecked());
    const QStringList actual{g->algorithmBox()->currentText(),
                             g->frameworkBox()->currentText(),
                             g->frameworkVersionBox()->text(),
                             g->groupSizeBox()->text(),
                             g->promptTokensBox()->text(),
                             g->responseTokensBox()->text(),
                             g->engineBox()->currentText(),
                             g->placementBox()->currentText(),
                             g->engineTensorParallelBox()->text(),
                             g->utilizationBox()->text(),
                             g->sleepLevelBox()->currentText(),
                             g->logProbMicroBatchBox()->text()};
    QCOMPARE(actual, shown);
    const QList<bool> on{g->referenceBox()->isChecked(),         g->rewardModelBox()->isChecked(),
                         g->criticBox()->isChecked(),            g->offloadParametersBox()->isChecked(),
                         g->offloadOptimizerBox()->isChecked(), g->offloadReferenceBox()->isChecked()};
    QCOMPARE(on, switches);
    keepShot(*w.controls()->rlGroup(), QStringLiteral("rlgroup-") + file);
}

void TestRlMode::phaseBars_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("gpu");        // a catalog GPU in place of the file's; "" keeps it
    QTest::addColumn<QStringList>("labels"); // over the bars, as a user reads them
    QTest::addColumn<QStringList>("ticks");  // under them: the phase and who holds the most
    QTest::newRow("verl GRPO") << "rl_grpo_verl_qwen2.5-7b" << ""
                               << QStringList{"48.52 GiB", "38.91 GiB", "76.54 GiB, peak"}
                               << QStringList{"Generation\nrollout engine", "Experience\npolicy",
                                              "Training\npolicy"};
    QTest::newRow("TRL GRPO") << "rl_grpo_trl_qwen2.5-7b" << ""
                              << QStringList{"38.97 GiB", "44.51 GiB", "48.88 GiB, peak"}
                              << QStringList{"Generation\nrollout engine",
                                             "Experience\nrollout engine", "Training\npolicy"};
    QTest::newRow("TRL DPO") << "rl_dpo_trl_llama-3.1-8b" << ""
                             << QStringList{"none", "19.70 GiB", "30.03 GiB, peak"}
                             << QStringList{"Generation", "Experience\npolicy", "Training\npolicy"};
    // At 0.3 of 24 GiB the engine's budget cannot hold its weights: the bar says so.
    QTest::newRow("TRL GRPO on a 24 GiB RTX 4090")
        << "rl_grpo_trl_qwen2.5-7b" << "rtx-4090"
        << QStringList{"29.98 GiB\nengine cannot start", "36.29 GiB", "40.61 GiB, peak"}
        << QStringList{"Generation\nrollout engine", "Experience\npolicy", "Training\npolicy"};
}

void TestRlMode::phaseBars()
{
    QFETCH(QString, file);
    QFETCH(QString, gpu);
    QFETCH(QStringList, labels);
    QFETCH(QStringList, ticks);
    QString path = scenarioPath(file);
    QTemporaryDir dir;
    if (!gpu.isEmpty()) {
        auto json = nlohmann::json::parse(readFile(path));
        json["gpu"] = {{"preset", gpu.toStdString()}};
        path = dir.filePath(QStringLiteral("on-%1.vramplan.json").arg(gpu));
        QFile out(path);
        QVERIFY(out.open(QIODevice::WriteOnly));
        out.write(QByteArray::fromStdString(json.dump()));
    }
    MainWindow w;
    QVERIFY(openAndShow(w, path));
    ChartsPage *page = w.chartsPage();
    QVERIFY(page->showsRl());
    RlPhaseChart *chart = page->rlPhases();
    QVERIFY(chart->isVisible());
    QVERIFY(!w.breakdownChart()->isVisible()); // the RL phases stand in its place
    QCOMPARE(chart->columnCount(), 3);
    QStringList shown, tickTexts;
    for (int i = 0; i < chart->columnCount(); ++i) {
        shown << chart->columnLabel(i);
        tickTexts << chart->tickLabel(i);
    }
    QCOMPARE(shown, labels);
    QCOMPARE(tickTexts, ticks);
    // The same figures as the command line's, phase by phase.
    QCOMPARE(shownSizes(chart), cliPhaseSizes(path));
    QCOMPARE(chart->capacityValue(), toUnit(w.controller()->estimate().capacityBytes, Unit::GiB));
    // The tooltip over the training bar lists its items with formula and source.
    replotAll(w);
    QCustomPlot *plot = chart->plot();
    const QPointF top(plot->xAxis->coordToPixel(3), plot->yAxis->coordToPixel(chart->columnTotal(2) / 2));
    const QString tip = chart->toolTipAt(top);
    QVERIFY2(tip.contains(QStringLiteral("Training")), qPrintable(tip));
    keepShot(w, QStringLiteral("rlmode-") + file + gpu);
    keepShot(*chart, QStringLiteral("rlphases-") + file + gpu);
}

void TestRlMode::timelineShowsSleepAndWake_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("columns");
    QTest::addColumn<QStringList>("markers");
    QTest::newRow("verl GRPO, sleep level 1")
        << "rl_grpo_verl_qwen2.5-7b" << 4
        << QStringList{"engine sleeps:\nfrees 41.57 GiB", "engine wakes"};
    QTest::newRow("TRL GRPO, no sleep mode")
        << "rl_grpo_trl_qwen2.5-7b" << 4 << QStringList{"engine stays awake:\nno sleep mode"};
    QTest::newRow("TRL DPO, nothing generated") << "rl_dpo_trl_llama-3.1-8b" << 3 << QStringList{};
}

void TestRlMode::timelineShowsSleepAndWake()
{
    QFETCH(QString, file);
    QFETCH(int, columns);
    QFETCH(QStringList, markers);
    MainWindow w;
    QVERIFY(openAndShow(w, scenarioPath(file)));
    RlPhaseChart *timeline = w.chartsPage()->rlTimeline();
    QVERIFY(timeline->isVisible());
    QVERIFY(!w.timelineChart()->isVisible());
    QCOMPARE(timeline->columnCount(), columns);
    QCOMPARE(timeline->markerLabels(), markers);
}

void TestRlMode::responseTokensReestimate()
{
    MainWindow w;
    const QString file = scenarioPath(QStringLiteral("rl_grpo_verl_qwen2.5-7b"));
    QVERIFY(openAndShow(w, file));
    const RlPhaseChart *chart = w.chartsPage()->rlPhases();
    const QStringList before = shownSizes(chart);
    QSpinBox *response = w.controls()->rlGroup()->responseTokensBox();
    response->setValue(2048);
    QCOMPARE(w.scenario().rl.responseTokens, int64_t(2048));
    QVERIFY(shownSizes(chart) != before);
    // The window's figures are the command line's for the file as saved.
    QTemporaryDir dir;
    const QString saved = dir.filePath(QStringLiteral("longer.vramplan.json"));
    QVERIFY(w.saveTo(saved));
    QCOMPARE(shownSizes(chart), cliPhaseSizes(saved));
    QCOMPARE(shownSizes(chart), (QStringList{"48.52 GiB", "55.01 GiB", "89.03 GiB"}));
    // One undo step takes it back.
    w.undoStack()->undo();
    QCOMPARE(shownSizes(chart), before);
}

void TestRlMode::saveAndReopenKeepsTheSection_data()
{
    QTest::addColumn<QString>("file");
    for (const char *name : {"rl_grpo_verl_qwen2.5-7b", "rl_grpo_trl_qwen2.5-7b",
                             "rl_dpo_trl_llama-3.1-8b"})
        QTest::newRow(name) << QString::fromLatin1(name);
}

void TestRlMode::saveAndReopenKeepsTheSection()
{
    QFETCH(QString, file);
    const auto original = scenarioFromText(readFile(scenarioPath(file)));
    QVERIFY(original);
    MainWindow w;
    QVERIFY(openAndShow(w, scenarioPath(file)));
    QTemporaryDir dir;
    const QString saved = dir.filePath(QStringLiteral("saved.vramplan.json"));
    QVERIFY(w.saveTo(saved));
    const auto json = nlohmann::json::parse(readFile(saved));
    QVERIFY(json.contains("rl"));
    // Nothing of the section is lost: it reads back as the original file's.
    QCOMPARE(QString::fromStdString(json["rl"].dump()),
             QString::fromStdString(scenarioToJson(*original.value)["rl"].dump()));
    MainWindow reopened;
    QVERIFY(openAndShow(reopened, saved));
    QVERIFY(reopened.scenario().rl.present());
    QCOMPARE(shownSizes(reopened.chartsPage()->rlPhases()), shownSizes(w.chartsPage()->rlPhases()));
}

void TestRlMode::turningRlOnAndOff()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(defaultScenario());
    QVERIFY(showAt(w, QSize(1280, 800)));
    QVERIFY(!w.chartsPage()->showsRl());
    RlGroup *g = w.controls()->rlGroup();
    QVERIFY(!g->algorithmBox()->isEnabled()); // nothing to set until RL is on
    g->enabledBox()->setChecked(true);
    QVERIFY(w.scenario().rl.present());
    QCOMPARE(QString::fromStdString(scenarioToJson(w.scenario())["rl"].dump()),
             QString::fromStdString(
                 nlohmann::json::parse(
                     R"({"algorithm":"grpo","critic":false,"framework":"verl",
                         "group_size":8,"offload":{"policy_optimizer":false,
                         "policy_parameters":false,"reference":false},"prompt_tokens":1024,
                         "reference_model":true,"response_tokens":4096,"reward_model":null,
                         "rollout":{"engine":"vllm","placement":"colocated","tensor_parallel":1}})")
                     .dump()));
    QVERIFY(w.chartsPage()->showsRl());
    QVERIFY(w.chartsPage()->rlPhases()->isVisible());
    QVERIFY(g->algorithmBox()->isEnabled());
    // A release is read as a file's would be: text that names none is refused, the section
    // left as it was; a release is kept.
    QLineEdit *version = g->frameworkVersionBox();
    version->setText(QStringLiteral("not a release"));
    emit version->editingFinished();
    QVERIFY(!w.scenario().rl.frameworkVersion.given);
    version->setText(QStringLiteral("0.5"));
    emit version->editingFinished();
    QCOMPARE(QString::fromStdString(frameworkVersionText(w.scenario().rl.frameworkVersion)),
             QStringLiteral("0.5"));
    w.undoStack()->undo();
    // The sequence is prompt + response now: the batch group's length says where to set it.
    QVERIFY(!w.controls()->sequenceLength()->isEnabled());
    g->enabledBox()->setChecked(false);
    QVERIFY(!w.scenario().rl.present());
    QVERIFY(!scenarioToJson(w.scenario()).contains("rl"));
    QVERIFY(!w.chartsPage()->showsRl());
    QVERIFY(w.controls()->sequenceLength()->isEnabled());
    QVERIFY(w.breakdownChart()->isVisible());
    QVERIFY(w.timelineChart()->isVisible());
    w.undoStack()->undo(); // RL on again, as one undo step
    QVERIFY(w.scenario().rl.present());
    // Inference has no RL: the mode box drops the section.
    w.controls()->modeBox()->setCurrentIndex(w.controls()->modeBox()->findData(int(Mode::Inference)));
    QCOMPARE(w.scenario().training.mode, Mode::Inference);
    QVERIFY(!w.scenario().rl.present());
    QVERIFY(!g->isVisible());
}

// In a small window every chart is a tab: the RL charts take the breakdown's and the timeline's
// tabs, and give them back when RL is turned off.
void TestRlMode::smallWindowTabsTheRlCharts()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    QVERIFY(w.openFile(scenarioPath(QStringLiteral("rl_grpo_verl_qwen2.5-7b"))));
    QVERIFY(showAt(w, QSize(800, 600)));
    ChartsPage *page = w.chartsPage();
    QVERIFY(page->tabbed());
    QTabWidget *tabs = page->curveTabs();
    QCOMPARE(tabs->indexOf(page->rlPhases()), 0);
    QCOMPARE(tabs->indexOf(page->rlTimeline()), tabs->count() - 1);
    QCOMPARE(tabs->indexOf(w.breakdownChart()), -1);
    QCOMPARE(tabs->indexOf(w.timelineChart()), -1);
    tabs->setCurrentWidget(page->rlTimeline());
    replotAll(w);
    QVERIFY(page->rlTimeline()->isVisible());
    keepShot(w, QStringLiteral("rlmode-small-timeline"));
    w.controls()->rlGroup()->enabledBox()->setChecked(false);
    QCOMPARE(tabs->indexOf(w.breakdownChart()), 0);
    QCOMPARE(tabs->indexOf(w.timelineChart()), tabs->count() - 1);
    QCOMPARE(tabs->indexOf(page->rlPhases()), -1);
    QCOMPARE(tabs->currentWidget(), static_cast<QWidget *>(w.timelineChart())); // its counterpart
    QVERIFY(!page->rlPhases()->isVisible());
}

void TestRlMode::advisorProposesRlKnobs()
{
    // The verl example on a 24 GiB card: nothing of it fits as it is.
    Scenario s = dataScenario(QStringLiteral("rl_grpo_verl_qwen2.5-7b"));
    s.gpu = parseOrFail(R"({"format":"vramplan-scenario","gpu":{"preset":"rtx-4090"}})").gpu;
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(s);
    QVERIFY(showAt(w, QSize(1280, 800)));
    FitAdvisorPanel *panel = w.fitAdvisor();
    QVERIFY(QTest::qWaitFor(
        [&] { return !panel->pending() && panel->result().generation != 0; }, 20000));
    QVERIFY(!panel->result().advice.fitsNow);
    QStringList titles;
    for (const FitChip *chip : panel->chips())
        titles << chip->title();
    QVERIFY2(!titles.isEmpty(), qPrintable(panel->statusText()));
    const QString all = titles.join(QLatin1Char('\n'));
    QVERIFY2(all.contains(QStringLiteral("responses")) || all.contains(QStringLiteral("LoRA")),
             qPrintable(all));
    // In the controls' words, never a scenario key ("rollout.gpu_memory_utilization 0.65").
    QVERIFY2(!all.contains(QLatin1Char('_')) && !all.contains(QStringLiteral("rollout.")),
             qPrintable(all));
    // Every chip is an RL knob's, and its peak is its scenario's estimate.
    for (const Suggestion &sg : panel->result().advice.suggestions) {
        QVERIFY(sg.scenario.rl.present());
        QVERIFY(!sg.changes.empty());
        QCOMPARE(sg.peakDeviceBytes, estimate(sg.scenario).peak.device);
        QVERIFY(!sg.costBasis.empty());
    }
}

// Each RL knob's phrase on a "Make it fit" chip, from the verl example (utilization 0.6, sleep
// level 1, micro-batch 16, groups of 5, 1024-token responses).
void TestRlMode::rlChipPhrases_data()
{
    QTest::addColumn<QString>("changes"); // the suggestion's changes, as JSON pairs
    QTest::addColumn<QString>("phrase");
    QTest::newRow("utilization") << R"([["rl.rollout.gpu_memory_utilization", 0.65]])"
                                 << "engine share 0.60 → 0.65";
    QTest::newRow("sleep") << R"([["rl.rollout.sleep_level", 2]])" << "engine sleep level 2";
    QTest::newRow("reference") << R"([["rl.offload.reference", true]])" << "reference → CPU";
    QTest::newRow("optimizer") << R"([["rl.offload.policy_optimizer", true]])"
                               << "optimizer → CPU between phases";
    QTest::newRow("weights") << R"([["rl.offload.policy_parameters", true]])"
                             << "weights → CPU between phases";
    QTest::newRow("log-prob batch") << R"([["rl.log_prob_micro_batch_size", 4]])"
                                    << "log-prob batch 16 → 4";
    QTest::newRow("group") << R"([["rl.group_size", 4]])" << "group 5 → 4";
    QTest::newRow("responses") << R"([["rl.response_tokens", 768]])"
                               << "responses 1024 → 768 tokens";
    QTest::newRow("separate engine")
        << R"([["rl.rollout.placement", "separate"], ["rl.rollout.gpus", 2]])"
        << "engine on 2 GPUs of its own";
}

void TestRlMode::rlChipPhrases()
{
    QFETCH(QString, changes);
    QFETCH(QString, phrase);
    const Scenario from = dataScenario(QStringLiteral("rl_grpo_verl_qwen2.5-7b"));
    Suggestion sg;
    sg.scenario = from;
    for (const auto &pair : nlohmann::json::parse(changes.toStdString())) {
        const std::string path = pair[0].get<std::string>();
        sg.changes.emplace_back(path, pair[1]);
        auto &rl = sg.scenario.rl;
        if (path == "rl.rollout.gpu_memory_utilization")
            rl.rollout.gpuMemoryUtilization = pair[1].get<double>();
        else if (path == "rl.rollout.sleep_level")
            rl.rollout.sleepLevel = pair[1].get<int64_t>();
        else if (path == "rl.log_prob_micro_batch_size")
            rl.logProbMicroBatchSize = pair[1].get<int64_t>();
        else if (path == "rl.group_size")
            rl.groupSize = pair[1].get<int64_t>();
        else if (path == "rl.response_tokens")
            rl.responseTokens = pair[1].get<int64_t>();
        else if (path == "rl.rollout.placement")
            rl.rollout.placement = RolloutPlacement::Separate;
        else if (path == "rl.rollout.gpus")
            rl.rollout.gpus = pair[1].get<int64_t>();
    }
    QCOMPARE(changePhrases(from, sg), QStringList{phrase});
}

QTEST_MAIN(TestRlMode)
#include "tst_rlmode.moc"
