#pragma once
// The words the RL charts share (docs/rl.md): a phase's name, who holds most of it, the label
// over its bar, and the tooltip that lists its items with formula and source, as the core
// computed them (rl_plan.h).

#include "charts/units.h"
#include "rl_plan.h"

#include <QString>

namespace vramplan::ui {

// "Generation", "Experience", "Training", in the window's language.
QString rlPhaseName(RlPhaseKind kind);
// The party the core names as the phase's holder ("rollout engine", "policy", ...), translated.
QString rlHolderName(std::string_view holder);
// "48.52 GiB" over a bar; the peak phase's reads "76.48 GiB, peak"; a generation whose engine
// cannot start "29.98 GiB" over "engine cannot start".
QString rlPhaseLabel(const RlPlan &plan, RlPhaseKind kind, Unit unit);
// The phase's items, one a row: name, size, formula and source; `component` >= 0 lists only that
// component's items (the segment under the mouse).
QString rlPhaseToolTip(const RlPlan &plan, RlPhaseKind kind, Unit unit, int component = -1);

} // namespace vramplan::ui
