// Files and history: save then load gives the same scenario and a byte-identical file; every
// kind of bad file gives its error and loses nothing; undo/redo sequences restore exactly; one
// slider drag is one undo step; a Hugging Face config.json imports into the model fields.

#include "catalog.h"
#include "controlspanel.h"
#include "logslider.h"
#include "mainwindow.h"
#include "scenario_json.h"
#include "scenariofile.h"
#include "testhelpers.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSlider>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

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
    QTest::newRow("not a scenario")
        << QByteArray(R"({"model_type":"llama"})") << "format: is missing";
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
                 QStringLiteral("config.json: config.model_type: 'mamba' is not supported")),
             qPrintable(message));
    QCOMPARE(dump(w.scenario()), dump(defaultScenario()));
}

QTEST_MAIN(TestDocument)
#include "tst_document.moc"
