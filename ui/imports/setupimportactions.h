#pragma once
// File > Import Training Setup... and File > Export Training Setup... (issue 24; core/imports/).
// Import: one or several files of one setup (a DeepSpeed JSON, an Axolotl / LLaMA-Factory /
// torchtune / LitGPT / TRL / Accelerate YAML, a torchtitan TOML, a Megatron-LM / ms-swift /
// verl launch script) read by importTrainingSetup; what the files do not say (the model, the
// GPU count, the GPU) is asked for, prefilled from the current scenario; the scenario is applied
// as one undoable edit and the origin of each field shown beside the window. A bad file is a
// message naming it, and nothing changes. Export: the scenario in a tool's format
// (exportTrainingSetup), written through QSaveFile. Files dropped on the window come here when
// they are setups (MainWindow::dropEvent -> routeDropped).

#include "imports/export_setup.h"
#include "imports/import_setup.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

#include <functional>

class QDialog;
class QMenu;
class QUrl;

namespace vramplan::ui {

class MainWindow;

class SetupImportActions : public QObject
{
    Q_OBJECT

public:
    explicit SetupImportActions(MainWindow *window);

    void addTo(QMenu *file);

    // What the import asks when the files do not say it.
    enum class Question
    {
        Model, // a preset id, a config.json or a checkpoint folder
        Gpus,  // the GPU count
        Gpu    // a GPU preset id
    };
    // Answers a question (the prefilled answer in, the user's out); false: cancelled. Tests
    // replace the dialogs with their own answers.
    using Asker = std::function<bool(Question, const QString &why, QString &answer)>;
    void setAsker(Asker asker) { m_ask = std::move(asker); }

    // Reads the files as one setup and applies it (one undoable edit); false when cancelled or
    // refused (lastProblem says why; nothing changed).
    bool importFiles(const QStringList &paths);
    // Writes the scenario in `format` to `path`; false and a message when it cannot.
    bool exportTo(const QString &path, vramplan::ExportFormat format);

    // A file a training setup tool wrote, by its name and first bytes (not a scenario, a
    // Hugging Face config.json, or a measured run).
    static bool isSetupFile(const QString &path);
    // A memory snapshot, a pickle, an nvidia-smi CSV or memory-stats JSON: a measured run.
    static bool isMeasuredRunFile(const QString &path);
    // The dropped files this class or the measured runs take; true when it took them all.
    bool routeDropped(const QList<QUrl> &urls);

    QDialog *explanation() const { return m_explanation; }
    QString lastProblem() const { return m_lastProblem; }
    QString lastExportNotes() const { return m_lastNotes; }

private:
    void chooseFiles();
    void chooseExport();
    void showExplanation(const vramplan::ImportResult &result, const QStringList &paths);
    void report(const QString &problem);
    bool askWithDialogs(Question question, const QString &why, QString &answer);

    MainWindow *m_window;
    Asker m_ask;
    QPointer<QDialog> m_explanation;
    QString m_folder;
    QString m_lastProblem;
    QString m_lastNotes;
};

} // namespace vramplan::ui
