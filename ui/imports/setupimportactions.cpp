// SetupImportActions (setupimportactions.h): the menu entries, the questions, the undoable
// apply, the explanation beside the window, and export through QSaveFile.

#include "imports/setupimportactions.h"

#include "document/dialogs.h"

#include "catalog.h"
#include "document/document.h"
#include "mainwindow.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QSaveFile>
#include <QTableWidget>
#include <QUrl>
#include <QVBoxLayout>

namespace vramplan::ui {

namespace {

// The question a refusal of importTrainingSetup asks: it names the flag that gives the fact.
std::optional<SetupImportActions::Question> questionOf(const std::string &error)
{
    if (error.rfind("--gpus:", 0) == 0)
        return SetupImportActions::Question::Gpus;
    if (error.rfind("--gpu:", 0) == 0)
        return SetupImportActions::Question::Gpu;
    if (error.rfind("--model:", 0) == 0 || error.find("give --model") != std::string::npos)
        return SetupImportActions::Question::Model;
    return std::nullopt;
}

QString firstBytes(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.read(4096));
}

} // namespace

SetupImportActions::SetupImportActions(MainWindow *window)
    : QObject(window), m_window(window),
      m_ask([this](Question q, const QString &why, QString &answer) {
          return askWithDialogs(q, why, answer);
      })
{
}

void SetupImportActions::addTo(QMenu *file)
{
    QAction *open = file->addAction(tr("Import &Training Setup..."), this,
                                    &SetupImportActions::chooseFiles);
    open->setObjectName(QStringLiteral("importTrainingSetup"));
    // Not translated: a key combination reads the same in every language.
    open->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    QAction *save = file->addAction(tr("Export Training Set&up..."), this,
                                    &SetupImportActions::chooseExport);
    save->setObjectName(QStringLiteral("exportTrainingSetup"));
}

void SetupImportActions::chooseFiles()
{
    const QStringList paths = Dialogs::openFileNames(
        m_window, tr("Import Training Setup"), m_folder,
        tr("Training setups (*.json *.yaml *.yml *.toml *.sh);;All files (*)"));
    if (paths.isEmpty())
        return;
    m_folder = QFileInfo(paths.first()).absolutePath();
    importFiles(paths);
}

bool SetupImportActions::askWithDialogs(Question question, const QString &why, QString &answer)
{
    // Scripted (tests, the monkey), nothing may block: the question goes unanswered.
    if (Dialogs::scripted())
        return false;
    bool ok = false;
    QString text;
    if (question == Question::Gpus) {
        const int n = QInputDialog::getInt(m_window, tr("Import Training Setup"),
                                           why + QStringLiteral("\n\n") + tr("Number of GPUs:"),
                                           answer.toInt(), 1, 65536, 1, &ok);
        text = QString::number(n);
    } else {
        QStringList items;
        if (question == Question::Gpu)
            for (const auto &gpu : Catalog::builtin().gpus())
                items << QString::fromStdString(gpu.id);
        else
            for (const auto &preset : Catalog::builtin().presets())
                items << QString::fromStdString(preset.id);
        const int current = std::max(0, int(items.indexOf(answer)));
        // The model may also be a config.json or a checkpoint folder: typed as a path.
        text = QInputDialog::getItem(m_window, tr("Import Training Setup"),
                                     why + QStringLiteral("\n\n") +
                                         (question == Question::Gpu
                                              ? tr("GPU:")
                                              : tr("Model (a preset, or the path of a config.json "
                                                   "or a checkpoint folder):")),
                                     items, current, question == Question::Model, &ok);
    }
    if (ok)
        answer = text;
    return ok;
}

bool SetupImportActions::importFiles(const QStringList &paths)
{
    if (paths.isEmpty())
        return false;
    const Scenario &current = m_window->document()->scenario();
    ImportOptions options;
    std::vector<std::string> files;
    for (const QString &p : paths)
        files.push_back(p.toStdString());
    // At most one question of each kind: a refusal that asks again after an answer is the
    // answer's problem, reported as such.
    bool asked[3] = {false, false, false};
    while (true) {
        const auto result = importTrainingSetup(files, options);
        if (result) {
            m_window->document()->edit(result.value->scenario,
                                       tr("Import Training Setup"));
            m_lastProblem.clear();
            showExplanation(*result.value, paths);
            return true;
        }
        const auto question = questionOf(result.error);
        if (!question || asked[int(*question)]) {
            report(QString::fromStdString(result.error));
            return false;
        }
        asked[int(*question)] = true;
        QString answer;
        switch (*question) {
        case Question::Model:
            answer = QString::fromStdString(current.model.preset);
            break;
        case Question::Gpus: answer = QString::number(current.parallelism.gpus); break;
        case Question::Gpu: answer = QString::fromStdString(current.gpu.preset); break;
        }
        if (!m_ask(*question, QString::fromStdString(result.error), answer) || answer.isEmpty()) {
            m_lastProblem = tr("Import cancelled.");
            return false;
        }
        switch (*question) {
        case Question::Model: options.model = answer.toStdString(); break;
        case Question::Gpus: options.gpus = answer.toLongLong(); break;
        case Question::Gpu: options.gpu = answer.toStdString(); break;
        }
    }
}

void SetupImportActions::showExplanation(const ImportResult &result, const QStringList &paths)
{
    if (!m_explanation) {
        m_explanation = new QDialog(m_window);
        m_explanation->setObjectName(QStringLiteral("importExplanation"));
        m_explanation->setAttribute(Qt::WA_DeleteOnClose);
        auto *layout = new QVBoxLayout(m_explanation);
        auto *title = new QLabel(m_explanation);
        title->setObjectName(QStringLiteral("importFormats"));
        layout->addWidget(title);
        auto *table = new QTableWidget(0, 3, m_explanation);
        table->setObjectName(QStringLiteral("importFields"));
        table->setHorizontalHeaderLabels({tr("Field"), tr("Value"), tr("From")});
        table->horizontalHeader()->setStretchLastSection(true);
        table->setEditTriggers(QAbstractItemView::NoEditTriggers);
        layout->addWidget(table, 3);
        auto *notes = new QPlainTextEdit(m_explanation);
        notes->setObjectName(QStringLiteral("importNotes"));
        notes->setReadOnly(true);
        layout->addWidget(notes, 1);
        auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, m_explanation);
        connect(buttons, &QDialogButtonBox::rejected, m_explanation, &QDialog::close);
        layout->addWidget(buttons);
        m_explanation->resize(900, 600);
    }
    QStringList names;
    for (const QString &p : paths)
        names << QFileInfo(p).fileName();
    m_explanation->setWindowTitle(tr("Imported: %1").arg(names.join(QStringLiteral(", "))));
    QStringList formats;
    for (const auto &f : result.formats)
        formats << QString::fromStdString(f);
    m_explanation->findChild<QLabel *>(QStringLiteral("importFormats"))
        ->setText(tr("Read as: %1. Each field of the scenario and where it came from; "
                     "Edit > Undo restores the scenario before the import.")
                      .arg(formats.join(QStringLiteral(", "))));
    auto *table = m_explanation->findChild<QTableWidget *>(QStringLiteral("importFields"));
    table->setRowCount(int(result.fields.size()));
    for (int row = 0; row < int(result.fields.size()); ++row) {
        const FieldOrigin &f = result.fields[std::size_t(row)];
        const std::string value = f.value.is_string() ? f.value.get<std::string>()
                                                       : f.value.dump(-1, ' ', false,
                                                                      nlohmann::json::error_handler_t::replace);
        table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(f.path)));
        table->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(value)));
        table->setItem(row, 2, new QTableWidgetItem(QString::fromStdString(f.origin)));
    }
    table->resizeColumnsToContents();
    QStringList notes;
    for (const auto &w : result.warnings)
        notes << QStringLiteral("warning: ") + QString::fromStdString(w);
    for (const auto &i : result.ignored)
        notes << QStringLiteral("ignored: ") + QString::fromStdString(i);
    m_explanation->findChild<QPlainTextEdit *>(QStringLiteral("importNotes"))
        ->setPlainText(notes.join(QLatin1Char('\n')));
    m_explanation->show();
    m_explanation->raise();
}

void SetupImportActions::report(const QString &problem)
{
    m_lastProblem = problem;
    // Window-modal and not blocking: the window stays as it was.
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Import Training Setup"),
                                tr("The training setup cannot be imported:\n%1").arg(problem),
                                QMessageBox::Ok, m_window);
    box->setObjectName(QStringLiteral("importProblem"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void SetupImportActions::chooseExport()
{
    // One filter per format, in the order of ExportFormat (exportFormatNames).
    const QStringList names = {tr("DeepSpeed config (*.json)"), tr("Axolotl YAML (*.yaml)"),
                               tr("LLaMA-Factory YAML (*.yaml)"),
                               tr("torchtune overrides (*.txt)"),
                               tr("Megatron-LM flags (*.sh)"),
                               tr("Accelerate config (*.yaml)"),
                               tr("TRL config (*.yaml)"),
                               tr("verl launch script (*.sh)"),
                               tr("torchtitan train config (*.toml)"),
                               tr("ms-swift launch script (*.sh)")};
    Q_ASSERT(names.size() == qsizetype(exportFormatNames().size()));
    QString filter = names.first();
    // The format is the filter chosen; scripted (no dialog), the scripted file is DeepSpeed's.
    const QString path =
        Dialogs::scripted()
            ? Dialogs::saveFileName(m_window, tr("Export Training Setup"), m_folder, filter)
            : QFileDialog::getSaveFileName(m_window, tr("Export Training Setup"), m_folder,
                                           names.join(QStringLiteral(";;")), &filter);
    if (path.isEmpty())
        return;
    m_folder = QFileInfo(path).absolutePath();
    const auto format = ExportFormat(std::max(0, int(names.indexOf(filter))));
    // A name typed without a suffix takes the format's, as the tools look for it.
    const QString file = QFileInfo(path).suffix().isEmpty()
                             ? path + QString::fromStdString(exportFileSuffix(format))
                             : path;
    if (exportTo(file, format) && !m_lastNotes.isEmpty())
        Dialogs::inform(m_window, tr("Export Training Setup"),
                        tr("Written to %1.\n\nWhat the file cannot say (also at its top, where "
                           "the format has comments):\n%2")
                            .arg(QDir::toNativeSeparators(file), m_lastNotes));
}

bool SetupImportActions::exportTo(const QString &path, ExportFormat format)
{
    const auto result = exportTrainingSetup(m_window->document()->scenario(), format);
    if (!result) {
        m_lastProblem = QString::fromStdString(result.error);
        Dialogs::problem(m_window, tr("Export Training Setup"), m_lastProblem);
        return false;
    }
    QSaveFile file(path);
    const QByteArray bytes = QByteArray::fromStdString(result.value->text);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        m_lastProblem = tr("%1: cannot be written (%2)").arg(path, file.errorString());
        Dialogs::problem(m_window, tr("Export Training Setup"), m_lastProblem);
        return false;
    }
    QStringList notes;
    for (const auto &n : result.value->notes)
        notes << QString::fromStdString(n);
    m_lastNotes = notes.join(QLatin1Char('\n'));
    m_lastProblem.clear();
    return true;
}

bool SetupImportActions::isMeasuredRunFile(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("pickle") || suffix == QLatin1String("pkl"))
        return true;
    const QString head = firstBytes(path);
    if (suffix == QLatin1String("csv"))
        return head.contains(QLatin1String("memory.used"));
    if (suffix == QLatin1String("json"))
        return head.contains(QLatin1String("\"segments\"")) ||
               head.contains(QLatin1String("\"device_traces\"")) ||
               head.contains(QLatin1String("\"allocated_bytes.all.peak\""));
    return false;
}

bool SetupImportActions::isSetupFile(const QString &path)
{
    const QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    if (suffix == QLatin1String("sh") || suffix == QLatin1String("bash") ||
        suffix == QLatin1String("toml") || suffix == QLatin1String("yaml") ||
        suffix == QLatin1String("yml"))
        return true;
    if (suffix != QLatin1String("json") || info.fileName().endsWith(QLatin1String(".vramplan.json")) ||
        info.fileName().endsWith(QLatin1String(".vramplan-comparison.json")))
        return false;
    // A DeepSpeed config or trainer arguments, not a Hugging Face config.json.
    const QString head = firstBytes(path);
    for (const char *key : {"\"zero_optimization\"", "\"train_micro_batch_size_per_gpu\"",
                            "\"train_batch_size\"", "\"per_device_train_batch_size\""})
        if (head.contains(QLatin1String(key)))
            return true;
    return false;
}

bool SetupImportActions::routeDropped(const QList<QUrl> &urls)
{
    QStringList setups, runs;
    for (const QUrl &url : urls) {
        const QString path = url.toLocalFile();
        if (path.isEmpty())
            continue;
        if (isMeasuredRunFile(path))
            runs << path;
        else if (isSetupFile(path))
            setups << path;
        else
            return false; // a scenario, a config.json, a checkpoint folder: the file actions'
    }
    if (!runs.isEmpty())
        m_window->openMeasuredRunFiles(runs);
    if (!setups.isEmpty())
        importFiles(setups);
    return !runs.isEmpty() || !setups.isEmpty();
}

} // namespace vramplan::ui
