// The controls and the document (issue 11): a name that follows the settings until the user
// gives one (1), a wheel that scrolls the panel rather than edit an unfocused control (7), a
// refusal that names the control edited (11), inference without training's knobs (14), undo
// steps named for the field (15), a tooltip on every control and choice (15), a quiet rename in
// Compare, entries named by their scenario and loaded back into the editor (15), a calibration
// fit that reads well and is never clipped (9).

#include "formats/comparison.h"
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
    QCOMPARE(refused.first().at(0).toString(),
             QStringLiteral("Release latest refused: framework_version: expected a release such "
                            "as \"4.57\" or \"transformers 4.57\""));
    QCOMPARE(release->text(), QStringLiteral("4.45.2")); // back where the scenario is

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
