// An inference server in the window (issue 14): the Serving group in inference mode, the KV
// cache as its own segment of the breakdown, the curves of what the server's settings buy, and
// the engine's own message when it would not start.

#include "charts/breakdownchart.h"
#include "charts/componentstyle.h"
#include "charts/servingcurvechart.h"
#include "chartspage.h"
#include "estimate.h"
#include "advice/serving_advice.h"
#include "advice/serving_advice_start.h"
#include "advisorworker.h"
#include "document/servingnames.h"
#include "panels/controlspanel.h"
#include "panels/fitwording.h"
#include "panels/servinggroup.h"
#include "plancontroller.h"
#include "servingcharts.h"
#include "uitesting.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QTemporaryDir>
#include <QScrollArea>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QUndoStack>

using namespace vramplan;
using namespace vramplan::ui;
using namespace vramplan::test;

namespace {

constexpr double gib = 1073741824.0;

void chooseData(QComboBox *box, const QVariant &data)
{
    const int index = box->findData(data);
    QVERIFY2(index >= 0, qPrintable(data.toString()));
    box->setCurrentIndex(index);
}

Scenario vllmScenario()
{
    return dataScenario(QStringLiteral("llama-3.1-8b-vllm-h100"));
}

bool legendNames(const BreakdownChart *chart, const QString &name)
{
    QCPLegend *legend = chart->plot()->legend;
    for (int i = 0; i < legend->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(legend->item(i)))
            if (item->plottable()->name() == name)
                return true;
    return false;
}

// Whether the window's curve tabs offer this chart.
bool tabShown(const MainWindow &w, QWidget *chart)
{
    QTabWidget *tabs = w.chartsPage()->curveTabs();
    const int index = tabs->indexOf(chart);
    return index >= 0 && tabs->isTabVisible(index);
}

} // namespace

class TestServingWindow : public QObject
{
    Q_OBJECT

private slots:
    void servingGroupFollowsTheMode();
    void kvCacheIsItsOwnSegment();
    void utilizationIsOneUndoStep();
    void engineReleaseIsOneUndoStep();
    void curvesPassThroughTheCurrentPlan();
    void noEngineRestoresTheNaiveForwardPass();
    void failureIsShown();
    void breakdownDrawsTheRefusal();
    void failureNamesWhatWouldStartIt();
    void targetIsTheWindowsOwn();
    void batchedTokensControl();
    void servingChartsExport();
    void nothingCut_data();
    void nothingCut();
};

void TestServingWindow::servingGroupFollowsTheMode()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    ServingGroup *group = w.controls()->servingGroup();
    QVERIFY(group->isHidden()); // training: no server
    chooseData(w.controls()->modeBox(), int(Mode::Inference));
    QVERIFY(!group->isHidden());
    // No engine yet: the naive forward pass, and the server's settings wait for one.
    QCOMPARE(group->engineBox()->currentText(), QStringLiteral("none"));
    QVERIFY(!group->utilizationBox()->isEnabled());
    QVERIFY(!w.servingCharts()->shown());
    chooseData(group->engineBox(), int(ServingEngine::Vllm));
    QVERIFY(w.scenario().serving.present);
    QCOMPARE(w.scenario().serving.engine, ServingEngine::Vllm);
    QVERIFY(group->utilizationBox()->isEnabled());
    // vLLM's default, as the estimate resolves it.
    QCOMPARE(group->utilizationBox()->value(), 0.9);
    QVERIFY(w.servingCharts()->shown());
    QVERIFY(tabShown(w, w.servingCharts()->contextChart()));
    QVERIFY(!tabShown(w, w.batchChart()));
    // Every control says what it does.
    for (QWidget *control : group->controls())
        QVERIFY2(!control->toolTip().isEmpty(), qPrintable(ControlGroup::label(control)));
    chooseData(w.controls()->modeBox(), int(Mode::Train));
    QVERIFY(group->isHidden());
}

void TestServingWindow::kvCacheIsItsOwnSegment()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    QVERIFY(showAt(w, QSize(1280, 800)));
    QCOMPARE(w.breakdownChart()->barValue(Component::KvCache), 0.0);
    const QString kvName = componentName(Component::KvCache);
    QVERIFY(!legendNames(w.breakdownChart(), kvName));
    QVERIFY(legendNames(w.breakdownChart(), componentName(Component::OptimizerStates)));
    chooseData(w.controls()->modeBox(), int(Mode::Inference));
    chooseData(w.controls()->servingGroup()->engineBox(), int(ServingEngine::Vllm));
    const ServingPlan plan = planServing(w.scenario());
    QVERIFY(plan.kvCacheBytes > 0);
    QCOMPARE(w.breakdownChart()->barValue(Component::KvCache), plan.kvCacheBytes / gib);
    QVERIFY(legendNames(w.breakdownChart(), kvName));
    // A server's legend names what its bar holds: no gradients, optimizer states or loss.
    for (Component c : {Component::Gradients, Component::OptimizerStates, Component::LogitsAndLoss,
                        Component::Activations})
        QVERIFY2(!legendNames(w.breakdownChart(), componentName(c)), qPrintable(componentName(c)));
    QVERIFY(legendNames(w.breakdownChart(), componentName(Component::Parameters)));
    QVERIFY(legendNames(w.breakdownChart(), componentName(Component::Framework)));
    QVERIFY(componentColor(Component::KvCache).isValid());
    for (int i = 0; i < componentCount - 1; ++i)
        QVERIFY(componentColor(Component(i)) != componentColor(Component::KvCache));
    // The group in view, every row of it inside the panel.
    ServingGroup *group = w.controls()->servingGroup();
    auto *scroll = qobject_cast<QScrollArea *>(w.controls()->parentWidget()->parentWidget());
    QVERIFY(scroll);
    scroll->ensureWidgetVisible(group->planLabel());
    QCoreApplication::processEvents();
    QVERIFY(group->planLabel()->isVisible());
    const QRect panel = scroll->viewport()->rect();
    for (QWidget *control : group->controls()) {
        const QRect r(control->mapTo(scroll->viewport(), QPoint(0, 0)), control->size());
        QVERIFY2(r.right() <= panel.right(), qPrintable(ControlGroup::label(control)));
    }
    keepShot(w, QStringLiteral("serving-vllm"));
    keepShot(*group, QStringLiteral("serving-group"));
}

void TestServingWindow::utilizationIsOneUndoStep()
{
    MainWindow w;
    w.setScenario(vllmScenario());
    ServingGroup *group = w.controls()->servingGroup();
    const ServingPlan before = planServing(w.scenario());
    const QString shownBefore = group->planLabel()->text();
    // As docs/serving.md quotes it, then the target (one request of max_model_len: the file
    // sets none) and whether it is served.
    QCOMPARE(shownBefore, QStringLiteral("KV cache 54.07 GiB: 442,912 tokens, 13.52 requests of "
                                         "32k tokens at once\nTarget 1 \u00d7 32,768 tokens at "
                                         "once: served (room for 13.52)"));
    QCOMPARE(shownBefore.section(QLatin1Char('\n'), 0, 0),
             QStringLiteral("KV cache %1: %2 tokens, %3 requests of 32k tokens at once")
                 .arg(formatSize(before.kvCacheBytes, Unit::GiB),
                      groupedNumber(before.kvCacheTokens),
                      QString::number(before.maxConcurrency, 'f', 2)));
    const int steps = w.undoStack()->count();
    group->utilizationBox()->setValue(0.8);
    QCOMPARE(w.undoStack()->count(), steps + 1);
    QCOMPARE(w.undoStack()->undoText(), QStringLiteral("Change GPU memory utilization"));
    QCOMPARE(w.scenario().serving.gpuMemoryUtilization, 0.8);
    const ServingPlan after = planServing(w.scenario());
    QVERIFY(after.kvCacheTokens < before.kvCacheTokens);
    QVERIFY(group->planLabel()->text().contains(
        QStringLiteral("%1 tokens").arg(groupedNumber(after.kvCacheTokens))));
    w.undoStack()->undo();
    QCOMPARE(w.scenario().serving.gpuMemoryUtilization, 0.9);
    QCOMPARE(group->utilizationBox()->value(), 0.9);
    QCOMPARE(group->planLabel()->text(), shownBefore);
}

// vLLM 0.6.4 (the V0 engine, graphs outside the budget) against the current release (0.21+:
// its CUDA-graph estimate comes out of the budget): the release is one undo step, and text the
// parser refuses is refused on its field, leaving the scenario as it was.
void TestServingWindow::engineReleaseIsOneUndoStep()
{
    MainWindow w;
    w.setScenario(vllmScenario());
    ServingGroup *group = w.controls()->servingGroup();
    QLineEdit *release = group->engineVersionBox();
    QCOMPARE(release->placeholderText(), QStringLiteral("current release"));
    QVERIFY(release->isEnabled());
    // Issue 21 #24: one Release field in serving, the engine's; the training stack's is off.
    QWidget *stackRelease = w.controls()->controlFor("framework_version");
    QVERIFY(stackRelease);
    QVERIFY(!stackRelease->isEnabled());
    QCOMPARE(stackRelease->toolTip(),
             QStringLiteral("An engine serves the model: its release is the serving group's"));
    const ServingPlan current = planServing(w.scenario());
    release->setText(QStringLiteral("vllm 0.6.4"));
    emit release->editingFinished();
    QCOMPARE(w.undoStack()->undoText(), QStringLiteral("Change engine release"));
    QVERIFY(w.scenario().serving.engineVersion.given);
    QCOMPARE(w.scenario().serving.engineVersion.minor, 6);
    QCOMPARE(release->text(), QStringLiteral("0.6.4"));
    const ServingPlan older = planServing(w.scenario());
    QCOMPARE(older.cudaGraphEstimateBytes, 0.0);
    QVERIFY(current.cudaGraphEstimateBytes > 0);
    QVERIFY(older.kvCacheTokens != current.kvCacheTokens);
    QSignalSpy refused(w.controls(), &ControlsPanel::refused);
    release->setText(QStringLiteral("latest"));
    emit release->editingFinished();
    QCOMPARE(refused.count(), 1);
    QCOMPARE(refused.first().at(0).toString(),
             QStringLiteral("Release latest refused: serving.engine_version: expected a release "
                            "such as \"0.21\" or \"vllm 0.21\""));
    QCOMPARE(w.scenario().serving.engineVersion.minor, 6);
    // Issue 21 #22: the refused text stays in the field for correction.
    QCOMPARE(release->text(), QStringLiteral("latest"));
    w.undoStack()->undo();
    QVERIFY(!w.scenario().serving.engineVersion.given);
    QCOMPARE(release->text(), QString());
}

void TestServingWindow::curvesPassThroughTheCurrentPlan()
{
    MainWindow w;
    w.setScenario(vllmScenario());
    const ServingPlan plan = planServing(w.scenario());
    const ServingCharts *charts = w.servingCharts();
    const double len = double(w.scenario().serving.maxModelLen);
    QCOMPARE(charts->contextChart()->currentMarker(), len);
    QCOMPARE(charts->contextChart()->valueAt(len), plan.maxConcurrency);
    QCOMPARE(charts->contextChart()->currentLabel(),
             QStringLiteral("32k: %1 requests").arg(QString::number(plan.maxConcurrency, 'f', 2)));
    // Longer requests, fewer at once.
    QVERIFY(charts->contextChart()->valueAt(2 * len) < plan.maxConcurrency);
    QCOMPARE(charts->utilizationChart()->valueAt(0.9), double(plan.kvCacheTokens));
    QVERIFY(charts->utilizationChart()->valueAt(0.5) < double(plan.kvCacheTokens));
    // Llama-3.1-8B's 8 KV heads allow TP 1, 2, 4 and 8.
    const std::vector<double> tp = charts->tensorParallelChart()->curve().x;
    QCOMPARE(tp, (std::vector<double>{1, 2, 4, 8}));
    QCOMPARE(charts->tensorParallelChart()->valueAt(1), plan.maxConcurrency);
    QVERIFY(charts->tensorParallelChart()->valueAt(2) > plan.maxConcurrency);
    QCOMPARE(charts->contextChart()->plot()->xAxis->label(),
             QStringLiteral("max_model_len (tokens)"));

    // The marker follows the setting: one step of the arrows is a thousand tokens more.
    w.controls()->servingGroup()->maxModelLenBox()->stepUp();
    QCOMPARE(w.scenario().serving.maxModelLen, int64_t(33792));
    QCOMPARE(charts->contextChart()->currentMarker(), 33792.0);
    QCOMPARE(charts->contextChart()->valueAt(33792), planServing(w.scenario()).maxConcurrency);
    w.undoStack()->undo();

    // Each curve in view, for a person to look at (VRAMPLAN_TEST_SHOTS).
    QVERIFY(showAt(w, QSize(1280, 800)));
    for (ServingCurveChart *chart :
         {charts->contextChart(), charts->utilizationChart(), charts->tensorParallelChart()}) {
        w.chartsPage()->curveTabs()->setCurrentWidget(chart);
        replotAll(w);
        QVERIFY(chart->isVisible());
        keepShot(w, QStringLiteral("serving-") + chart->title().section(QLatin1Char(' '), -1));
    }
}

void TestServingWindow::noEngineRestoresTheNaiveForwardPass()
{
    MainWindow w;
    w.setScenario(vllmScenario());
    Scenario naive = vllmScenario();
    naive.serving = ServingConfig{};
    const Estimate expected = vramplan::estimate(naive);
    chooseData(w.controls()->servingGroup()->engineBox(), QVariant(-1));
    QVERIFY(!w.scenario().serving.present);
    QCOMPARE(w.controller()->estimate().peak.device, expected.peak.device);
    QCOMPARE(w.breakdownChart()->barValue(Component::KvCache), 0.0);
    QVERIFY(!legendNames(w.breakdownChart(), componentName(Component::KvCache)));
    QVERIFY(!w.servingCharts()->shown());
    QVERIFY(w.controls()->servingGroup()->planLabel()->isHidden());
    w.undoStack()->undo();
    QVERIFY(w.scenario().serving.present);
    QVERIFY(w.servingCharts()->shown());
}

void TestServingWindow::failureIsShown()
{
    // Llama-3.1-70B in bf16 is about 131 GiB of weights: nothing is left of a 24 GB card.
    Scenario s = vllmScenario();
    const Scenario seventy = parseOrFail(R"({"format": "vramplan-scenario", "version": 1,
        "model": {"preset": "llama-3.1-70b"}, "training": {"mode": "inference"},
        "gpu": {"preset": "rtx-4090"}})");
    s.model = seventy.model;
    s.gpu = seventy.gpu;
    QVERIFY(checkScenario(s).empty());
    const ServingPlan plan = planServing(s);
    QVERIFY(plan.status != ServingStatus::Ok);
    const QString failure = QString::fromStdString(servingFailureText(plan));
    QVERIFY(!failure.isEmpty());

    MainWindow w;
    w.setScenario(s);
    QVERIFY(showAt(w, QSize(1280, 800)));
    const QLabel *label = w.controls()->servingGroup()->planLabel();
    QCOMPARE(label->text().section(QLatin1Char('\n'), 0, 0),
             QStringLiteral("The engine would not start: %1").arg(failure));
    QVERIFY(label->isVisible());
    QVERIFY(w.statusText().contains(QStringLiteral("the engine would not start | ") + failure));
    // Every context length fails on this card: the curve's samples are marked as refused.
    const ServingCurve &curve = w.servingCharts()->contextChart()->curve();
    QVERIFY(!curve.starts.empty());
    for (bool starts : curve.starts)
        QVERIFY(!starts);
    keepShot(w, QStringLiteral("serving-failure"));
    keepShot(*w.controls()->servingGroup(), QStringLiteral("serving-group-failure"));
}

// A server on an H100 at gpu_memory_utilization 0.3 with max_model_len 131072: the budget
// leaves less KV cache than one request needs, while the bar stands far below the capacity.
Scenario refusedServer()
{
    Scenario s = vllmScenario();
    s.serving.gpuMemoryUtilization = 0.3;
    s.serving.maxModelLen = 131072;
    return s;
}

// Issue 21 #5: the breakdown said "headroom 55 GiB" in black beside a status saying the engine
// would not start. The refusal is drawn as an overflow is, and the budget line is labelled.
void TestServingWindow::breakdownDrawsTheRefusal()
{
    const Scenario s = refusedServer();
    const ServingPlan plan = planServing(s);
    QCOMPARE(plan.status, ServingStatus::BelowOneRequest);
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(s);
    QVERIFY(showAt(w, QSize(1280, 800)));
    BreakdownChart *chart = w.breakdownChart();
    QVERIFY(chart->capacityValue() > chart->totalValue()); // headroom, by the bytes
    QCOMPARE(chart->gapText(), QStringLiteral("engine would not start"));
    QVERIFY(chart->failureShown());
    QCPItemText *gap = nullptr;
    for (int i = 0; i < chart->plot()->itemCount(); ++i)
        if (auto *t = qobject_cast<QCPItemText *>(chart->plot()->item(i)))
            if (t->visible() && t->text().simplified() == chart->gapText())
                gap = t;
    QVERIFY(gap);
    QCOMPARE(gap->color(), overflowColor());
    // The budget: 0.3 x what CUDA reports.
    QCOMPARE(chart->budgetValue(), plan.budgetBytes / gib);
    QCOMPARE(chart->budgetText(), QStringLiteral("budget (gpu_memory_utilization 0.30): %1")
                                      .arg(formatSize(plan.budgetBytes, Unit::GiB)));
    QCOMPARE(plan.budgetBytes, 0.3 * plan.cudaTotalBytes);
    // Back to a server that starts: headroom in ink, the budget at 0.9.
    w.controls()->servingGroup()->utilizationBox()->setValue(0.9);
    w.controls()->servingGroup()->maxModelLenBox()->setValue(32768);
    QVERIFY(!chart->failureShown());
    QVERIFY(chart->gapText().startsWith(QStringLiteral("headroom ")));
    QCOMPARE(chart->budgetValue(), planServing(w.scenario()).budgetBytes / gib);
    // transformers generate has no budget.
    chooseData(w.controls()->servingGroup()->engineBox(), int(ServingEngine::Transformers));
    QVERIFY(std::isnan(chart->budgetValue()));
    QCOMPARE(chart->budgetText(), QString());
    keepShot(w, QStringLiteral("serving-refused-breakdown"));
}

// Issue 21 #6: the engine's message names gpu_memory_utilization; the group names every setting
// that alone would start it, with the value, where max_num_seqs may be the one that matters.
void TestServingWindow::failureNamesWhatWouldStartIt()
{
    const Scenario s = refusedServer();
    MainWindow w;
    w.setScenario(s);
    const QString text = w.controls()->servingGroup()->planLabel()->text();
    const std::vector<StartingSetting> settings = settingsThatStart(s);
    QStringList named;
    for (const StartingSetting &x : settings) {
        const QString name = QString::fromStdString(x.path.substr(x.path.rfind('.') + 1));
        named << name + QLatin1Char(' ') +
                     (x.value.is_number_integer()
                          ? groupedNumber(x.value.get<int64_t>())
                          : x.value.is_number() ? QString::number(x.value.get<double>(), 'f', 2)
                                                : QString::fromStdString(x.value.get<std::string>()));
    }
    QVERIFY(named.size() >= 2);
    QVERIFY(named.join(QLatin1Char(' ')).contains(QStringLiteral("max_model_len ")));
    QVERIFY(named.join(QLatin1Char(' ')).contains(QStringLiteral("gpu_memory_utilization 0.")));
    QCOMPARE(text.section(QLatin1Char('\n'), 1),
             QStringLiteral("It would start with any one of: %1.").arg(named.join(", ")));
    // The max_model_len named starts the engine, in the window too.
    for (const StartingSetting &x : settings)
        if (x.path == "serving.max_model_len")
            w.controls()->servingGroup()->maxModelLenBox()->setValue(int(x.value.get<int64_t>()));
    QCOMPARE(estimate(w.scenario()).serving.status, ServingStatus::Ok);
    QVERIFY(!w.controls()->servingGroup()->planLabel()->text().contains(
        QStringLiteral("would not start")));
}

// Issue 21 #6: "Make it fit" searched for max_num_seqs requests (256 once it was lowered from
// 1024). The target is the window's own (two controls, saved in the scenario), one request of
// max_model_len until given, and max_num_seqs leaves it alone.
void TestServingWindow::targetIsTheWindowsOwn()
{
    MainWindow w;
    w.setScenario(vllmScenario());
    ServingGroup *group = w.controls()->servingGroup();
    QCOMPARE(group->targetRequestsBox()->value(), 1);
    QCOMPARE(group->targetTokensBox()->value(), 0);
    QCOMPARE(group->targetTokensBox()->text(), QStringLiteral("max_model_len"));
    group->maxNumSeqsBox()->setValue(128);
    QCOMPARE(resolveTarget(w.scenario(), {}).requests, int64_t(1));
    QCOMPARE(group->targetRequestsBox()->value(), 1);
    const int steps = w.undoStack()->count();
    group->targetRequestsBox()->setValue(16);
    QCOMPARE(w.undoStack()->count(), steps + 1);
    QCOMPARE(w.undoStack()->undoText(), QStringLiteral("Change target requests"));
    group->targetTokensBox()->setValue(8192);
    QCOMPARE(w.scenario().serving.targetRequests, int64_t(16));
    QCOMPARE(w.scenario().serving.targetTokens, int64_t(8192));
    const ServingTarget t = resolveTarget(w.scenario(), {});
    QCOMPARE(t.requests, int64_t(16));
    QCOMPARE(t.tokens, int64_t(8192));
    // 16 x 8192 tokens fit the H100's 442,912 tokens at max_model_len 8192.
    const ServingSuggestion now = evaluateServing(w.scenario(), withTarget(w.scenario(), t), t);
    QVERIFY(now.serves);
    QCOMPARE(group->planLabel()->text().section(QLatin1Char('\n'), 1),
             QStringLiteral("Target 16 \u00d7 8,192 tokens at once: served (room for %1)")
                 .arg(QString::number(now.plan.maxConcurrency, 'f', 2)));
    // 64 requests of 32k tokens do not.
    group->targetRequestsBox()->setValue(64);
    group->targetTokensBox()->setValue(32768);
    QVERIFY(group->planLabel()->text().contains(
        QStringLiteral("Target 64 \u00d7 32,768 tokens at once: not served")));
    // What "Make it fit" searches for.
    QCOMPARE(searchAdvice(w.scenario(), 1).advice.fitsNow, false);
}

// Issue 21 #6: max_num_batched_tokens has a control: the engine's default shown, an edit one
// undo step that sizes the profiling run.
void TestServingWindow::batchedTokensControl()
{
    MainWindow w;
    w.setScenario(vllmScenario());
    QSpinBox *box = w.controls()->servingGroup()->maxNumBatchedTokensBox();
    QCOMPARE(box->value(), int(resolveServing(w.scenario()).maxNumBatchedTokens));
    QCOMPARE(box->value(), 8192); // as the file says
    QVERIFY(box->isEnabled());
    QCOMPARE(w.controls()->controlFor(QStringLiteral("serving.max_num_batched_tokens")), box);
    const double activations = planServing(w.scenario()).activationBytes;
    const int steps = w.undoStack()->count();
    box->setValue(2048);
    QCOMPARE(w.undoStack()->count(), steps + 1);
    QCOMPARE(w.scenario().serving.maxNumBatchedTokens, int64_t(2048));
    QVERIFY(planServing(w.scenario()).activationBytes < activations);
    chooseData(w.controls()->servingGroup()->engineBox(), int(ServingEngine::Sglang));
    QVERIFY(!box->isEnabled());
}

// Issue 21 #7: in inference mode File > Export offers the server's curves, not the training
// sweeps, and what it writes is the server's: its curve, its settings, no optimizer.
void TestServingWindow::servingChartsExport()
{
    QTemporaryDir dir;
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(vllmScenario());
    QVERIFY(showAt(w, QSize(1280, 800)));
    QMenu *exports = nullptr;
    for (QMenu *menu : w.findChildren<QMenu *>())
        if (menu->title() == QStringLiteral("&Export"))
            exports = menu;
    QVERIFY(exports);
    emit exports->aboutToShow();
    QStringList shown;
    for (QAction *action : exports->actions())
        if (action->isVisible())
            shown << action->text();
    QVERIFY(shown.contains(QStringLiteral("Concurrency curve...")));
    QVERIFY(shown.contains(QStringLiteral("KV-token curve...")));
    QVERIFY(shown.contains(QStringLiteral("Tensor-parallel curve...")));
    QVERIFY(!shown.contains(QStringLiteral("Micro-batch curve...")));
    QVERIFY(!shown.contains(QStringLiteral("Sequence curve...")));
    const ServingCharts *charts = w.servingCharts();
    const std::pair<const char *, ServingCurveChart *> curves[] = {
        {"concurrency", charts->contextChart()},
        {"kv-tokens", charts->utilizationChart()},
        {"tensor-parallel", charts->tensorParallelChart()}};
    const QString summary = servingSummary(estimate(w.scenario()), w.scenario(), Unit::GiB);
    QVERIFY(summary.contains(QStringLiteral("vLLM")));
    QVERIFY(summary.contains(QStringLiteral("max_model_len 32k")));
    for (const auto &[name, chart] : curves) {
        const QString path = dir.filePath(QString::fromLatin1(name) + QStringLiteral(".svg"));
        QCOMPARE(w.exportChart(QString::fromLatin1(name), path), QString());
        const QString svg = QString::fromStdString(readFile(path));
        QVERIFY2(svg.contains(chart->title().toHtmlEscaped()), name);
        QVERIFY2(svg.contains(summary.toHtmlEscaped()), name);
        QVERIFY2(!svg.contains(QStringLiteral("adamw")), name);
        QVERIFY2(!svg.contains(QStringLiteral("largest that fits")), name);
    }
    // A training sweep asked of a server is refused, naming what there is.
    QVERIFY(w.exportChart(QStringLiteral("batch"), dir.filePath(QStringLiteral("b.svg")))
                .contains(QStringLiteral("concurrency, kv-tokens and tensor-parallel")));
    // In training mode the sweeps again, and no server's curve.
    w.setScenario(defaultScenario());
    emit exports->aboutToShow();
    QVERIFY(exports->actions().at(1)->isVisible());
    QVERIFY(w.exportChart(QStringLiteral("concurrency"), dir.filePath(QStringLiteral("c.svg")))
                .contains(QStringLiteral("no inference server")));
}

void TestServingWindow::nothingCut_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("gpu");
    // Many requests at once; about one (1.17: the two labels meet); none (70B in bf16 on one
    // 24 GB card).
    const char *cases[][3] = {{"roomy", "llama-3.1-8b", "h100-80gb"},
                              {"tight", "llama-3.1-8b", "rtx-4090"},
                              {"fails", "llama-3.1-70b", "rtx-4090"}};
    for (const QSize size : {QSize(1280, 800), QSize(1024, 640), QSize(800, 600)})
        for (const auto &c : cases)
            QTest::addRow("%dx%d %s", size.width(), size.height(), c[0])
                << size << QString::fromLatin1(c[1]) << QString::fromLatin1(c[2]);
}

void TestServingWindow::nothingCut()
{
    QFETCH(QSize, size);
    QFETCH(QString, model);
    QFETCH(QString, gpu);
    Scenario s = vllmScenario();
    const Scenario other = parseOrFail(QStringLiteral(R"({"format": "vramplan-scenario",
        "version": 1, "model": {"preset": "%1"}, "gpu": {"preset": "%2"}})")
                                           .arg(model, gpu)
                                           .toStdString());
    s.model = other.model;
    s.gpu = other.gpu;
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(s);
    QVERIFY(showAt(w, size));
    QCOMPARE(w.size(), size); // the Serving group asks for no more room than the others
    const ServingCharts *charts = w.servingCharts();
    for (ServingCurveChart *chart :
         {charts->contextChart(), charts->utilizationChart(), charts->tensorParallelChart()}) {
        w.chartsPage()->curveTabs()->setCurrentWidget(chart);
        replotAll(w);
        keepShot(w, QStringLiteral("serving-%1-%2")
                        .arg(QString::fromLatin1(QTest::currentDataTag()))
                        .arg(w.chartsPage()->curveTabs()->currentIndex()));
        const QRect axis = chart->plot()->axisRect()->rect();
        const QRectF current = chart->currentLabelRect();
        const QRectF oneRequest = chart->oneRequestLabelRect();
        QVERIFY2(!current.isNull(), qPrintable(chart->title()));
        QVERIFY2(axis.contains(current.toAlignedRect()), qPrintable(chart->currentLabel()));
        if (!oneRequest.isNull()) {
            QVERIFY2(axis.contains(oneRequest.toAlignedRect()), qPrintable(chart->title()));
            QVERIFY2(!oneRequest.intersects(current), qPrintable(chart->currentLabel()));
        }
    }
}

QTEST_MAIN(TestServingWindow)
#include "tst_servingwindow.moc"
