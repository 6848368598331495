#include "panels/fitadvisorpanel.h"


#include "catalog.h"
#include "charts/componentstyle.h"
#include "document/editcommand.h"
#include "panels/fitchip.h"
#include "panels/fittexts.h"
#include "panels/fitwording.h"
#include "panels/flowlayout.h"
#include "advice/serving_advice.h"

#include <QApplication>
#include <QCoreApplication>
#include <QEvent>
#include <QLabel>
#include <QScrollArea>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <set>

namespace vramplan::ui {
namespace {

// A search that has not answered within this long says so; a quicker one (nearly all of
// them) changes the chips without a flicker of "Searching…".
constexpr int searchingAfterMs = 250;

QString escaped(const QString &text)
{
    return text.toHtmlEscaped();
}

} // namespace

FitAdvisorPanel::FitAdvisorPanel(QWidget *parent)
    : QWidget(parent), m_toggle(new QToolButton), m_status(new QLabel), m_scroll(new QScrollArea),
      m_chipBox(new QWidget), m_flow(new FlowLayout(m_chipBox)), m_nothingFits(new QLabel),
      m_solvers(new QLabel), m_legend(new QLabel), m_searching(new QTimer(this))
{
    setObjectName(QStringLiteral("fitAdvisor"));
    m_toggle->setText(tr("Make it fit"));
    m_toggle->setObjectName(QStringLiteral("fitAdvisorToggle"));
    m_toggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toggle->setArrowType(Qt::DownArrow);
    m_toggle->setAutoRaise(true);
    m_toggle->setToolTip(tr("Show or hide the suggestions"));
    QFont bold = m_toggle->font();
    bold.setBold(true);
    m_toggle->setFont(bold);
    connect(m_toggle, &QToolButton::clicked, this, [this] { setCollapsed(!m_collapsed); });

    m_status->setWordWrap(true);
    m_nothingFits->setWordWrap(true);
    m_nothingFits->setTextFormat(Qt::PlainText);
    m_solvers->setWordWrap(true);
    m_solvers->setTextFormat(Qt::PlainText);
    m_solvers->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_solversTip = tr("The solvers' answers for the scenario as it is: the largest "
                      "micro-batch and the longest sequence that fit, and the fewest GPUs of "
                      "this layout that do");
    m_solvers->setToolTip(m_solversTip);
    m_legend->setWordWrap(true);
    m_legend->setTextFormat(Qt::RichText);

    auto *content = new QWidget;
    auto *inner = new QVBoxLayout(content);
    inner->setContentsMargins(0, 0, 2, 0);
    inner->setSpacing(6);
    // The solvers' three short lines first: they answer "how far from fitting as it is"; the
    // chips below answer "what to change".
    inner->addWidget(m_solvers);
    inner->addWidget(m_nothingFits);
    inner->addWidget(m_chipBox);
    inner->addWidget(m_legend);
    inner->addStretch(1);
    // The chips' height follows the width they get; held as the box's minimum, it reaches the
    // scroll area through the content's minimum size (a flow inside a scroll area is not
    // otherwise asked its height for a width when the chips change).
    m_chipBox->installEventFilter(this);
    m_scroll->setWidget(content);
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // As short as the window needs: the chips scroll rather than push the breakdown away.
    m_scroll->setMinimumHeight(0);
    m_scroll->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Ignored);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    layout->addWidget(m_toggle, 0, Qt::AlignLeft);
    layout->addWidget(m_status);
    layout->addWidget(m_scroll, 1);

    m_searching->setSingleShot(true);
    m_searching->setInterval(searchingAfterMs);
    connect(m_searching, &QTimer::timeout, this, [this] {
        m_slow = m_pending;
        updateStatus();
        for (FitChip *chip : m_chips)
            chip->setEnabled(!m_slow);
        markSolvers();
    });
    updateStatus();
}

bool FitAdvisorPanel::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_chipBox && event->type() == QEvent::Resize)
        fitChipBoxHeight();
    return QWidget::eventFilter(watched, event);
}

void FitAdvisorPanel::fitChipBoxHeight()
{
    const int height = m_flow->heightForWidth(m_chipBox->width());
    if (m_chipBox->minimumHeight() == height)
        return;
    m_chipBox->setMinimumHeight(height);
    // The scroll area sizes its content on a layout request of its own; the content's reach
    // only the viewport.
    QCoreApplication::postEvent(m_scroll, new QEvent(QEvent::LayoutRequest));
}

void FitAdvisorPanel::setPending(const Scenario &scenario)
{
    if (m_hasResult && !m_pending && sameScenario(scenario, m_result.scenario))
        return; // the same scenario again (a step that ends where it began): still current
    m_pending = true;
    if (!m_searching->isActive() && !m_slow)
        m_searching->start();
}

void FitAdvisorPanel::setResult(const AdviceResult &result)
{
    if (m_previewing >= 0) {
        m_previewing = -1;
        emit previewCleared();
    }
    m_result = result;
    m_hasResult = true;
    m_pending = false;
    m_slow = false;
    m_searching->stop();
    markSolvers();
    rebuild();
}

// While a slow search runs, the solvers' lines still answer the previous scenario: greyed,
// with a tooltip saying so, until the new answers land (issue 21 #20).
void FitAdvisorPanel::markSolvers()
{
    m_solvers->setEnabled(!m_slow);
    m_solvers->setToolTip(m_slow ? tr("Updating: these answers are of the previous scenario; the "
                                      "search for the new one is under way")
                                 : m_solversTip);
}

bool FitAdvisorPanel::solversCurrent() const
{
    return m_solvers->isEnabled();
}

void FitAdvisorPanel::setUnit(Unit unit)
{
    m_unit = unit;
    if (m_hasResult)
        rebuild();
}

void FitAdvisorPanel::setCollapsed(bool collapsed)
{
    const bool changed = collapsed != m_wantCollapsed;
    m_wantCollapsed = collapsed;
    applyCollapse();
    if (changed)
        emit collapsedChanged(collapsed);
}

void FitAdvisorPanel::setCollapsible(bool collapsible)
{
    m_collapsible = collapsible;
    applyCollapse();
}

void FitAdvisorPanel::applyCollapse()
{
    m_collapsed = m_wantCollapsed && m_collapsible;
    // In a tab of its own the tab names the panel: no heading to fold it by.
    m_toggle->setVisible(m_collapsible);
    m_toggle->setArrowType(m_collapsed ? Qt::RightArrow : Qt::DownArrow);
    m_scroll->setVisible(!m_collapsed);
    // Collapsed, the panel keeps its heading's height and the breakdown takes the rest.
    setSizePolicy(QSizePolicy::Preferred,
                  m_collapsed ? QSizePolicy::Maximum : QSizePolicy::Preferred);
}

QList<FitChip *> FitAdvisorPanel::chips() const
{
    return m_chips;
}

QString FitAdvisorPanel::statusText() const
{
    return m_status->text();
}

QStringList FitAdvisorPanel::solverTexts() const
{
    return m_solvers->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

QString FitAdvisorPanel::nothingFitsText() const
{
    return m_nothingFits->isHidden() ? QString() : m_nothingFits->text();
}

void FitAdvisorPanel::rebuild()
{
    const Advice &a = m_result.advice;
    m_shown.clear();
    const bool nearestOnly = a.suggestions.empty() && a.hasNearest;
    const auto show = [&](const Suggestion &s, size_t estimate) {
        const QStringList phrases = changePhrases(m_result.scenario, s);
        m_shown.push_back(
            {&s, estimate < m_result.estimates.size() ? &m_result.estimates[estimate] : nullptr,
             phrases, QString()});
    };
    for (size_t i = 0; i < a.suggestions.size(); ++i)
        show(a.suggestions[i], i);
    if (nearestOnly)
        show(a.nearest, a.suggestions.size());
    // Short titles that name what tells two chips apart rather than "+N" alike (issue 21 #19).
    QList<QStringList> allPhrases;
    for (const Shown &s : m_shown)
        allPhrases << s.phrases;
    const QStringList titles = chipTitles(allPhrases);
    for (size_t i = 0; i < m_shown.size(); ++i)
        m_shown[i].title = titles.value(qsizetype(i));

    // The chips are reused in place: a keyboard user's focus stays where it was as the advice
    // follows a slider.
    while (m_chips.size() > qsizetype(m_shown.size())) {
        FitChip *chip = m_chips.takeLast();
        m_flow->removeWidget(chip);
        delete chip;
    }
    while (m_chips.size() < qsizetype(m_shown.size())) {
        const int index = int(m_chips.size());
        auto *chip = new FitChip(m_chipBox);
        chip->setObjectName(QStringLiteral("fitChip%1").arg(index));
        connect(chip, &FitChip::clicked, this, [this, index] { chipClicked(index); });
        connect(chip, &FitChip::previewChanged, this,
                [this, index](bool on) { chipPreview(index, on); });
        connect(chip, &FitChip::pointerMoved, this,
                [this, index](const QPoint &global) { pointerMoved(index, global); });
        // A chip disabled or laid out again while a search runs is left by no pointer.
        connect(chip, &FitChip::pointerLeft, this, [this] {
            if (!m_pending)
                releaseHold();
        });
        m_flow->addWidget(chip);
        m_chips.append(chip);
    }
    for (size_t i = 0; i < m_shown.size(); ++i) {
        updateChip(m_chips[qsizetype(i)], m_shown[i], nearestOnly);
        m_chips[qsizetype(i)]->setEnabled(true);
    }
    m_chipBox->setVisible(!m_shown.empty());

    if (nearestOnly || (a.suggestions.empty() && !a.fitsNow)) {
        // Where the nearest fits on a larger GPU of the catalog, "nothing fits" would contradict
        // the line that says so (issue 21 #9): say what the search covered instead.
        QString text = !a.smallestGpu.empty()
                           ? tr("No change searched fits these GPUs. The nearest, which fits on "
                                "a larger GPU:")
                       : a.hasNearest ? tr("Nothing fits, with any change searched. The nearest:")
                                      : tr("Nothing fits, with any change searched.");
        m_nothingFits->setText(text);
        m_nothingFits->show();
    } else {
        m_nothingFits->hide();
    }

    QStringList solvers;
    if (isServingScenario(m_result.scenario)) {
        // A server's advice (serving_advice.h): the training solvers do not apply; say what the
        // search looked for instead.
        const ServingTarget target = resolveTarget(m_result.scenario, {});
        // One request reads in the singular (English has no numerus file to pick it by %n).
        solvers << (target.requests == 1
                        ? tr("Serving one request of %1 tokens, cheapest first (GiB of GPU "
                             "memory rented)")
                              .arg(groupedNumber(target.tokens))
                        : tr("Serving %1 requests of %2 tokens at once, cheapest first (GiB of "
                             "GPU memory rented)")
                              .arg(groupedNumber(target.requests), groupedNumber(target.tokens)));
    } else {
        solvers << largestMicroBatchText(a) << longestSequenceText(a)
                << fewestGpusText(a, m_result.scenario);
    }
    if (!a.smallestGpu.empty()) {
        const GpuSpec *gpu = Catalog::builtin().gpu(a.smallestGpu);
        solvers << tr("The nearest fits on one %1")
                       .arg(gpu ? shortGpuName(gpu->name) : QString::fromStdString(a.smallestGpu));
    } else if (nearestOnly) {
        solvers << tr("The nearest fits on no GPU of the catalog");
    }
    m_solvers->setText(solvers.join(QLatin1Char('\n')));

    std::set<ChangeKind> kinds;
    for (const Shown &s : m_shown)
        kinds.insert(s.suggestion->kind);
    QStringList legend;
    for (ChangeKind k : kinds)
        legend << QStringLiteral("<span style=\"color:%1\">&#9632;</span>&nbsp;%2")
                      .arg(kindColor(k).name(),
                           escaped(kindName(k, m_result.scenario.serving.present)));
    m_legend->setText(legend.isEmpty() ? QString()
                                       : legend.join(QStringLiteral(" &nbsp; ")) +
                                             tr(" &nbsp; <i>time: per token, against now</i>"));
    m_legend->setVisible(!legend.isEmpty());
    updateStatus();
    fitChipBoxHeight();
    QCoreApplication::postEvent(m_scroll, new QEvent(QEvent::LayoutRequest));

    // A chip still hovered (or focused from the keyboard) previews what it now holds, unless
    // the pointer has not moved since a chip was clicked: the chip under it now holds another
    // suggestion, which the user has not pointed at (issue 21 #1).
    for (qsizetype i = 0; i < m_chips.size() && !m_hold; ++i)
        if (m_chips[i]->previewing()) {
            chipPreview(int(i), true);
            break;
        }
}

void FitAdvisorPanel::updateChip(FitChip *chip, const Shown &shown, bool nearest)
{
    const Suggestion &s = *shown.suggestion;
    const QString detail = nearest ? tr("over by %1 · %2")
                                         .arg(formatSize(-s.headroomBytes, m_unit, 1),
                                              relativeTimeText(s.relativeStepTime))
                                   : tr("%1 · %2").arg(formatSize(s.peakDeviceBytes, m_unit, 1),
                                                       relativeTimeText(s.relativeStepTime));
    // A fit inside the estimate's likely range says so (issue 21 #9).
    chip->setContent(shown.phrases,
                     !nearest && s.withinBand ? tr("%1 · tight fit").arg(detail) : detail,
                     kindColor(s.kind), nearest, shown.title);
    chip->setToolTip(fitToolTip(m_result.scenario, s, m_unit, nearest));
}

void FitAdvisorPanel::updateStatus()
{
    m_status->setText(!m_hasResult || m_slow ? tr("Searching…")
                                             : fitStatusText(m_result, m_unit));
}

void FitAdvisorPanel::chipClicked(int index)
{
    // Chips of an earlier scenario apply nothing: the user's newer edit would be undone.
    if (m_pending || index < 0 || size_t(index) >= m_shown.size())
        return;
    const FitChip *chip = m_chips.value(index);
    const bool pointer = chip && chip->clickedByPointer();
    // A second click where the last one applied (a double-click) would land on whatever chip
    // the new advice put there: the pointer must move first (issue 21 #1).
    if (pointer && m_hold &&
        (chip->pressPoint() - m_holdPoint).manhattanLength() < QApplication::startDragDistance())
        return;
    m_hold = pointer;
    if (pointer)
        m_holdPoint = chip->pressPoint();
    const Shown &shown = m_shown[size_t(index)];
    emit applyRequested(shown.suggestion->scenario, tr("Apply suggestion: %1").arg(shown.title));
}

void FitAdvisorPanel::pointerMoved(int index, const QPoint &global)
{
    if (!m_hold || (global - m_holdPoint).manhattanLength() < QApplication::startDragDistance())
        return;
    releaseHold();
    // The chip under the pointer previews now that the user points at it.
    if (index < m_chips.size() && m_chips[index]->previewing())
        chipPreview(index, true);
}

void FitAdvisorPanel::releaseHold()
{
    m_hold = false;
}

void FitAdvisorPanel::chipPreview(int index, bool on)
{
    if (on && m_hold)
        return; // not pointed at yet: the pointer has not moved since the click
    if (on && index >= 0 && size_t(index) < m_shown.size() && m_shown[size_t(index)].estimate) {
        m_previewing = index;
        emit previewRequested(*m_shown[size_t(index)].estimate, m_shown[size_t(index)].title);
    } else if (!on && m_previewing == index) {
        m_previewing = -1;
        emit previewCleared();
    }
}

} // namespace vramplan::ui
