// File > Import Training Setup and Export Training Setup (issue 24, the window), offscreen:
// real files of the tools (tests/data/imports) applied as one undoable edit with exactly the
// fields the core derives, what the files do not say asked for (prefilled from the scenario),
// the origin of every field shown, a bad file refused with nothing changed, a dropped setup
// imported as the menu imports it, and the scenario exported through QSaveFile.

#include "document/document.h"
#include "formats/scenario_json.h"
#include "imports/setupimportactions.h"
#include "uitesting.h"

#include <QAction>
#include <QDialog>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QMenuBar>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>

using namespace vramplan;
using namespace vramplan::ui;
using namespace vramplan::test;
using nlohmann::json;

namespace {

using Question = SetupImportActions::Question;

QString setupFile(const QString &name)
{
    return dataPath(QStringLiteral("imports/") + name);
}

// Answers as a user would, recording what was asked and what was prefilled.
struct Answers
{
    QString model, gpus = QStringLiteral("1"), gpu = QStringLiteral("h100-80gb");
    QList<Question> asked;
    QStringList prefilled;
    bool cancel = false;

    SetupImportActions::Asker asker()
    {
        return [this](Question q, const QString &, QString &answer) {
            asked << q;
            prefilled << answer;
            if (cancel)
                return false;
            answer = q == Question::Model ? model : q == Question::Gpus ? gpus : gpu;
            return true;
        };
    }
};

QString originIn(QDialog *explanation, const QString &field)
{
    auto *table = explanation->findChild<QTableWidget *>(QStringLiteral("importFields"));
    for (int row = 0; row < table->rowCount(); ++row)
        if (table->item(row, 0)->text() == field)
            return table->item(row, 1)->text() + QStringLiteral(" <- ") + table->item(row, 2)->text();
    return QStringLiteral("<no row %1>").arg(field);
}

} // namespace

class TestImportSetup : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void menuEntries();
    void importAppliesAndUndoes();
    void modelAskedWhenNoPreset();
    void badFileChangesNothing();
    void cancelChangesNothing();
    void dropImports();
    void exportWrites();
};

void TestImportSetup::initTestCase()
{
    QCoreApplication::setOrganizationName(QStringLiteral("vramplan-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_importsetup"));
}

void TestImportSetup::menuEntries()
{
    MainWindow w;
    auto *import = w.menuBar()->findChild<QAction *>(QStringLiteral("importTrainingSetup"));
    QVERIFY(import);
    QCOMPARE(import->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+I")));
    QVERIFY(w.menuBar()->findChild<QAction *>(QStringLiteral("exportTrainingSetup")));
}

// Axolotl's lora-1b.yml on the default scenario (Llama-3.1-8B, one H100): the file gives no GPU
// count or GPU: both asked, prefilled from the scenario (1, h100-80gb); the fields are the
// file's (micro-batch 2, accumulation 2, 2048 tokens, LoRA r16, 8-bit AdamW, Llama-3.2-1B);
// undo gives back the scenario before.
void TestImportSetup::importAppliesAndUndoes()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    const json before = scenarioToJson(w.document()->scenario());
    const int steps = w.undoStack()->count();
    Answers answers;
    w.setupImports()->setAsker(answers.asker());
    const QString file = setupFile(QStringLiteral("axolotl/lora-1b.yml"));
    QVERIFY2(w.setupImports()->importFiles({file}), qPrintable(w.setupImports()->lastProblem()));
    QCOMPARE(answers.asked, (QList<Question>{Question::Gpus, Question::Gpu}));
    QCOMPARE(answers.prefilled, (QStringList{QStringLiteral("1"), QStringLiteral("h100-80gb")}));

    const Scenario &s = w.document()->scenario();
    QCOMPARE(QString::fromStdString(s.model.preset), QString("llama-3.2-1b"));
    QCOMPARE(s.training.microBatchSize, int64_t(2));
    QCOMPARE(s.training.gradientAccumulationSteps, int64_t(2));
    QCOMPARE(s.training.sequenceLength, int64_t(2048));
    QCOMPARE(s.training.finetune.method, FinetuneMethod::Lora);
    QCOMPARE(s.training.finetune.loraRank, int64_t(16));
    QCOMPARE(s.training.optimizer, Optimizer::Adamw8bit);
    QCOMPARE(s.parallelism.gpus, int64_t(1));
    QCOMPARE(w.undoStack()->count(), steps + 1); // one edit

    QDialog *explanation = w.setupImports()->explanation();
    QVERIFY(explanation && explanation->isVisible());
    QCOMPARE(originIn(explanation, QStringLiteral("training.micro_batch_size")),
             QString("2 <- ") + file + QStringLiteral(":micro_batch_size"));
    QCOMPARE(originIn(explanation, QStringLiteral("parallelism.gpus")), QString("1 <- --gpus"));
    QVERIFY(explanation->findChild<QPlainTextEdit *>(QStringLiteral("importNotes"))
                ->toPlainText()
                .contains(QStringLiteral("ignored: ") + file + QStringLiteral(":learning_rate")));
    QVERIFY(explanation->findChild<QLabel *>(QStringLiteral("importFormats"))
                ->text()
                .startsWith(QStringLiteral("Read as: axolotl.")));

    w.undoStack()->undo();
    QCOMPARE(scenarioToJson(w.document()->scenario()).dump(), before.dump());
}

// verl's GRPO script names Qwen/Qwen2-7B-Instruct, no bundled preset: the model is asked
// (prefilled with the scenario's preset), the GPU count is the script's (8).
void TestImportSetup::modelAskedWhenNoPreset()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    Answers answers;
    answers.model = QStringLiteral("qwen2.5-7b");
    w.setupImports()->setAsker(answers.asker());
    QVERIFY2(w.setupImports()->importFiles({setupFile(QStringLiteral("verl/run_qwen2-7b.sh"))}),
             qPrintable(w.setupImports()->lastProblem()));
    QCOMPARE(answers.asked.first(), Question::Model);
    QCOMPARE(answers.prefilled.first(), QString::fromStdString(defaultScenario().model.preset));
    QVERIFY(!answers.asked.contains(Question::Gpus));
    const Scenario &s = w.document()->scenario();
    QCOMPARE(QString::fromStdString(s.model.preset), QString("qwen2.5-7b"));
    QCOMPARE(s.parallelism.gpus, int64_t(8));
    QCOMPARE(s.training.microBatchSize, int64_t(40));
    QVERIFY(s.rl.given);
    QCOMPARE(s.rl.groupSize, int64_t(5));
}

void TestImportSetup::badFileChangesNothing()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    const json before = scenarioToJson(w.document()->scenario());
    const int steps = w.undoStack()->count();
    Answers answers;
    w.setupImports()->setAsker(answers.asker());
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/setup.yaml");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("base_model: NousResearch/Llama-3.2-1B\nmicro_batch_size: two\n");
    f.close();
    QVERIFY(!w.setupImports()->importFiles({path}));
    QCOMPARE(w.setupImports()->lastProblem(),
             path + QStringLiteral(":2: micro_batch_size: must be a whole number, got \"two\""));
    QVERIFY(answers.asked.isEmpty());
    QCOMPARE(w.undoStack()->count(), steps);
    QCOMPARE(scenarioToJson(w.document()->scenario()).dump(), before.dump());
    QVERIFY(w.findChild<QWidget *>(QStringLiteral("importProblem")));
}

void TestImportSetup::cancelChangesNothing()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    const json before = scenarioToJson(w.document()->scenario());
    Answers answers;
    answers.cancel = true;
    w.setupImports()->setAsker(answers.asker());
    QVERIFY(!w.setupImports()->importFiles({setupFile(QStringLiteral("axolotl/lora-1b.yml"))}));
    QCOMPARE(w.setupImports()->lastProblem(), QString("Import cancelled."));
    QCOMPARE(scenarioToJson(w.document()->scenario()).dump(), before.dump());
}

// A torchtune recipe dropped on the window: imported as the menu imports it.
void TestImportSetup::dropImports()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    Answers answers;
    w.setupImports()->setAsker(answers.asker());
    const QString file = setupFile(QStringLiteral("torchtune/8B_lora_single_device.yaml"));
    QVERIFY(SetupImportActions::isSetupFile(file));
    QVERIFY(!SetupImportActions::isMeasuredRunFile(file));
    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(file)});
    // As a drag arrives: the enter (which makes the window the drop's target), then the drop.
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(&w, &drop);
    QVERIFY2(w.setupImports()->lastProblem().isEmpty(), qPrintable(w.setupImports()->lastProblem()));
    QVERIFY(!answers.asked.isEmpty());
    const Scenario &s = w.document()->scenario();
    QCOMPARE(s.framework, Framework::Torchtune);
    QCOMPARE(QString::fromStdString(s.model.preset), QString("llama-3.1-8b"));
    QCOMPARE(s.training.microBatchSize, int64_t(2));
    QCOMPARE(s.training.finetune.method, FinetuneMethod::Lora);
    QVERIFY(w.setupImports()->explanation());
    // A scenario file is not a setup: the file actions open it.
    QVERIFY(!SetupImportActions::isSetupFile(dataPath(QStringLiteral("scenarios/llama-2-7b-zero3-4gpu.vramplan.json"))));
}

void TestImportSetup::exportWrites()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    QTemporaryDir dir;
    const QString path = dir.path() + QStringLiteral("/ds.json");
    QVERIFY2(w.setupImports()->exportTo(path, ExportFormat::DeepSpeed),
             qPrintable(w.setupImports()->lastProblem()));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const json ds = json::parse(f.readAll().toStdString());
    const Scenario &s = w.document()->scenario();
    QCOMPARE(ds["train_micro_batch_size_per_gpu"].get<int64_t>(), s.training.microBatchSize);
    QCOMPARE(ds["zero_optimization"]["stage"].get<int64_t>(), s.parallelism.zeroStage);
}

QTEST_MAIN(TestImportSetup)

#include "tst_importsetup.moc"
