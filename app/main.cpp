// vramplan: the planner window.
//   vramplan [SCENARIO]                                   the window
//   vramplan COMPARISON                                   the window on a comparison
//                                                         (*.vramplan-comparison.json)
//   vramplan [SCENARIO] --screenshot FILE.png             the window rendered at 1280x800
//   vramplan SCENARIO [--chart NAME] --export OUT         a chart (png, svg, pdf) or the
//                                                         breakdown table (csv, json, md)
//   vramplan SCENARIO SCENARIO... | COMPARISON [--chart NAME] --export OUT
//                                                         the comparison chart or table
//   vramplan --version                                    "vramplan VERSION"
// --screenshot and --export need no display (QT_QPA_PLATFORM=offscreen).
// The window speaks the system's language where vramplan has a translation of it (Simplified
// Chinese: LANG=zh_CN.UTF-8), or the one chosen under View > Language; --help too.

#include "formats/breakdown_table.h"
#include "catalog.h"
#include "formats/comparison.h"
#include "comparisonview.h"
#include "document/language.h"
#include "document/settings.h"
#include "mainwindow.h"
#include "formats/scenario_json.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QIcon>
#include <QMessageBox>
#include <QStatusBar>

#include <cstdio>
#include <optional>

namespace {

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::Main)
};

vramplan::Scenario defaultScenario()
{
    auto parsed = vramplan::scenarioFromText(vramplan::Catalog::builtin().defaultScenarioText());
    return parsed ? *parsed.value : vramplan::Scenario{};
}

// The scenario in a file, or the reason it cannot be used ("FILE: field: problem").
vramplan::Parsed<vramplan::Scenario> loadScenario(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return vramplan::Parsed<vramplan::Scenario>::fail(
            (path + QStringLiteral(": ") + file.errorString()).toStdString());
    auto parsed = vramplan::scenarioFromText(file.read(64 << 20).toStdString());
    if (!parsed)
        parsed.error = path.toStdString() + ": " + parsed.error;
    return parsed;
}

// A comparison file (what the desktop entry's MIME type application/x-vramplan-comparison
// matches), as opposed to a scenario.
bool isComparisonFile(const QString &path)
{
    return path.endsWith(QLatin1String(".vramplan-comparison.json"), Qt::CaseInsensitive);
}

vramplan::Parsed<vramplan::Comparison> loadComparison(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return vramplan::Parsed<vramplan::Comparison>::fail(
            (path + QStringLiteral(": ") + file.errorString()).toStdString());
    auto parsed = vramplan::comparisonFromText(file.read(64 << 20).toStdString());
    if (!parsed)
        parsed.error = path.toStdString() + ": " + parsed.error;
    return parsed;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("vramplan"));
    QApplication::setOrganizationName(QStringLiteral("vramplan"));
    QApplication::setApplicationVersion(QStringLiteral(VRAMPLAN_VERSION));
    // The desktop entry and the icon share this id (packaging/): window managers match the
    // window to the entry by it, and the icon is compiled in for the window itself.
    QApplication::setDesktopFileName(QStringLiteral(VRAMPLAN_APP_ID));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/" VRAMPLAN_APP_ID ".svg")));
    // Before anything is worded: the help, the window, its messages.
    vramplan::ui::installTranslations(vramplan::ui::Settings::language());

    QCommandLineParser parser;
    parser.setApplicationDescription(Words::tr("GPU memory planner for training runs"));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("scenario"),
        Words::tr("A *.vramplan.json scenario (or *.vramplan-comparison.json) to open; "
                  "several scenarios make a comparison"));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        Words::tr("Render the window at 1280x800 into FILE.png and exit"),
        QStringLiteral("FILE.png"));
    parser.addOption(screenshot);
    const QCommandLineOption chart(
        QStringLiteral("chart"),
        Words::tr("Chart to export: breakdown, batch, sequence, gpus or timeline; with "
                  "several scenario files or a comparison file, the comparison chart"),
        QStringLiteral("NAME"), QStringLiteral("breakdown"));
    const QCommandLineOption exportTo(
        QStringLiteral("export"),
        Words::tr("Write a chart (png, svg, pdf) or the breakdown table (csv, json, md) and exit"),
        QStringLiteral("OUT"));
    parser.addOption(chart);
    parser.addOption(exportTo);
    parser.process(app);

    vramplan::Scenario scenario = defaultScenario();
    const QStringList files = parser.positionalArguments();
    QString problem;
    std::optional<vramplan::Comparison> comparison;
    if (files.size() == 1 && isComparisonFile(files.first())) {
        auto parsed = loadComparison(files.first());
        if (parsed)
            comparison = *parsed.value;
        else
            problem = QString::fromStdString(parsed.error);
    } else if (!files.isEmpty()) {
        auto parsed = loadScenario(files.first());
        if (parsed)
            scenario = *parsed.value;
        else
            problem = QString::fromStdString(parsed.error);
    }
    const bool headless = parser.isSet(screenshot) || parser.isSet(exportTo);
    if (!problem.isEmpty() && headless) {
        std::fprintf(stderr, "%s\n", qPrintable(problem));
        return 2;
    }

    vramplan::ui::MainWindow window;
    if (headless)
        window.setAutosavePath(QString()); // scripts leave no autosave behind
    window.setScenario(scenario);
    if (comparison) {
        window.comparisonView()->setComparison(*comparison);
        window.showComparison();
    }
    if (parser.isSet(exportTo) && (files.size() > 1 || comparison)) {
        // Several files make a comparison, as does a comparison file: the comparison chart, or
        // its table.
        if (!comparison && !window.compareFiles(files)) {
            std::fprintf(stderr, "%s\n", qPrintable(window.statusBar()->currentMessage()));
            return 2;
        }
        const QString out = parser.value(exportTo);
        const QString suffix = QFileInfo(out).suffix().toLower();
        window.resize(1280, 800);
        QString why;
        if (vramplan::tableFormatFromExtension(suffix.toStdString())) {
            why = window.exportComparisonTable(out);
        } else {
            const QString name =
                parser.isSet(chart) ? parser.value(chart) : QStringLiteral("comparison");
            why = window.exportChart(name, out);
        }
        if (!why.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(why));
            return 2;
        }
        return 0;
    }
    if (parser.isSet(exportTo)) {
        const QString out = parser.value(exportTo);
        const QString suffix = QFileInfo(out).suffix().toLower();
        const bool table = suffix == QLatin1String("csv") || suffix == QLatin1String("json") ||
                           suffix == QLatin1String("md");
        window.resize(1280, 800);
        const QString problem =
            table ? window.exportTable(out) : window.exportChart(parser.value(chart), out);
        if (!problem.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(problem));
            return 2;
        }
        return 0;
    }
    if (parser.isSet(screenshot)) {
        const QString out = parser.value(screenshot);
        if (!window.saveScreenshot(out)) {
            std::fprintf(stderr, "%s\n",
                         qPrintable(Words::tr("%1: could not write the screenshot").arg(out)));
            return 1;
        }
        return 0;
    }
    window.show();
    // Unsaved work left by a session that did not close cleanly is offered back.
    const QString autosave = window.autosavePath();
    if (files.isEmpty() && QFile::exists(autosave)) {
        const auto answer = QMessageBox::question(
            &window, Words::tr("Recover unsaved work"),
            Words::tr("vramplan did not close cleanly last time. Recover the unsaved scenario?"),
            QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes);
        if (answer == QMessageBox::Yes)
            window.recoverAutosave(autosave);
        else
            QFile::remove(autosave);
    }
    if (!problem.isEmpty())
        QMessageBox::warning(&window, Words::tr("Cannot open the scenario"), problem);
    return app.exec();
}
