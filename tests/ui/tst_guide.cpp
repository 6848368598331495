// Issue 21, "what a user expected and did not find": the guide (F1) in a window of its own, its
// worked example computed by the estimator for the Llama-2-7B preset; "How this is computed"
// (Ctrl+I), every item of the current estimate with its formula and numbers, whose component
// totals are the breakdown's and which follows the scenario; About naming Qt and the libraries.
// With VRAMPLAN_TEST_SHOTS=folder the two windows are kept as guide.png and how-computed.png.

#include "catalog.h"
#include "charts/componentstyle.h"
#include "charts/units.h"
#include "document/dialogs.h"
#include "document/helpmenu.h"
#include "estimate.h"
#include "formats/scenario_json.h"
#include "help/guidesections.h"
#include "help/guidewindow.h"
#include "help/howcomputedwindow.h"
#include "help/workedexample.h"
#include "mainwindow.h"
#include "panels/controlspanel.h"
#include "panels/logslider.h"
#include "plancontroller.h"
#include "uitesting.h"

#include <QAction>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QListWidget>
#include <QScrollBar>
#include <QTest>
#include <QTextBrowser>
#include <qcustomplot.h>

#include <cmath>

Q_DECLARE_METATYPE(vramplan::Scenario)

using namespace vramplan;
using namespace vramplan::ui;
using namespace vramplan::test;

namespace {

bool showActive(MainWindow &w)
{
    w.resize(1280, 800);
    w.show();
    w.activateWindow();
    return QTest::qWaitForWindowActive(&w);
}

QString fromView(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// The bytes of the items of `component` named `name` (all of them if empty) alive in the
// optimizer step, when weights, gradients and states all exist: the test's own reading of the
// estimate, beside the guide's.
double itemBytes(const Estimate &e, Component component, const char *name)
{
    double sum = 0;
    for (const Item &item : e.items)
        if (item.component == component && item.aliveIn(Phase::OptimizerStep) &&
            (*name == 0 || item.name == name))
            sum += item.bytes();
    return sum;
}

// Text as the browser shows it, for "the user sees" comparisons.
QString shownText(const QTextBrowser *browser)
{
    return browser->toPlainText();
}

} // namespace

class TestGuide : public QObject
{
    Q_OBJECT

private slots:
    void f1OpensTheGuide();
    void workedExampleIsTheEstimators_data();
    void workedExampleIsTheEstimators();
    void howComputedListsEveryItem_data();
    void howComputedListsEveryItem();
    void howComputedFollowsTheScenario();
    void aboutNamesQtAndTheLibraries();
};

// F1 opens the guide in a window of its own, beside the planner and not modal; pressed again
// it raises the same window. Its contents list every section, and choosing one shows it.
void TestGuide::f1OpensTheGuide()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    QVERIFY(showActive(w));
    QVERIFY(!w.findChild<GuideWindow *>());
    QTest::keyClick(&w, Qt::Key_F1);
    auto *guide = w.findChild<GuideWindow *>();
    QVERIFY(guide);
    QTRY_VERIFY(guide->isVisible());
    QVERIFY(!guide->isModal());
    QVERIFY(!QApplication::activeModalWidget());
    QCOMPARE(guide->windowTitle(), QStringLiteral("vramplan Guide"));

    const size_t sections =
        memorySections().size() + 1 + techniqueSections().size() + windowSections().size();
    QCOMPARE(guide->contents()->count(), int(sections));
    const QString text = shownText(guide->browser());
    for (const auto &part : {memorySections(), techniqueSections(), windowSections()})
        for (const GuideSection &section : part)
            QVERIFY2(text.contains(section.title), qPrintable(section.title));
    // Every component the breakdown draws is explained under its own name.
    for (int c = 0; c < componentCount; ++c)
        QVERIFY2(text.contains(componentName(Component(c)), Qt::CaseInsensitive),
                 qPrintable(componentName(Component(c))));

    // Choosing a section in the contents scrolls the text to it.
    QScrollBar *bar = guide->browser()->verticalScrollBar();
    QCOMPARE(bar->value(), 0);
    guide->showSection(QStringLiteral("worked-example"));
    QVERIFY(bar->value() > 0);
    QCOMPARE(guide->contents()->currentItem()->data(Qt::UserRole).toString(),
             QStringLiteral("worked-example"));
    // The contents are not cut: every title fits its list.
    QListWidget *contents = guide->contents();
    QVERIFY(contents->width() >= contents->sizeHintForColumn(0));
    QVERIFY(contents->width() < guide->width() / 3);
    keepShot(*guide, QStringLiteral("guide"));

    // Again: the same window, still one.
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    QTest::keyClick(&w, Qt::Key_F1);
    QCOMPARE(w.findChildren<GuideWindow *>().size(), 1);
    QVERIFY(guide->isVisible());
}

// The worked example's bytes per parameter and sizes are the estimator's for the Llama-2-7B
// preset under bf16 mixed precision and AdamW, and they are what the guide shows. The bytes per
// parameter are SPEC §2's recipe (2 + 2 + 12): the estimate must come to them.
void TestGuide::workedExampleIsTheEstimators_data()
{
    QTest::addColumn<int>("component");
    QTest::addColumn<QString>("item"); // the core's item name, empty: the whole component
    QTest::addColumn<QString>("perParameter");
    QTest::newRow("bf16 weights") << int(Component::Parameters) << QString() << "2";
    QTest::newRow("bf16 gradients") << int(Component::Gradients) << QString() << "2";
    QTest::newRow("AdamW moments") << int(Component::OptimizerStates)
                                   << QStringLiteral("optimizer states") << "8";
    QTest::newRow("fp32 master weights") << int(Component::OptimizerStates)
                                         << QStringLiteral("fp32 master weights") << "4";
}

void TestGuide::workedExampleIsTheEstimators()
{
    QFETCH(int, component);
    QFETCH(QString, item);
    QFETCH(QString, perParameter);

    const Parsed<Scenario> parsed = scenarioFromText(workedExampleScenarioText());
    QVERIFY2(parsed, parsed.error.c_str());
    const Scenario &s = *parsed.value;
    QCOMPARE(s.training.precision, Precision::Bf16Mixed);
    QCOMPARE(s.training.optimizer, Optimizer::Adamw);
    QCOMPARE(s.training.finetune.method, FinetuneMethod::Full);
    QCOMPARE(s.parallelism.gpus, int64_t(1));
    const ModelPreset *preset = Catalog::builtin().preset("llama-2-7b");
    QVERIFY(preset);
    const Estimate e = estimate(s);
    const double n = double(e.parameters.total);
    QVERIFY(n > 6.0e9 && n < 7.5e9); // a 7B model
    QCOMPARE(double(e.trainableParameters), n);

    const QByteArray name = item.toUtf8();
    const double bytes = itemBytes(e, Component(component), name.constData());
    QVERIFY(bytes > 0);
    QCOMPARE(bytesPerParameterText(bytes, n), perParameter);

    MainWindow w;
    GuideWindow *guide = showGuide(&w);
    const WorkedExample &x = guide->example();
    QVERIFY2(x.error.isEmpty(), qPrintable(x.error));
    QCOMPARE(x.model, QString::fromStdString(preset->name));
    QCOMPARE(x.parameters, n);
    const double shown = Component(component) == Component::Parameters  ? x.weights
                         : Component(component) == Component::Gradients ? x.gradients
                         : item == QLatin1String("fp32 master weights") ? x.master
                                                                        : x.states;
    QCOMPARE(shown, bytes);
    // What the reader sees: the row's bytes per parameter and its GiB, and the sum of the four.
    const QString text = shownText(guide->browser());
    QVERIFY2(text.contains(formatSize(bytes, Unit::GiB)), qPrintable(formatSize(bytes, Unit::GiB)));
    const double states = itemBytes(e, Component::Parameters, "") +
                          itemBytes(e, Component::Gradients, "") +
                          itemBytes(e, Component::OptimizerStates, "");
    QCOMPARE(x.modelStates(), states);
    QCOMPARE(bytesPerParameterText(states, n), QStringLiteral("16"));
    QVERIFY(text.contains(formatSize(states, Unit::GiB)));
    QVERIFY(text.contains(QStringLiteral("rule of 16 bytes per parameter")));
    QVERIFY(text.contains(formatSize(e.peak.device, Unit::GiB)));
    QVERIFY(text.contains(formatCount(n)));
}

// Every item of the estimate is listed under its component, the components' totals are the
// breakdown's (Estimate::perGpu, in the window's unit) and add up to its device total; the
// items at the peak add up to them. For training and for an inference server.
void TestGuide::howComputedListsEveryItem_data()
{
    QTest::addColumn<Scenario>("scenario");
    QTest::addColumn<int>("unit");
    QTest::addColumn<QString>("shot");
    QTest::newRow("default") << defaultScenario() << int(Unit::GiB) << "how-computed";
    QTest::newRow("zero3, GB") << dataScenario(QStringLiteral("llama-2-7b-zero3-4gpu"))
                               << int(Unit::GB) << QString();
    QTest::newRow("vllm") << dataScenario(QStringLiteral("llama-3.1-8b-vllm-h100")) << int(Unit::GiB)
                          << "how-computed-serving";
    QTest::newRow("lora moe") << screenshotScenario() << int(Unit::GiB) << QString();
}

void TestGuide::howComputedListsEveryItem()
{
    QFETCH(Scenario, scenario);
    QFETCH(int, unit);
    QFETCH(QString, shot);

    MainWindow w;
    w.setScenario(scenario);
    w.setUnit(Unit(unit));
    QVERIFY(showActive(w));
    QTest::keyClick(&w, Qt::Key_I, Qt::ControlModifier);
    auto *view = w.findChild<HowComputedWindow *>();
    QVERIFY(view);
    QTRY_VERIFY(view->isVisible());

    // At the size it opens with, long formulas and file names wrap: no sideways scrolling.
    QCOMPARE(view->width(), 1100);
    QTRY_COMPARE(view->browser()->horizontalScrollBar()->maximum(), 0);

    const Estimate &e = w.controller()->estimate();
    const ComputedSheet &sheet = view->sheet();
    QCOMPARE(sheet.itemCount, int(e.items.size()));
    QCOMPARE(sheet.peak, e.peak.phase);
    const QString text = shownText(view->browser());
    for (const Item &item : e.items)
        QVERIFY2(text.contains(fromView(item.name)), item.name.data());

    double device = 0;
    for (int c = 0; c < componentCount; ++c) {
        const Component component = Component(c);
        double atPeak = 0;
        int items = 0;
        for (const Item &item : e.items)
            if (item.component == component) {
                ++items;
                if (item.aliveIn(e.peak.phase))
                    atPeak += item.bytes();
            }
        const ComputedGroup *group = nullptr;
        for (const ComputedGroup &g : sheet.groups)
            if (g.component == component)
                group = &g;
        device += e.perGpu[size_t(c)];
        if (items == 0 && e.perGpu[size_t(c)] == 0) {
            QVERIFY(!group);
            continue;
        }
        QVERIFY2(group, qPrintable(componentName(component)));
        QCOMPARE(int(group->rows.size()), items);
        QCOMPARE(group->totalBytes, e.perGpu[size_t(c)]);
        // The items at the peak account for the component's figure, to the byte.
        QVERIFY2(std::abs(atPeak - group->totalBytes) <= 1.0, qPrintable(componentName(component)));
        QCOMPARE(group->adjustment, QString());
        // What the breakdown and its tooltip show, the view shows.
        const QString total = formatSize(e.perGpu[size_t(c)], Unit(unit));
        QVERIFY2(text.contains(QStringLiteral("%1: %2").arg(componentName(component), total)),
                 qPrintable(total));
    }
    QVERIFY(std::abs(sheet.deviceBytes - device) <= 1.0);
    QVERIFY(text.contains(QStringLiteral("device %1").arg(formatSize(device, Unit(unit)))));
    // View > Sizes in the other unit while the view is open: shown when it is next activated.
    const Unit other = Unit(unit) == Unit::GiB ? Unit::GB : Unit::GiB;
    w.setUnit(other);
    view->activateWindow();
    QTRY_VERIFY(shownText(view->browser())
                    .contains(QStringLiteral("device %1").arg(formatSize(device, other))));
    w.setUnit(Unit(unit));
    view->refresh();

    // Formulas with symbols are shown with this run's numbers.
    int worked = 0;
    for (const ComputedGroup &group : sheet.groups)
        for (const ComputedRow &row : group.rows)
            if (!row.worked.isEmpty()) {
                ++worked;
                QVERIFY2(text.contains(row.worked), qPrintable(row.worked));
            }
    if (scenario.training.mode == Mode::Train)
        QVERIFY(worked > 0);
    // A number before a symbol multiplies it: "3h" reads 3*4096, not 34096.
    const QString h = QString::number(e.symbols.h, 'g', 10);
    for (const ComputedGroup &group : sheet.groups)
        for (const ComputedRow &row : group.rows)
            if (row.formula.contains(QLatin1String("3h"))) {
                QVERIFY2(row.worked.contains(QStringLiteral("3*") + h), qPrintable(row.worked));
                QVERIFY(!row.worked.contains(QStringLiteral("3") + h));
            }
    if (!shot.isEmpty())
        keepShot(*view, shot);
}

// Open while the scenario changes, the view follows: a larger micro-batch is in its symbols and
// its activations total; a new scenario replaces the list.
void TestGuide::howComputedFollowsTheScenario()
{
    MainWindow w;
    w.setScenario(defaultScenario());
    QVERIFY(showActive(w));
    HowComputedWindow *view = showHowComputed(&w);
    QVERIFY(view->isVisible());
    const double before = w.controller()->estimate().componentBytes(Component::Activations);
    QVERIFY(view->sheet().symbols.startsWith(QStringLiteral("b = 1,")));

    QDoubleSpinBox *spin = w.controls()->microBatch()->spinBox();
    spin->setValue(4);
    QCOMPARE(w.scenario().training.microBatchSize, int64_t(4));
    const double after = w.controller()->estimate().componentBytes(Component::Activations);
    QVERIFY(after > before);
    // Updates are gathered for a moment (a drag sends many), then shown.
    QVERIFY(view->isPending());
    QTRY_VERIFY(!view->isPending());
    QVERIFY(view->sheet().symbols.startsWith(QStringLiteral("b = 4,")));
    const auto activations = [&] {
        for (const ComputedGroup &g : view->sheet().groups)
            if (g.component == Component::Activations)
                return g.totalBytes;
        return -1.0;
    };
    QCOMPARE(activations(), after);
    QVERIFY(shownText(view->browser())
                .contains(formatSize(after, w.unit())));

    w.setScenario(dataScenario(QStringLiteral("llama-3.1-8b-vllm-h100")));
    QTRY_VERIFY(!view->isPending());
    QCOMPARE(view->sheet().itemCount, int(w.controller()->estimate().items.size()));
    bool kv = false;
    for (const ComputedGroup &g : view->sheet().groups)
        kv |= g.component == Component::KvCache && g.totalBytes > 0;
    QVERIFY(kv);
    QCOMPARE(w.findChildren<HowComputedWindow *>().size(), 1);
}

// About names the Qt it runs on and was built with, QCustomPlot and nlohmann_json with their
// versions, and the licence.
void TestGuide::aboutNamesQtAndTheLibraries()
{
    MainWindow w;
    auto *about = w.findChild<QAction *>(QStringLiteral("helpAbout"));
    QVERIFY(about);
    about->trigger();
    const QString text = Dialogs::lastAsked().text;
    QCOMPARE(Dialogs::lastAsked().caption, QStringLiteral("About vramplan"));
    QVERIFY2(text.contains(QStringLiteral("running on Qt %1").arg(QString::fromLatin1(qVersion()))),
             qPrintable(text));
    QVERIFY(text.contains(QStringLiteral("Built with Qt " QT_VERSION_STR)));
    QVERIFY(text.contains(QStringLiteral("QCustomPlot " QCUSTOMPLOT_VERSION_STR)));
    QVERIFY(text.contains(QStringLiteral("nlohmann_json %1.%2.%3")
                              .arg(NLOHMANN_JSON_VERSION_MAJOR)
                              .arg(NLOHMANN_JSON_VERSION_MINOR)
                              .arg(NLOHMANN_JSON_VERSION_PATCH)));
    QVERIFY(text.contains(QStringLiteral("GPL-3.0-or-later")));
    QCOMPARE(aboutText(), text);
}

QTEST_MAIN(TestGuide)
#include "tst_guide.moc"
