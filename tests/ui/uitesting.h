#pragma once
// What the window's tests share: the bundled scenarios, a window shown at a size with every
// chart laid out, what a chart's legend and labels occupy, and (when VRAMPLAN_TEST_SHOTS names
// a folder) a picture of the window for a person to look at.

#include "catalog.h"
#include "mainwindow.h"
#include "formats/scenario_json.h"
#include "testhelpers.h"

#include <QCoreApplication>
#include <QDir>
#include <QTest>
#include <qcustomplot.h>

namespace vramplan::test {

inline Scenario defaultScenario()
{
    return *scenarioFromText(Catalog::builtin().defaultScenarioText()).value;
}

// docs/screenshot.vramplan.json: Qwen3-30B-A3B, LoRA at 8k tokens on one H100 (does not fit).
inline Scenario screenshotScenario()
{
    return parseOrFail(
        readFile(QStringLiteral(VRAMPLAN_TEST_DATA "/../../docs/screenshot.vramplan.json")));
}

// tests/data/scenarios/<name>.vramplan.json
inline Scenario dataScenario(const QString &name)
{
    return parseOrFail(readFile(dataPath(QStringLiteral("scenarios/%1.vramplan.json").arg(name))));
}

// Every chart in view drawn now (QCustomPlot lays a plot out as it draws it).
inline void replotAll(QWidget &w)
{
    QCoreApplication::processEvents();
    for (QCustomPlot *plot : w.findChildren<QCustomPlot *>())
        if (plot->isVisible())
            plot->replot(QCustomPlot::rpImmediateRefresh);
}

inline bool showAt(ui::MainWindow &w, QSize size)
{
    w.resize(size);
    w.show();
    if (!QTest::qWaitForWindowExposed(&w))
        return false;
    QCoreApplication::processEvents();
    replotAll(w);
    return true;
}

// With VRAMPLAN_TEST_SHOTS=folder, the window as drawn, for a person to look at.
inline void keepShot(QWidget &w, const QString &name)
{
    const QString folder = qEnvironmentVariable("VRAMPLAN_TEST_SHOTS");
    if (folder.isEmpty())
        return;
    QDir().mkpath(folder);
    w.grab().save(folder + QLatin1Char('/') + name + QStringLiteral(".png"));
}

// Where a text item is drawn, in the plot's pixels.
inline QRectF itemRect(const QCPItemText *item)
{
    return QRectF(item->topLeft->pixelPosition(), item->bottomRight->pixelPosition()).normalized();
}

} // namespace vramplan::test
