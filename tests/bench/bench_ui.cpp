// The UI update path, offscreen at 1280x800 (QT_QPA_PLATFORM=offscreen): a control change
// through re-estimate to every chart re-plotted; building and painting the window; idle RSS;
// the whole `vramplan --screenshot` process.
// Timing stays out of the pass/fail tests: run with `cmake --build build --target bench`.

#include "catalog.h"
#include "charts/breakdownchart.h"
#include "charts/curvechart.h"
#include "charts/timelinechart.h"
#include "mainwindow.h"
#include "panels/controlspanel.h"
#include "panels/logslider.h"
#include "panels/presetpicker.h"
#include "formats/scenario_json.h"

#include <QApplication>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QProcess>
#include <qcustomplot.h>

#include <benchmark/benchmark.h>

using namespace vramplan;

namespace {

Scenario defaultScenario()
{
    return *scenarioFromText(Catalog::builtin().defaultScenarioText()).value;
}

void replotAll(ui::MainWindow &w)
{
    for (QCustomPlot *plot : w.findChildren<QCustomPlot *>())
        if (plot->isVisible())
            plot->replot(QCustomPlot::rpImmediateRefresh);
}

double residentMiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return 0;
    for (const QByteArray &line : status.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    return 0;
}

void BM_ControlChangeToReplot(benchmark::State &state)
{
    ui::MainWindow w;
    w.setScenario(defaultScenario());
    w.resize(1280, 800);
    w.show();
    QApplication::processEvents();
    QDoubleSpinBox *batch = w.controls()->microBatch()->spinBox();
    int b = 1;
    for (auto _ : state) {
        b = b == 1 ? 2 : 1;
        batch->setValue(b); // edit -> estimate and curves -> every chart's data
        replotAll(w);       // -> every visible chart drawn
    }
    state.counters["idle_rss_MiB"] = residentMiB();
}
BENCHMARK(BM_ControlChangeToReplot)->Unit(benchmark::kMillisecond);

// The same for Qwen3-30B-A3B on 8 GPUs with expert parallelism 8, at imbalance 1.0 (no band)
// and 2.0 (every sample estimated twice more: with balanced routing, for the band).
void BM_MoeControlChangeToReplot(benchmark::State &state)
{
    Scenario s = defaultScenario();
    s.model = *ui::presetModel("qwen3-30b-a3b");
    s.model.moe.imbalance = double(state.range(0)) / 10.0;
    s.parallelism.gpus = 8;
    s.parallelism.expertParallel = 8;
    ui::MainWindow w;
    w.setScenario(s);
    w.resize(1280, 800);
    w.show();
    QApplication::processEvents();
    QDoubleSpinBox *batch = w.controls()->microBatch()->spinBox();
    int b = 1;
    for (auto _ : state) {
        b = b == 1 ? 2 : 1;
        batch->setValue(b);
        replotAll(w);
    }
}
BENCHMARK(BM_MoeControlChangeToReplot)->Arg(10)->Arg(20)->Unit(benchmark::kMillisecond);

void BM_WindowToFirstPaint(benchmark::State &state)
{
    for (auto _ : state) {
        ui::MainWindow w;
        w.setScenario(defaultScenario());
        w.resize(1280, 800);
        w.show();
        QApplication::processEvents();
        benchmark::DoNotOptimize(w.grab());
    }
}
BENCHMARK(BM_WindowToFirstPaint)->Unit(benchmark::kMillisecond);

// The README's "whole `vramplan --screenshot` process, start to PNG": the installed program's
// own start-up (Qt, fonts, resources, the bundled scenario), the window rendered offscreen and
// the PNG written, as a user or a script runs it.
void BM_ScreenshotProcess(benchmark::State &state)
{
    const QString png = QDir::temp().filePath(QStringLiteral("vramplan-bench-shot.png"));
    for (auto _ : state) {
        QProcess p;
        p.start(QStringLiteral(VRAMPLAN_APP), {QStringLiteral("--screenshot"), png});
        if (!p.waitForFinished(60000) || p.exitCode() != 0) {
            state.SkipWithError("vramplan --screenshot failed");
            break;
        }
    }
    QFile::remove(png);
}
BENCHMARK(BM_ScreenshotProcess)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
