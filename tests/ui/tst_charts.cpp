// The charts and their exports (issue 11): the comparison's legend clear of its bars (2), SVG
// curves cut at the top of the plot (3), a headless export with the ticks and names of one from
// the window (4), a value range that shows the current point and the capacity, saying what runs
// off the top (5), tooltips on the curves and the timeline and whole formulas in the
// breakdown's (8), the timeline's device line, the verdict's basis (10), sizes in TiB and plain
// tick labels (13).
// Issue 21: the timeline's peak label inside the plot when the peak is the first phase (10), no
// lone "..." for an empty curve note (11), the breakdown's total clear of the capacity line and
// the likely range (12), charts that follow a dark palette while exports stay light (25).

#include "charts/breakdownchart.h"
#include "charts/whiskerlegenditem.h"
#include "charts/breakdowntooltip.h"
#include "charts/componentstyle.h"
#include "charts/curvechart.h"
#include "charts/timelinechart.h"
#include "charts/units.h"
#include "chartspage.h"
#include "panels/comparisonview.h"
#include "panels/statusline.h"
#include "plancontroller.h"
#include "uitesting.h"

#include <QDomDocument>
#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QSvgGenerator>
#include <QSvgRenderer>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolTip>

#include <cmath>

using namespace vramplan;
using namespace vramplan::ui;
using namespace vramplan::test;

namespace {

constexpr double GiB = 1073741824.0;

QString gib(double bytes, int decimals = 2)
{
    return formatSize(bytes, Unit::GiB, decimals);
}

// Every <text> of an SVG, in order.
QStringList svgTexts(const QString &path)
{
    QDomDocument svg;
    svg.setContent(QByteArray::fromStdString(readFile(path)));
    QStringList texts;
    const QDomNodeList nodes = svg.elementsByTagName(QStringLiteral("text"));
    for (int i = 0; i < nodes.size(); ++i)
        texts << nodes.at(i).toElement().text().trimmed();
    return texts;
}

QStringList legendNames(const QCustomPlot *plot)
{
    QStringList names;
    for (int i = 0; i < plot->legend->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(plot->legend->item(i)))
            names << item->plottable()->name();
    return names;
}

QCPItemText *visibleText(QCustomPlot *plot, const QString &prefix)
{
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
            if (text->realVisibility() && text->text().startsWith(prefix))
                return text;
    return nullptr;
}

// WCAG's contrast ratio of two colours: 1 (none) to 21 (black on white).
double contrast(const QColor &a, const QColor &b)
{
    auto luminance = [](const QColor &c) {
        auto channel = [](double v) {
            return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4);
        };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) +
               0.0722 * channel(c.blueF());
    };
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

Scenario withGpus(Scenario s, int64_t gpus)
{
    s.parallelism.gpus = gpus;
    return s;
}

} // namespace

class TestCharts : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("vramplan-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_charts"));
    }
    void comparisonLegendClearOfTheBars();
    void svgCurvesAreCutAtTheTop();
    void headlessExportKeepsItsLabels_data();
    void headlessExportKeepsItsLabels();
    void exportTitleIsWrappedNotCut();
    void rangeShowsCurrentAndCapacity_data();
    void rangeShowsCurrentAndCapacity();
    void curveAndTimelineTooltips();
    void formulasAreWhole();
    void timelineShowsTheDevice();
    void sizesAndCountsRead();
    void axesInTiBWithPlainNumbers();
    void timelinePeakLabelInsideWhenFirst();
    void emptyNoteDrawsNothing();
    void breakdownTotalClearOfCapacityAndRange();
    void likelyRangeHasALegendEntry();
    void chartsFollowADarkPalette();
    void breakdownAxisFitsTheBar_data();
    void breakdownAxisFitsTheBar();
    void breakdownAxisComesBackDown();
    void comparisonExportLabelsApart_data();
    void comparisonExportLabelsApart();
};

// The legend beside the plot, never over the first bar or its total.
void TestCharts::comparisonLegendClearOfTheBars()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(defaultScenario());
    Comparison comparison;
    for (int64_t gpus : {1, 2, 8})
        comparison.entries.push_back(
            {"gpus " + std::to_string(gpus), withGpus(defaultScenario(), gpus)});
    w.comparisonView()->setComparison(comparison);
    w.showComparison();
    QVERIFY(showAt(w, QSize(1280, 800)));
    QCustomPlot *plot = w.comparisonView()->plot();
    const QRect legend = plot->legend->outerRect();
    QVERIFY(!legend.isEmpty());
    QVERIFY2(!legend.intersects(plot->axisRect()->rect()),
             qPrintable(QStringLiteral("legend at x %1, plot from %2 to %3")
                            .arg(legend.left())
                            .arg(plot->axisRect()->left())
                            .arg(plot->axisRect()->right())));
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *label = qobject_cast<QCPItemText *>(plot->item(i)))
            QVERIFY(!itemRect(label).intersects(legend));
    keepShot(w, QStringLiteral("comparison"));
}

// Drawn from the file alone (QSvgRenderer, like a browser, follows what the file says), the
// batch curve of a model whose sweep runs far off the top leaves the header and the chart's
// title blank: the areas stop at the top of the plot.
void TestCharts::svgCurvesAreCutAtTheTop()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(screenshotScenario());
    QVERIFY(!w.batchChart()->note().isEmpty()); // the premise: samples run off the top
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("batch.svg"));
    QCOMPARE(w.exportChart(QStringLiteral("batch"), path), QString());
    QCustomPlot *plot = w.batchChart()->plot();
    // Every point handed to QCustomPlot is within the axis.
    const double top = plot->yAxis->range().upper;
    for (int g = 0; g < plot->graphCount(); ++g)
        for (auto it = plot->graph(g)->data()->constBegin();
             it != plot->graph(g)->data()->constEnd(); ++it)
            QVERIFY2(it->value <= top * (1 + 1e-12), qPrintable(QString::number(it->value)));

    QSvgRenderer svg(path);
    QVERIFY(svg.isValid());
    if (qEnvironmentVariableIsSet("VRAMPLAN_TEST_SHOTS"))
        QFile::copy(path,
                    qEnvironmentVariable("VRAMPLAN_TEST_SHOTS") + QStringLiteral("/batch.svg"));
    const QSize size = svg.viewBox().size(); // the export's pixels
    QImage image(size, QImage::Format_ARGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    svg.render(&painter);
    painter.end();
    if (qEnvironmentVariableIsSet("VRAMPLAN_TEST_SHOTS"))
        image.save(qEnvironmentVariable("VRAMPLAN_TEST_SHOTS") + QStringLiteral("/batch-svg.png"));
    const int header = size.height() - 600; // exportPlot draws the chart 600 high under it
    const int plotTop = header + plot->axisRect()->top();
    int coloured = 0;
    for (int y = 0; y < plotTop - 2; ++y)
        for (int x = 0; x < size.width(); ++x)
            coloured += image.pixelColor(x, y).hslSaturation() > 80;
    QCOMPARE(coloured, 0);
    int below = 0; // the areas are there, below the top
    for (int y = plotTop + 4; y < size.height(); y += 2)
        for (int x = 0; x < size.width(); x += 2)
            below += image.pixelColor(x, y).hslSaturation() > 80;
    QVERIFY(below > 1000);
}

void TestCharts::headlessExportKeepsItsLabels_data()
{
    QTest::addColumn<QString>("chart");
    QTest::addColumn<int>("ticks");               // at least
    QTest::newRow("sequence") << "sequence" << 9; // 128 to 32k
    QTest::newRow("gpus") << "gpus" << 7;         // 1 to 64
    QTest::newRow("batch") << "batch" << 9;       // 1 to 256
    QTest::newRow("timeline") << "timeline" << 5; // a name under every bar
}

// `vramplan FILE --chart NAME --export OUT` draws the chart of a window never shown: its ticks
// and names are those of the same export from a window on screen, every phase's name on as few
// lines as the width allows.
void TestCharts::headlessExportKeepsItsLabels()
{
    QFETCH(QString, chart);
    QFETCH(int, ticks);
    QTemporaryDir dir;
    auto exported = [&](MainWindow &w) {
        const QString path = dir.filePath(chart + QStringLiteral(".svg"));
        const QString problem = w.exportChart(chart, path);
        QCustomPlot *plot = chart == "timeline" ? w.timelineChart()->plot()
                            : chart == "batch"  ? w.batchChart()->plot()
                            : chart == "gpus"   ? w.gpuChart()->plot()
                                                : w.sequenceChart()->plot();
        return std::pair(problem, plot->xAxis->tickVectorLabels());
    };
    MainWindow hidden;
    hidden.setScenario(screenshotScenario());
    hidden.resize(1280, 800);
    const auto [problem, headless] = exported(hidden);
    QCOMPARE(problem, QString());
    QVERIFY2(headless.size() >= ticks,
             qPrintable(QStringList(headless.begin(), headless.end()).join(", ")));
    if (chart == "timeline")
        QCOMPARE(QStringList(headless.begin(), headless.end()),
                 (QStringList{"end of forward", "start of backward (loss)",
                              "backward of the last layer", "end of backward", "optimizer step"}));

    MainWindow shown;
    shown.setScenario(screenshotScenario());
    QVERIFY(showAt(shown, QSize(1280, 800)));
    QCOMPARE(exported(shown).second, headless);
}

// The breakdown's export (640 wide) writes the whole title over as many lines as it needs.
void TestCharts::exportTitleIsWrappedNotCut()
{
    MainWindow w;
    w.setScenario(screenshotScenario());
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("breakdown.svg"));
    QCOMPARE(w.exportChart(QStringLiteral("breakdown"), path), QString());
    const QString texts = svgTexts(path).join(QLatin1Char(' '));
    const QString title =
        QString::fromStdString(screenshotScenario().name) + QStringLiteral(": Memory per GPU");
    QVERIFY2(texts.simplified().startsWith(title), qPrintable(texts.left(200)));
    QVERIFY(!texts.contains(QChar(0x2026)));
}

void TestCharts::rangeShowsCurrentAndCapacity_data()
{
    QTest::addColumn<QString>("scenario");
    QTest::newRow("default (over by 2x)") << "default";
    QTest::newRow("405B on a 4090 (over by 250x)") << "llama-3.1-405b-rtx4090";
    QTest::newRow("GPT-2 on an H100 (far below)") << "gpt2-h100";
    QTest::newRow("screenshot") << "screenshot";
}

// Every curve's value axis reaches just above the current point's likely range and the capacity
// line, and a note above the plot says which samples run off it.
void TestCharts::rangeShowsCurrentAndCapacity()
{
    QFETCH(QString, scenario);
    const Scenario s = scenario == "default"      ? defaultScenario()
                       : scenario == "screenshot" ? screenshotScenario()
                                                  : dataScenario(scenario);
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(s);
    const Estimate e = estimate(s);
    const PlanController *c = w.controller();
    const std::pair<CurveChart *, const CurveData *> curves[] = {
        {w.batchChart(), &c->batchCurve()},
        {w.sequenceChart(), &c->sequenceCurve()},
        {w.gpuChart(), &c->gpuCurve()}};
    for (const auto &[chart, data] : curves) {
        const double current = chart->totalAt(data->current);
        QVERIFY(std::isfinite(current));
        QCOMPARE(current, e.peak.device / GiB);
        const double capacity = e.capacityBytes / GiB;
        const double top = std::max(current * 1.14, capacity) * 1.15;
        QVERIFY2(std::abs(chart->valueTop() - top) < 1e-9 * top,
                 qPrintable(QStringLiteral("%1: top %2, expected %3")
                                .arg(data->xName)
                                .arg(chart->valueTop())
                                .arg(top)));
        QCOMPARE(chart->plot()->yAxis->range().upper, chart->valueTop());
        // What runs off, said in the note.
        double first = NAN, last = NAN, most = 0;
        for (size_t i = 0; i < data->x.size(); ++i) {
            const double total = chart->totalAt(data->x[i]);
            if (total > top) {
                first = std::isnan(first) ? data->x[i] : first;
                last = data->x[i];
                most = std::max(most, total);
            }
        }
        const QString expected =
            std::isnan(first)
                ? QString()
                : QStringLiteral("Off the top: %1 %2 (up to %3)")
                      .arg(data->xName,
                           first == last ? QString::number(first)
                                         : QStringLiteral("%1 to %2").arg(first).arg(last),
                           gib(most * GiB));
        QCOMPARE(chart->note(), expected);
    }
    if (scenario == "screenshot")
        QCOMPARE(w.batchChart()->note(),
                 QStringLiteral("Off the top: micro-batch 3 to 256 (up to 5.54 TiB)"));
    if (scenario == "gpt2-h100")
        QCOMPARE(w.batchChart()->valueTop(), e.capacityBytes / GiB * 1.15);
}

// Hovering a curve names the sample, its total and the component under the cursor; hovering a
// timeline bar names the phase, its total and the component.
void TestCharts::curveAndTimelineTooltips()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    const Scenario s = screenshotScenario();
    w.setScenario(s);
    QVERIFY(showAt(w, QSize(1280, 800)));
    const Estimate e = estimate(s);
    const double params = e.perGpu[size_t(Component::Parameters)];

    QCustomPlot *curve = w.batchChart()->plot();
    const QPointF atParameters(curve->xAxis->coordToPixel(1.0),
                               curve->yAxis->coordToPixel(params / GiB / 2));
    const QString expected =
        QStringLiteral("micro-batch 1: %1 per GPU\nlikely %2 to %3\nParameters: %4")
            .arg(gib(e.peak.device), gib(e.peak.device * 0.96, 1), gib(e.peak.device * 1.14, 1),
                 gib(params));
    QCOMPARE(w.batchChart()->toolTipAt(atParameters), expected);
    QCOMPARE(w.batchChart()->toolTipAt(QPointF(1, 1)), QString()); // off the plot
    QTest::mouseMove(curve, atParameters.toPoint());
    QTRY_COMPARE(QToolTip::text(), expected);

    QCustomPlot *timeline = w.timelineChart()->plot();
    int peak = -1;
    for (int i = 0, bar = 0; i < phaseCount; ++i) {
        if (!e.phases[size_t(i)].present)
            continue;
        if (e.phases[size_t(i)].phase == e.peak.phase)
            peak = bar;
        ++bar;
    }
    QVERIFY(peak >= 0);
    const PhaseTotals &phase = e.phases[size_t(e.peak.phase)];
    double allocated = 0;
    for (double b : phase.byComponent)
        allocated += b;
    const double logits = phase.byComponent[size_t(Component::LogitsAndLoss)];
    double belowLogits = 0;
    for (int c = 0; c < int(Component::LogitsAndLoss); ++c)
        belowLogits += phase.byComponent[size_t(c)];
    const QPointF atLogits(timeline->xAxis->coordToPixel(peak + 1),
                           timeline->yAxis->coordToPixel((belowLogits + logits / 2) / GiB));
    QCOMPARE(w.timelineChart()->toolTipAt(atLogits),
             QStringLiteral("start of backward (loss): %1 allocated\nthe peak of the step; the "
                            "device holds %2\nLogits and loss: %3")
                 .arg(gib(allocated), gib(e.peak.device), gib(logits)));
    QCOMPARE(w.timelineChart()->toolTipAt(
                 QPointF(timeline->xAxis->coordToPixel(peak + 1.5), atLogits.y())),
             QString()); // between two bars
}

// The optimizer states' tooltip of an AdamW run lists its formula whole, over as many lines as
// it takes; the KV cache's of an inference run carries its worked numbers.
void TestCharts::formulasAreWhole()
{
    const Scenario s = defaultScenario(); // AdamW
    QCOMPARE(s.training.optimizer, Optimizer::Adamw);
    const Estimate e = estimate(s);
    const QString tip = breakdownToolTip(e, Component::OptimizerStates, Unit::GiB);
    const QString joined =
        tip.split(QLatin1Char('\n'))
            .replaceInStrings(QRegularExpression(QStringLiteral("^ +")), QString())
            .join(QLatin1Char(' '));
    for (const Item &item : e.items) {
        if (item.component != Component::OptimizerStates || item.formula.empty())
            continue;
        const QString formula =
            QString::fromUtf8(item.formula.data(), qsizetype(item.formula.size()));
        QVERIFY2(joined.contains(formula), qPrintable(tip));
    }
    QVERIFY(!tip.contains(QChar(0x2026)));
    for (const QString &line : tip.split(QLatin1Char('\n')))
        QVERIFY2(line.size() <= 80, qPrintable(line));
}

// The timeline draws allocated memory per phase and, as a line, what the device holds: the
// number the status bar's verdict compares with the capacity.
void TestCharts::timelineShowsTheDevice()
{
    for (const Scenario &s : {defaultScenario(), withGpus(defaultScenario(), 8)}) {
        MainWindow w;
        w.setUnit(Unit::GiB);
        Scenario fits = s;
        if (s.parallelism.gpus == 8)
            fits.parallelism.zeroStage = 3; // 8 GPUs with ZeRO-3 fits
        w.setScenario(fits);
        const Estimate e = estimate(fits);
        TimelineChart *timeline = w.timelineChart();
        QCOMPARE(timeline->deviceValue(), e.peak.device / GiB);
        QCOMPARE(timeline->capacityValue(), e.capacityBytes / GiB);
        QCOMPARE(timeline->deviceLabel(), QStringLiteral("device ") + gib(e.peak.device, 1));
        QCOMPARE(timeline->deviceValue() > timeline->capacityValue(), !e.fits);
        QVERIFY(w.statusText().contains(e.fits ? QStringLiteral("fits")
                                               : QStringLiteral("does not fit")));
        const QStringList legend = legendNames(timeline->plot());
        QVERIFY(legend.contains(QStringLiteral("capacity ") + gib(e.capacityBytes)));
        QVERIFY(legend.contains(timeline->deviceLabel()));
        QVERIFY(timeline->plot()->yAxis->range().upper > timeline->deviceValue());
    }
}

void TestCharts::sizesAndCountsRead()
{
    QCOMPARE(formatSize(1012741.34 * GiB, Unit::GiB), QStringLiteral("989.01 TiB"));
    QCOMPARE(formatSize(1023.99 * GiB, Unit::GiB), QStringLiteral("1023.99 GiB"));
    QCOMPARE(formatSize(1024 * GiB, Unit::GiB), QStringLiteral("1.00 TiB"));
    QCOMPARE(formatSize(2.5e15, Unit::GiB), QStringLiteral("2.22 PiB"));
    QCOMPARE(formatSize(1.25e12, Unit::GB), QStringLiteral("1.25 TB"));
    QCOMPARE(formatSize(999e9, Unit::GB), QStringLiteral("999.00 GB"));
    QCOMPARE(formatSize(-1000.0, Unit::GiB), QStringLiteral("0.00 GiB"));
    QCOMPARE(formatCount(7.0e6), QStringLiteral("7.00 M"));
    QCOMPARE(formatCount(1.2e9), QStringLiteral("1.20 B"));
    QCOMPARE(formatCount(8.03e9), QStringLiteral("8.03 B"));
    QCOMPARE(formatCount(844e6), QStringLiteral("844 M"));
    QCOMPARE(formatCount(999.6e6), QStringLiteral("1.00 B"));
    QCOMPARE(formatCount(1.03e12), QStringLiteral("1.03 T"));
    QCOMPARE(formatCount(12345), QStringLiteral("12.3 K"));
    QCOMPARE(formatCount(0), QStringLiteral("0"));
    // Axis ticks (issue 21 #26: the KV-token axis read "60.0 K"): round numbers, no zeros.
    QCOMPARE(formatTickCount(60000), QStringLiteral("60k"));
    QCOMPARE(formatTickCount(62500), QStringLiteral("62.5k"));
    QCOMPARE(formatTickCount(131072), QStringLiteral("131.1k"));
    QCOMPARE(formatTickCount(1.5e6), QStringLiteral("1.5M"));
    QCOMPARE(formatTickCount(2e9), QStringLiteral("2B"));
    QCOMPARE(formatTickCount(500), QStringLiteral("500"));
    QCOMPARE(formatTickCount(0), QStringLiteral("0"));

    // LoRA trains a few million parameters: "M", not "0.007 B".
    MainWindow w;
    Scenario lora = defaultScenario();
    lora.training.finetune.method = FinetuneMethod::Lora;
    w.setScenario(lora);
    const Estimate e = estimate(lora);
    QCOMPARE(w.statusLine()->countsLabel()->text(),
             QStringLiteral("8.03 B parameters, %1 trainable")
                 .arg(formatCount(double(e.trainableParameters))));
    QVERIFY(w.statusLine()->countsLabel()->text().endsWith(QStringLiteral(" M trainable")));
}

// A 405B model on one 4090 needs terabytes: the axes say TiB and their ticks are plain
// numbers, on every chart.
void TestCharts::axesInTiBWithPlainNumbers()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(dataScenario(QStringLiteral("llama-3.1-405b-rtx4090")));
    QVERIFY(showAt(w, QSize(1280, 800)));
    QTemporaryDir dir;
    QCOMPARE(w.exportChart(QStringLiteral("gpus"), dir.filePath(QStringLiteral("g.png"))),
             QString());
    const QRegularExpression plain(QStringLiteral("^\\d+(\\.\\d+)?$"));
    for (QCustomPlot *plot : {w.breakdownChart()->plot(), w.batchChart()->plot(),
                              w.gpuChart()->plot(), w.timelineChart()->plot()}) {
        replotAll(w);
        QCOMPARE(plot->yAxis->label(), QStringLiteral("Memory per GPU (TiB)"));
        const QVector<QString> ticks = plot->yAxis->tickVectorLabels();
        QVERIFY(ticks.size() >= 3);
        for (const QString &tick : ticks)
            QVERIFY2(plain.match(tick).hasMatch(), qPrintable(tick));
    }
    QVERIFY(w.statusText().contains(QStringLiteral(" TiB per GPU")));
    QVERIFY(w.statusText().contains(QStringLiteral("406 B parameters")));
}

// Where the peak is the first bar, its label ("peak: 60.3 GiB allocated") is moved right so
// that it starts inside the plot, not cut at the left edge (": 60.3 GiB allocated").
void TestCharts::timelinePeakLabelInsideWhenFirst()
{
    Estimate e = estimate(defaultScenario());
    Phase first = Phase::Initialisation;
    for (int i = 0; i < phaseCount; ++i)
        if (e.phases[size_t(i)].present && Phase(i) != Phase::Initialisation) {
            first = Phase(i);
            break;
        }
    e.phases[size_t(Phase::Initialisation)].present = false;
    e.peak.phase = first;
    e.peak.allocated = 60.3 * GiB;
    TimelineChart chart;
    chart.resize(560, 260);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.setEstimate(e, Unit::GiB);
    chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
    QCPItemText *peak = visibleText(chart.plot(), QStringLiteral("peak:"));
    QVERIFY(peak);
    QCOMPARE(peak->text(), QStringLiteral("peak: 60.3 GiB allocated"));
    const QRect axis = chart.plot()->axisRect()->rect();
    QVERIFY2(axis.contains(itemRect(peak).toAlignedRect()),
             qPrintable(QStringLiteral("label from x %1, plot from %2")
                            .arg(itemRect(peak).left())
                            .arg(axis.left())));
}

// A curve whose samples all fit has no note: nothing is drawn under its title, on screen (after
// a scenario that had one) or in an export.
void TestCharts::emptyNoteDrawsNothing()
{
    auto lonelyEllipsis = [](QCustomPlot *plot) {
        QStringList drawn;
        for (QCPTextElement *text : plot->findChildren<QCPTextElement *>())
            if (text->realVisibility() && text->text().simplified() == QString(QChar(0x2026)))
                drawn << text->text();
        return drawn;
    };
    QTemporaryDir dir;
    {
        MainWindow hidden; // exported without ever being shown
        hidden.setUnit(Unit::GiB);
        hidden.setScenario(dataScenario(QStringLiteral("gpt2-h100")));
        QCOMPARE(hidden.gpuChart()->note(), QString());
        const QString path = dir.filePath(QStringLiteral("gpus.svg"));
        QCOMPARE(hidden.exportChart(QStringLiteral("gpus"), path), QString());
        QVERIFY2(!svgTexts(path).contains(QString(QChar(0x2026))),
                 qPrintable(svgTexts(path).join(QStringLiteral(" | "))));
        QCOMPARE(lonelyEllipsis(hidden.gpuChart()->plot()), QStringList());
    }
    // On screen: a curve drawn with a note, then with none.
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(screenshotScenario());
    CurveChart chart;
    chart.resize(640, 420);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.setCurve(w.controller()->batchCurve(), Unit::GiB);
    chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(!chart.note().isEmpty());
    CurveData fits = w.controller()->batchCurve();
    fits.capacityBytes = 1e18; // everything fits, nothing runs off the top
    chart.setCurve(fits, Unit::GiB);
    chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
    QCOMPARE(chart.note(), QString());
    QCOMPARE(lonelyEllipsis(chart.plot()), QStringList());
}

// A total just under the capacity ("device 78.17 GiB" on an H100's 79.65 GiB) stands clear of
// the dashed capacity line and of the likely-range whisker beside the bar.
void TestCharts::breakdownTotalClearOfCapacityAndRange()
{
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(defaultScenario());
    QVERIFY(showAt(w, QSize(1280, 800)));
    Estimate e = estimate(defaultScenario());
    double total = 0;
    for (double b : e.perGpu)
        total += b;
    for (double &b : e.perGpu)
        b *= 78.17 * GiB / total;
    e.peak.device = 78.17 * GiB;
    BreakdownChart *chart = w.breakdownChart();
    chart->setEstimate(e, Unit::GiB);
    replotAll(w);
    QCustomPlot *plot = chart->plot();
    QCPItemText *label = visibleText(plot, QStringLiteral("device"));
    QVERIFY(label);
    QCOMPARE(label->text().simplified(), QStringLiteral("device 78.17 GiB"));
    const QRectF box = itemRect(label);
    const double line = plot->yAxis->coordToPixel(chart->capacityValue());
    QVERIFY2(box.bottom() < line || box.top() > line,
             qPrintable(QStringLiteral("label %1 to %2, line at %3")
                            .arg(box.top())
                            .arg(box.bottom())
                            .arg(line)));
    QVERIFY(plot->axisRect()->rect().contains(box.toAlignedRect()));
    // The whisker: its bar ends are 10 px wide.
    QCPItemLine *band = nullptr;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPItemLine *>(plot->item(i)))
            if (item->visible() &&
                std::abs(item->start->coords().y() - chart->likelyRange().first) < 1e-9 &&
                std::abs(item->end->coords().y() - chart->likelyRange().second) < 1e-9)
                band = item;
    QVERIFY(band);
    const QPointF start = band->start->pixelPosition(), end = band->end->pixelPosition();
    const QRectF whisker = QRectF(start, end).normalized().adjusted(-5, 0, 5, 0);
    QVERIFY2(!whisker.intersects(box),
             qPrintable(QStringLiteral("whisker x %1 to %2, label from %3")
                            .arg(whisker.left())
                            .arg(whisker.right())
                            .arg(box.left())));
}

// Issue 21 #26: the likely-range whisker has a legend entry of its own, after the components,
// drawn in the whisker's pen, for a training bar and for a server's (whose legend is rebuilt).
void TestCharts::likelyRangeHasALegendEntry()
{
    const auto whiskerEntries = [](const BreakdownChart &chart) {
        QStringList texts;
        QCPLegend *legend = chart.plot()->legend;
        for (int i = 0; i < legend->itemCount(); ++i)
            if (auto *entry = qobject_cast<WhiskerLegendItem *>(legend->item(i)))
                texts << entry->text();
        return texts;
    };
    BreakdownChart chart;
    chart.resize(900, 600);
    chart.setEstimate(estimate(defaultScenario()), Unit::GiB);
    QCOMPARE(whiskerEntries(chart), QStringList{QStringLiteral("likely range of the device total")});
    QCPLegend *legend = chart.plot()->legend;
    QVERIFY(qobject_cast<WhiskerLegendItem *>(legend->item(legend->itemCount() - 1)));
    chart.setEstimate(estimate(dataScenario(QStringLiteral("llama-3.1-8b-vllm-h100"))), Unit::GiB);
    QCOMPARE(whiskerEntries(chart), QStringList{QStringLiteral("likely range of the device total")});
    // It is drawn: the legend's entry has a size beside the component entries.
    chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(legend->item(legend->itemCount() - 1)->outerRect().width() > 0);
}

// Under a dark palette every chart's background is the palette's base, its axes, ticks, legend
// and labels read against it, the components keep their colours; an export stays light (a
// document's page is white) and the window's charts are dark again after it.
void TestCharts::chartsFollowADarkPalette()
{
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x35, 0x35, 0x35));
    dark.setColor(QPalette::WindowText, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::AlternateBase, QColor(0x2a, 0x2a, 0x2a));
    dark.setColor(QPalette::Text, QColor(0xee, 0xee, 0xee));
    dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    dark.setColor(QPalette::ButtonText, QColor(0xee, 0xee, 0xee));
    const QColor base = dark.color(QPalette::Base);
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(screenshotScenario());
    w.setPalette(dark);
    QVERIFY(showAt(w, QSize(1280, 800)));
    keepShot(w, QStringLiteral("dark"));
    const std::pair<const char *, QCustomPlot *> plots[] = {
        {"breakdown", w.breakdownChart()->plot()},
        {"batch", w.batchChart()->plot()},
        {"timeline", w.timelineChart()->plot()}};
    for (const auto &[name, plot] : plots) {
        const QImage image = plot->toPixmap().toImage();
        QCOMPARE(image.pixelColor(2, 2), base);
        for (QCPAxis *axis : {plot->xAxis, plot->yAxis}) {
            QCOMPARE(axis->tickLabelColor(), dark.color(QPalette::Text));
            QCOMPARE(axis->labelColor(), dark.color(QPalette::Text));
            QVERIFY2(contrast(axis->basePen().color(), base) >= 3, name);
        }
        QVERIFY2(contrast(plot->legend->textColor(), base) >= 4.5, name);
        for (int i = 0; i < plot->itemCount(); ++i)
            if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
                if (text->visible() && !text->text().isEmpty())
                    QVERIFY2(contrast(text->color(), base) >= 3,
                             qPrintable(QStringLiteral("%1: '%2' in %3")
                                            .arg(name, text->text(), text->color().name())));
        for (QCPTextElement *text : plot->findChildren<QCPTextElement *>())
            if (text->realVisibility() && !text->text().isEmpty())
                QVERIFY2(contrast(text->textColor(), base) >= 3, qPrintable(text->text()));
    }
    // The comparison's chart too: background, axes and its totals over the bars.
    Comparison comparison;
    for (int64_t gpus : {1, 2})
        comparison.entries.push_back(
            {"gpus " + std::to_string(gpus), withGpus(screenshotScenario(), gpus)});
    w.comparisonView()->setComparison(comparison);
    w.showComparison();
    QCustomPlot *compared = w.comparisonView()->plot();
    QTRY_VERIFY(compared->isVisible());
    QCOMPARE(compared->toPixmap().toImage().pixelColor(2, 2), base);
    QCOMPARE(compared->yAxis->tickLabelColor(), dark.color(QPalette::Text));
    for (int i = 0; i < compared->itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(compared->item(i)))
            QVERIFY2(contrast(text->color(), base) >= 3, qPrintable(text->text()));
    for (int c = 0; c < componentCount; ++c)
        for (int i = 0; i < w.breakdownChart()->plot()->plottableCount(); ++i)
            if (auto *bars = qobject_cast<QCPBars *>(w.breakdownChart()->plot()->plottable(i)))
                if (bars->name() == componentName(Component(c)))
                    QCOMPARE(bars->brush().color(), componentColor(Component(c)));

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("timeline.png"));
    QCOMPARE(w.exportChart(QStringLiteral("timeline"), path), QString());
    const QImage exported(path);
    QCOMPARE(exported.pixelColor(exported.width() - 4, exported.height() - 4), QColor(Qt::white));
    QCOMPARE(w.timelineChart()->plot()->toPixmap().toImage().pixelColor(2, 2), base);
}

// Issue 21 #4: in the compact (tabbed) layout, below about 1000 px wide, the breakdown's axis ran
// to about 1,950 GiB for a 159 GiB bar. Whatever the window's size (and whatever it was before),
// the axis fits the bar, its likely range and the capacity line: from 1.15 times the highest of
// them to at most twice that, where a short plot makes room for the total's label.
void TestCharts::breakdownAxisFitsTheBar_data()
{
    QTest::addColumn<QSize>("size");
    QTest::newRow("960x540") << QSize(960, 540);
    QTest::newRow("800x600") << QSize(800, 600);
    QTest::newRow("990x700") << QSize(990, 700);
    QTest::newRow("640x400") << QSize(640, 400);
}

void TestCharts::breakdownAxisFitsTheBar()
{
    QFETCH(QSize, size);
    for (const bool fromLarge : {false, true}) {
        MainWindow w;
        w.setUnit(Unit::GiB);
        w.setScenario(defaultScenario());
        // From a large window to a small one (a window made smaller, a screen at scale 2).
        if (fromLarge)
            QVERIFY(showAt(w, QSize(1600, 1000)));
        QVERIFY(showAt(w, size));
        QVERIFY(w.chartsPage()->tabbed() || size.width() >= 990);
        if (w.chartsPage()->tabbed())
            w.chartsPage()->curveTabs()->setCurrentWidget(w.breakdownChart());
        replotAll(w);
        const BreakdownChart *chart = w.breakdownChart();
        const double top =
            1.15 * std::max(chart->likelyRange().second, chart->capacityValue());
        const double upper = chart->plot()->yAxis->range().upper;
        QVERIFY2(upper >= top * 0.9999 && upper <= 2 * top * 1.0001,
                 qPrintable(QStringLiteral("axis to %1 for a bar of %2, capacity %3")
                                .arg(upper)
                                .arg(chart->totalValue())
                                .arg(chart->capacityValue())));
        keepShot(w, QStringLiteral("breakdown-axis-%1x%2").arg(size.width()).arg(size.height()));
    }
}

// The axis a short plot raised comes back down once the plot is tall again: each layout makes
// room for the total's label from the top the estimate chose, not from the last layout's.
void TestCharts::breakdownAxisComesBackDown()
{
    BreakdownChart chart;
    chart.setEstimate(estimate(defaultScenario()), Unit::GiB);
    const double top = 1.15 * std::max(chart.likelyRange().second, chart.capacityValue());
    chart.resize(420, 150);
    chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
    const double shortUpper = chart.plot()->yAxis->range().upper;
    QVERIFY2(shortUpper <= 2 * top * 1.0001, qPrintable(QString::number(shortUpper)));
    chart.resize(420, 900);
    chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
    const double tallUpper = chart.plot()->yAxis->range().upper;
    QVERIFY2(tallUpper < 1.2 * top, qPrintable(QString::number(tallUpper)));
    QVERIFY(tallUpper >= top * 0.9999);
}

// Issue 21 #13: exported, the comparison's names under its bars ran into each other. In every
// format each name stays within its bar's slot: no two drawn names overlap.
void TestCharts::comparisonExportLabelsApart_data()
{
    QTest::addColumn<QString>("format");
    QTest::newRow("png") << QStringLiteral("png");
    QTest::newRow("svg") << QStringLiteral("svg");
}

void TestCharts::comparisonExportLabelsApart()
{
    QFETCH(QString, format);
    QTemporaryDir dir;
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(defaultScenario());
    Comparison comparison;
    for (int64_t gpus : {1, 2, 4, 8, 16})
        comparison.entries.push_back(
            {"Llama-3.1-8B, full fine-tune, bf16 mixed, AdamW, ZeRO 3 on " + std::to_string(gpus) +
                 " x H100-80GB",
             withGpus(defaultScenario(), gpus)});
    w.comparisonView()->setComparison(comparison);
    w.showComparison();
    QVERIFY(showAt(w, QSize(1280, 800)));
    QCustomPlot *plot = w.comparisonView()->plot();
    const QString path = dir.filePath(QStringLiteral("comparison.") + format);
    QCOMPARE(w.exportChart(QStringLiteral("comparison"), path), QString());
    QVERIFY(QFileInfo(path).size() > 0);
    // The ticker's labels as the export left them, measured as the file draws them: a PNG is
    // an image (its resolution, not the screen's), an SVG at its generator's.
    auto *ticker = static_cast<QCPAxisTickerText *>(plot->xAxis->ticker().data());
    const QImage png(1, 1, QImage::Format_ARGB32);
    QSvgGenerator svg;
    QPaintDevice *device = format == QLatin1String("svg") ? static_cast<QPaintDevice *>(&svg)
                                                          : static_cast<QPaintDevice *>(
                                                                const_cast<QImage *>(&png));
    const QFontMetrics metrics(plot->xAxis->tickLabelFont(), device);
    QVERIFY(ticker->ticks().size() == 5);
    double previousRight = -1e9;
    for (auto it = ticker->ticks().cbegin(); it != ticker->ticks().cend(); ++it) {
        const double centre = plot->xAxis->coordToPixel(it.key());
        double width = 0;
        for (const QString &line : it.value().split(QLatin1Char('\n')))
            width = std::max(width, double(metrics.horizontalAdvance(line)));
        const QRectF label(centre - width / 2, 0, width, 1);
        QVERIFY2(label.left() > previousRight,
                 qPrintable(QStringLiteral("%1 starts at %2, the one before ends at %3")
                                .arg(it.value())
                                .arg(label.left())
                                .arg(previousRight)));
        previousRight = label.right();
    }
}

QTEST_MAIN(TestCharts)
#include "tst_charts.moc"
