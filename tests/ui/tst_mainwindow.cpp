// The planner window, offscreen: moving each control changes the charts to exactly what the
// core estimates for the edited scenario; the capacity line follows the GPU; controls that
// cannot apply are disabled with a reason; the rendered charts are not empty.

#include "breakdownchart.h"
#include "calibration.h"
#include "calibrationdialog.h"
#include "catalog.h"
#include "componentstyle.h"
#include "controlspanel.h"
#include "curvechart.h"
#include "estimate.h"
#include "logslider.h"
#include "mainwindow.h"
#include "plancontroller.h"
#include "scenario_json.h"
#include "testhelpers.h"
#include "timelinechart.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QImage>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

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
    w.setUnit(Unit::GiB);
    QCOMPARE(w.breakdownChart()->barValue(Component::Parameters), e.perGpu[0] / 1073741824.0);
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
    QVERIFY(refused.first().first().toString().startsWith(QStringLiteral("model.kv_heads")));
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

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
