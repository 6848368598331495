// The words the RL charts share (rlphasetext.h).

#include "rl/rlphasetext.h"

#include "charts/componentstyle.h"

#include <QCoreApplication>

namespace vramplan::ui {
namespace {

struct Texts
{
    Q_DECLARE_TR_FUNCTIONS(vramplan::ui::RlPhaseText)
};

// The holders the core names (rl_setup.cpp rlPartyName), for lupdate.
[[maybe_unused]] constexpr const char *holders[] = {
    QT_TRANSLATE_NOOP("vramplan::ui::RlPhaseText", "rollout engine"),
    QT_TRANSLATE_NOOP("vramplan::ui::RlPhaseText", "policy"),
    QT_TRANSLATE_NOOP("vramplan::ui::RlPhaseText", "reference model"),
    QT_TRANSLATE_NOOP("vramplan::ui::RlPhaseText", "reward model"),
    QT_TRANSLATE_NOOP("vramplan::ui::RlPhaseText", "critic"),
    QT_TRANSLATE_NOOP("vramplan::ui::RlPhaseText", "CUDA context and NCCL"),
};

QString escaped(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size())).toHtmlEscaped();
}

} // namespace

QString rlPhaseName(RlPhaseKind kind)
{
    switch (kind) {
    case RlPhaseKind::Generation:
        return Texts::tr("Generation");
    case RlPhaseKind::Experience:
        return Texts::tr("Experience");
    case RlPhaseKind::Training:
        return Texts::tr("Training");
    }
    return {};
}

QString rlHolderName(std::string_view holder)
{
    const std::string text(holder);
    return QCoreApplication::translate("vramplan::ui::RlPhaseText", text.c_str());
}

QString rlPhaseLabel(const RlPlan &plan, RlPhaseKind kind, Unit unit)
{
    const QString size = formatSize(plan.phase(kind).device, unit);
    // A colocated engine whose KV cache cannot hold one request does not start: the plan's
    // figures for it are what it would ask for, not a run (rl_plan.h engineStarts).
    if (kind == RlPhaseKind::Generation && !plan.engineStarts)
        return Texts::tr("%1\nengine cannot start").arg(size);
    return kind == plan.peak ? Texts::tr("%1, peak", "a phase's device total").arg(size) : size;
}

QString rlPhaseToolTip(const RlPlan &plan, RlPhaseKind kind, Unit unit, int component)
{
    const RlPhase &phase = plan.phase(kind);
    if (!phase.present)
        return Texts::tr("%1: not part of this algorithm (pairs come from the data set)")
            .arg(rlPhaseName(kind));
    QString rows;
    for (const Item &item : phase.items) {
        if (component >= 0 && int(item.component) != component)
            continue;
        rows += QStringLiteral("<tr><td><span style=\"color:%1\">&#9632;</span> %2</td>"
                               "<td align=\"right\">%3</td></tr><tr><td colspan=\"2\">"
                               "<small>%4<br><i>%5</i></small></td></tr>")
                    .arg(componentColor(item.component).name(), escaped(item.name),
                         formatSize(item.bytes(), unit), escaped(item.formula),
                         escaped(item.source));
    }
    const QString heading =
        Texts::tr("<b>%1</b>: device %2 (allocated %3, reserved %4); most held by the %5 (%6)")
            .arg(rlPhaseName(kind), formatSize(phase.device, unit),
                 formatSize(phase.allocated, unit), formatSize(phase.reserved, unit),
                 rlHolderName(phase.holder), formatSize(phase.holderBytes, unit));
    return QStringLiteral("<p>%1</p><table>%2</table>").arg(heading, rows);
}

} // namespace vramplan::ui
