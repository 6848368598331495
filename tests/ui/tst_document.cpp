// Files and history: save then load gives the same scenario and a byte-identical file; every
// kind of bad file gives its error and loses nothing; undo/redo sequences restore exactly; one
// slider drag is one undo step; a Hugging Face config.json imports into the model fields.

#include "catalog.h"
#include "charts/breakdownchart.h"
#include "document/comparisonactions.h"
#include "document/dialogs.h"
#include "document/importedmodels.h"
#include "formats/comparison.h"
#include "document/scenariofile.h"
#include "document/scenarioname.h"
#include "mainwindow.h"
#include "panels/comparisonview.h"
#include "panels/controlspanel.h"
#include "panels/logslider.h"
#include "formats/scenario_json.h"
#include "testhelpers.h"
#include "formats/breakdown_table.h"
#include "panels/controlgroup.h"
#include "panels/fitwording.h"

#include <QAction>
#include <QComboBox>
#include <QDomDocument>
#include <QDoubleSpinBox>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QSlider>
#include <QStatusBar>
#include <QHeaderView>
#include <QSet>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>
#include <QUndoStack>
#include <qcustomplot.h>

using namespace vramplan;
using namespace vramplan::ui;

namespace {

Scenario defaultScenario()
{
    return *scenarioFromText(Catalog::builtin().defaultScenarioText()).value;
}
std::string dump(const Scenario &s)
{
    return scenarioToJson(s).dump();
}

QString writeFile(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(content);
    return path;
}

// The window's action of that menu text ("&Save Comparison As..."), as a user finds it.
QAction *findAction(const MainWindow &w, const QString &text)
{
    for (QAction *action : w.findChildren<QAction *>())
        if (action->text() == text)
            return action;
    qWarning("no action %s", qPrintable(text));
    return nullptr;
}

// What a menu offers once opened: its actions' enabled states are those the user sees.
void openMenu(const MainWindow &w, const QString &title)
{
    for (QMenu *menu : w.findChildren<QMenu *>())
        if (menu->title() == title) {
            menu->popup(QPoint(0, 0));
            QTRY_VERIFY(menu->isVisible());
            menu->hide();
            return;
        }
    QFAIL(qPrintable(QStringLiteral("no menu ") + title));
}

} // namespace

class TestDocument : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("vramplan-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_document"));
    }
    void saveThenLoadIsIdentical();
    void badFilesLoseNothing_data();
    void badFilesLoseNothing();
    void failedSaveKeepsTheDocument();
    void undoRedoRestoresExactly();
    void oneDragIsOneStep();
    void dragBackToStartIsNoStep();
    void importHfConfig();
    void exportsParse_data();
    void exportsParse();
    void exportRefusesUnknownFormats();
    void autosaveAndRecovery();
    void comparisonOfThree();
    void comparisonFiles_data();
    void comparisonFiles();
    void saveComparisonAddsItsSuffix();
    void emptyComparisonCannotBeExported();
    void servingVariantsApart_data();
    void servingVariantsApart();
    void comparisonTableReads();
    void newHidesTheBreakdownTooltip();
    void saveAsProposesTheScenarioName_data();
    void saveAsProposesTheScenarioName();
    void openingAConfigOffersTheImport();
    void importedModelKeepsItsName();
    void savedModelNameIsRead();
};

void TestDocument::saveThenLoadIsIdentical()
{
    QTemporaryDir dir;
    MainWindow w;
    w.setScenario(defaultScenario());
    w.controls()->microBatch()->spinBox()->setValue(4);
    QVERIFY(w.isModified());
    const QString first = dir.filePath(QStringLiteral("plan.vramplan.json"));
    QVERIFY(w.saveTo(first));
    QVERIFY(!w.isModified());
    QVERIFY(w.windowTitle().contains(QStringLiteral("plan.vramplan.json")));
    const std::string saved = dump(w.scenario());

    MainWindow other;
    QVERIFY(other.openFile(first));
    QCOMPARE(dump(other.scenario()), saved);
    QCOMPARE(other.scenario().training.microBatchSize, int64_t(4));
    const QString second = dir.filePath(QStringLiteral("again.vramplan.json"));
    QVERIFY(other.saveTo(second));
    QCOMPARE(QString::fromStdString(test::readFile(second)),
             QString::fromStdString(test::readFile(first)));
}

void TestDocument::badFilesLoseNothing_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected"); // in the message, after the file name
    const QByteArray good = scenarioFileText(defaultScenario());
    QTest::newRow("empty") << QByteArray() << "empty";
    QTest::newRow("corrupt") << QByteArray("{\"format\": vramplan") << "not valid JSON";
    QTest::newRow("truncated") << good.left(good.size() / 2) << "not valid JSON";
    QTest::newRow("unknown key")
        << QByteArray(R"({"format":"vramplan-scenario","training":{"micro_batch":4}})")
        << "training.micro_batch: unknown key";
    QTest::newRow("future version")
        << QByteArray(R"({"format":"vramplan-scenario","version":9})") << "version: 9 is newer";
    QTest::newRow("wrong type")
        << QByteArray(R"({"format":"vramplan-scenario","training":{"micro_batch_size":"4"}})")
        << "training.micro_batch_size: must be a whole number";
    // (A JSON with "model_type" is a model config: opening one offers the import.)
    QTest::newRow("not a scenario")
        << QByteArray(R"({"hidden_size":4096})") << "format: is missing";
}

void TestDocument::badFilesLoseNothing()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    MainWindow w;
    w.setScenario(defaultScenario());
    w.controls()->microBatch()->spinBox()->setValue(2); // unsaved work
    const std::string before = dump(w.scenario());
    const int steps = w.undoStack()->count();
    const QString path = writeFile(dir, QStringLiteral("bad.vramplan.json"), content);
    QVERIFY(!w.openFile(path));
    const QString message = w.statusBar()->currentMessage();
    QVERIFY2(message.startsWith(QStringLiteral("bad.vramplan.json: ")), qPrintable(message));
    QVERIFY2(message.contains(expected), qPrintable(message));
    QCOMPARE(dump(w.scenario()), before);
    QCOMPARE(w.undoStack()->count(), steps);
    QVERIFY(w.isModified());
    QVERIFY(w.filePath().isEmpty());
}

void TestDocument::failedSaveKeepsTheDocument()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    w.controls()->microBatch()->spinBox()->setValue(2);
    QVERIFY(!w.saveTo(QStringLiteral("/nonexistent-folder/plan.vramplan.json")));
    QVERIFY(w.statusBar()->currentMessage().startsWith(QStringLiteral("plan.vramplan.json: ")));
    QVERIFY(w.isModified());
    QVERIFY(w.filePath().isEmpty());
}

void TestDocument::undoRedoRestoresExactly()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    std::vector<std::string> states{dump(w.scenario())};
    ControlsPanel *c = w.controls();
    c->microBatch()->spinBox()->setValue(2);
    states.push_back(dump(w.scenario()));
    c->precisionBox()->setCurrentIndex(c->precisionBox()->findData(int(Precision::Bf16)));
    states.push_back(dump(w.scenario()));
    c->gpuCount()->spinBox()->setValue(8);
    states.push_back(dump(w.scenario()));
    c->zeroBox()->setCurrentIndex(c->zeroBox()->findData(3));
    states.push_back(dump(w.scenario()));
    QCOMPARE(w.undoStack()->count(), 4);
    for (int i = 3; i >= 0; --i) {
        w.undoStack()->undo();
        QCOMPARE(dump(w.scenario()), states[size_t(i)]);
        QCOMPARE(dump(w.controls()->scenario()), states[size_t(i)]); // the controls follow
    }
    QVERIFY(!w.isModified()); // back where the document started
    for (int i = 1; i <= 4; ++i) {
        w.undoStack()->redo();
        QCOMPARE(dump(w.scenario()), states[size_t(i)]);
    }
    QVERIFY(w.isModified());
}

void TestDocument::oneDragIsOneStep()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    QSlider *slider = w.controls()->microBatch()->slider();
    slider->setSliderDown(true);
    for (int position : {50, 120, 200, 260, 300})
        slider->setValue(position);
    slider->setSliderDown(false); // release
    const int64_t dragged = w.scenario().training.microBatchSize;
    QVERIFY(dragged > 1);
    QCOMPARE(w.undoStack()->count(), 1);
    w.undoStack()->undo();
    QCOMPARE(w.scenario().training.microBatchSize, int64_t(1));
    w.undoStack()->redo();
    QCOMPARE(w.scenario().training.microBatchSize, dragged);
}

void TestDocument::dragBackToStartIsNoStep()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    QSlider *slider = w.controls()->sequenceLength()->slider();
    // Start from a value the slider itself produced (4096 sits between two slider positions),
    // as a new document, so that dragging back to the same position is the same scenario.
    const int start = slider->value() + 5;
    slider->setValue(start);
    w.setScenario(w.scenario());
    QCOMPARE(w.undoStack()->count(), 0);
    slider->setSliderDown(true);
    slider->setValue(start + 100);
    slider->setValue(start);
    slider->setSliderDown(false);
    QCOMPARE(w.undoStack()->count(), 0);
    QVERIFY(!w.isModified());
}

void TestDocument::importHfConfig()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    QVERIFY(w.importHfConfig(test::dataPath(QStringLiteral("hf_configs/mistral-7b-v0.1.json"))));
    QCOMPARE(w.scenario().model.layers, int64_t(32));
    QCOMPARE(w.scenario().model.kvHeads, int64_t(8));
    QCOMPARE(w.scenario().model.ffnHiddenSize, int64_t(14336));
    QCOMPARE(w.scenario().model.vocabSize, int64_t(32000));
    QCOMPARE(w.undoStack()->count(), 1);
    w.undoStack()->undo();
    QCOMPARE(dump(w.scenario()), dump(defaultScenario()));

    QTemporaryDir dir;
    const QString bad = writeFile(dir, QStringLiteral("config.json"),
                                  R"({"model_type": "mamba", "hidden_size": 768})");
    QVERIFY(!w.importHfConfig(bad));
    const QString message = w.statusBar()->currentMessage();
    QVERIFY2(message.startsWith(
                 QStringLiteral("config.json: config.model_type: 'mamba' is not one vramplan "
                                "knows")),
             qPrintable(message));
    QCOMPARE(dump(w.scenario()), dump(defaultScenario()));

    // A checkpoint folder (a directory): its config and the count of its tensors, one undo step.
    QVERIFY(w.importHfConfig(test::dataPath(QStringLiteral("checkpoints/tiny-qwen3"))));
    QCOMPARE(w.scenario().model.hiddenSize, int64_t(64));
    QCOMPARE(w.scenario().model.checkpointParameters, int64_t(106880));
    w.undoStack()->undo();
    QCOMPARE(dump(w.scenario()), dump(defaultScenario()));
    const QString broken = test::dataPath(QStringLiteral("checkpoints/broken-header"));
    QVERIFY(!w.importHfConfig(broken));
    QVERIFY2(w.statusBar()->currentMessage().contains(QLatin1String("safetensors header")),
             qPrintable(w.statusBar()->currentMessage()));
}

void TestDocument::exportsParse_data()
{
    QTest::addColumn<QString>("chart");
    QTest::addColumn<QString>("file");
    for (const char *chart : {"breakdown", "batch", "sequence", "gpus", "timeline"})
        for (const char *ext : {"png", "svg", "pdf"})
            QTest::newRow(qPrintable(QString("%1.%2").arg(chart, ext)))
                << chart << QString("%1.%2").arg(chart, ext);
    for (const char *ext : {"csv", "json", "md"})
        QTest::newRow(qPrintable(QString("table.%1").arg(ext)))
            << "" << QString("table.%1").arg(ext);
}

// Every export format parses: the PNG decodes, the SVG is XML with shapes, the PDF has its
// header, the CSV has a row per item, the JSON is the estimate, the Markdown has the table.
void TestDocument::exportsParse()
{
    QFETCH(QString, chart);
    QFETCH(QString, file);
    QTemporaryDir dir;
    MainWindow w;
    w.setScenario(defaultScenario());
    w.resize(1280, 800);
    const QString path = dir.filePath(file);
    const QString problem = chart.isEmpty() ? w.exportTable(path) : w.exportChart(chart, path);
    QVERIFY2(problem.isEmpty(), qPrintable(problem));
    const QByteArray bytes = QByteArray::fromStdString(test::readFile(path));
    const Estimate e = estimate(defaultScenario());
    if (file.endsWith(".png")) {
        const QImage image = QImage::fromData(bytes, "PNG");
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 1000);
        int coloured = 0; // the chart is drawn, not a blank page
        for (int y = 0; y < image.height(); y += 4)
            for (int x = 0; x < image.width(); x += 4)
                coloured += image.pixelColor(x, y).hslSaturation() > 60;
        QVERIFY2(coloured > 200, qPrintable(QString::number(coloured)));
    } else if (file.endsWith(".svg")) {
        QDomDocument svg;
        QVERIFY(bool(svg.setContent(bytes)));
        QCOMPARE(svg.documentElement().tagName(), QStringLiteral("svg"));
        QVERIFY(svg.elementsByTagName(QStringLiteral("path")).size() +
                    svg.elementsByTagName(QStringLiteral("polyline")).size() +
                    svg.elementsByTagName(QStringLiteral("rect")).size() >
                10);
    } else if (file.endsWith(".pdf")) {
        QVERIFY(bytes.startsWith("%PDF-"));
        QVERIFY(bytes.contains("%%EOF"));
    } else if (file.endsWith(".csv")) {
        const QList<QByteArray> lines = bytes.trimmed().split('\n');
        QCOMPARE(lines.first(),
                 QByteArray("component,item,bytes,count,bytes_per_unit,formula,at_peak"));
        QCOMPARE(lines.size() - 1, int(e.items.size()));
    } else if (file.endsWith(".json")) {
        const QJsonObject json = QJsonDocument::fromJson(bytes).object();
        QCOMPARE(json.value("format").toString(), QStringLiteral("vramplan-estimate"));
        QCOMPARE(json.value("peak").toObject().value("device_bytes").toDouble(),
                 double(std::llround(e.peak.device)));
    } else {
        QVERIFY(bytes.contains("| component | per GPU (GiB) |"));
        QVERIFY(bytes.contains("| Optimizer states |"));
    }
}

void TestDocument::exportRefusesUnknownFormats()
{
    QTemporaryDir dir;
    MainWindow w;
    w.setScenario(defaultScenario());
    // Either way the message lists every format an export knows.
    const QString formats =
        QStringLiteral(": unknown export format: png, svg or pdf for a chart; csv, json or md for "
                       "a table");
    QCOMPARE(w.exportChart("breakdown", dir.filePath("chart.gif")), "chart.gif" + formats);
    QCOMPARE(w.exportTable(dir.filePath("table.xlsx")), "table.xlsx" + formats);
    QCOMPARE(w.exportComparisonTable(dir.filePath("table.xlsx")), "table.xlsx" + formats);
    QVERIFY(w.exportChart("pie", dir.filePath("chart.png")).contains("unknown chart"));
    QVERIFY(!QFile::exists(dir.filePath("chart.gif")));
}

void TestDocument::autosaveAndRecovery()
{
    QTemporaryDir dir;
    const QString autosave = dir.filePath(QStringLiteral("autosave.vramplan.json"));
    std::string unsaved;
    {
        MainWindow w;
        w.setAutosavePath(autosave);
        w.setScenario(defaultScenario());
        w.autosaveNow();
        QVERIFY(!QFile::exists(autosave)); // nothing unsaved, nothing written
        w.controls()->microBatch()->spinBox()->setValue(6);
        w.autosaveNow();
        QVERIFY(QFile::exists(autosave));
        unsaved = dump(w.scenario());
        // A crash: the window goes without closing; the autosave stays.
        w.setAutosavePath(QString());
    }
    MainWindow recovered;
    recovered.setAutosavePath(autosave);
    QVERIFY(recovered.recoverAutosave(autosave));
    QCOMPARE(dump(recovered.scenario()), unsaved);
    QVERIFY(recovered.isModified());
    QVERIFY(recovered.filePath().isEmpty());
    // Saving the recovered work removes the autosave.
    QVERIFY(recovered.saveTo(dir.filePath(QStringLiteral("rescued.vramplan.json"))));
    QVERIFY(!QFile::exists(autosave));
}

// A comparison of three scenarios shows three bars with the right totals; the table lists the
// inputs that differ; rename, reorder and remove work; the comparison file round-trips.
void TestDocument::comparisonOfThree()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(defaultScenario());
    std::vector<Scenario> scenarios;
    for (int64_t zero : {0, 1, 3}) {
        Scenario s = defaultScenario();
        s.parallelism.gpus = 8;
        s.parallelism.zeroStage = zero;
        s.name = generatedName(s).toStdString(); // the default's name follows its settings
        scenarios.push_back(s);
        w.controls()->gpuCount()->spinBox()->setValue(8);
        w.controls()->zeroBox()->setCurrentIndex(w.controls()->zeroBox()->findData(int(zero)));
        QCOMPARE(dump(w.scenario()), dump(s));
        bool added = false; // Compare > Add Current Scenario (Ctrl+D)
        for (QAction *action : w.findChildren<QAction *>())
            if (action->text() == QStringLiteral("&Add Current Scenario")) {
                QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_D));
                action->trigger();
                added = true;
            }
        QVERIFY(added);
    }
    ComparisonView *view = w.comparisonView();
    QCOMPARE(view->count(), 3);
    for (int i = 0; i < 3; ++i) {
        const Estimate e = estimate(scenarios[size_t(i)]);
        QCOMPARE(view->totalAt(i), e.peak.device / 1073741824.0);
        for (int c = 0; c < componentCount; ++c)
            QCOMPARE(view->barValue(i, Component(c)), e.perGpu[size_t(c)] / 1073741824.0);
    }
    QVERIFY(view->totalAt(2) < view->totalAt(1) && view->totalAt(1) < view->totalAt(0));
    // Only the ZeRO stage differs between them.
    const auto differing = differingInputs(scenarios);
    QCOMPARE(differing.size(), size_t(1));
    QCOMPARE(differing[0].path, std::string("parallelism.zero_stage"));
    // The row is named as its control is (issue 21 #13), its field path in its tooltip; what
    // differs from the first scenario stands out.
    QCOMPARE(view->table()->verticalHeaderItem(0)->text(),
             ControlGroup::label(w.controls()->zeroBox()));
    QVERIFY(!view->table()->verticalHeaderItem(0)->text().contains(QLatin1Char('.')));
    QCOMPARE(view->table()->verticalHeaderItem(0)->toolTip(),
             QStringLiteral("parallelism.zero_stage"));
    QCOMPARE(view->table()->item(0, 2)->text(), QStringLiteral("3"));
    QVERIFY(!view->table()->item(0, 0)->font().bold());
    QVERIFY(view->table()->item(0, 1)->font().bold());
    QVERIFY(view->table()->item(0, 2)->font().bold());

    view->rename(0, "DDP");
    view->move(2, 0);
    QCOMPARE(view->comparison().entries[0].scenario.parallelism.zeroStage, int64_t(3));
    QCOMPARE(view->comparison().entries[1].label, std::string("DDP"));
    const std::string text = comparisonToJson(view->comparison()).dump(2);
    auto reread = comparisonFromText(text);
    QVERIFY2(reread, reread.error.c_str());
    QCOMPARE(comparisonToJson(*reread.value).dump(2), text);
    view->removeAt(1);
    QCOMPARE(view->count(), 2);
}

void TestDocument::comparisonFiles_data()
{
    QTest::addColumn<QByteArray>("content");
    QTest::addColumn<QString>("expected");
    QTest::newRow("not a comparison")
        << QByteArray(R"({"format":"vramplan-scenario"})") << "format: expected";
    QTest::newRow("future version")
        << QByteArray(R"({"format":"vramplan-comparison","version":3,"scenarios":[]})")
        << "version: 3 is newer";
    QTest::newRow("bad inner scenario")
        << QByteArray(
               R"({"format":"vramplan-comparison","scenarios":[{"label":"a","scenario":{"format":"vramplan-scenario","training":{"micro_batch_size":0}}}]})")
        << "scenarios[0].scenario.training.micro_batch_size: must be >= 1";
    QTest::newRow("unknown key in entry")
        << QByteArray(R"({"format":"vramplan-comparison","scenarios":[{"lable":"a"}]})")
        << "scenarios[0].lable: unknown key";
    QTest::newRow("scenarios not a list")
        << QByteArray(R"({"format":"vramplan-comparison","scenarios":{}})")
        << "scenarios: must be a list";
}

void TestDocument::comparisonFiles()
{
    QFETCH(QByteArray, content);
    QFETCH(QString, expected);
    auto parsed = comparisonFromText(content.toStdString());
    QVERIFY(!parsed);
    QVERIFY2(QString::fromStdString(parsed.error).startsWith(expected), parsed.error.c_str());
}

// Issue 21 #14: a comparison saved under a bare name gets its suffix, and Open Comparison offers
// every file too.
void TestDocument::saveComparisonAddsItsSuffix()
{
    QTemporaryDir dir;
    MainWindow w;
    w.setScenario(defaultScenario());
    w.comparisonActions()->addCurrent();
    Dialogs::scriptFileName(dir.filePath(QStringLiteral("mine")));
    findAction(w, QStringLiteral("&Save Comparison As..."))->trigger();
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files),
             QStringList{QStringLiteral("mine.vramplan-comparison.json")});

    MainWindow other;
    Dialogs::scriptFileName(dir.filePath(QStringLiteral("mine.vramplan-comparison.json")));
    findAction(other, QStringLiteral("Open &Comparison..."))->trigger();
    QVERIFY2(Dialogs::lastAsked().filter.contains(QStringLiteral("All files (*)")),
             qPrintable(Dialogs::lastAsked().filter));
    QCOMPARE(other.comparisonView()->count(), 1);
}

// Issue 21 #15: nothing to export while the comparison is empty: the menu says so, and an export
// asked for anyway is refused with a reason and writes nothing.
void TestDocument::emptyComparisonCannotBeExported()
{
    QTemporaryDir dir;
    MainWindow w;
    w.setScenario(defaultScenario());
    QAction *chart = findAction(w, QStringLiteral("Comparison chart..."));
    QAction *table = findAction(w, QStringLiteral("Comparison table..."));
    openMenu(w, QStringLiteral("&Export"));
    QVERIFY(!chart->isEnabled());
    QVERIFY(!table->isEnabled());

    const QString png = dir.filePath(QStringLiteral("comparison.png"));
    Dialogs::scriptFileName(png);
    chart->trigger(); // a disabled action does nothing; the export itself refuses too
    const QString refusal = w.exportChart(QStringLiteral("comparison"), png);
    QVERIFY2(refusal.contains(QStringLiteral("comparison is empty")), qPrintable(refusal));
    QVERIFY(w.exportComparisonTable(dir.filePath(QStringLiteral("comparison.csv")))
                .contains(QStringLiteral("comparison is empty")));
    QVERIFY(QDir(dir.path()).entryList(QDir::Files).isEmpty());

    w.comparisonActions()->addCurrent();
    openMenu(w, QStringLiteral("&Export"));
    QVERIFY(chart->isEnabled());
    QVERIFY(table->isEnabled());
    QCOMPARE(w.exportChart(QStringLiteral("comparison"), png), QString());
}

// Issue 21 #16: a breakdown tooltip describes the scenario it was shown for; File > New drops it.
void TestDocument::newHidesTheBreakdownTooltip()
{
    MainWindow w;
    Scenario big = defaultScenario();
    big.parallelism.gpus = 8;
    w.setScenario(big);
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QCustomPlot *plot = w.breakdownChart()->plot();
    plot->replot(QCustomPlot::rpImmediateRefresh);
    // Low on the bar, inside its first segment.
    const QPoint onBar(plot->xAxis->coordToPixel(1.0), plot->yAxis->coordToPixel(0) - 3);
    QTest::mouseMove(plot, onBar);
    QTRY_VERIFY(QToolTip::isVisible());
    findAction(w, QStringLiteral("&New"))->trigger();
    // Qt fades a tip out over a few hundred milliseconds; left alone it stays for ten seconds.
    QTRY_VERIFY_WITH_TIMEOUT(!QToolTip::isVisible(), 1000);
}

void TestDocument::saveAsProposesTheScenarioName_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("proposed");
    QTest::newRow("plain") << "Llama 3 LoRA" << "Llama-3-LoRA.vramplan.json";
    // What file systems refuse (/\:*?"<>|) and what a shell makes awkward become dashes.
    QTest::newRow("punctuation")
        << "Qwen3-8B: 8k / 4 x A100? <fsdp>" << "Qwen3-8B-8k-4-x-A100-fsdp.vramplan.json";
    QTest::newRow("generated") << "" << "";
    QTest::newRow("nothing left") << "///" << "scenario.vramplan.json";
    QTest::newRow("chinese") << "\u5fae\u8c03 8B" << "\u5fae\u8c03-8B.vramplan.json";
}

// Issue 21 #26: Save As proposes a file named after the scenario.
void TestDocument::saveAsProposesTheScenarioName()
{
    QFETCH(QString, name);
    QFETCH(QString, proposed);
    MainWindow w;
    Scenario s = defaultScenario();
    if (!name.isEmpty())
        s.name = name.toStdString();
    w.setScenario(s);
    if (name.isEmpty()) // a name made from the settings: its model comes first
        proposed = QString::fromStdString(w.scenario().name).section(QLatin1Char(','), 0, 0) +
                   QStringLiteral("-");
    Dialogs::scriptFileName(QString()); // cancelled
    findAction(w, QStringLiteral("Save &As..."))->trigger();
    QCOMPARE(Dialogs::lastAsked().caption, QStringLiteral("Save scenario"));
    const QString suggested = Dialogs::lastAsked().suggested;
    QVERIFY2(name.isEmpty() ? suggested.startsWith(proposed) : suggested == proposed,
             qPrintable(suggested));
    QVERIFY(suggested.endsWith(QStringLiteral(".vramplan.json")));
    QVERIFY(!suggested.contains(QLatin1Char(' ')) && !suggested.contains(QLatin1Char(',')));
}

// Issue 21 #21: File > Open on a Hugging Face config.json offers to import its model instead of
// failing with "format: is missing"; declined, nothing changes.
void TestDocument::openingAConfigOffersTheImport()
{
    const QString config = test::dataPath(QStringLiteral("hf_configs/mistral-7b-v0.1.json"));
    MainWindow w;
    w.setScenario(defaultScenario());
    Dialogs::scriptAnswer(false);
    QVERIFY(!w.openFile(config));
    QVERIFY2(Dialogs::lastAsked().text.contains(QStringLiteral("model config")),
             qPrintable(Dialogs::lastAsked().text));
    QCOMPARE(dump(w.scenario()), dump(defaultScenario()));
    QVERIFY(!w.statusBar()->currentMessage().contains(QStringLiteral("format")));

    Dialogs::scriptAnswer(true);
    QVERIFY(w.openFile(config));
    QCOMPARE(w.scenario().model.layers, int64_t(32));
    QCOMPARE(w.scenario().model.ffnHiddenSize, int64_t(14336));
    QCOMPARE(w.undoStack()->count(), 1); // one undoable import into the scenario
    QVERIFY(w.filePath().isEmpty());     // the config is not the scenario's file
}

// Issue 21 #8: serving variants compared. Each entry's name says what tells it apart (the KV
// cache's and the weights' storage, max_model_len; for a name given twice, what differs), the
// table and the CSV carry the KV cache in tokens and the concurrency, and the CSV's headings are
// each one scenario's.
void TestDocument::servingVariantsApart_data()
{
    QTest::addColumn<bool>("named");
    QTest::newRow("names from the settings") << false;
    QTest::newRow("one name given to all") << true;
}

void TestDocument::servingVariantsApart()
{
    QFETCH(bool, named);
    Scenario base = test::parseOrFail(
        test::readFile(test::dataPath(QStringLiteral("scenarios/llama-3.1-8b-vllm-h100.vramplan.json"))));
    if (!named)
        base.name.clear();
    std::vector<Scenario> variants(4, base);
    variants[1].serving.kvCacheDtype = KvCacheDtype::Fp8;
    variants[2].serving.quantization = WeightQuantization::Fp8;
    variants[3].serving.maxModelLen = 16384;
    MainWindow w;
    w.setUnit(Unit::GiB);
    for (const Scenario &s : variants) {
        w.setScenario(s);
        w.comparisonActions()->addCurrent();
    }
    ComparisonView *view = w.comparisonView();
    QCOMPARE(view->count(), 4);
    QStringList labels;
    for (const auto &e : view->comparison().entries)
        labels << QString::fromStdString(e.label);
    QCOMPARE(QSet<QString>(labels.begin(), labels.end()).size(), 4);
    if (named) {
        QCOMPARE(labels[0], QString::fromStdString(base.name));
        QCOMPARE(labels[1], QString::fromStdString(base.name) + " (kv_cache_dtype fp8)");
        QCOMPARE(labels[2], QString::fromStdString(base.name) + " (quantization fp8)");
        QCOMPARE(labels[3], QString::fromStdString(base.name) + " (max_model_len 16384)");
    } else {
        QCOMPARE(labels[0], QStringLiteral("Llama-3.1-8B, vLLM, bf16 weights, 16-bit KV cache, "
                                           "max_model_len 32k, max_num_seqs 256, 1 x H100 80GB (HBM3)"));
        QVERIFY2(labels[1].contains(QStringLiteral("fp8 KV cache")), qPrintable(labels[1]));
        QVERIFY2(labels[2].contains(QStringLiteral("fp8 weights")), qPrintable(labels[2]));
        QVERIFY2(labels[3].contains(QStringLiteral("max_model_len 16k")), qPrintable(labels[3]));
        for (const QString &label : labels)
            QVERIFY2(!label.contains(QStringLiteral("mixed")), qPrintable(label));
    }
    // The table's last two rows: KV-cache tokens and concurrency, each scenario's own.
    QTableWidget *table = view->table();
    const int rows = table->rowCount();
    QCOMPARE(table->verticalHeaderItem(rows - 2)->text(), QStringLiteral("KV-cache tokens"));
    QCOMPARE(table->verticalHeaderItem(rows - 1)->text(),
             QStringLiteral("Max concurrency (requests of max_model_len)"));
    for (int i = 0; i < 4; ++i) {
        const Estimate e = estimate(variants[size_t(i)]);
        QCOMPARE(table->item(rows - 2, i)->text(), groupedNumber(e.serving.kvCacheTokens));
        QCOMPARE(table->item(rows - 1, i)->text(),
                 QString::number(e.serving.maxConcurrency, 'f', 2));
    }
    // The CSV: headings each once, the same two rows in numbers.
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("servers.csv"));
    QCOMPARE(w.exportComparisonTable(path), QString());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
    // row,"first","second",...: the labels hold commas, the quotes keep them.
    QByteArray heading = lines.first();
    QVERIFY(heading.startsWith("row,\"") && heading.endsWith('"'));
    heading = heading.mid(5);
    heading.chop(1);
    const QStringList headings = QString::fromUtf8(heading).split(QStringLiteral("\",\""));
    QCOMPARE(headings.size(), 4);
    QCOMPARE(QSet<QString>(headings.begin(), headings.end()).size(), headings.size());
    QByteArray tokens, concurrency;
    for (const QByteArray &line : lines) {
        if (line.startsWith("kv_cache_tokens,"))
            tokens = line;
        if (line.startsWith("max_concurrency,"))
            concurrency = line;
    }
    QByteArray wantTokens = "kv_cache_tokens", wantConcurrency = "max_concurrency";
    for (const Scenario &s : variants) {
        const Estimate e = estimate(s);
        wantTokens += "," + QByteArray::number(qlonglong(e.serving.kvCacheTokens));
        wantConcurrency += "," + QByteArray::number(e.serving.maxConcurrency, 'f', 4);
    }
    QCOMPARE(tokens, wantTokens);
    QCOMPARE(concurrency, wantConcurrency);
    // Two entries of one name (a comparison file may hold them): numbered in the CSV.
    Comparison twice;
    twice.entries = {{"same", base}, {"same", variants[1]}};
    const std::string csv = comparisonTable(twice, TableFormat::Csv);
    QCOMPARE(csv.substr(0, csv.find('\n')), std::string("row,\"same\",\"same (2)\""));
}

// Issue 21 #13: the table reads as the controls do: numbers rounded and grouped, not JSON's
// ("79.6474609375"); every heading whole, over lines within its column.
void TestDocument::comparisonTableReads()
{
    Scenario a = defaultScenario();
    Scenario b = defaultScenario();
    b.gpu.preset.clear();
    b.gpu.name = "custom";
    b.gpu.memoryGiB = 47.5;
    b.training.sequenceLength = 131072;
    MainWindow w;
    w.setUnit(Unit::GiB);
    Comparison comparison;
    comparison.entries = {
        {"Llama-3.1-8B, full fine-tune, bf16 mixed, AdamW, 1 x H100-80GB, the long name", a},
        {"Llama-3.1-8B, full fine-tune, bf16 mixed, AdamW, 1 x custom GPU at 128k tokens", b}};
    w.comparisonView()->setComparison(comparison);
    w.showComparison();
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QTableWidget *table = w.comparisonView()->table();
    const auto row = [&](const QString &path) {
        for (int r = 0; r < table->rowCount(); ++r)
            if (table->verticalHeaderItem(r)->toolTip() == path)
                return r;
        return -1;
    };
    const int memory = row(QStringLiteral("gpu.memory_gib"));
    QVERIFY(memory >= 0);
    // The H100's 79.6474609375 GiB as CUDA reports it, rounded.
    QCOMPARE(a.gpu.memoryGiB, 79.6474609375);
    QCOMPARE(table->item(memory, 0)->text(), QStringLiteral("79.65"));
    QCOMPARE(table->item(memory, 1)->text(), QStringLiteral("47.5"));
    const int sequence = row(QStringLiteral("training.sequence_length"));
    QVERIFY(sequence >= 0);
    QCOMPARE(table->item(sequence, 1)->text(), QStringLiteral("131,072"));
    QCOMPARE(table->verticalHeaderItem(sequence)->text(),
             ControlGroup::label(w.controls()->controlFor(QStringLiteral("training.sequence_length"))));
    QHeaderView *header = table->horizontalHeader();
    const QFontMetrics metrics(header->font());
    for (int i = 0; i < table->columnCount(); ++i) {
        const QString text = table->horizontalHeaderItem(i)->text();
        QCOMPARE(table->horizontalHeaderItem(i)->toolTip(),
                 QString::fromStdString(comparison.entries[size_t(i)].label));
        QVERIFY2(!text.contains(QChar(0x2026)), qPrintable(text)); // whole, not elided
        const QStringList lines = text.split(QLatin1Char('\n'));
        QVERIFY(lines.size() >= 2);
        for (const QString &line : lines)
            QVERIFY2(metrics.horizontalAdvance(line) < header->sectionSize(i),
                     qPrintable(QStringLiteral("%1 in %2 px").arg(line).arg(header->sectionSize(i))));
        QVERIFY(header->height() >= lines.size() * metrics.height());
    }
}

QTEST_MAIN(TestDocument)
// Issue 21 #21: an imported model keeps its identity: the preset picker names it, the status
// bar says what was read from where, and the scenario's name starts with it; an edit of its
// architecture makes it custom again, and an undo brings the name back.
void TestDocument::importedModelKeepsItsName()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    QTemporaryDir dir;
    auto config = QJsonDocument::fromJson(QByteArray::fromStdString(test::readFile(
                                              test::dataPath(QStringLiteral(
                                                  "hf_configs/mistral-7b-v0.1.json")))))
                      .object();
    config.insert(QStringLiteral("_name_or_path"), QStringLiteral("acme/Acme-7B-Instruct"));
    const QString path = writeFile(dir, QStringLiteral("config.json"),
                                   QJsonDocument(config).toJson());
    QVERIFY(w.importHfConfig(path));
    QComboBox *preset = w.controls()->presetBox();
    QCOMPARE(preset->currentText(), QStringLiteral("Acme-7B-Instruct (imported)"));
    QCOMPARE(w.statusBar()->currentMessage(),
             QStringLiteral("Imported Acme-7B-Instruct from %1").arg(QDir::toNativeSeparators(path)));
    QVERIFY2(shownName(w.scenario()).startsWith(QStringLiteral("Acme-7B-Instruct, ")),
             qPrintable(shownName(w.scenario())));
    // Without a name in the config, the file's own.
    const QString plain = test::dataPath(QStringLiteral("hf_configs/mistral-7b-v0.1.json"));
    QCOMPARE(importedModelName(plain), QStringLiteral("mistral-7b-v0.1.json"));

    auto *layers = qobject_cast<QSpinBox *>(w.controls()->controlFor("model.layers"));
    QVERIFY(layers);
    layers->setValue(30);
    QCOMPARE(preset->currentText(), QStringLiteral("Custom"));
    w.undoStack()->undo();
    QCOMPARE(preset->currentText(), QStringLiteral("Acme-7B-Instruct (imported)"));

    // Saved, the file keeps the name (model.name); edited, the model is custom and the file
    // names none.
    const QString saved = dir.filePath(QStringLiteral("acme.vramplan.json"));
    QVERIFY(w.saveTo(saved));
    const auto modelOf = [](const QString &file) {
        QFile f(file);
        return f.open(QIODevice::ReadOnly)
                   ? QJsonDocument::fromJson(f.readAll()).object().value("model").toObject()
                   : QJsonObject();
    };
    QCOMPARE(modelOf(saved).value("name").toString(), QStringLiteral("Acme-7B-Instruct"));
    layers->setValue(30);
    QVERIFY(w.saveTo(saved));
    QVERIFY(!modelOf(saved).contains(QStringLiteral("name")));
}

// A scenario file whose model carries a name (written by another session) opens under that name.
void TestDocument::savedModelNameIsRead()
{
    QTemporaryDir dir;
    Scenario s = defaultScenario();
    s.model.preset.clear();
    s.model.layers = 29; // fields no preset and no other test has
    s.model.name = "Zeta-9B";
    const QString path = dir.filePath(QStringLiteral("zeta.vramplan.json"));
    QCOMPARE(writeScenarioFile(path, s), QString()); // not imported here: written without it
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    file.close();
    QJsonObject model = root.value("model").toObject();
    QVERIFY(!model.contains(QStringLiteral("name")));
    model.insert(QStringLiteral("name"), QStringLiteral("Zeta-9B"));
    root.insert(QStringLiteral("model"), model);
    writeFile(dir, QStringLiteral("zeta.vramplan.json"), QJsonDocument(root).toJson());

    MainWindow w;
    QVERIFY(w.openFile(path));
    QCOMPARE(w.controls()->presetBox()->currentText(), QStringLiteral("Zeta-9B (imported)"));
    QCOMPARE(w.scenario().model.name, std::string("Zeta-9B"));
}

#include "tst_document.moc"
