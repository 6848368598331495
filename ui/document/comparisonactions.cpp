#include "document/comparisonactions.h"

#include "formats/comparison.h"
#include "document/dialogs.h"
#include "document/document.h"
#include "document/scenarioname.h"
#include "document/scenariofile.h"
#include "document/servingnames.h"
#include "panels/comparisonview.h"

#include <algorithm>

#include <QFile>
#include <QFileInfo>
#include <QMainWindow>
#include <QMenu>

namespace vramplan::ui {

ComparisonActions::ComparisonActions(Document *document, ComparisonView *view, QMainWindow *window,
                                     std::function<void()> show)
    : QObject(window), m_document(document), m_view(view), m_window(window), m_show(std::move(show))
{
    connect(view, &ComparisonView::loadRequested, this, &ComparisonActions::loadIntoEditor);
}

void ComparisonActions::addTo(QMenu *compare)
{
    compare->addAction(tr("&Add Current Scenario"), QKeySequence(Qt::CTRL | Qt::Key_D), this,
                       &ComparisonActions::addCurrent);
    compare->addAction(tr("&Open Scenarios to Compare..."), this, [this] {
        const QStringList paths = Dialogs::openFileNames(
            m_window, tr("Scenarios to compare"), QFileInfo(m_document->filePath()).absolutePath(),
            tr("vramplan scenarios (*.vramplan.json *.json)"));
        if (!paths.isEmpty())
            compareFiles(paths);
    });
    compare->addAction(tr("Open &Comparison..."), this, [this] {
        const QString path =
            Dialogs::openFileName(m_window, tr("Open comparison"), QString(),
                                  tr("vramplan comparisons (*.vramplan-comparison.json *.json);;"
                                     "All files (*)"));
        if (!path.isEmpty())
            openComparison(path);
    });
    compare->addAction(tr("&Save Comparison As..."), this, [this] {
        QString path = Dialogs::saveFileName(
            m_window, tr("Save comparison"), QStringLiteral("comparison.vramplan-comparison.json"),
            tr("vramplan comparisons (*.vramplan-comparison.json)"));
        if (path.isEmpty())
            return;
        // A bare name keeps no suffix by itself (the dialog adds none), and Open Comparison
        // lists files by it.
        if (!path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive))
            path += QStringLiteral(".vramplan-comparison.json");
        const QString problem = writeTextFile(
            path, QByteArray::fromStdString(comparisonToJson(m_view->comparison()).dump(2) + "\n"));
        if (!problem.isEmpty())
            Dialogs::problem(m_window, tr("Cannot save the comparison"), problem);
    });
}

void ComparisonActions::addCurrent()
{
    const Scenario &s = m_document->scenario();
    const QString name = s.name.empty() ? tr("Scenario %1").arg(m_view->count() + 1) : shownName(s);
    m_view->addScenario(entryLabel(name, s, m_view->comparison().entries).toStdString(), s);
    m_show();
}

bool ComparisonActions::compareFiles(const QStringList &paths)
{
    Comparison comparison;
    for (const QString &path : paths) {
        auto parsed = readScenarioFile(path);
        if (!parsed) {
            Dialogs::problem(m_window, tr("Cannot compare"), QString::fromStdString(parsed.error));
            return false;
        }
        QString label = QString::fromStdString(parsed.value->name);
        if (label.isEmpty()) {
            label = QFileInfo(path).fileName();
            label.remove(QStringLiteral(".vramplan.json"));
        }
        comparison.entries.push_back(
            {entryLabel(label, *parsed.value, comparison.entries).toStdString(), *parsed.value});
    }
    m_view->setComparison(comparison);
    m_show();
    return true;
}

bool ComparisonActions::openComparison(const QString &path)
{
    QFile file(path);
    const QString name = QFileInfo(path).fileName();
    if (!file.open(QIODevice::ReadOnly)) {
        Dialogs::problem(m_window, tr("Cannot open the comparison"),
                         name + QStringLiteral(": ") + file.errorString());
        return false;
    }
    auto parsed = comparisonFromText(file.read(64 << 20).toStdString());
    if (!parsed) {
        Dialogs::problem(m_window, tr("Cannot open the comparison"),
                         name + QStringLiteral(": ") + QString::fromStdString(parsed.error));
        return false;
    }
    m_view->setComparison(*parsed.value);
    m_show();
    return true;
}

QString ComparisonActions::entryLabel(const QString &name, const Scenario &scenario,
                                      const std::vector<ComparisonEntry> &others)
{
    // A generated name says a training run's precision and optimizer ("bf16 mixed" for an fp8
    // server); a server's own settings tell servers apart.
    QString label = name;
    if (scenario.serving.present && scenario.training.mode == Mode::Inference &&
        (scenario.name.empty() || followsSettings(scenario)))
        label = servingLabel(scenario);
    const auto same = std::find_if(others.begin(), others.end(), [&](const ComparisonEntry &e) {
        return QString::fromStdString(e.label) == label;
    });
    if (same == others.end())
        return label;
    // What differs from the entry of that name, as a file writes it (up to two fields).
    QStringList differs;
    for (const DifferingInput &d : differingInputs({same->scenario, scenario})) {
        if (differs.size() == 2)
            break;
        differs << QStringLiteral("%1 %2").arg(
            QString::fromStdString(d.path.substr(d.path.rfind('.') + 1)),
            QString::fromStdString(d.values[1]));
    }
    // "name (what differs)", or where nothing does, "name (3)".
    return tr("%1 (%2)").arg(label, differs.isEmpty() ? QString::number(others.size() + 1)
                                                       : differs.join(QStringLiteral(", ")));
}

void ComparisonActions::loadIntoEditor(int index)
{
    if (index < 0 || index >= m_view->count())
        return;
    const ComparisonEntry &entry = m_view->comparison().entries[size_t(index)];
    m_document->edit(
        entry.scenario,
        tr("Load \u201c%1\u201d from the comparison").arg(QString::fromStdString(entry.label)));
}

} // namespace vramplan::ui
