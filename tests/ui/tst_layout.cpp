// The window at the sizes people use (1280x800, 1024x640, 800x600), offscreen: no legend entry
// is cut off, no label runs into another (timeline names, the breakdown's "over by" and
// capacity labels, the curves' marker labels stay inside the plot), every combo box shows its
// whole choice at the default size, and a long status message stops short of the parameter
// counts (issue 11, items 6 and 12). The "Make it fit" panel sits under the breakdown (a tab of
// its own in a small window) with every chip and line whole within it (issue 12).
// Issue 21 (item 12): at 1280x800 and 1024x640 every y title whole along its plot, and the
// timeline titled, its legend naming the components, its phase names uncut.
// VRAMPLAN_TEST_SHOTS=folder keeps a picture of each.
// Issue 21 (a Simplified Chinese interface): with VRAMPLAN_TEST_LANGUAGE=zh_CN (the CTest
// tst_layout_zh_CN) the same checks run on the window in Chinese; the texts looked for are the
// window's own, in its language.

#include "charts/breakdownchart.h"
#include "charts/componentstyle.h"
#include "charts/curvechart.h"
#include "charts/curvemarkers.h"
#include "charts/timelinechart.h"
#include "chartspage.h"
#include "document/language.h"
#include "panels/controlspanel.h"
#include "panels/fitadvisorpanel.h"
#include "panels/fitchip.h"
#include "panels/statusline.h"
#include "uitesting.h"

#include <QComboBox>
#include <QLabel>
#include <QStyle>
#include <QStyleOptionComboBox>
#include <QTabWidget>

using namespace vramplan;
using namespace vramplan::ui;
using namespace vramplan::test;

namespace {

// A text of the window, in the language installed.
QString inLanguage(const char *context, const char *source)
{
    return QCoreApplication::translate(context, source);
}

// What a label made from `source` starts with: "over by" for "over by %1", "GPU capacity" for
// "GPU capacity: %1" (whichever the language).
QString prefixOf(const char *context, const char *source)
{
    QString prefix = inLanguage(context, source).section(QStringLiteral("%1"), 0, 0).trimmed();
    while (prefix.endsWith(QLatin1Char(':')) || prefix.endsWith(QChar(0xff1a)))
        prefix.chop(1);
    return prefix;
}

QCPItemText *textItem(QCustomPlot *plot, const QString &prefix)
{
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto *text = qobject_cast<QCPItemText *>(plot->item(i)))
            if (text->visible() && text->text().startsWith(prefix))
                return text;
    return nullptr;
}

int widestLine(const QString &text, const QFontMetrics &metrics)
{
    int widest = 0;
    for (const QString &line : text.split(QLatin1Char('\n')))
        widest = std::max(widest, metrics.horizontalAdvance(line));
    return widest;
}

} // namespace

class TestLayout : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("vramplan-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_layout"));
        const QString language = qEnvironmentVariable("VRAMPLAN_TEST_LANGUAGE");
        if (!language.isEmpty())
            QCOMPARE(installTranslations(languageFromKey(language)), language);
    }
    void nothingCutOrOverlapping_data();
    void nothingCutOrOverlapping();
    void fitPanelWhole_data();
    void fitPanelWhole();
    void comboBoxesShowTheirChoice();
    void longStatusMessageStopsShortOfTheCounts();
    void titlesAndTimelineWhole_data();
    void titlesAndTimelineWhole();
};

void TestLayout::nothingCutOrOverlapping_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("scenario");
    for (const QSize size : {QSize(1280, 800), QSize(1024, 640), QSize(800, 600)})
        for (const char *scenario : {"default", "screenshot", "llama-3.1-405b-rtx4090"})
            QTest::addRow("%dx%d %s", size.width(), size.height(), scenario) << size << scenario;
}

void TestLayout::nothingCutOrOverlapping()
{
    QFETCH(QSize, size);
    QFETCH(QString, scenario);
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(scenario == "default"      ? defaultScenario()
                  : scenario == "screenshot" ? screenshotScenario()
                                             : dataScenario(scenario));
    QVERIFY(showAt(w, size));
    QCOMPARE(w.size(), size); // nothing in the window asks for more
    keepShot(w, QStringLiteral("%1x%2-%3").arg(size.width()).arg(size.height()).arg(scenario));

    // Every legend entry of every chart in view whole, inside its chart.
    for (QCustomPlot *plot : w.findChildren<QCustomPlot *>()) {
        if (!plot->isVisible())
            continue;
        for (int i = 0; i < plot->legend->itemCount(); ++i) {
            QCPAbstractLegendItem *item = plot->legend->item(i);
            if (!item)
                continue;
            const QRect rect = item->outerRect();
            QVERIFY2(rect.width() >= item->minimumOuterSizeHint().width() &&
                         plot->viewport().contains(rect),
                     qPrintable(QStringLiteral("legend entry %1 cut: %2x%3 at %4,%5 in %6x%7")
                                    .arg(i)
                                    .arg(rect.width())
                                    .arg(rect.height())
                                    .arg(rect.x())
                                    .arg(rect.y())
                                    .arg(plot->viewport().width())
                                    .arg(plot->viewport().height())));
        }
    }

    // The timeline's names under the bars do not run together (in a small window every chart
    // is a tab).
    if (w.chartsPage()->tabbed()) {
        w.chartsPage()->curveTabs()->setCurrentWidget(w.timelineChart());
        replotAll(w);
        keepShot(
            w,
            QStringLiteral("%1x%2-%3-timeline").arg(size.width()).arg(size.height()).arg(scenario));
    }
    QCustomPlot *timeline = w.timelineChart()->plot();
    const QFontMetrics metrics(timeline->xAxis->tickLabelFont());
    const QVector<double> ticks = timeline->xAxis->tickVector();
    const QVector<QString> labels = timeline->xAxis->tickVectorLabels();
    QCOMPARE(ticks.size(), w.timelineChart()->phaseCount());
    for (int i = 0; i + 1 < ticks.size(); ++i) {
        const double apart =
            timeline->xAxis->coordToPixel(ticks[i + 1]) - timeline->xAxis->coordToPixel(ticks[i]);
        const double needed =
            (widestLine(labels[i], metrics) + widestLine(labels[i + 1], metrics)) / 2.0;
        QVERIFY2(needed + 2 <= apart, qPrintable(QStringLiteral("'%1' and '%2': %3 px apart")
                                                     .arg(labels[i], labels[i + 1])
                                                     .arg(apart)));
        QVERIFY2(labels[i].count(QLatin1Char('\n')) < 3, qPrintable(labels[i]));
    }

    // The breakdown's "over by" or "headroom" label on its side of the capacity line, apart
    // from the capacity's label.
    if (w.chartsPage()->tabbed()) {
        w.chartsPage()->curveTabs()->setCurrentWidget(w.breakdownChart());
        replotAll(w);
        keepShot(w, QStringLiteral("%1x%2-%3-breakdown")
                        .arg(size.width())
                        .arg(size.height())
                        .arg(scenario));
    }
    QCustomPlot *breakdown = w.breakdownChart()->plot();
    const char *chart = "vramplan::ui::BreakdownChart";
    QCPItemText *gap = textItem(breakdown, prefixOf(chart, "over by %1"));
    if (!gap)
        gap = textItem(breakdown, prefixOf(chart, "headroom %1"));
    QCPItemText *capacity = textItem(breakdown, prefixOf(chart, "GPU capacity: %1"));
    QVERIFY(gap && capacity);
    const double line = breakdown->yAxis->coordToPixel(w.breakdownChart()->capacityValue());
    const QRectF gapRect = itemRect(gap);
    QVERIFY2(!gapRect.intersects(itemRect(capacity)), qPrintable(gap->text()));
    QVERIFY2(gapRect.bottom() < line || gapRect.top() > line, qPrintable(gap->text()));
    QVERIFY(breakdown->axisRect()->rect().contains(gapRect.toAlignedRect()));
    QVERIFY2(breakdown->axisRect()->rect().contains(itemRect(capacity).toAlignedRect()),
             qPrintable(capacity->text()));
    // The total's label over the bar stays inside the plot, however short the plot is.
    QCPItemText *total = textItem(breakdown, prefixOf(chart, "device %1"));
    QVERIFY(total);
    QVERIFY2(breakdown->axisRect()->rect().contains(itemRect(total).toAlignedRect()),
             qPrintable(total->text()));

    // Each curve's marker labels ("current", "largest that fits: 3072") inside its plot, apart
    // from each other and from the capacity's label.
    for (CurveChart *curve : {w.batchChart(), w.sequenceChart(), w.gpuChart()}) {
        w.chartsPage()->curveTabs()->setCurrentWidget(curve);
        replotAll(w);
        const CurveMarkers &markers = curve->markers();
        const QRect axis = curve->plot()->axisRect()->rect();
        for (const QRectF &label : {markers.currentLabelRect(), markers.fittingLabelRect(),
                                    markers.capacityLabelRect()})
            if (!label.isNull())
                QVERIFY2(axis.contains(label.toAlignedRect()), qPrintable(markers.fittingText()));
        QVERIFY(!markers.currentLabelRect().intersects(markers.fittingLabelRect()));
        QVERIFY(!markers.capacityLabelRect().intersects(markers.fittingLabelRect()));
        QVERIFY(!markers.capacityLabelRect().intersects(markers.currentLabelRect()));
    }
}

void TestLayout::fitPanelWhole_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("scenario");
    QTest::addColumn<bool>("tabbed");
    // 1280x800 and 1024x640 side by side; 800x600 (too narrow) and 1024x480 (too low) leave
    // the Plan page less than 640x460: every chart a tab, the panel one of them.
    const std::pair<QSize, bool> sizes[] = {{QSize(1280, 800), false},
                                            {QSize(1024, 640), false},
                                            {QSize(800, 600), true},
                                            {QSize(1024, 480), true}};
    for (const auto &[size, tabbed] : sizes)
        for (const char *scenario : {"default", "screenshot", "llama-3.1-405b-rtx4090"})
            QTest::addRow("%dx%d %s", size.width(), size.height(), scenario)
                << size << scenario << tabbed;
}

void TestLayout::fitPanelWhole()
{
    QFETCH(QSize, size);
    QFETCH(QString, scenario);
    QFETCH(bool, tabbed);
    MainWindow w;
    w.setUnit(Unit::GiB);
    w.setScenario(scenario == "default"      ? defaultScenario()
                  : scenario == "screenshot" ? screenshotScenario()
                                             : dataScenario(scenario));
    QVERIFY(showAt(w, size));
    QCOMPARE(w.size(), size);
    FitAdvisorPanel *panel = w.fitAdvisor();
    panel->setCollapsed(false);
    QTRY_VERIFY(!panel->pending() && panel->result().generation != 0);
    ChartsPage *page = w.chartsPage();
    QCOMPARE(page->tabbed(), tabbed);
    if (page->tabbed()) {
        QCOMPARE(page->curveTabs()->tabText(1),
                 inLanguage("vramplan::ui::ChartsPage", "Make it fit"));
        page->curveTabs()->setCurrentWidget(panel);
    } else {
        // Under the breakdown, as wide as it.
        QCOMPARE(panel->geometry().left(), w.breakdownChart()->geometry().left());
        QCOMPARE(panel->width(), w.breakdownChart()->width());
        QVERIFY(panel->geometry().top() >= w.breakdownChart()->geometry().bottom());
        QVERIFY(w.breakdownChart()->height() >= 2 * panel->height() / 3);
    }
    QCoreApplication::processEvents();
    keepShot(w, QStringLiteral("fit-%1x%2-%3").arg(size.width()).arg(size.height()).arg(scenario));
    QVERIFY(panel->isVisible());
    QVERIFY(!panel->chips().isEmpty());
    // Every chip within the panel's width, its title at least its first phrase whole; every
    // label of text as tall as its wrapped text.
    for (FitChip *chip : panel->chips()) {
        const QRect in(chip->mapTo(panel, QPoint(0, 0)), chip->size());
        QVERIFY2(in.left() >= 0 && in.right() < panel->width(), qPrintable(chip->title()));
        QVERIFY2(!chip->shownTitle().endsWith(QChar(0x2026)), qPrintable(chip->shownTitle()));
    }
    for (QLabel *label : panel->findChildren<QLabel *>()) {
        if (!label->isVisible() || label->text().isEmpty())
            continue;
        QVERIFY2(label->height() >= label->heightForWidth(label->width()),
                 qPrintable(label->text()));
        const QRect in(label->mapTo(panel, QPoint(0, 0)), label->size());
        QVERIFY2(in.right() < panel->width(), qPrintable(label->text()));
    }
}

// At the default size every combo box in the panel shows its whole current choice.
void TestLayout::comboBoxesShowTheirChoice()
{
    for (const Scenario &s : {defaultScenario(), screenshotScenario(),
                              dataScenario(QStringLiteral("llama-2-7b-zero3-4gpu"))}) {
        MainWindow w;
        w.setScenario(s);
        QVERIFY(showAt(w, QSize(1280, 800)));
        for (QComboBox *box : w.controls()->findChildren<QComboBox *>()) {
            if (box->isEditable()) // the preset picker: a search field
                continue;
            QStyleOptionComboBox option;
            option.initFrom(box);
            option.editable = false;
            const QRect field = box->style()->subControlRect(QStyle::CC_ComboBox, &option,
                                                             QStyle::SC_ComboBoxEditField, box);
            const int needed = box->fontMetrics().horizontalAdvance(box->currentText());
            QVERIFY2(needed <= field.width(), qPrintable(QStringLiteral("'%1': %2 px in %3")
                                                             .arg(box->currentText())
                                                             .arg(needed)
                                                             .arg(field.width())));
        }
    }
}

void TestLayout::longStatusMessageStopsShortOfTheCounts()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    QVERIFY(showAt(w, QSize(1024, 640)));
    const QString message =
        QStringLiteral("plan.vramplan.json: training.finetune.lora_targets: ") +
        QStringLiteral("every name must be a module of the model; ").repeated(6);
    w.statusBar()->showMessage(message);
    QCoreApplication::processEvents();
    StatusLine *status = w.statusLine();
    QCOMPARE(status->currentMessage(), message); // whole, for scripts and tests
    QCOMPARE(status->toolTip(), message);        // and for the user
    const QString shown = status->shownMessage();
    QVERIFY2(shown.endsWith(QChar(0x2026)), qPrintable(shown));
    QVERIFY(message.startsWith(shown.chopped(1)));
    const int end = 6 + status->fontMetrics().horizontalAdvance(shown);
    QVERIFY(status->countsLabel()->isVisible());
    QVERIFY2(end + 8 <= status->countsLabel()->geometry().left(),
             qPrintable(QStringLiteral("message ends at %1, counts start at %2")
                            .arg(end)
                            .arg(status->countsLabel()->geometry().left())));
    QCOMPARE(status->countsLabel()->text(),
             inLanguage("vramplan::ui::StatusLine", "%1 parameters, %2 trainable")
                 .arg(QStringLiteral("8.03 B"), QStringLiteral("8.03 B")));
    keepShot(w, QStringLiteral("status-1024x640"));
}

void TestLayout::titlesAndTimelineWhole_data()
{
    QTest::addColumn<QSize>("size");
    QTest::addColumn<QString>("scenario");
    for (const QSize size : {QSize(1280, 800), QSize(1024, 640)})
        for (const char *scenario : {"default", "screenshot"})
            QTest::addRow("%dx%d %s", size.width(), size.height(), scenario) << size << scenario;
}

void TestLayout::titlesAndTimelineWhole()
{
    QFETCH(QSize, size);
    QFETCH(QString, scenario);
    MainWindow w;
    w.setUnit(Unit::GiB);
    const Scenario s = scenario == "default" ? defaultScenario() : screenshotScenario();
    w.setScenario(s);
    QVERIFY(showAt(w, size));
    QVERIFY(!w.chartsPage()->tabbed());
    keepShot(w, QStringLiteral("titles-%1x%2-%3").arg(size.width()).arg(size.height()).arg(scenario));

    // Every value axis's title no longer than its plot is high (drawn centred along it, a
    // longer one runs past the chart's edge).
    for (QCustomPlot *plot : w.findChildren<QCustomPlot *>()) {
        if (!plot->isVisible())
            continue;
        const QFontMetrics metrics(plot->yAxis->labelFont());
        QVERIFY2(metrics.horizontalAdvance(plot->yAxis->label()) <= plot->axisRect()->height(),
                 qPrintable(QStringLiteral("'%1' along %2 px")
                                .arg(plot->yAxis->label())
                                .arg(plot->axisRect()->height())));
    }

    // The timeline has a title, as the curves do.
    QCustomPlot *timeline = w.timelineChart()->plot();
    QStringList titles;
    for (QCPTextElement *text : timeline->findChildren<QCPTextElement *>())
        if (text->realVisibility() && text->layout())
            titles << text->text();
    QCOMPARE(titles, QStringList{inLanguage("vramplan::ui::TimelineChart",
                                            "Memory through one training step")});

    // Its legend names every component a bar holds, then the two lines.
    const Estimate e = estimate(s);
    QStringList expected;
    for (int c = componentCount - 1; c >= 0; --c) {
        bool held = false;
        for (const PhaseTotals &phase : e.phases)
            held = held || (phase.present && phase.byComponent[size_t(c)] > 0);
        if (held)
            expected << componentName(Component(c));
    }
    expected << inLanguage("vramplan::ui::TimelineChart", "capacity %1")
                    .arg(formatSize(e.capacityBytes, Unit::GiB))
             << w.timelineChart()->deviceLabel();
    QStringList names;
    for (int i = 0; i < timeline->legend->itemCount(); ++i)
        if (auto *item = qobject_cast<QCPPlottableLegendItem *>(timeline->legend->item(i)))
            names << item->plottable()->name();
    QCOMPARE(names, expected);

    // Each phase named in words, none cut short.
    for (const QString &label : timeline->xAxis->tickVectorLabels())
        QVERIFY2(!label.contains(QChar(0x2026)), qPrintable(label));
}

QTEST_MAIN(TestLayout)
#include "tst_layout.moc"
