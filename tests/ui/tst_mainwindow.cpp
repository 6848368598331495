// The planner window, offscreen: moving each control changes the charts to exactly what the
// core estimates for the edited scenario; the capacity line follows the GPU; controls that
// cannot apply are disabled with a reason; the rendered charts are not empty.

#include "advice/calibration.h"
#include "catalog.h"
#include "charts/breakdownchart.h"
#include "charts/componentstyle.h"
#include "charts/curvechart.h"
#include "charts/timelinechart.h"
#include "document/dialogs.h"
#include "document/scenarioname.h"
#include "estimate.h"
#include "help/guidewindow.h"
#include "mainwindow.h"
#include "formats/numeric_fields.h"
#include "panels/calibrationdialog.h"
#include "panels/controlspanel.h"
#include "panels/logslider.h"
#include "panels/presetpicker.h"
#include "plancontroller.h"
#include "formats/scenario_json.h"
#include "testhelpers.h"

#include <QAbstractItemView>
#include <QAction>
#include <QComboBox>
#include <QCompleter>
#include <QDoubleSpinBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QSet>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <qcustomplot.h>

#include <cmath>
#include <functional>

using namespace vramplan;
using namespace vramplan::ui;

namespace {

Scenario defaultScenario()
{
    return *scenarioFromText(Catalog::builtin().defaultScenarioText()).value;
}

void chooseData(QComboBox *box, const QVariant &data)
{
    const int index = box->findData(data);
    QVERIFY2(index >= 0, qPrintable(data.toString()));
    box->setCurrentIndex(index);
}

// The bars drawn are the estimate of the scenario the window holds, component by component.
void compareBars(const MainWindow &w, const Scenario &expectedScenario)
{
    const Estimate expected = estimate(expectedScenario);
    for (int c = 0; c < componentCount; ++c) {
        const double drawn = w.breakdownChart()->barValue(Component(c));
        const double want = toUnit(expected.perGpu[c], w.unit());
        QVERIFY2(std::fabs(drawn - want) <= 1e-9 * std::max(1.0, want),
                 qPrintable(QString("%1: drawn %2, estimated %3")
                                .arg(componentName(Component(c)))
                                .arg(drawn)
                                .arg(want)));
    }
    QCOMPARE(w.breakdownChart()->capacityValue(), toUnit(expected.capacityBytes, w.unit()));
}

Scenario presetScenario(const std::string &id)
{
    Scenario s = defaultScenario();
    s.model = *presetModel(id);
    return s;
}

// Types into the preset picker as a user would: the window shown, Edit > Find Model Preset
// (Ctrl+F) focuses the picker with its text selected.
void typeIntoPicker(MainWindow &w, const QString &text)
{
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    auto *find = w.findChild<QAction *>(QStringLiteral("findPreset"));
    QVERIFY(find);
    QCOMPARE(find->shortcut(), QKeySequence(QKeySequence::Find));
    find->trigger();
    PresetPicker *picker = w.controls()->presetPicker();
    QVERIFY(picker->hasFocus());
    QCOMPARE(picker->lineEdit()->selectedText(), picker->itemText(picker->currentIndex()));
    QTest::keyClicks(picker, text);
}

// Qwen3-30B-A3B on 8 GPUs, its experts spread over all 8 (expert_parallel 8), the busiest one
// receiving `imbalance` times its balanced share of the tokens; the default scenario otherwise.
Scenario imbalancedMoe(double imbalance, int expertParallel = 8)
{
    auto json = nlohmann::json::parse(Catalog::builtin().defaultScenarioText());
    json["model"] = nlohmann::json::parse(R"({"preset": "qwen3-30b-a3b", "moe": {"imbalance": )" +
                                          std::to_string(imbalance) + "}}");
    json["parallelism"]["gpus"] = 8;
    json["parallelism"]["expert_parallel"] = expertParallel;
    return vramplan::test::parseOrFail(json.dump());
}

Scenario withImbalance(Scenario s, double imbalance)
{
    s.model.moe.imbalance = imbalance;
    return s;
}

// What the legend of a chart lists, top-down.
QStringList legendNames(const QCustomPlot *plot)
{
    QStringList names;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(plot->legend->item(i)))
            names << item->plottable()->name();
    return names;
}

// "49.27 GiB", as the window writes a size.
QString gib(double bytes)
{
    return QString::number(bytes / 1073741824.0, 'f', 2) + QStringLiteral(" GiB");
}

struct CurveView
{
    const char *name;
    CurveChart *chart;
    const CurveData *data;
    const char *field;
};

std::vector<CurveView> curveViews(const MainWindow &w)
{
    return {{"batch", w.batchChart(), &w.controller()->batchCurve(), "training.micro_batch_size"},
            {"sequence", w.sequenceChart(), &w.controller()->sequenceCurve(),
             "training.sequence_length"},
            {"gpus", w.gpuChart(), &w.controller()->gpuCurve(), "parallelism.gpus"}};
}

bool near(double a, double b)
{
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

// Every curve carries the expert-imbalance band: at each sample, its lower edge the estimate of
// the scenario there with balanced routing, its upper edge the total drawn; the legend names it;
// the bar has its marker and label; the measured block its row.
void verifyBand(const MainWindow &w, const Scenario &s)
{
    const QString legend = QStringLiteral("Expert imbalance 1–%1×")
                               .arg(QString::number(s.model.moe.imbalance, 'g', 3));
    for (const CurveView &view : curveViews(w)) {
        QVERIFY2(legendNames(view.chart->plot()).contains(legend),
                 qPrintable(QStringLiteral("%1: %2").arg(
                     view.name, legendNames(view.chart->plot()).join(", "))));
        int samples = 0, wider = 0;
        for (size_t i = 0; i < view.data->x.size(); ++i) {
            const double x = view.data->x[i];
            if (!view.data->valid[i]) {
                QVERIFY(std::isnan(view.chart->balancedAt(x)));
                continue;
            }
            Scenario at = s;
            QVERIFY(setNumericField(at, *findNumericField(view.field), x).empty());
            const double high = toUnit(estimate(at).peak.device, Unit::GiB);
            const double low = toUnit(estimate(withImbalance(at, 1.0)).peak.device, Unit::GiB);
            QVERIFY2(near(view.chart->balancedAt(x), low),
                     qPrintable(QStringLiteral("%1 at %2: lower edge %3, balanced estimate %4")
                                    .arg(view.name)
                                    .arg(x)
                                    .arg(view.chart->balancedAt(x))
                                    .arg(low)));
            QVERIFY2(near(view.chart->imbalancedAt(x), high),
                     qPrintable(QStringLiteral("%1 at %2: upper edge %3, estimate %4")
                                    .arg(view.name)
                                    .arg(x)
                                    .arg(view.chart->imbalancedAt(x))
                                    .arg(high)));
            QVERIFY(near(view.chart->imbalancedAt(x), view.chart->totalAt(x)));
            ++samples;
            wider += low < high ? 1 : 0;
        }
        QVERIFY2(samples > 5, view.name);
        QVERIFY2(wider > 0, view.name); // a band, not a line
    }

    const double balanced = estimate(withImbalance(s, 1.0)).peak.device;
    const double device = estimate(s).peak.device;
    QVERIFY(balanced < device);
    QVERIFY(near(w.breakdownChart()->balancedValue(), toUnit(balanced, Unit::GiB)));
    QCOMPARE(w.breakdownChart()->balancedText(),
             QStringLiteral("balanced experts: ") + gib(balanced));
    const QStringList rows = w.breakdownChart()->measuredRows();
    QCOMPARE(rows.size(), 5);
    QCOMPARE(rows[2], QStringLiteral("device: ") + gib(device));
    QCOMPARE(rows[4], QStringLiteral("balanced experts: ") + gib(balanced));
}

// No band, legend entry, marker or row anywhere.
void verifyNoBand(const MainWindow &w)
{
    QVERIFY(!w.controller()->balancedEstimate());
    for (const CurveView &view : curveViews(w)) {
        QVERIFY2(view.data->balancedBytes.empty(), view.name);
        for (const QString &name : legendNames(view.chart->plot()))
            QVERIFY2(!name.contains(QStringLiteral("imbalance")), qPrintable(name));
        for (double x : view.data->x) {
            QVERIFY(std::isnan(view.chart->balancedAt(x)));
            QVERIFY(std::isnan(view.chart->imbalancedAt(x)));
        }
    }
    QVERIFY(std::isnan(w.breakdownChart()->balancedValue()));
    QVERIFY(w.breakdownChart()->balancedText().isEmpty());
    QCOMPARE(w.breakdownChart()->measuredRows().size(), 4);
    QVERIFY(!w.breakdownChart()->measuredRows().join('\n').contains(QStringLiteral("balanced")));
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void firstStartTellsAStory();
    void controlsReestimate_data();
    void controlsReestimate();
    void capacityFollowsGpu();
    void unitToggle();
    void disabledControlsSayWhy();
    void inconsistentEditIsRefused();
    void curvesAndTimeline();
    void renderedChartsAreNotEmpty();
    void calibrateFromMyRun();
    void calibrationDialogRefusesImpossibleNumbers();
    void errorBandsAroundTheTotals();
    void presetListGroupsFamiliesBySize();
    void typingNarrowsThePresets_data();
    void typingNarrowsThePresets();
    void keyboardChoosesAPreset_data();
    void keyboardChoosesAPreset();
    void unmatchedTextChangesNothing_data();
    void unmatchedTextChangesNothing();
    void expertImbalanceEditsAndUndoes();
    void architectureSummary_data();
    void architectureSummary();
    void expertImbalanceBand();
    void noImbalanceBand_data();
    void noImbalanceBand();
    void imbalanceSpinBoxMovesTheBand();
    void undoKeysWinOverAFocusedEditor();
    void saveAsAndHelpKeys();
};

void TestMainWindow::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("vramplan-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_mainwindow"));
}

void TestMainWindow::firstStartTellsAStory()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(defaultScenario());
    const Estimate e = estimate(defaultScenario());
    QVERIFY(!e.fits); // the default does not fit: the knobs have a story to tell
    compareBars(w, defaultScenario());
    QVERIFY2(w.statusText().contains(QStringLiteral("does not fit")), qPrintable(w.statusText()));
    QVERIFY(w.statusText().contains(QStringLiteral("8.03 B parameters")));
}

void TestMainWindow::controlsReestimate_data()
{
    QTest::addColumn<QString>("control");
    QTest::newRow("micro-batch slider") << "micro-batch";
    QTest::newRow("sequence slider") << "sequence";
    QTest::newRow("GPU count slider") << "gpus";
    QTest::newRow("ZeRO stage") << "zero";
    QTest::newRow("precision") << "precision";
    QTest::newRow("optimizer") << "optimizer";
    QTest::newRow("recompute") << "recompute";
    QTest::newRow("attention") << "attention";
    QTest::newRow("LoRA") << "lora";
    QTest::newRow("mode") << "inference";
    QTest::newRow("preset") << "preset";
    QTest::newRow("model size slider") << "size";
}

void TestMainWindow::controlsReestimate()
{
    QFETCH(QString, control);
    MainWindow w;
    w.setUnit(Unit::GiB);
    Scenario start = defaultScenario();
    start.parallelism.gpus = 8;
    w.setScenario(start);
    ControlsPanel *c = w.controls();
    Scenario expected = start;
    if (control == "micro-batch") {
        c->microBatch()->spinBox()->setValue(4);
        expected.training.microBatchSize = 4;
    } else if (control == "sequence") {
        c->sequenceLength()->spinBox()->setValue(8192);
        expected.training.sequenceLength = 8192;
    } else if (control == "gpus") {
        c->gpuCount()->spinBox()->setValue(16);
        expected.parallelism.gpus = 16;
    } else if (control == "zero") {
        chooseData(c->zeroBox(), 3);
        expected.parallelism.zeroStage = 3;
    } else if (control == "precision") {
        chooseData(c->precisionBox(), int(Precision::Bf16));
        expected.training.precision = Precision::Bf16;
    } else if (control == "optimizer") {
        chooseData(c->optimizerBox(), int(Optimizer::Adamw8bit));
        expected.training.optimizer = Optimizer::Adamw8bit;
    } else if (control == "recompute") {
        chooseData(c->recomputeBox(), int(Recompute::Full));
        expected.training.recompute = Recompute::Full;
    } else if (control == "attention") {
        chooseData(c->attentionBox(), int(Attention::Eager));
        expected.training.attention = Attention::Eager;
    } else if (control == "lora") {
        chooseData(c->finetuneBox(), int(FinetuneMethod::Lora));
        expected.training.finetune.method = FinetuneMethod::Lora;
    } else if (control == "inference") {
        chooseData(c->modeBox(), int(Mode::Inference));
        expected.training.mode = Mode::Inference;
    } else if (control == "preset") {
        chooseData(c->presetBox(), QStringLiteral("llama-2-13b"));
        expected.model = scenarioFromJson({{"format", "vramplan-scenario"},
                                           {"model", {{"preset", "llama-2-13b"}}}})
                             .value->model;
    } else if (control == "size") {
        c->modelSize()->spinBox()->setValue(3.0); // billions of parameters
        expected.model = w.scenario().model;      // scaled by the core; checked for size below
        const double total = double(countParameters(expected.model).total);
        QVERIFY2(std::fabs(total - 3e9) < 0.1 * 3e9, qPrintable(QString::number(total)));
        QVERIFY(expected.model.preset.empty());
    }
    QCOMPARE(scenarioToJson(w.scenario()).dump(), scenarioToJson(expected).dump());
    compareBars(w, expected);
}

void TestMainWindow::capacityFollowsGpu()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(defaultScenario());
    chooseData(w.controls()->gpuBox(), QStringLiteral("a100-40gb"));
    QCOMPARE(w.breakdownChart()->capacityValue(), 40960.0 / 1024.0);
    QCOMPARE(w.scenario().gpu.preset, std::string("a100-40gb"));
    chooseData(w.controls()->gpuBox(), QStringLiteral("h200-141gb"));
    QCOMPARE(w.breakdownChart()->capacityValue(), 143771.0 / 1024.0);
}

void TestMainWindow::unitToggle()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    w.setUnit(Unit::GB);
    const Estimate e = estimate(defaultScenario());
    QCOMPARE(w.breakdownChart()->barValue(Component::Parameters), e.perGpu[0] / 1e9);
    QVERIFY(w.statusText().contains(QStringLiteral(" GB")));
    // Issue 21 #18: the GPU list and the usable memory follow too (H100: 81,559 MiB).
    auto *gpus = w.controls()->gpuBox();
    const int h100 = gpus->findData(QStringLiteral("h100-80gb"));
    QCOMPARE(gpus->itemText(h100), QStringLiteral("H100 80GB \u00b7 85.5 GB"));
    QCOMPARE(gpus->itemData(h100, Qt::ToolTipRole).toString(),
             QStringLiteral("H100 80GB (HBM3): 85.52 GB usable"));
    auto *capacity = qobject_cast<QDoubleSpinBox *>(w.controls()->controlFor("gpu.memory_gib"));
    QVERIFY(capacity);
    QCOMPARE(capacity->suffix(), QStringLiteral(" GB"));
    QCOMPARE(capacity->text(), QStringLiteral("85.52 GB"));
    w.setUnit(Unit::GiB);
    QCOMPARE(w.breakdownChart()->barValue(Component::Parameters), e.perGpu[0] / 1073741824.0);
    QCOMPARE(gpus->itemText(h100), QStringLiteral("H100 80GB \u00b7 79.6 GiB"));
    QCOMPARE(capacity->text(), QStringLiteral("79.65 GiB"));
}

void TestMainWindow::disabledControlsSayWhy()
{
    MainWindow w;
    Scenario s = defaultScenario();
    s.parallelism.gpus = 1;
    w.setScenario(s);
    ControlsPanel *c = w.controls();
    QVERIFY(!c->zeroBox()->isEnabled());
    QVERIFY(c->zeroBox()->toolTip().contains(QStringLiteral("data-parallel")));
    QVERIFY(!c->controlFor("parallelism.sequence_parallel")->isEnabled());
    QVERIFY(!c->controlFor("parallelism.virtual_pipeline_parallel")->isEnabled());
    QVERIFY(!c->controlFor("parallelism.expert_parallel")->isEnabled());
    QVERIFY(!c->controlFor("training.finetune.lora_rank")->isEnabled());
    // Tensor-parallel sizes that do not divide the 32 heads (or exceed the GPUs) are disabled.
    auto *model = qobject_cast<QStandardItemModel *>(c->tensorParallelBox()->model());
    QVERIFY(model);
    const int tp64 = c->tensorParallelBox()->findData(64);
    QVERIFY(!model->item(tp64)->isEnabled());
    QVERIFY(!model->item(tp64)->toolTip().isEmpty());

    c->gpuCount()->spinBox()->setValue(8);
    QVERIFY(c->zeroBox()->isEnabled());
    QVERIFY(model->item(c->tensorParallelBox()->findData(8))->isEnabled());

    chooseData(c->modeBox(), int(Mode::Inference));
    QVERIFY(!c->optimizerBox()->isEnabled());
    QVERIFY(!c->controlFor("training.gradient_accumulation_steps")->isEnabled());
    QVERIFY(c->optimizerBox()->toolTip().contains(QStringLiteral("training")));
}

void TestMainWindow::inconsistentEditIsRefused()
{
    MainWindow w;
    w.setScenario(defaultScenario()); // 32 heads, 8 KV heads
    QSignalSpy refused(w.controls(), &ControlsPanel::refused);
    // KV heads 5 cannot divide 32 heads: refused, nothing changes.
    const std::string before = scenarioToJson(w.scenario()).dump();
    const auto spins = w.controls()->findChildren<QSpinBox *>();
    QSpinBox *kv = nullptr;
    for (QSpinBox *s : spins)
        if (s->value() == 8 && s->maximum() == (1 << 14))
            kv = s;
    QVERIFY(kv);
    kv->setValue(5);
    QCOMPARE(refused.count(), 1);
    // What was refused, on which control, and the core's reason.
    QCOMPARE(refused.first().at(0).toString(),
             QStringLiteral("KV heads 5 refused: ") + QString::fromStdString(checkScenario([&] {
                 Scenario bad = w.scenario();
                 bad.model.kvHeads = 5;
                 bad.model.preset.clear();
                 return bad;
             }())));
    QCOMPARE(refused.first().at(1).value<QWidget *>(), static_cast<QWidget *>(kv));
    QCOMPARE(scenarioToJson(w.scenario()).dump(), before);
    QCOMPARE(kv->value(), 8);
}

void TestMainWindow::curvesAndTimeline()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    Scenario s = defaultScenario();
    s.training.finetune.method = FinetuneMethod::Lora;
    w.setScenario(s);
    const CurveData &batch = w.controller()->batchCurve();
    QVERIFY(batch.x.size() > 10);
    for (size_t i = 0; i < batch.x.size(); ++i) {
        Scenario at = s;
        at.training.microBatchSize = int64_t(batch.x[i]);
        QCOMPARE(w.batchChart()->totalAt(batch.x[i]), toUnit(estimate(at).peak.device, Unit::GiB));
    }
    QCOMPARE(w.batchChart()->currentMarker(), 1.0);
    QVERIFY(w.batchChart()->largestFittingMarker() >= 1);
    QVERIFY(w.sequenceChart()->largestFittingMarker() >= 4096);
    const Estimate e = estimate(s);
    int present = 0;
    for (const auto &phase : e.phases)
        present += phase.present ? 1 : 0;
    QCOMPARE(w.timelineChart()->phaseCount(), present);
    QVERIFY(w.timelineChart()->peakLabel().contains(QStringLiteral("peak")));
}

void TestMainWindow::renderedChartsAreNotEmpty()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(defaultScenario());
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("window.png"));
    QVERIFY(w.saveScreenshot(path));
    const QImage shot(path);
    QCOMPARE(shot.size(), QSize(1280, 800) * w.devicePixelRatio());
    // Pixels of each chart in a component's hue (areas may be drawn slightly translucent, so
    // compare hue and saturation rather than exact colours; green is optimizer states only).
    auto countColour = [](const QImage &image, const QColor &colour) {
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QColor p = image.pixelColor(x, y);
                const int dh = std::abs(p.hslHue() - colour.hslHue());
                n += p.hslSaturationF() > 0.25 && std::min(dh, 360 - dh) < 12 &&
                     std::abs(p.lightness() - colour.lightness()) < 40;
            }
        return n;
    };
    const QImage bars = w.breakdownChart()->grab().toImage();
    QVERIFY2(countColour(bars, componentColor(Component::OptimizerStates)) > 500,
             "no optimizer-state bar");
    QVERIFY2(countColour(bars, componentColor(Component::Parameters)) > 200, "no parameter bar");
    const QImage curve = w.batchChart()->grab().toImage();
    QVERIFY2(countColour(curve, componentColor(Component::OptimizerStates)) > 500,
             "empty batch curve");
    const QImage timeline = w.timelineChart()->grab().toImage();
    QVERIFY2(countColour(timeline, componentColor(Component::OptimizerStates)) > 500,
             "empty timeline");
}

// The user's measured reserved peak becomes the estimate, as one undoable step that marks the
// document modified and is saved with it; the status bar and the breakdown say so.
void TestMainWindow::calibrateFromMyRun()
{
    MainWindow w;
    const Scenario s = defaultScenario();
    w.setScenario(s);
    const double measuredGiB = 170.0;
    CalibrationDialog dialog(s, Unit::GiB);
    dialog.setMeasurement(MemoryMetric::Reserved, measuredGiB);
    QVERIFY(dialog.canAccept());
    QVERIFY2(dialog.resultText().startsWith(QStringLiteral("Fit: ")), qPrintable(dialog.resultText()));
    w.setCalibration(dialog.calibration());
    QVERIFY(w.isModified());
    QCOMPARE(w.scenario().calibration.metric, MemoryMetric::Reserved);
    const Estimate &e = w.controller()->estimate();
    QVERIFY(std::fabs(e.peak.reserved - measuredGiB * 1073741824.0) < 1.0);
    QVERIFY(w.statusText().contains(QStringLiteral("(calibrated to your run)")));
    // Undo restores the uncalibrated estimate and the clean document.
    w.undoStack()->undo();
    QVERIFY(!w.scenario().calibration.present);
    QVERIFY(!w.isModified());
    QCOMPARE(w.controller()->estimate().peak.reserved, estimate(s).peak.reserved);
    QVERIFY(!w.statusText().contains(QStringLiteral("calibrated")));
    // Saved with the scenario and read back.
    w.undoStack()->redo();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("calibrated.vramplan.json"));
    QVERIFY(w.saveTo(path));
    MainWindow reopened;
    QVERIFY(reopened.openFile(path));
    QVERIFY(reopened.scenario().calibration.present);
    QCOMPARE(reopened.controller()->estimate().peak.reserved, e.peak.reserved);
    // Clearing is another undoable edit.
    reopened.setCalibration({});
    QVERIFY(!reopened.scenario().calibration.present);
    QVERIFY(reopened.isModified());
}

void TestMainWindow::calibrationDialogRefusesImpossibleNumbers()
{
    CalibrationDialog dialog(defaultScenario(), Unit::GiB);
    dialog.setMeasurement(MemoryMetric::Allocated, 1.0);
    QVERIFY(!dialog.canAccept());
    QVERIFY2(dialog.resultText().startsWith(QStringLiteral("Cannot calibrate: the measured 1.00 "
                                                           "GiB is below")),
             qPrintable(dialog.resultText()));
    // The estimate itself needs no fit.
    const double modelled = estimate(defaultScenario()).peak.device / 1073741824.0;
    dialog.setMeasurement(MemoryMetric::Device, modelled);
    QVERIFY(dialog.canAccept());
}

// The likely range (validationErrorBand) brackets the totals on the bar and on every curve.
void TestMainWindow::errorBandsAroundTheTotals()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    const Estimate e = estimate(defaultScenario());
    const double device = e.peak.device / 1073741824.0;
    const auto [low, high] = w.breakdownChart()->likelyRange();
    QVERIFY(std::fabs(low - device * validationErrorBand.low) < 1e-9 * device);
    QVERIFY(std::fabs(high - device * validationErrorBand.high) < 1e-9 * device);
    QVERIFY(low < device && device < high);
    const CurveData &batch = w.controller()->batchCurve();
    for (size_t i = 0; i < batch.x.size(); ++i) {
        if (!batch.valid[i])
            continue;
        const double total = w.batchChart()->totalAt(batch.x[i]);
        QVERIFY(std::fabs(w.batchChart()->likelyHighAt(batch.x[i]) -
                          total * validationErrorBand.high) < 1e-9 * total);
    }
}

// The drop-down: "Custom" first, then each family under a header that cannot be chosen, its
// presets from the smallest, each with its size; every preset once.
void TestMainWindow::presetListGroupsFamiliesBySize()
{
    ControlsPanel panel;
    QComboBox *box = panel.presetBox();
    QCOMPARE(box->itemText(0), QStringLiteral("Custom"));
    auto *items = qobject_cast<QStandardItemModel *>(box->model());
    QVERIFY(items);
    QStringList ids, headers;
    double previous = 0;
    for (int i = 1; i < box->count(); ++i) {
        const QString id = box->itemData(i).toString();
        if (id.isEmpty()) { // a family header
            QVERIFY(!items->item(i)->isEnabled());
            headers << box->itemText(i);
            previous = 0;
            continue;
        }
        QVERIFY(items->item(i)->isEnabled());
        ids << id;
        const ModelConfig model = *presetModel(id.toStdString());
        const double total = double(countParameters(model).total);
        QVERIFY2(total >= previous, qPrintable(box->itemText(i)));
        previous = total;
        QVERIFY2(box->itemText(i).endsWith(QStringLiteral("(%1)").arg(presetSizeText(model))),
                 qPrintable(box->itemText(i)));
    }
    QCOMPARE(ids.size(), qsizetype(Catalog::builtin().presets().size()));
    QCOMPARE(QSet<QString>(ids.begin(), ids.end()).size(), ids.size());
    for (const char *family : {"DeepSeek", "Gemma", "Llama", "Qwen", "gpt"})
        QVERIFY2(headers.contains(QString::fromLatin1(family), Qt::CaseInsensitive), family);
    QCOMPARE(box->itemText(box->findData(QStringLiteral("llama-3.1-8b"))),
             QStringLiteral("Llama 3.1 8B (8.03 B)"));
    QCOMPARE(box->itemText(box->findData(QStringLiteral("qwen3-30b-a3b"))),
             QStringLiteral("Qwen3 30B-A3B (30.5 B, 3.35 B active)"));
}

void TestMainWindow::typingNarrowsThePresets_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QStringList>("shown");
    QTest::newRow("qwen3-3 (ids)") << "qwen3-3"
                                   << QStringList{"Qwen3 30B-A3B (30.5 B, 3.35 B active)",
                                                  "Qwen3 32B (32.8 B)"};
    QTest::newRow("gpt-oss") << "gpt-oss"
                             << QStringList{"gpt-oss-20b (20.9 B, 4.19 B active)",
                                            "gpt-oss-120b (117 B, 5.71 B active)"};
    QTest::newRow("DeepSeek, any case")
        << "DEEPSEEK"
        << QStringList{"DeepSeek-V2-Lite (15.7 B, 2.66 B active)",
                       "DeepSeek-V2 (236B) (236 B, 21.4 B active)",
                       "DeepSeek-V3 (671 B, 37.6 B active)",
                       "DeepSeek-V3.1 (671 B, 37.6 B active)",
                       "DeepSeek-V3.2 (672 B, 38.4 B active)"};
    QTest::newRow("70b") << "70b"
                         << QStringList{"Llama 2 70B (69.0 B)", "Llama 3.1 70B (70.6 B)",
                                        "Llama 3.3 70B Instruct (70.6 B)"};
    QTest::newRow("two words") << "qwen3 a2"
                               << QStringList{"Qwen3 235B-A22B (235 B, 22.2 B active)"};
    // Tags beside the name: Gated DeltaNet, Mamba2 or short-convolution layers ("hybrid"), a
    // vision tower ("vision"). Granite 4.0 Micro is all attention.
    QTest::newRow("hybrid tag") << "granite hybrid"
                                << QStringList{"Granite 4.0 H Tiny (6.94 B, 1.47 B active)",
                                               "Granite 4.0 H Small (32.2 B, 8.80 B active)"};
    QTest::newRow("vision tag") << "vision 8b"
                                << QStringList{"Qwen3.5 0.8B (853 M)", "Qwen3-VL 8B (8.77 B)"};
    QTest::newRow("nothing") << "no such model" << QStringList{};
}

void TestMainWindow::typingNarrowsThePresets()
{
    QFETCH(QString, typed);
    QFETCH(QStringList, shown);
    MainWindow w;
    w.setScenario(defaultScenario());
    typeIntoPicker(w, typed);
    PresetPicker *picker = w.controls()->presetPicker();
    QCOMPARE(picker->matches(), shown);
    QCOMPARE(picker->search()->popup()->isVisible(), !shown.isEmpty());
    QCOMPARE(picker->lineEdit()->text(), typed);
    // Typing alone changes nothing.
    QCOMPARE(w.undoStack()->count(), 0);
    QCOMPARE(w.scenario().model.preset, std::string("llama-3.1-8b"));
}

// Type, Down (to the first match), Enter; or type and Enter (the first match); Down twice; or
// a click on the second match.
void TestMainWindow::keyboardChoosesAPreset_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<int>("downs");
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QString>("parameters");
    QTest::newRow("down, enter") << "qwen3-3" << 1 << "qwen3-30b-a3b"
                                 << "30.5 B parameters";
    QTest::newRow("enter alone") << "deepseek-v3" << 0 << "deepseek-v3"
                                 << "671 B parameters";
    QTest::newRow("down twice") << "gpt-oss" << 2 << "gpt-oss-120b"
                                << "117 B parameters";
    QTest::newRow("click") << "llama 70" << -1 << "llama-3.1-70b"
                           << "70.6 B parameters";
}

void TestMainWindow::keyboardChoosesAPreset()
{
    QFETCH(QString, typed);
    QFETCH(int, downs);
    QFETCH(QString, preset);
    QFETCH(QString, parameters);
    MainWindow w;
    w.setScenario(defaultScenario());
    typeIntoPicker(w, typed);
    PresetPicker *picker = w.controls()->presetPicker();
    QAbstractItemView *popup = picker->search()->popup();
    QVERIFY(popup->isVisible());
    if (downs < 0) { // a click on the second match
        const QRect second = popup->visualRect(popup->model()->index(1, 0));
        QTest::mouseClick(popup->viewport(), Qt::LeftButton, {}, second.center());
    } else {
        for (int i = 0; i < downs; ++i)
            QTest::keyClick(popup, Qt::Key_Down);
        QTest::keyClick(popup, Qt::Key_Return);
    }
    QVERIFY(!popup->isVisible());

    // The default's name follows its settings: it names the new model now.
    Scenario expected = presetScenario(preset.toStdString());
    expected.name = generatedName(expected).toStdString();
    QCOMPARE(w.scenario().model.preset, preset.toStdString());
    QCOMPARE(scenarioToJson(w.scenario()).dump(), scenarioToJson(expected).dump());
    compareBars(w, expected);
    QVERIFY2(w.statusText().contains(parameters), qPrintable(w.statusText()));
    QCOMPARE(picker->currentData().toString(), preset);
    QCOMPARE(picker->lineEdit()->text(), picker->itemText(picker->currentIndex()));
    // One undo step, which goes back to the default.
    QCOMPARE(w.undoStack()->count(), 1);
    QVERIFY(w.isModified());
    w.undoStack()->undo();
    QCOMPARE(w.scenario().model.preset, std::string("llama-3.1-8b"));
    QCOMPARE(picker->currentData().toString(), QStringLiteral("llama-3.1-8b"));
    QVERIFY(!w.isModified());
}

// A text that matches no preset, ended by Enter, by Escape or by leaving the field, changes
// nothing, adds no entry, and the field shows the current choice again.
void TestMainWindow::unmatchedTextChangesNothing_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<QString>("end");
    QTest::newRow("no match, enter") << "zz-no-such-model" << "enter";
    QTest::newRow("no match, escape") << "zz-no-such-model" << "escape";
    QTest::newRow("no match, focus out") << "zz-no-such-model" << "focus";
    QTest::newRow("matches, escape") << "qwen" << "escape";
}

void TestMainWindow::unmatchedTextChangesNothing()
{
    QFETCH(QString, typed);
    QFETCH(QString, end);
    MainWindow w;
    w.setScenario(defaultScenario());
    const std::string before = scenarioToJson(w.scenario()).dump();
    PresetPicker *picker = w.controls()->presetPicker();
    const int entries = picker->count();
    const QString shown = picker->itemText(picker->currentIndex());
    QCOMPARE(shown, QStringLiteral("Llama 3.1 8B (8.03 B)"));
    typeIntoPicker(w, typed);
    QCOMPARE(picker->lineEdit()->text(), typed);
    QWidget *target = picker->search()->popup()->isVisible() ? picker->search()->popup()
                                                             : static_cast<QWidget *>(picker);
    if (end == "enter")
        QTest::keyClick(target, Qt::Key_Return);
    else if (end == "escape")
        QTest::keyClick(target, Qt::Key_Escape);
    else
        w.controls()->microBatch()->spinBox()->setFocus();
    QVERIFY(!picker->search()->popup()->isVisible());
    QCOMPARE(scenarioToJson(w.scenario()).dump(), before);
    QCOMPARE(w.undoStack()->count(), 0);
    QCOMPARE(picker->count(), entries);
    QCOMPARE(picker->findText(typed), -1);
    QCOMPARE(picker->lineEdit()->text(), shown);
}

// The expert load imbalance of a MoE model under expert parallelism: one undoable edit that
// keeps the preset; disabled, with the reason, where it cannot apply.
void TestMainWindow::expertImbalanceEditsAndUndoes()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    Scenario s = presetScenario("qwen3-30b-a3b");
    s.parallelism.gpus = 8;
    s.parallelism.expertParallel = 8;
    s.parallelism.zeroStage = 3;
    w.setScenario(s);
    QDoubleSpinBox *imbalance = w.controls()->imbalanceBox();
    QCOMPARE(w.controls()->controlFor("model.moe.imbalance"), imbalance);
    QVERIFY(imbalance->isEnabled());
    QVERIFY(imbalance->toolTip().contains(QStringLiteral("balanced share")));
    QCOMPARE(imbalance->value(), 1.0);
    QCOMPARE(imbalance->minimum(), 1.0);
    QCOMPARE(imbalance->maximum(), 8.0);
    QCOMPARE(imbalance->singleStep(), 0.1);
    const double before = w.controller()->estimate().peak.device;

    imbalance->setValue(2.5);
    Scenario expected = s;
    expected.model.moe.imbalance = 2.5;
    QCOMPARE(w.scenario().model.moe.imbalance, 2.5);
    QCOMPARE(w.scenario().model.preset, std::string("qwen3-30b-a3b")); // still the preset
    QCOMPARE(scenarioToJson(w.scenario()).dump(), scenarioToJson(expected).dump());
    compareBars(w, expected);
    QVERIFY(w.controller()->estimate().peak.device > before);
    QVERIFY(w.isModified());
    QCOMPARE(w.undoStack()->count(), 1);

    w.undoStack()->undo();
    QCOMPARE(w.scenario().model.moe.imbalance, 1.0);
    QCOMPARE(imbalance->value(), 1.0);
    QCOMPARE(w.controller()->estimate().peak.device, before);
    QVERIFY(!w.isModified());
    w.undoStack()->redo();
    QCOMPARE(imbalance->value(), 2.5);

    // One expert-parallel rank: every routed token stays, whatever the balance.
    Scenario oneRank = s;
    oneRank.parallelism.expertParallel = 1;
    w.setScenario(oneRank);
    QVERIFY(!imbalance->isEnabled());
    QVERIFY(imbalance->toolTip().contains(QStringLiteral("expert parallelism")));
    // A dense model has no experts: every MoE field is disabled and says so.
    w.setScenario(defaultScenario());
    for (const char *field :
         {"model.moe.imbalance", "model.moe.shared_experts", "model.moe.dense_layers"}) {
        QWidget *control = w.controls()->controlFor(QString::fromLatin1(field));
        QVERIFY2(control && !control->isEnabled(), field);
        QVERIFY2(control->toolTip().contains(QStringLiteral("dense model")), field);
    }
}

void TestMainWindow::architectureSummary_data()
{
    QTest::addColumn<QString>("preset");
    QTest::addColumn<QStringList>("lines");
    QTest::newRow("deepseek-v3")
        << "deepseek-v3"
        << QStringList{"MLA: kv rank 512 + rope 64, q rank 1536", "Experts in 58 of 61 layers",
                       "1 MTP layer in the checkpoint only"};
    QTest::newRow("deepseek-v2-lite")
        << "deepseek-v2-lite"
        << QStringList{"MLA: kv rank 512 + rope 64, full-rank q", "Experts in 26 of 27 layers"};
    QTest::newRow("llama") << "llama-3.1-8b" << QStringList{};
    QTest::newRow("qwen3") << "qwen3-8b" << QStringList{"q/k RMSNorm per head"};
    QTest::newRow("gpt-oss")
        << "gpt-oss-20b"
        << QStringList{"12 of 24 layers slide over 128 tokens",
                       "Attention sinks (a learned logit per head)"};
    QTest::newRow("gemma 2") << "gemma-2-9b"
                             << QStringList{"21 of 42 layers slide over 4096 tokens",
                                            "Soft-capping: attention 50, logits 30"};
}

void TestMainWindow::architectureSummary()
{
    QFETCH(QString, preset);
    QFETCH(QStringList, lines);
    MainWindow w;
    w.setScenario(presetScenario(preset.toStdString()));
    QLabel *summary = w.controls()->architectureSummary();
    QCOMPARE(summary->text(), lines.join(QLatin1Char('\n')));
    QCOMPARE(summary->isVisibleTo(w.controls()), !lines.isEmpty());
    // The summary follows the scenario through an edit and its undo.
    chooseData(w.controls()->presetBox(), QStringLiteral("deepseek-v3"));
    QVERIFY(summary->isVisibleTo(w.controls()));
    QVERIFY(summary->text().startsWith(QStringLiteral("MLA: kv rank 512 + rope 64, q rank 1536")));
    if (preset != "deepseek-v3") {
        w.undoStack()->undo();
        QCOMPARE(summary->text(), lines.join(QLatin1Char('\n')));
        QCOMPARE(summary->isVisibleTo(w.controls()), !lines.isEmpty());
    }
}

// Qwen3-30B-A3B, EP 8, imbalance 2: each chart shows how much of its memory is the imbalance.
void TestMainWindow::expertImbalanceBand()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    const Scenario s = imbalancedMoe(2.0);
    w.setScenario(s);
    verifyBand(w, s);
    // Drawn, in the window and in an export: the band's teal hatching is on the batch curve.
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    // Pixels in the band's teal (0x00838f), which no component, marker or veil uses, once the
    // queued replots are done.
    auto teal = [](QWidget *chart) {
        QCoreApplication::processEvents();
        const QImage image = chart->grab().toImage();
        int n = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x) {
                const QColor p = image.pixelColor(x, y);
                n += p.red() < 40 && p.green() > 110 && p.green() < 160 &&
                     std::abs(p.green() - p.blue()) < 20;
            }
        return n;
    };
    const int drawn = teal(w.batchChart());
    QVERIFY2(drawn > 200, qPrintable(QString::number(drawn)));
    QVERIFY(teal(w.breakdownChart()) > 50); // the marker and its label
    w.setScenario(imbalancedMoe(1.0));
    QCOMPARE(teal(w.batchChart()), 0);
    QCOMPARE(teal(w.breakdownChart()), 0);
    w.setScenario(s);
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("batch.svg"));
    QCOMPARE(w.exportChart(QStringLiteral("batch"), svg), QString());
    const std::string text = vramplan::test::readFile(svg);
    QVERIFY(text.find("Expert imbalance 1") != std::string::npos);
    QVERIFY(text.find("00838f") != std::string::npos);
}

// Nothing to show: a dense model, balanced routing, or an imbalance that changes no total (one
// expert-parallel rank keeps every routed token whatever the balance).
void TestMainWindow::noImbalanceBand_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::newRow("dense model") << "dense";
    QTest::newRow("imbalance 1.0") << "balanced";
    QTest::newRow("changes nothing (EP 1)") << "ep1";
}

void TestMainWindow::noImbalanceBand()
{
    QFETCH(QString, scenario);
    Scenario s = defaultScenario();
    if (scenario == "balanced")
        s = imbalancedMoe(1.0);
    else if (scenario == "ep1")
        s = imbalancedMoe(2.0, 1);
    if (scenario == "ep1") // the premise: the totals are equal
        QCOMPARE(estimate(s).peak.device, estimate(withImbalance(s, 1.0)).peak.device);
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(s);
    verifyNoBand(w);
    // Nor after a scenario that had one.
    w.setScenario(imbalancedMoe(2.0));
    QVERIFY(w.controller()->balancedEstimate());
    w.setScenario(s);
    verifyNoBand(w);
}

// The spin box moves the band's upper edge (the lower one is balanced routing whatever the
// imbalance); back at 1.0 the band is gone, and undo brings it back.
void TestMainWindow::imbalanceSpinBoxMovesTheBand()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    const Scenario s = imbalancedMoe(2.0);
    w.setScenario(s);
    QDoubleSpinBox *imbalance = w.controls()->imbalanceBox();
    QVERIFY(imbalance->isEnabled());
    QCOMPARE(imbalance->value(), 2.0);
    const double x = double(s.training.microBatchSize); // always a sample
    const double lowBefore = w.batchChart()->balancedAt(x);
    const double highBefore = w.batchChart()->imbalancedAt(x);

    imbalance->setValue(3.0);
    QCOMPARE(w.scenario().model.moe.imbalance, 3.0);
    verifyBand(w, withImbalance(s, 3.0));
    QCOMPARE(w.batchChart()->balancedAt(x), lowBefore);
    QVERIFY(w.batchChart()->imbalancedAt(x) > highBefore);

    imbalance->setValue(1.0);
    verifyNoBand(w);
    w.undoStack()->undo();
    QCOMPARE(imbalance->value(), 3.0);
    verifyBand(w, withImbalance(s, 3.0));
}

// The default scenario in a window shown at 1280x800 and active, as key presses need it.
static bool showActive(MainWindow &w)
{
    w.setScenario(defaultScenario());
    w.resize(1280, 800);
    w.show();
    w.activateWindow();
    return QTest::qWaitForWindowActive(&w);
}

// Issue 21 #2: with the cursor still in a spin box or a line edit (as after typing a value),
// Ctrl+Z undoes the document's last step, as Edit > Undo does, not the editor's typing. A value
// typed but not yet entered is taken first: Ctrl+Z then puts back what the control showed before
// the typing, and Redo brings the typed value back.
void TestMainWindow::undoKeysWinOverAFocusedEditor()
{
    MainWindow w;
    QVERIFY(showActive(w));
    const QKeySequence undo(QKeySequence::Undo), redo(QKeySequence::Redo);
    QVERIFY(!undo.isEmpty() && !redo.isEmpty());
    QDoubleSpinBox *spin = w.controls()->microBatch()->spinBox();
    const int64_t before = w.scenario().training.microBatchSize;
    spin->setFocus();
    QTRY_VERIFY(spin->hasFocus());

    // Typed and entered: the cursor stays in the box.
    spin->selectAll();
    QTest::keyClicks(spin, QStringLiteral("4"));
    QTest::keyClick(spin, Qt::Key_Return);
    QCOMPARE(w.scenario().training.microBatchSize, int64_t(4));
    QTest::keySequence(spin, undo);
    QCOMPARE(w.scenario().training.microBatchSize, before);
    QCOMPARE(spin->value(), double(before));
    QTest::keySequence(spin, redo);
    QCOMPARE(w.scenario().training.microBatchSize, int64_t(4));
    QCOMPARE(spin->value(), 4.0);

    // Typed, not entered.
    spin->selectAll();
    QTest::keyClicks(spin, QStringLiteral("8"));
    QCOMPARE(w.scenario().training.microBatchSize, int64_t(4)); // not taken yet
    QTest::keySequence(spin, undo);
    QCOMPARE(w.scenario().training.microBatchSize, int64_t(4));
    QCOMPARE(spin->text(), QStringLiteral("4"));
    QTest::keySequence(spin, redo);
    QCOMPARE(w.scenario().training.microBatchSize, int64_t(8));

    // A line edit: the scenario's name.
    QLineEdit *name = w.controls()->nameField();
    const std::string generated = w.scenario().name;
    name->setFocus();
    QTRY_VERIFY(name->hasFocus());
    QTest::keyClicks(name, QStringLiteral("my run"));
    QTest::keyClick(name, Qt::Key_Return);
    QCOMPARE(w.scenario().name, std::string("my run"));
    QTest::keySequence(name, undo);
    QCOMPARE(w.scenario().name, generated);
    QCOMPARE(name->text(), QString()); // empty: the name follows the settings again
    QTest::keySequence(name, undo);    // then the step before it
    QCOMPARE(w.scenario().training.microBatchSize, int64_t(4));
}

// Issue 21 #23: Ctrl+Shift+S is Save As and F1 opens the help, on every desktop (the generic
// X11 key bindings have neither).
void TestMainWindow::saveAsAndHelpKeys()
{
    MainWindow w;
    QVERIFY(showActive(w));
    QTest::keyClick(&w, Qt::Key_F1);
    // The guide (issue 21): a window of its own, not a message box.
    auto *guide = w.findChild<GuideWindow *>();
    QVERIFY(guide && guide->isVisible());
    Dialogs::scriptFileName(QString()); // cancelled
    QTest::keyClick(&w, Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(Dialogs::lastAsked().caption, QStringLiteral("Save scenario"));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
