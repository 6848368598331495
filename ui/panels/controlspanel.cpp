#include "panels/controlspanel.h"

#include "panels/batchgroup.h"
#include "panels/gpugroup.h"
#include "panels/inputguard.h"
#include "panels/logslider.h"
#include "panels/modelgroup.h"
#include "panels/namegroup.h"
#include "panels/parallelgroup.h"
#include "panels/presetpicker.h"
#include "panels/rlgroup.h"
#include "panels/saversgroup.h"
#include "panels/servinggroup.h"
#include "panels/stackgroup.h"
#include "panels/traininggroup.h"
#include "panels/warningmarks.h"
#include "panels/wheelguard.h"
#include "formats/scenario_json.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QVBoxLayout>

namespace vramplan::ui {
namespace {

// What a line edit holds that the scenario refused: the text, why, and what the scenario shows
// in its place (which, shown again, means the scenario did not move under it).
constexpr const char *refusedTextProperty = "vramplanRefusedText";
constexpr const char *refusedReasonProperty = "vramplanRefusedReason";
constexpr const char *scenarioTextProperty = "vramplanScenarioText";

void clearRefused(QLineEdit *line)
{
    line->setProperty(refusedTextProperty, QVariant());
    line->setProperty(refusedReasonProperty, QVariant());
    line->setStyleSheet(QString());
}

} // namespace

QString shownValue(const QWidget *control)
{
    if (auto *slider = qobject_cast<const LogSlider *>(control))
        return slider->spinBox()->text();
    if (auto *spin = qobject_cast<const QAbstractSpinBox *>(control))
        return spin->text();
    if (auto *box = qobject_cast<const QComboBox *>(control))
        return box->currentText();
    if (auto *line = qobject_cast<const QLineEdit *>(control))
        return line->text();
    if (auto *button = qobject_cast<const QAbstractButton *>(control))
        return button->isChecked() ? QObject::tr("on") : QObject::tr("off");
    return {};
}

ControlsPanel::ControlsPanel(QWidget *parent)
    : QWidget(parent), m_name(new NameGroup), m_model(new ModelGroup), m_batch(new BatchGroup),
      m_training(new TrainingGroup), m_stack(new StackGroup), m_serving(new ServingGroup),
      m_rl(new RlGroup), m_savers(new SaversGroup),
      m_parallel(new ParallelGroup), m_gpu(new GpuGroup)
{
    m_groups = {m_name,    m_model, m_batch,  m_training, m_stack,
                m_serving, m_rl,    m_savers, m_parallel, m_gpu};
    auto *layout = new QVBoxLayout(this);
    for (ControlGroup *group : m_groups) {
        layout->addWidget(group);
        connect(group, &ControlGroup::editRequested, this, &ControlsPanel::apply);
    }
    layout->addStretch(1);
    // Long item texts must not set the panel's width: the charts are what the user came for.
    // The popups still show the whole text, and every box is wide enough for its current
    // choice at the window's default width.
    for (QComboBox *box : findChildren<QComboBox *>()) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(8);
    }
    for (QSpinBox *box : findChildren<QSpinBox *>())
        box->setMinimumWidth(box->fontMetrics().horizontalAdvance(QStringLiteral("00000000")));
    guardWheel(this);
    guardInput(this, [this](QWidget *control, const QString &message) {
        emit refused(message, control);
    });
}

QLineEdit *ControlsPanel::nameField() const
{
    return m_name->nameField();
}
LogSlider *ControlsPanel::microBatch() const
{
    return m_batch->microBatch();
}
LogSlider *ControlsPanel::sequenceLength() const
{
    return m_batch->sequenceLength();
}
LogSlider *ControlsPanel::gpuCount() const
{
    return m_parallel->gpuCount();
}
LogSlider *ControlsPanel::modelSize() const
{
    return m_model->modelSize();
}
QComboBox *ControlsPanel::presetBox() const
{
    return m_model->presetPicker();
}
PresetPicker *ControlsPanel::presetPicker() const
{
    return m_model->presetPicker();
}
QDoubleSpinBox *ControlsPanel::imbalanceBox() const
{
    return m_model->imbalanceBox();
}
QLabel *ControlsPanel::architectureSummary() const
{
    return m_model->architectureSummary();
}
void ControlsPanel::setUnit(Unit unit)
{
    m_gpu->setUnit(unit);
}

QComboBox *ControlsPanel::gpuBox() const
{
    return m_gpu->gpuBox();
}
QComboBox *ControlsPanel::zeroBox() const
{
    return m_savers->zeroBox();
}
QComboBox *ControlsPanel::tensorParallelBox() const
{
    return m_parallel->tensorParallelBox();
}
QComboBox *ControlsPanel::modeBox() const
{
    return m_training->modeBox();
}
QComboBox *ControlsPanel::recomputeBox() const
{
    return m_savers->recomputeBox();
}
QComboBox *ControlsPanel::finetuneBox() const
{
    return m_savers->finetuneBox();
}
QComboBox *ControlsPanel::precisionBox() const
{
    return m_training->precisionBox();
}
QComboBox *ControlsPanel::optimizerBox() const
{
    return m_training->optimizerBox();
}
QComboBox *ControlsPanel::attentionBox() const
{
    return m_savers->attentionBox();
}

QWidget *ControlsPanel::controlFor(const QString &field) const
{
    for (const ControlGroup *group : m_groups)
        if (QWidget *control = group->controlFor(field))
            return control;
    return nullptr;
}

void ControlsPanel::setScenario(const Scenario &s)
{
    m_updating = true;
    m_scenario = s;
    for (ControlGroup *group : m_groups)
        group->showScenario(s);
    // Refused text stays for correction while the scenario still shows what it showed then;
    // an undo, an opened file or a suggestion that changes the field replaces it.
    for (QLineEdit *line : findChildren<QLineEdit *>()) {
        const QVariant refused = line->property(refusedTextProperty);
        if (!refused.isValid())
            continue;
        if (line->text() == line->property(scenarioTextProperty).toString()) {
            const QSignalBlocker blocker(line);
            line->setText(refused.toString());
        } else {
            clearRefused(line);
        }
    }
    refreshAvailability();
    m_updating = false;
}

void ControlsPanel::keepRefusedText(QWidget *control, const QString &reason)
{
    auto *line = qobject_cast<QLineEdit *>(control);
    if (!line || qobject_cast<QComboBox *>(line->parentWidget()))
        return;
    const QString typed = line->text();
    clearRefused(line);
    setScenario(m_scenario); // every other control back where the scenario is
    line->setProperty(scenarioTextProperty, line->text());
    line->setProperty(refusedTextProperty, typed);
    line->setProperty(refusedReasonProperty, reason);
    const QSignalBlocker blocker(line);
    line->setText(typed);
    line->setStyleSheet(QStringLiteral("border: 2px solid #c62828"));
    line->setToolTip(reason);
}

void ControlsPanel::showWarnings(const Estimate &e)
{
    m_warnings.clear();
    for (const auto &[text, fields] : warningsByField(e))
        for (const QString &field : fields) {
            QString &on = m_warnings[field];
            on += (on.isEmpty() ? QString() : QStringLiteral("\n")) + text;
        }
    applyWarnings();
}

void ControlsPanel::applyWarnings()
{
    for (const ControlGroup *group : m_groups)
        for (auto it = group->controls().begin(); it != group->controls().end(); ++it) {
            QWidget *control = it.value();
            if (const QVariant reason = control->property(refusedReasonProperty); reason.isValid())
                control->setToolTip(reason.toString()); // what is wrong with the text in it
            else
                markWarning(control, m_warnings.value(it.key()));
        }
}

void ControlsPanel::apply(QWidget *control, const ControlGroup::Edit &edit, bool dragging)
{
    if (m_updating)
        return;
    Scenario next = m_scenario;
    edit(next);
    const std::string error = checkScenario(next);
    if (!error.empty()) {
        // Said on the control edited, with the value that was refused: the core's reason may
        // name another field (the KV heads a new head count no longer divides).
        const QString reason = tr("%1 %2 refused: %3")
                                   .arg(ControlGroup::label(control), shownValue(control),
                                        QString::fromStdString(error));
        if (qobject_cast<QLineEdit *>(control))
            keepRefusedText(control, reason); // typed text is left to correct, not thrown away
        else
            setScenario(m_scenario); // put the controls back where the scenario is
        emit refused(reason, control);
        return;
    }
    if (auto *line = qobject_cast<QLineEdit *>(control))
        clearRefused(line);
    const Scenario before = m_scenario;
    m_scenario = next;
    refreshAvailability();
    emit edited(m_scenario, dragging, tr("Change %1").arg(ControlGroup::subject(control)));
    // A new size rewrites the architecture: say which fields, once the drag is let go.
    if (control == m_model->modelSize() && !dragging)
        if (const QString note = scaledModelNote(before.model, m_scenario.model); !note.isEmpty())
            emit noted(tr("%1 %2: %3").arg(ControlGroup::label(control), shownValue(control), note),
                       control);
}

void ControlsPanel::refreshAvailability()
{
    for (ControlGroup *group : m_groups)
        group->refreshAvailability(m_scenario);
    // With an `rl` section the sequence is prompt + response (docs/rl.md): the batch group's
    // sequence length is not what is planned.
    ControlGroup::setAvailable(sequenceLength(), !m_scenario.rl.present(),
                               tr("Post-training plans prompt + response tokens: set them in "
                                  "the Post-training (RL) group"));
    applyWarnings(); // the groups have just set the tooltips the warnings go before
}

} // namespace vramplan::ui
