// The "Make it fit" panel's longer texts (fittexts.h). Their context stays the panel's, where
// the translation file has them.

#include "panels/fittexts.h"

#include "advice/calibration.h"
#include "advice/serving_advice.h"
#include "panels/fitwording.h"
#include "rl/rlphasetext.h"

#include <QCoreApplication>

namespace vramplan::ui {
namespace {

struct Texts
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::FitAdvisorPanel)
};

QString escaped(const QString &text)
{
    return text.toHtmlEscaped();
}

} // namespace

QString fitToolTip(const Scenario &from, const Suggestion &s, Unit unit, bool nearest)
{
    QStringList changes;
    for (const auto &[path, value] : s.changes)
        changes << escaped(QString::fromStdString(
            path + " = " + (value.is_string() ? value.get<std::string>() : value.dump())));
    const QString phrases = escaped(changePhrases(from, s).join(QStringLiteral(", ")));
    const QString peak =
        nearest
            ? Texts::tr("Peak %1 per GPU: over by %2, the least of everything searched.")
                  .arg(formatSize(s.peakDeviceBytes, unit), formatSize(-s.headroomBytes, unit))
        : s.withinBand
            ? Texts::tr("Peak %1 per GPU, headroom %2: a tight fit, inside the estimate's likely range "
                 "(up to %3), so a real run may not fit.")
                  .arg(formatSize(s.peakDeviceBytes, unit), formatSize(s.headroomBytes, unit),
                       formatSize(s.peakDeviceBytes * validationErrorBand.high, unit))
            : Texts::tr("Peak %1 per GPU, headroom %2.")
                  .arg(formatSize(s.peakDeviceBytes, unit), formatSize(s.headroomBytes, unit));
    // An RL plan's peak is its largest phase's: say which, as the RL phases chart marks it.
    QString phase;
    if (s.scenario.rl.present())
        if (const Estimate e = estimate(s.scenario); e.rl.present)
            phase = Texts::tr("The peak is in the %1 phase, most of it held by the %2.")
                        .arg(rlPhaseName(e.rl.peak).toLower(), rlHolderName(e.rl.phase(e.rl.peak).holder));
    const QString relative = relativeTimeNumber(s.relativeStepTime);
    const QString time = relative.isEmpty() ? Texts::tr("the step time per token unknown")
                                            : Texts::tr("%1 the step time per token").arg(relative);
    return Texts::tr("<p><b>%1</b></p><p>%2<br>%3: %4</p><p><span style=\"color:%5\">"
              "&#9632;</span> %6: %7</p><p>%8</p><p><i>%9</i></p>",
              "a suggestion's tooltip")
        .arg(phrases, escaped(phase.isEmpty() ? peak : peak + QLatin1Char(' ') + phase),
             escaped(time), escaped(QString::fromStdString(s.costBasis)),
             kindColor(s.kind).name(), escaped(kindName(s.kind, from.serving.present)),
             escaped(kindMeaning(s.kind, from.serving.present)),
             changes.join(QStringLiteral("<br>")),
             Texts::tr("Click or press Enter to apply it (one undo step); hover to preview it on "
                "the breakdown."));
}

QString fitStatusText(const AdviceResult &result, Unit unit)
{
    const Advice &a = result.advice;
    const QString searched = groupedNumber(a.searched);
    const double headroom = result.headroomBytes;
    const QString count = groupedNumber(int64_t(a.suggestions.size()));
    const bool one = a.suggestions.size() == 1;
    const QString ways = one ? Texts::tr("One way") : Texts::tr("%1 ways").arg(count);
    const QString others = one ? Texts::tr("One other way") : Texts::tr("%1 other ways").arg(count);
    QString text;
    if (isServingScenario(result.scenario)) {
        // A server "fits" when it serves its target (serving_advice.h), not by headroom.
        if (a.fitsNow)
            text = Texts::tr("Serves it as it is. %1 that serve it (%2 candidates searched).")
                       .arg(others, searched);
        else if (a.suggestions.empty())
            text = Texts::tr("Does not serve it as it is, nor does any change searched (%1 candidates).")
                       .arg(searched);
        else
            text = Texts::tr("Does not serve it as it is. %1 to serve it (%2 candidates searched).")
                       .arg(ways, searched);
    } else if (a.fitsNow && a.suggestions.empty() && result.scenario.rl.present()) {
        // rl_advice.h searches only a plan that does not fit: its knobs trade time for memory.
        text = Texts::tr("Fits, headroom %1. The RL knobs trade time or method for memory: "
                         "nothing to change.")
                   .arg(formatSize(headroom, unit, 1));
    } else if (a.fitsNow && a.suggestions.empty())
        text = Texts::tr("Fits, headroom %1. Nothing else fits (%2 candidates searched).")
                   .arg(formatSize(headroom, unit, 1), searched);
    else if (a.fitsNow)
        text = Texts::tr("Fits, headroom %1. %2 that fit (%3 candidates searched).")
                   .arg(formatSize(headroom, unit, 1), others, searched);
    else if (a.suggestions.empty() && !a.smallestGpu.empty())
        text = Texts::tr("Over by %1. No change searched fits these GPUs (%2 candidates searched); the "
                  "nearest fits on a larger one.")
                   .arg(formatSize(-headroom, unit, 1), searched);
    else if (a.suggestions.empty())
        text = Texts::tr("Over by %1. Nothing fits (%2 candidates searched).")
                   .arg(formatSize(-headroom, unit, 1), searched);
    else
        text = Texts::tr("Over by %1. %2 to fit (%3 candidates searched).")
                   .arg(formatSize(-headroom, unit, 1), ways, searched);
    return text;
}

} // namespace vramplan::ui
