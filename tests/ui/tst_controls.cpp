// The controls and the document (issue 11): a name that follows the settings until the user
// gives one (1), a wheel that scrolls the panel rather than edit an unfocused control (7), a
// refusal that names the control edited (11), inference without training's knobs (14), undo
// steps named for the field (15), a tooltip on every control and choice (15), a quiet rename in
// Compare, entries named by their scenario and loaded back into the editor (15), a calibration
// fit that reads well and is never clipped (9).

#include "charts/breakdowntooltip.h"
#include "formats/comparison.h"
#include "formats/estimate_json.h"
#include "panels/batchgroup.h"
#include "panels/presetpicker.h"
#include "panels/warningmarks.h"
#include "document/scenarioname.h"
#include "panels/calibrationdialog.h"
#include "panels/comparisonview.h"
#include "panels/controlspanel.h"
#include "panels/logslider.h"
#include "panels/statusline.h"
#include "plancontroller.h"
#include "uitesting.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDomDocument>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenuBar>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolTip>
#include <QUndoStack>
#include <QWheelEvent>

using namespace vramplan;
using namespace vramplan::ui;
using namespace vramplan::test;

namespace {

void chooseData(QComboBox *box, const QVariant &data)
{
    const int index = box->findData(data);
    QVERIFY2(index >= 0, qPrintable(data.toString()));
    box->setCurrentIndex(index);
}

QAction *menuAction(const QMainWindow &w, const QString &text)
{
    for (QAction *action : w.findChildren<QAction *>())
        if (action->text() == text)
            return action;
    return nullptr;
}

// The Edit menu's undo action as the user reads it.
QString undoText(const QMainWindow &w)
{
    for (QAction *action : w.menuBar()->actions())
        if (action->text() == QStringLiteral("&Edit"))
            return action->menu()->actions().first()->text();
    return {};
}

void typeName(QLineEdit *field, const QString &text)
{
    field->setText(text);
    emit field->editingFinished();
}

// A wheel turned over `widget`, delivered as QApplication delivers the real one.
void wheel(QWidget *widget, int degrees)
{
    const QPointF at(widget->width() / 2.0, widget->height() / 2.0);
    QWheelEvent event(at, widget->mapToGlobal(at), QPoint(), QPoint(0, degrees * 8), Qt::NoButton,
                      Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &event);
}

} // namespace

class TestControls : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("vramplan-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_controls"));
    }
    void generatedNamesMatchTheBundledOnes();
    void nameFollowsTheSettings();
    void typedNameStays();
    void wheelScrollsThePanel();
    void refusalNamesTheFieldEdited();
    void inferenceLeavesTrainingOut();
    void undoStepsNameTheField();
    void trainingStackControls();
    void everyControlSaysWhatItDoes();
    void renameInCompareIsQuiet();
    void comparedFilesAreNamedByTheirScenario();
    void entryLoadsBackIntoTheEditor();
    void calibrationFitReadsWell();
    void calibrationTextIsNeverClipped();
    void warningsReachTheControls_data();
    void warningsReachTheControls();
    void refusedKeysAreSaid();
    void newSizeSaysWhatItRescaled();
    void sequenceDragSnaps_data();
    void sequenceDragSnaps();
    void tooltipWorksThisRunsNumbers();
    void optimizerPrecisionControls();
};

void TestControls::generatedNamesMatchTheBundledOnes()
{
    for (const Scenario &s : {defaultScenario(), screenshotScenario()}) {
        QCOMPARE(generatedName(s), QString::fromStdString(s.name));
        QVERIFY(followsSettings(s));
    }
    // Written by hand (this one leaves out its 2k context and its recomputation): kept.
    for (const char *name : {"llama-3.1-405b-rtx4090", "llama-2-7b-zero3-4gpu"})
        QVERIFY2(!followsSettings(dataScenario(QString::fromLatin1(name))), name);
}

// Switching the default to LoRA on 8 GPUs renames it: the title, a comparison entry and an
// exported chart's title all say so.
void TestControls::nameFollowsTheSettings()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    chooseData(w.controls()->finetuneBox(), int(FinetuneMethod::Lora));
    w.controls()->gpuCount()->spinBox()->setValue(8);
    const QString name =
        QStringLiteral("Llama-3.1-8B, LoRA on q_proj, v_proj, bf16 mixed, AdamW, 8 x H100-80GB");
    QCOMPARE(QString::fromStdString(w.scenario().name), name);
    QCOMPARE(w.windowTitle(), name + QStringLiteral("[*] - vramplan"));
    // The field shows it greyed, as what the settings make.
    QCOMPARE(w.controls()->nameField()->text(), QString());
    QCOMPARE(w.controls()->nameField()->placeholderText(), name);

    menuAction(w, QStringLiteral("&Add Current Scenario"))->trigger();
    QCOMPARE(QString::fromStdString(w.comparisonView()->comparison().entries.at(0).label), name);
    QTemporaryDir dir;
    const QString svg = dir.filePath(QStringLiteral("batch.svg"));
    QCOMPARE(w.exportChart(QStringLiteral("batch"), svg), QString());
    QDomDocument doc;
    doc.setContent(QByteArray::fromStdString(readFile(svg)));
    QCOMPARE(doc.elementsByTagName(QStringLiteral("title")).at(0).toElement().text(),
             name + QStringLiteral(": Memory vs micro-batch"));

    // Undo goes back to the old name with the old settings.
    w.undoStack()->undo();
    QCOMPARE(
        QString::fromStdString(w.scenario().name),
        QStringLiteral("Llama-3.1-8B, LoRA on q_proj, v_proj, bf16 mixed, AdamW, 1 x H100-80GB"));
}

// A name the user types stays through edits; clearing the field hands it back to the settings.
void TestControls::typedNameStays()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    QLineEdit *field = w.controls()->nameField();
    typeName(field, QStringLiteral("Baseline"));
    QCOMPARE(w.scenario().name, std::string("Baseline"));
    QCOMPARE(w.windowTitle(), QStringLiteral("Baseline[*] - vramplan"));
    QCOMPARE(undoText(w), QStringLiteral("Undo Change name"));
    w.controls()->gpuCount()->spinBox()->setValue(4);
    QCOMPARE(w.scenario().name, std::string("Baseline"));
    QCOMPARE(field->text(), QStringLiteral("Baseline"));
    typeName(field, QString());
    QCOMPARE(QString::fromStdString(w.scenario().name),
             QStringLiteral("Llama-3.1-8B, full fine-tune, bf16 mixed, AdamW, 4 x H100-80GB"));
    QCOMPARE(field->text(), QString());
    w.controls()->gpuCount()->spinBox()->setValue(2);
    QCOMPARE(QString::fromStdString(w.scenario().name),
             QStringLiteral("Llama-3.1-8B, full fine-tune, bf16 mixed, AdamW, 2 x H100-80GB"));
}

// A wheel over the GPU count the user has not clicked into scrolls the panel and leaves the
// count; once the box has focus, the wheel steps it.
void TestControls::wheelScrollsThePanel()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    QVERIFY(showAt(w, QSize(1280, 800)));
    QVERIFY(QTest::qWaitForWindowActive(&w));
    auto *scroll = w.findChild<QScrollArea *>();
    QVERIFY(scroll);
    QScrollBar *bar = scroll->verticalScrollBar();
    QVERIFY(bar->maximum() > 0);
    const std::string before = scenarioToJson(w.scenario()).dump();
    const int steps = w.undoStack()->count();

    QList<QWidget *> controls;
    for (QAbstractSpinBox *box : w.controls()->findChildren<QAbstractSpinBox *>())
        controls << box;
    for (QSlider *slider : w.controls()->findChildren<QSlider *>())
        controls << slider;
    for (QComboBox *box : w.controls()->findChildren<QComboBox *>())
        controls << box;
    for (QWidget *control : controls) {
        if (!control->isEnabled())
            continue;
        QCOMPARE(control->focusPolicy(), Qt::StrongFocus); // a wheel gives no focus
        bar->setValue(bar->maximum() / 2);
        wheel(control, -15);
        QVERIFY2(bar->value() > bar->maximum() / 2,
                 qPrintable(QStringLiteral("%1 %2 focus %3 bar %4 of %5")
                                .arg(control->metaObject()->className(),
                                     ControlGroup::label(control->parentWidget()))
                                .arg(control->hasFocus())
                                .arg(bar->value())
                                .arg(bar->maximum())));
        wheel(control, 15);
        // What the wheel hit is a child of a control for some (a spin box's line edit).
        QVERIFY(!control->hasFocus());
    }
    QCOMPARE(scenarioToJson(w.scenario()).dump(), before);
    QCOMPARE(w.undoStack()->count(), steps);

    QDoubleSpinBox *gpus = w.controls()->gpuCount()->spinBox();
    gpus->setFocus();
    QVERIFY(gpus->hasFocus());
    wheel(gpus, 15);
    QCOMPARE(w.scenario().parallelism.gpus, int64_t(2));
}

// Seven attention heads with eight KV heads: refused, saying so on the heads box, which snaps
// back.
void TestControls::refusalNamesTheFieldEdited()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    QVERIFY(showAt(w, QSize(1280, 800)));
    auto *heads = qobject_cast<QSpinBox *>(w.controls()->controlFor("model.attention_heads"));
    QVERIFY(heads);
    QSignalSpy refused(w.controls(), &ControlsPanel::refused);
    Scenario bad = w.scenario();
    bad.model.attentionHeads = 7;
    bad.model.preset.clear();
    const QString why = QString::fromStdString(checkScenario(bad));
    QVERIFY(!why.isEmpty());
    heads->setValue(7);
    const QString message = QStringLiteral("Attention heads 7 refused: ") + why;
    QCOMPARE(refused.count(), 1);
    QCOMPARE(refused.first().at(0).toString(), message);
    QCOMPARE(refused.first().at(1).value<QWidget *>(), static_cast<QWidget *>(heads));
    QCOMPARE(w.statusBar()->currentMessage(), message);
    QCOMPARE(QToolTip::text(), message); // at the heads box
    QCOMPARE(heads->value(), 32);
    QCOMPARE(w.undoStack()->count(), 0);
}

// In inference nothing trains: the training-only knobs are off, saying why, and the status bar
// counts no trainable parameters.
void TestControls::inferenceLeavesTrainingOut()
{
    MainWindow w;
    Scenario s = defaultScenario();
    s.training.finetune.method = FinetuneMethod::Lora;
    w.setScenario(s);
    ControlsPanel *c = w.controls();
    QVERIFY(c->finetuneBox()->isEnabled());
    QVERIFY(c->controlFor("training.finetune.lora_rank")->isEnabled());
    chooseData(c->modeBox(), int(Mode::Inference));
    const QString why = QStringLiteral("Applies to training only (the mode is inference)");
    for (const char *field :
         {"training.finetune.method", "training.finetune.lora_rank",
          "training.finetune.lora_targets", "training.finetune.base_weight_bits",
          "training.optimizer", "training.gradient_accumulation_steps",
          "training.activation_recompute", "training.recompute_layers", "parallelism.zero_stage",
          "parallelism.offload_optimizer", "parallelism.offload_parameters"}) {
        QWidget *control = c->controlFor(QString::fromLatin1(field));
        QVERIFY2(control, field);
        QVERIFY2(!control->isEnabled(), field);
        QCOMPARE(control->toolTip(), why);
    }
    QCOMPARE(w.statusLine()->countsLabel()->text(), QStringLiteral("8.03 B parameters"));
    w.undoStack()->undo();
    QVERIFY(c->finetuneBox()->isEnabled());
    QVERIFY(w.statusLine()->countsLabel()->text().contains(QStringLiteral("trainable")));
}

// The training stack (docs/training_stacks.md): each control edits its field as one named undo
// step, the estimate follows, and a release the parser refuses is refused on the field.
void TestControls::trainingStackControls()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    ControlsPanel *c = w.controls();
    auto *compile = qobject_cast<QCheckBox *>(c->controlFor("training.compile"));
    auto *compileLoss = qobject_cast<QCheckBox *>(c->controlFor("training.compile_loss"));
    QVERIFY(compile && compileLoss);
    QVERIFY(!compileLoss->isEnabled());
    QCOMPARE(compileLoss->toolTip(), QStringLiteral("Applies when the step is compiled"));
    const double eagerPeak = w.controller()->estimate().peak.allocated;
    compile->setChecked(true);
    QCOMPARE(undoText(w), QStringLiteral("Undo Change compile"));
    QVERIFY(w.scenario().training.compile);
    QVERIFY(compileLoss->isEnabled());
    QVERIFY(w.controller()->estimate().peak.allocated < eagerPeak);
    chooseData(qobject_cast<QComboBox *>(c->controlFor("training.loss")),
               int(LossKind::FusedLinear));
    QCOMPARE(undoText(w), QStringLiteral("Undo Change loss"));
    QCOMPARE(w.scenario().training.loss, LossKind::FusedLinear);
    chooseData(qobject_cast<QComboBox *>(c->controlFor("training.loop")),
               int(TrainingLoop::Trainer));
    QCOMPARE(w.scenario().training.loop, TrainingLoop::Trainer);

    auto *release = qobject_cast<QLineEdit *>(c->controlFor("framework_version"));
    QVERIFY(release);
    QCOMPARE(release->placeholderText(), QStringLiteral("current release"));
    release->setText(QStringLiteral("transformers 4.45.2"));
    emit release->editingFinished();
    QCOMPARE(undoText(w), QStringLiteral("Undo Change framework release"));
    QCOMPARE(w.scenario().frameworkVersion.minor, 45);
    QCOMPARE(release->text(), QStringLiteral("4.45.2"));
    QSignalSpy refused(c, &ControlsPanel::refused);
    release->setText(QStringLiteral("latest"));
    emit release->editingFinished();
    QCOMPARE(refused.count(), 1);
    const QString why = QStringLiteral("Release latest refused: framework_version: expected a "
                                       "release such as \"4.57\" or \"transformers 4.57\"");
    QCOMPARE(refused.first().at(0).toString(), why);
    // Issue 21 #22: the refused text stays for correction, marked, saying why; the scenario
    // keeps its release, and another edit leaves the text there.
    QCOMPARE(release->text(), QStringLiteral("latest"));
    QCOMPARE(release->styleSheet(), QStringLiteral("border: 2px solid #c62828"));
    QCOMPARE(release->toolTip(), why);
    QCOMPARE(w.scenario().frameworkVersion.minor, 45);
    c->microBatch()->spinBox()->setValue(2);
    QCOMPARE(release->text(), QStringLiteral("latest"));
    QCOMPARE(release->toolTip(), why);
    release->setText(QStringLiteral("4.46"));
    emit release->editingFinished();
    QCOMPARE(w.scenario().frameworkVersion.minor, 46);
    QCOMPARE(release->text(), QStringLiteral("4.46"));
    QCOMPARE(release->styleSheet(), QString());

    // torchao's float8 all-gather: disabled with its reason until the scenario is fp8 under
    // FSDP2 full shard, then one named undo step that lowers the peak.
    auto *float8 = qobject_cast<QCheckBox *>(c->controlFor("parallelism.fsdp_float8_all_gather"));
    QVERIFY(float8);
    QVERIFY(!float8->isEnabled());
    QCOMPARE(float8->toolTip(),
             QStringLiteral("Applies to fp8 mixed precision under FSDP2 full shard (ZeRO stage 3 "
                            "over more than one data-parallel rank)"));
    Scenario fp8 = defaultScenario();
    fp8.framework = Framework::Torchtitan;
    fp8.training.precision = Precision::Fp8Mixed;
    fp8.parallelism.gpus = 8;
    fp8.parallelism.zeroStage = 3;
    w.setScenario(fp8);
    QVERIFY(float8->isEnabled());
    QVERIFY(!float8->isChecked());
    const double bf16Gather = w.controller()->estimate().peak.allocated;
    float8->setChecked(true);
    QCOMPARE(undoText(w), QStringLiteral("Undo Change float8 all-gather"));
    QVERIFY(w.scenario().parallelism.fsdpFloat8AllGather);
    QVERIFY(w.controller()->estimate().peak.allocated < bf16Gather);
}

// Issue 22: the optimizer's precision (SPEC §3 training.optimizer_precision) from the window:
// one undo step each, both moments from the states' box, the estimate's states shrinking; a
// framework without it marks the box with the estimator's warning.
void TestControls::optimizerPrecisionControls()
{
    MainWindow w;
    Scenario s = defaultScenario();
    s.framework = Framework::Megatron;
    w.setScenario(s);
    ControlsPanel *c = w.controls();
    auto *states =
        qobject_cast<QComboBox *>(c->controlFor("training.optimizer_precision.exp_avg"));
    auto *master =
        qobject_cast<QComboBox *>(c->controlFor("training.optimizer_precision.master_weights"));
    auto *gradients =
        qobject_cast<QComboBox *>(c->controlFor("training.optimizer_precision.gradients"));
    QVERIFY(states && master && gradients);
    QCOMPARE(states->currentText(), QStringLiteral("auto"));
    const double before = w.controller()->estimate().componentBytes(Component::OptimizerStates);
    chooseData(states, int(StateDtype::Bf16));
    QCOMPARE(undoText(w), QStringLiteral("Undo Change optimizer states dtype"));
    QCOMPARE(w.scenario().training.optimizerPrecision.expAvg, StateDtype::Bf16);
    QCOMPARE(w.scenario().training.optimizerPrecision.expAvgSq, StateDtype::Bf16);
    // AdamW's two fp32 moments (8 of the 12 bytes per parameter with the master copy) halve.
    const double after = w.controller()->estimate().componentBytes(Component::OptimizerStates);
    QVERIFY(test::relativelyClose(after, before * 8.0 / 12.0, 1e-9));
    chooseData(master, int(MasterDtype::Fp16));
    QCOMPARE(undoText(w), QStringLiteral("Undo Change master weights dtype"));
    chooseData(gradients, int(GradientDtype::Bf16));
    QCOMPARE(undoText(w), QStringLiteral("Undo Change gradients dtype"));
    QCOMPARE(w.scenario().training.optimizerPrecision.gradients, GradientDtype::Bf16);
    w.undoStack()->undo();
    w.undoStack()->undo();
    w.undoStack()->undo();
    QVERIFY(!w.scenario().training.optimizerPrecision.present());
    QCOMPARE(states->currentText(), QStringLiteral("auto"));

    // LitGPT has no precision-aware optimizer: the box says so, as the estimate's warning.
    s.framework = Framework::Litgpt;
    s.training.optimizerPrecision.expAvg = s.training.optimizerPrecision.expAvgSq =
        StateDtype::Bf16;
    w.setScenario(s);
    QVERIFY2(states->toolTip().startsWith(
                 QStringLiteral("\u26a0 litgpt has no precision-aware optimizer (16-bit or fp8 "
                                "master weights, gradients or states)")),
             qPrintable(states->toolTip()));
    // Inference: off, saying why.
    s.training.mode = Mode::Inference;
    s.training.optimizerPrecision = {};
    w.setScenario(s);
    QVERIFY(!states->isEnabled());
}

void TestControls::undoStepsNameTheField()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    ControlsPanel *c = w.controls();
    c->microBatch()->spinBox()->setValue(4);
    QCOMPARE(undoText(w), QStringLiteral("Undo Change micro-batch"));
    chooseData(c->precisionBox(), int(Precision::Bf16));
    QCOMPARE(undoText(w), QStringLiteral("Undo Change precision"));
    chooseData(c->zeroBox(), 0);
    c->gpuCount()->spinBox()->setValue(8);
    chooseData(c->zeroBox(), 3);
    QCOMPARE(undoText(w), QStringLiteral("Undo Change ZeRO / FSDP stage"));
    // One slider drag, one step.
    QAbstractSlider *slider = c->sequenceLength()->slider();
    slider->setSliderDown(true);
    for (int position : {300, 400, 500})
        slider->setValue(position);
    slider->setSliderDown(false);
    QCOMPARE(undoText(w), QStringLiteral("Undo Change sequence length"));
    const int steps = w.undoStack()->count();
    w.setCalibration({true, MemoryMetric::Reserved, 170.0 * 1073741824.0, 1.0, 0.0});
    QCOMPARE(w.undoStack()->count(), steps + 1);
    QCOMPARE(undoText(w), QStringLiteral("Undo Calibrate from my run"));
    w.undoStack()->undo();
    QCOMPARE(undoText(w), QStringLiteral("Undo Change sequence length"));
    QCOMPARE(w.undoStack()->redoText(), QStringLiteral("Calibrate from my run"));
}

// Hovering any control says what it does (or why it is off); every choice of every list says
// what it means.
void TestControls::everyControlSaysWhatItDoes()
{
    for (const Scenario &s : {defaultScenario(), screenshotScenario()}) {
        MainWindow w;
        w.setScenario(s);
        QList<QWidget *> controls;
        for (const ControlGroup *group : w.controls()->groups())
            for (QWidget *control : group->controls())
                controls << control;
        QVERIFY(controls.size() >= 40);
        for (QWidget *control : controls)
            QVERIFY2(!control->toolTip().isEmpty(),
                     qPrintable(ControlGroup::label(control) + QStringLiteral(" has no tooltip")));
        for (QComboBox *box : w.controls()->findChildren<QComboBox *>()) {
            if (box == w.controls()->presetBox())
                continue; // the presets carry their ids; the field's tooltip explains the search
            for (int i = 0; i < box->count(); ++i)
                QVERIFY2(
                    !box->itemData(i, Qt::ToolTipRole).toString().isEmpty(),
                    qPrintable(ControlGroup::label(box) + QStringLiteral(": ") + box->itemText(i)));
        }
    }
    // The precision recipes, in words.
    MainWindow w;
    QComboBox *precision = w.controls()->precisionBox();
    QVERIFY(precision->itemData(precision->findData(int(Precision::Bf16Mixed)), Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("fp32 master copy")));
}

// Renaming an entry through the list's editor writes nothing to stderr (it used to rebuild the
// list under the open editor).
void TestControls::renameInCompareIsQuiet()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    menuAction(w, QStringLiteral("&Add Current Scenario"))->trigger();
    w.controls()->gpuCount()->spinBox()->setValue(8);
    menuAction(w, QStringLiteral("&Add Current Scenario"))->trigger();
    QTest::failOnWarning(QRegularExpression(QStringLiteral("QPainter")));
    QVERIFY(showAt(w, QSize(1280, 800)));
    QTest::failOnWarning(QRegularExpression(QStringLiteral(".*")));
    QListWidget *list = w.comparisonView()->list();
    list->setCurrentRow(1);
    list->editItem(list->item(1));
    auto *editor = list->findChild<QLineEdit *>();
    QVERIFY(editor);
    editor->selectAll();
    QTest::keyClicks(editor, QStringLiteral("Eight GPUs"));
    QTest::keyClick(editor, Qt::Key_Return);
    QCoreApplication::processEvents();
    QCOMPARE(w.comparisonView()->comparison().entries.at(1).label, std::string("Eight GPUs"));
    QCOMPARE(list->item(1)->text(), QStringLiteral("Eight GPUs"));
    QCOMPARE(w.comparisonView()->table()->horizontalHeaderItem(1)->text(),
             QStringLiteral("Eight GPUs"));
}

void TestControls::comparedFilesAreNamedByTheirScenario()
{
    QTemporaryDir dir;
    Scenario unnamed = defaultScenario();
    unnamed.name.clear();
    const QString unnamedPath = dir.filePath(QStringLiteral("plain.vramplan.json"));
    {
        QFile file(unnamedPath);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(scenarioToJson(unnamed).dump()));
    }
    MainWindow w;
    QVERIFY(w.compareFiles(
        {dataPath(QStringLiteral("scenarios/gpt2-h100.vramplan.json")),
         dataPath(QStringLiteral("scenarios/llama-2-7b-zero3-4gpu.vramplan.json")), unnamedPath}));
    const auto &entries = w.comparisonView()->comparison().entries;
    QCOMPARE(entries.size(), size_t(3));
    QCOMPARE(entries[0].label, dataScenario(QStringLiteral("gpt2-h100")).name);
    QCOMPARE(entries[1].label, dataScenario(QStringLiteral("llama-2-7b-zero3-4gpu")).name);
    QCOMPARE(entries[2].label, std::string("plain")); // no name: the file's
}

// An entry's context menu loads it into the editor as one undoable step.
void TestControls::entryLoadsBackIntoTheEditor()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    QVERIFY(w.compareFiles(
        {dataPath(QStringLiteral("scenarios/gpt2-h100.vramplan.json")),
         dataPath(QStringLiteral("scenarios/llama-2-7b-zero3-4gpu.vramplan.json"))}));
    QObject owner;
    const QList<QAction *> actions = w.comparisonView()->entryActions(1, &owner);
    QCOMPARE(actions.first()->text(), QStringLiteral("&Load into Editor"));
    QVERIFY(!actions.at(3)->isEnabled()); // the last cannot move down
    actions.first()->trigger();
    const Scenario loaded = dataScenario(QStringLiteral("llama-2-7b-zero3-4gpu"));
    QCOMPARE(scenarioToJson(w.scenario()).dump(), scenarioToJson(loaded).dump());
    QCOMPARE(scenarioToJson(w.controls()->scenario()).dump(), scenarioToJson(loaded).dump());
    QCOMPARE(undoText(w), QStringLiteral("Undo Load \u201c%1\u201d from the comparison")
                              .arg(QString::fromStdString(loaded.name)));
    QVERIFY(w.isModified());
    w.undoStack()->undo();
    QCOMPARE(scenarioToJson(w.scenario()).dump(), scenarioToJson(defaultScenario()).dump());
}

// A measurement the estimate already matches to the shown decimals fits nothing: no
// "- 0.00 GiB".
void TestControls::calibrationFitReadsWell()
{
    const Scenario s = defaultScenario();
    const double reserved = estimate(s).peak.reserved / 1073741824.0;
    CalibrationDialog dialog(s, Unit::GiB);
    // The dialog opens on the estimate, to the box's two decimals: accepted as it is, it fits
    // nothing (it used to fit "- 0.00 GiB" of overhead).
    QCOMPARE(dialog.resultText(), QStringLiteral("The estimate already matches: nothing to fit."));
    dialog.setMeasurement(MemoryMetric::Reserved, std::round(reserved * 100) / 100);
    QCOMPARE(dialog.resultText(), QStringLiteral("The estimate already matches: nothing to fit."));
    QVERIFY(dialog.canAccept());
    dialog.setMeasurement(MemoryMetric::Reserved, reserved + 10);
    QVERIFY2(dialog.resultText().startsWith(QStringLiteral("Fit: +10.00 GiB of overhead")) ||
                 dialog.resultText().startsWith(QStringLiteral("Fit: +")),
             qPrintable(dialog.resultText()));
    QVERIFY(!dialog.resultText().contains(QStringLiteral("- 0.00")));
}

// A fit (or a refusal) that wraps to more lines than the dialog had room for grows the dialog.
void TestControls::calibrationTextIsNeverClipped()
{
    const Scenario s = defaultScenario();
    CalibrationDialog dialog(s, Unit::GiB);
    dialog.resize(420, dialog.sizeHint().height());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    const double reserved = estimate(s).peak.reserved / 1073741824.0;
    for (double measured : {reserved * 1.5, reserved * 0.3, 1.0, reserved * 3}) {
        dialog.setMeasurement(MemoryMetric::Reserved, measured);
        QCoreApplication::processEvents();
        QLabel *result = dialog.resultLabel();
        QVERIFY2(result->height() >= result->heightForWidth(result->width()),
                 qPrintable(QStringLiteral("%1 lines' text in %2 px: %3")
                                .arg(result->heightForWidth(result->width()))
                                .arg(result->height())
                                .arg(dialog.resultText())));
        QVERIFY(dialog.rect().contains(result->geometry()));
    }
}

QTEST_MAIN(TestControls)
#include "tst_controls.moc"

// Issue 21 #3: the estimator's warnings reach the status line and the control concerned (an
// amber frame, the warning first in its tooltip), and a knob the framework lacks is never a
// plain green "fits".
void TestControls::warningsReachTheControls_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("warning");
    QTest::addColumn<QString>("fit");
    QTest::newRow("sequence beyond positions")
        << "sequence" << "training.sequence_length"
        << "the sequence (262144 tokens) is longer than the model's 131072 positions" << "";
    QTest::newRow("litgpt cpu offload")
        << "litgpt" << "parallelism.offload_optimizer"
        << "litgpt has no optimizer offload to the CPU: the estimate shows what it would take, "
           "but the run cannot be set up this way"
        << "would fit";
    QTest::newRow("eager scores") << "eager" << "training.attention" << "eager attention" << "";
}

void TestControls::warningsReachTheControls()
{
    QFETCH(QString, change);
    QFETCH(QString, field);
    QFETCH(QString, warning);
    QFETCH(QString, fit);
    MainWindow w;
    Scenario s = defaultScenario();
    w.setScenario(s);
    QWidget *control = w.controls()->controlFor(field);
    QVERIFY(control);
    QCOMPARE(warningOf(control), QString());
    if (change == "sequence") {
        w.controls()->sequenceLength()->spinBox()->setValue(262144);
    } else if (change == "litgpt") {
        s.framework = Framework::Litgpt;
        s.model = *presetModel("qwen3-0.6b");
        s.parallelism.offloadOptimizer = Offload::Cpu;
        w.setScenario(s);
    } else {
        s.training.attention = Attention::Eager;
        s.training.sequenceLength = 32768;
        w.setScenario(s);
    }
    const Estimate &e = w.controller()->estimate();
    QString expected;
    for (const Warning &x : e.warnings)
        if (QString::fromStdString(warningText(x)).startsWith(warning.left(15)))
            expected = QString::fromStdString(warningText(x));
    QVERIFY2(expected.startsWith(warning), qPrintable(expected));
    QVERIFY2(warningOf(control).contains(expected), qPrintable(warningOf(control)));
    QVERIFY(control->toolTip().startsWith(QStringLiteral("\u26a0 ") + expected));
    QVERIFY2(w.statusText().contains(expected), qPrintable(w.statusText()));
    if (!fit.isEmpty()) {
        QVERIFY(e.fits);
        QVERIFY2(w.statusText().contains(QStringLiteral(
                     "would fit (%1 headroom), but the framework cannot run it")
                                             .arg(formatSize(e.headroomBytes, w.unit()))),
                 qPrintable(w.statusText()));
        QVERIFY(!w.statusText().contains(QStringLiteral("| fits,")));
    }
    // Undone, the mark goes.
    w.setScenario(defaultScenario());
    QCOMPARE(warningOf(control), QString());
    QVERIFY(!control->toolTip().startsWith(QStringLiteral("\u26a0")));
}

// Issue 21 #22: "abc-5xyz" typed into Layers leaves 5, and says what it left out.
void TestControls::refusedKeysAreSaid()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    QVERIFY(showAt(w, QSize(1280, 800)));
    auto *layers = qobject_cast<QSpinBox *>(w.controls()->controlFor("model.layers"));
    QVERIFY(layers);
    layers->setFocus();
    layers->selectAll();
    QSignalSpy refused(w.controls(), &ControlsPanel::refused);
    QTest::keyClicks(layers, QStringLiteral("abc-5xyz"));
    QTest::keyClick(layers, Qt::Key_Return);
    QCOMPARE(w.scenario().model.layers, 5);
    QVERIFY(!refused.isEmpty());
    const QString said = QStringLiteral(
        "Layers takes a whole number from 1 to 2048: \"abc-xyz\" left out");
    QCOMPARE(refused.last().at(0).toString(), said);
    QCOMPARE(w.statusBar()->currentMessage(), said);
}

// Issue 21 #22: a new size rewrites the architecture of an imported model: said field by field,
// undone in one step.
void TestControls::newSizeSaysWhatItRescaled()
{
    MainWindow w;
    Scenario s = defaultScenario();
    s.model.preset.clear(); // as an import leaves it: no preset
    w.setScenario(s);
    QSignalSpy noted(w.controls(), &ControlsPanel::noted);
    w.controls()->modelSize()->spinBox()->setValue(70);
    QCOMPARE(w.undoStack()->count(), 1);
    QCOMPARE(noted.count(), 1);
    const ModelConfig &m = w.scenario().model;
    QVERIFY(m.layers != s.model.layers);
    const QString text = noted.first().at(0).toString();
    // The size shown is the scaled model's own count (70.19 B), the nearest to the 70 typed.
    QVERIFY2(text.startsWith(QStringLiteral("Size %1: scaled the architecture: layers 32 "
                                            "\u2192 %2, hidden size 4096 \u2192 %3")
                                 .arg(w.controls()->modelSize()->spinBox()->text())
                                 .arg(m.layers)
                                 .arg(m.hiddenSize)),
             qPrintable(text));
    QVERIFY(text.endsWith(QStringLiteral("(Edit > Undo puts it back in one step)")));
    QCOMPARE(w.statusBar()->currentMessage(), text);
    w.undoStack()->undo();
    QCOMPARE(scenarioToJson(w.scenario()).dump(), scenarioToJson(s).dump());
}

// Issue 21 #26: a sequence drag stops at the common context sizes and the model's own; a typed
// length stays as typed.
void TestControls::sequenceDragSnaps_data()
{
    QTest::addColumn<int>("position");
    for (int p = 0; p <= 1000; p += 37)
        QTest::addRow("position %d", p) << p;
}

void TestControls::sequenceDragSnaps()
{
    QFETCH(int, position);
    MainWindow w;
    w.setScenario(defaultScenario());
    LogSlider *sequence = w.controls()->sequenceLength();
    sequence->slider()->setSliderDown(true);
    sequence->slider()->setValue(position);
    sequence->slider()->setSliderDown(false);
    const double v = double(w.scenario().training.sequenceLength);
    std::vector<double> stops = contextSizes(16, 1 << 21);
    stops.push_back(131072); // Llama-3.1-8B's positions
    QVERIFY2(std::find(stops.begin(), stops.end(), v) != stops.end(), qPrintable(QString::number(v)));
    QCOMPARE(sequence->value(), v);
    sequence->spinBox()->setValue(158816);
    QCOMPARE(w.scenario().training.sequenceLength, 158816);
}

// Issue 21 #17: a breakdown tooltip works this run's numbers into its formulas: the bytes of
// "b*s*V*bytes" solved, thousands grouped, and after the optimizer's list of every optimizer's
// states this run's parameters and bytes each.
void TestControls::tooltipWorksThisRunsNumbers()
{
    Scenario s = defaultScenario();
    s.model = *presetModel("qwen3-8b");
    s.training.sequenceLength = 8192;
    const Estimate e = estimate(s);
    // A long line goes on indented: read as one.
    const QString logits = breakdownToolTip(e, Component::LogitsAndLoss, Unit::GiB)
                               .replace(QStringLiteral("\n        "), QStringLiteral(" "));
    // 1 x 8192 x 151,936 x 14 bytes = 17,424,187,392 bytes = 16.23 GiB: fp32 log-softmax and
    // logits gradients with the bf16 logits (core logits_loss.cpp).
    QVERIFY2(logits.contains(QStringLiteral(
                 "cross-entropy backward: log-softmax and logits gradients — b*s*V*bytes (start "
                 "of backward) = 1 \u00d7 8192 \u00d7 151,936 \u00d7 14 bytes — 16.23 GiB")),
             qPrintable(logits));
    QVERIFY2(!logits.contains(QStringLiteral("*bytes")) || !logits.contains(QStringLiteral("= 1*")),
             qPrintable(logits));
    const QString states = breakdownToolTip(e, Component::OptimizerStates, Unit::GiB)
                               .replace(QStringLiteral("\n        "), QStringLiteral(" "));
    QVERIFY2(states.contains(QStringLiteral("8,190,735,360 trainable parameters \u00d7 8 bytes "
                                            "each on this GPU")),
             qPrintable(states));
}
