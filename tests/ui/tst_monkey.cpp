// The GUI monkey test (issue 11): 10,000 random events on an offscreen window, from a fixed
// seed: left clicks and double clicks at random points of random widgets (menus and popups
// included), mouse wheels, key presses and shortcuts, drags on sliders, menu actions, and now
// and then another window size. Quit is disabled; file dialogs, message boxes and the
// calibration dialog are scripted away (Dialogs::setScripted), so nothing ever blocks. After
// every burst of 100 events the invariants hold: the scenario parses back from its JSON, the
// estimate is finite and drawn, the undo stack's index lies within its count and undoing all
// then redoing all comes back to the same scenario, the controls show the scenario, and no
// control shows a value outside its range, and once its search has landed the "Make it fit"
// panel shows advice for the scenario the window holds, every suggestion fitting on its own
// (its chips are clicked, hovered and tabbed to like any other widget; the advisor thread is
// never waited for during the walk). VRAMPLAN_MONKEY_SEED and VRAMPLAN_MONKEY_EVENTS change the
// walk.

#include "advisorworker.h"
#include "charts/breakdownchart.h"
#include "chartspage.h"
#include "document/dialogs.h"
#include "document/document.h"
#include "document/editcommand.h"
#include "panels/controlspanel.h"
#include "panels/fitadvisorpanel.h"
#include "panels/logslider.h"
#include "panels/servinggroup.h"
#include "plancontroller.h"
#include "rl/rlphasechart.h"
#include "uitesting.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>
#include <QRegularExpression>
#include <QSlider>
#include <QSpinBox>
#include <QStyle>
#include <QStyleOptionSlider>
#include <QTemporaryDir>
#include <QUndoStack>
#include <QWheelEvent>
#include <QtTest/qtestspontaneevent.h>

#include <cmath>
#include <random>
#include <set>

using namespace vramplan;
using namespace vramplan::ui;
using namespace vramplan::test;

namespace {

constexpr int burst = 100;

class Monkey
{
public:
    Monkey(MainWindow &window, unsigned seed) : m_window(window), m_random(seed) {}

    // One random event; returns what it was, for the failure message.
    QString step()
    {
        const int roll = uniform(0, 99);
        if (roll < 45)
            return click(uniform(0, 9) == 0);
        if (roll < 60)
            return key();
        if (roll < 72)
            return wheel();
        if (roll < 82)
            return dragSlider();
        if (roll < 95)
            return menuAction();
        return click(false);
    }

    void resize()
    {
        static const QSize sizes[] = {{1280, 800}, {1024, 640}, {800, 600}, {1440, 900}};
        m_window.resize(sizes[uniform(0, 3)]);
    }

private:
    int uniform(int low, int high)
    {
        return std::uniform_int_distribution<int>(low, high)(m_random);
    }

    template <typename T> T *pick(const QList<T *> &list)
    {
        return list.isEmpty() ? nullptr : list.at(uniform(0, int(list.size()) - 1));
    }

    // A widget in view: in the open popup (a menu, a combo box's list) if there is one.
    QWidget *target()
    {
        QWidget *root = QApplication::activePopupWidget();
        if (!root)
            root = &m_window;
        QList<QWidget *> widgets{root};
        for (QWidget *w : root->findChildren<QWidget *>())
            if (w->isVisible() && w->isEnabled() && !w->size().isEmpty())
                widgets << w;
        return pick(widgets);
    }

    QPoint somewhere(const QWidget *w)
    {
        return {uniform(0, w->width() - 1), uniform(0, w->height() - 1)};
    }

    QString click(bool twice)
    {
        QPointer<QWidget> w = target();
        if (!w)
            return QStringLiteral("nothing to click");
        const QPoint at = somewhere(w);
        const QString what =
            QStringLiteral("%1 %2 at %3,%4")
                .arg(twice ? "double-click" : "click", w->metaObject()->className())
                .arg(at.x())
                .arg(at.y());
        // Press and release apart: the press may close (and delete) what was clicked.
        QTest::mousePress(w, Qt::LeftButton, {}, at);
        if (w)
            QTest::mouseRelease(w, Qt::LeftButton, {}, at);
        if (twice && w)
            QTest::mouseDClick(w, Qt::LeftButton, {}, at);
        return what;
    }

    QString key()
    {
        static const Qt::Key keys[] = {
            Qt::Key_0,       Qt::Key_1,        Qt::Key_2,      Qt::Key_4,         Qt::Key_7,
            Qt::Key_9,       Qt::Key_A,        Qt::Key_E,      Qt::Key_L,         Qt::Key_Q,
            Qt::Key_W,       Qt::Key_Up,       Qt::Key_Down,   Qt::Key_Left,      Qt::Key_Right,
            Qt::Key_PageUp,  Qt::Key_PageDown, Qt::Key_Home,   Qt::Key_End,       Qt::Key_Tab,
            Qt::Key_Backtab, Qt::Key_Return,   Qt::Key_Escape, Qt::Key_Backspace, Qt::Key_Delete,
            Qt::Key_Space,   Qt::Key_Minus,    Qt::Key_Period, Qt::Key_Comma,     Qt::Key_Z};
        // The window's shortcuts: undo, redo, compare, find, calibrate, new, open, save, copy.
        static const Qt::Key shortcuts[] = {Qt::Key_Z, Qt::Key_Y, Qt::Key_D, Qt::Key_F, Qt::Key_K,
                                            Qt::Key_N, Qt::Key_O, Qt::Key_S, Qt::Key_C, Qt::Key_A};
        QWidget *to = QApplication::activePopupWidget();
        if (!to)
            to = QApplication::focusWidget();
        if (!to)
            to = &m_window;
        const bool control = uniform(0, 6) == 0;
        const Qt::Key k = control ? shortcuts[uniform(0, 9)] : keys[uniform(0, 29)];
        const Qt::KeyboardModifiers modifiers =
            control ? (uniform(0, 3) == 0 ? Qt::ControlModifier | Qt::ShiftModifier
                                          : Qt::ControlModifier)
                    : Qt::NoModifier;
        QTest::keyClick(to, k, modifiers);
        return QStringLiteral("key %1 (modifiers %2) to %3")
            .arg(int(k))
            .arg(int(modifiers))
            .arg(to ? to->metaObject()->className() : "nothing");
    }

    QString wheel()
    {
        QWidget *w = target();
        if (!w)
            return QStringLiteral("nothing to wheel");
        const QPointF at = somewhere(w);
        QWheelEvent event(at, w->mapToGlobal(at), QPoint(), QPoint(0, uniform(0, 1) ? 120 : -120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QSpontaneKeyEvent::setSpontaneous(&event); // as from the window system
        QApplication::sendEvent(w, &event);
        return QStringLiteral("wheel over %1").arg(w->metaObject()->className());
    }

    QString dragSlider()
    {
        QList<QSlider *> sliders;
        for (QSlider *s : m_window.findChildren<QSlider *>())
            if (s->isVisible() && s->isEnabled())
                sliders << s;
        QPointer<QSlider> slider = pick(sliders);
        if (!slider)
            return click(false);
        QStyleOptionSlider option;
        option.initFrom(slider);
        option.minimum = slider->minimum();
        option.maximum = slider->maximum();
        option.sliderPosition = slider->sliderPosition();
        option.sliderValue = slider->value();
        option.orientation = slider->orientation();
        const QPoint handle =
            slider->style()
                ->subControlRect(QStyle::CC_Slider, &option, QStyle::SC_SliderHandle, slider)
                .center();
        QTest::mousePress(slider, Qt::LeftButton, {}, handle);
        QPoint at = handle;
        for (int i = uniform(1, 5); i > 0 && slider; --i) {
            at = QPoint(uniform(-10, slider->width() + 10), handle.y());
            QMouseEvent move(QEvent::MouseMove, at, slider->mapToGlobal(at), Qt::NoButton,
                             Qt::LeftButton, Qt::NoModifier);
            QSpontaneKeyEvent::setSpontaneous(&move);
            QApplication::sendEvent(slider, &move);
        }
        if (slider)
            QTest::mouseRelease(slider, Qt::LeftButton, {}, at);
        return QStringLiteral("drag a slider to %1").arg(at.x());
    }

    QString menuAction()
    {
        QList<QAction *> actions;
        std::function<void(const QList<QAction *> &)> collect = [&](const QList<QAction *> &list) {
            for (QAction *a : list) {
                if (a->menu())
                    collect(a->menu()->actions());
                else if (!a->isSeparator() && a->isEnabled() && a->isVisible())
                    actions << a;
            }
        };
        collect(m_window.menuBar()->actions());
        QAction *action = pick(actions);
        if (!action)
            return QStringLiteral("no action");
        const QString text = action->text();
        action->trigger();
        return QStringLiteral("menu %1").arg(text);
    }

    MainWindow &m_window;
    std::mt19937 m_random;
};

std::string dump(const Scenario &s)
{
    return scenarioToJson(s).dump();
}

// Every invariant, with what happened last in the message.
void checkInvariants(MainWindow &w, const QString &last)
{
    const QByteArray context = last.toUtf8();
    // Popups closed, queued work done.
    while (QWidget *popup = QApplication::activePopupWidget())
        popup->close();
    QCoreApplication::processEvents();

    const Scenario &s = w.scenario();
    const std::string text = dump(s);
    auto parsed = scenarioFromText(text);
    QVERIFY2(parsed, (parsed.error + " after " + context.toStdString()).c_str());
    QCOMPARE(dump(*parsed.value), text);
    QVERIFY2(checkScenario(s).empty(), context);

    const Estimate &e = w.controller()->estimate();
    for (double v : {e.peak.allocated, e.peak.reserved, e.peak.device, e.capacityBytes})
        QVERIFY2(std::isfinite(v) && v >= 0, context);
    double drawn = 0;
    for (int c = 0; c < componentCount; ++c)
        QVERIFY2(std::isfinite(e.perGpu[size_t(c)]), context);
    if (e.rl.present) {
        // An RL plan draws its phases side by side: the peak phase's column is the peak.
        const RlPhaseChart *phases = w.chartsPage()->rlPhases();
        for (int i = 0; i < phases->columnCount(); ++i)
            if (phases->columnPhase(i) == e.rl.peak)
                drawn = phases->columnTotal(i);
    } else {
        for (int c = 0; c < componentCount; ++c)
            drawn += w.breakdownChart()->barValue(Component(c));
    }
    QVERIFY2(std::abs(drawn - e.peak.device / unitBytes(w.unit())) <= 1e-6 * std::max(1.0, drawn),
             context);

    // The controls show the scenario the document holds.
    ControlsPanel *c = w.controls();
    QCOMPARE(dump(c->scenario()), text);
    QCOMPARE(c->microBatch()->value(), double(s.training.microBatchSize));
    QCOMPARE(c->sequenceLength()->value(), double(s.training.sequenceLength));
    QCOMPARE(c->gpuCount()->value(), double(s.parallelism.gpus));

    // No control outside its range.
    for (QAbstractSpinBox *box : c->findChildren<QAbstractSpinBox *>()) {
        if (auto *spin = qobject_cast<QSpinBox *>(box))
            QVERIFY2(spin->minimum() <= spin->value() && spin->value() <= spin->maximum(), context);
        if (auto *spin = qobject_cast<QDoubleSpinBox *>(box))
            QVERIFY2(spin->minimum() <= spin->value() && spin->value() <= spin->maximum(), context);
    }
    for (QSlider *slider : c->findChildren<QSlider *>())
        QVERIFY2(slider->minimum() <= slider->value() && slider->value() <= slider->maximum(),
                 context);
    for (LogSlider *slider : c->findChildren<LogSlider *>())
        QVERIFY2(slider->minimum() <= slider->value() && slider->value() <= slider->maximum(),
                 context);
    for (QComboBox *box : c->findChildren<QComboBox *>())
        QVERIFY2(box->currentIndex() >= 0 && box->currentIndex() < box->count(),
                 qPrintable(ControlGroup::label(box) + QStringLiteral(" after ") + last));

    // The history: an index within the count; all undone and all redone is where it was.
    QUndoStack *undo = w.undoStack();
    const int index = undo->index();
    QVERIFY2(index >= 0 && index <= undo->count(), context);
    undo->setIndex(0);
    undo->setIndex(index);
    QCOMPARE(dump(w.scenario()), text);
    QCOMPARE(dump(c->scenario()), text);

    // Last, as waiting lets timers run: the advice, once it lands, is for the scenario the
    // window then holds, and each suggestion fits on its own. A spin box arrow or slider
    // groove the walk left pressed repeats an edit every few milliseconds, faster than a
    // search, and no advice could land: release them first, as the user's hand would.
    for (QWidget *held : w.findChildren<QWidget *>())
        if (held->isVisible() &&
            (qobject_cast<QAbstractSpinBox *>(held) || qobject_cast<QSlider *>(held)))
            QTest::mouseRelease(held, Qt::LeftButton, {}, QPoint(0, 0));
    FitAdvisorPanel *fit = w.fitAdvisor();
    // A liveness check, not a timing one: a random scenario's search under the sanitizers, on
    // a loaded 2-core machine, took more than 10 s.
    QVERIFY2(QTest::qWaitFor([&] { return w.advisorWorker()->idle() && !fit->pending(); }, 60000),
             context);
    QVERIFY2(sameScenario(fit->result().scenario, w.scenario()), context);
    for (const Suggestion &sg : fit->result().advice.suggestions)
        QVERIFY2(estimate(sg.scenario).fits, context);
}

// No label of the window and no part of the status line reads NaN or infinity.
void checkNoNan(MainWindow &w, const QString &last)
{
    const QRegularExpression bad(QStringLiteral("\\bnan\\b|\\binf\\b"),
                                 QRegularExpression::CaseInsensitiveOption);
    for (const QLabel *label : w.findChildren<QLabel *>())
        QVERIFY2(!label->text().contains(bad),
                 qPrintable(label->text() + QStringLiteral(" after ") + last));
    QVERIFY2(!w.statusText().contains(bad), qPrintable(w.statusText() + QStringLiteral(" after ") + last));
}

} // namespace

class TestMonkey : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("vramplan-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_monkey"));
        Dialogs::setScripted(true);
    }
    void tenThousandEvents();
    void servingControls();
};

void TestMonkey::tenThousandEvents()
{
    const unsigned seed = qEnvironmentVariableIsSet("VRAMPLAN_MONKEY_SEED")
                              ? qEnvironmentVariableIntValue("VRAMPLAN_MONKEY_SEED")
                              : 20261122u;
    const int events = qEnvironmentVariableIsSet("VRAMPLAN_MONKEY_EVENTS")
                           ? qEnvironmentVariableIntValue("VRAMPLAN_MONKEY_EVENTS")
                           : 10000;
    QTemporaryDir dir;
    MainWindow w;
    w.setAutosavePath(dir.filePath(QStringLiteral("autosave.vramplan.json")));
    w.setScenario(screenshotScenario());
    QAction *quit = w.findChild<QAction *>(QStringLiteral("quit"));
    QVERIFY(quit);
    quit->setEnabled(false); // the one action that would end the walk
    QVERIFY(showAt(w, QSize(1280, 800)));

    Monkey monkey(w, seed);
    // How much of the window the walk reached: distinct scenarios, undo steps made.
    std::set<std::string> scenarios;
    int steps = 0, applied = 0;
    connect(w.undoStack(), &QUndoStack::indexChanged, this, [&] { ++steps; });
    connect(w.fitAdvisor(), &FitAdvisorPanel::applyRequested, this, [&] { ++applied; });
    connect(w.document(), &Document::applied, this,
            [&](const Scenario &s) { scenarios.insert(dump(s)); });
    QElapsedTimer clock;
    clock.start();
    QString last;
    for (int i = 1; i <= events; ++i) {
        last = QStringLiteral("event %1: ").arg(i) + monkey.step();
        if (i % 20 == 0)
            QCoreApplication::processEvents(); // queued replots, paints, timers
        if (i % burst == 0) {
            checkInvariants(w, last);
            if (QTest::currentTestFailed())
                return;
            QVERIFY2(w.isVisible(), qPrintable(last));
            // A bounded history keeps the undo-all check short; a new size now and then.
            if (i % (4 * burst) == 0)
                w.document()->reset(w.scenario());
            if (i % (20 * burst) == 0)
                monkey.resize();
        }
    }
    qInfo("%d events in %.1f s (seed %u): %zu scenarios, %d history moves, %d suggestions "
          "applied",
          events, double(clock.elapsed()) / 1000.0, seed, scenarios.size(), steps, applied);
    QVERIFY(scenarios.size() > 100); // the walk edits, not only clicks on nothing
}

// Issue 21: the serving group driven at random in inference mode: its engine, spin boxes, combo
// boxes and check boxes set to random values (refused ones included), with now and then a
// random training knob between; after every burst the invariants above hold and no label reads
// NaN or infinity.
void TestMonkey::servingControls()
{
    const unsigned seed = qEnvironmentVariableIsSet("VRAMPLAN_MONKEY_SEED")
                              ? qEnvironmentVariableIntValue("VRAMPLAN_MONKEY_SEED")
                              : 20261127u;
    const int actions = qEnvironmentVariableIsSet("VRAMPLAN_MONKEY_EVENTS")
                            ? qEnvironmentVariableIntValue("VRAMPLAN_MONKEY_EVENTS") / 5
                            : 2000;
    QTemporaryDir dir;
    MainWindow w;
    w.setAutosavePath(dir.filePath(QStringLiteral("autosave.vramplan.json")));
    w.setScenario(defaultScenario());
    QVERIFY(showAt(w, QSize(1280, 800)));
    ControlsPanel *c = w.controls();
    c->modeBox()->setCurrentIndex(c->modeBox()->findData(int(Mode::Inference)));
    QCOMPARE(w.scenario().training.mode, Mode::Inference);
    ServingGroup *serving = c->servingGroup();
    auto *engine = qobject_cast<QComboBox *>(serving->controlFor("serving.engine"));
    QVERIFY(engine);
    engine->setCurrentIndex(engine->findData(int(ServingEngine::Vllm)));
    QVERIFY(w.scenario().serving.present);

    std::mt19937 random(seed);
    auto uniform = [&](int low, int high) {
        return std::uniform_int_distribution<int>(low, high)(random);
    };
    std::set<std::string> scenarios;
    QString last;
    for (int i = 1; i <= actions; ++i) {
        // Mostly the serving group; one action in ten elsewhere (sequence, GPU, precision...).
        const QList<QWidget *> widgets = (uniform(0, 9) == 0 ? static_cast<QWidget *>(c)
                                                             : static_cast<QWidget *>(serving))
                                             ->findChildren<QWidget *>();
        QWidget *target = widgets.at(uniform(0, int(widgets.size()) - 1));
        if (!target->isEnabled())
            continue;
        if (auto *box = qobject_cast<QSpinBox *>(target)) {
            const int v = uniform(0, 3) == 0 ? box->maximum()
                                             : uniform(box->minimum(),
                                                       std::min(box->maximum(), box->minimum() + (1 << 17)));
            last = QStringLiteral("%1: %2 = %3").arg(i).arg(ControlGroup::label(box)).arg(v);
            box->setValue(v);
        } else if (auto *box = qobject_cast<QDoubleSpinBox *>(target)) {
            const double t = std::uniform_real_distribution<double>(0, 1)(random);
            const double v = box->minimum() + t * (box->maximum() - box->minimum());
            last = QStringLiteral("%1: %2 = %3").arg(i).arg(box->objectName()).arg(v);
            box->setValue(v);
        } else if (auto *box = qobject_cast<QComboBox *>(target)) {
            if (box->count() == 0 || box->isEditable())
                continue;
            const int index = uniform(0, box->count() - 1);
            last = QStringLiteral("%1: %2 -> %3")
                       .arg(i)
                       .arg(ControlGroup::label(box), box->itemText(index));
            box->setCurrentIndex(index);
        } else if (auto *check = qobject_cast<QCheckBox *>(target)) {
            last = QStringLiteral("%1: toggle %2").arg(i).arg(check->text());
            check->toggle();
        } else if (auto *line = qobject_cast<QLineEdit *>(target);
                   line && !qobject_cast<QAbstractSpinBox *>(line->parentWidget()) &&
                   !qobject_cast<QComboBox *>(line->parentWidget())) {
            static const QString texts[] = {QStringLiteral("0.8"), QStringLiteral("vllm 0.11"),
                                            QStringLiteral("x"), QString(),
                                            QStringLiteral("4.57")};
            const QString text = texts[uniform(0, 4)];
            last = QStringLiteral("%1: %2 text %3").arg(i).arg(ControlGroup::label(line), text);
            line->setText(text);
            emit line->editingFinished();
        } else {
            continue;
        }
        scenarios.insert(dump(w.scenario()));
        // Back to a server now and then: the walk may have chosen no engine or training.
        if (i % 97 == 0) {
            c->modeBox()->setCurrentIndex(c->modeBox()->findData(int(Mode::Inference)));
            engine->setCurrentIndex(uniform(1, engine->count() - 1));
        }
        if (i % burst == 0) {
            checkInvariants(w, last);
            checkNoNan(w, last);
            if (QTest::currentTestFailed())
                return;
            if (i % (4 * burst) == 0)
                w.document()->reset(w.scenario());
        }
    }
    QVERIFY(scenarios.size() > 100);
}

QTEST_MAIN(TestMonkey)
#include "tst_monkey.moc"
