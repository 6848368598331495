#pragma once
// The "Make it fit" panel's longer texts (fitadvisorpanel.h): a suggestion's tooltip and the
// verdict line over the chips, in the panel's translation context.

#include "advisorworker.h"
#include "charts/units.h"

#include <QString>

namespace vramplan::ui {

// The tooltip of the chip of `s`, a change to `from` (`nearest`: it does not fit).
QString fitToolTip(const Scenario &from, const Suggestion &s, Unit unit, bool nearest);
// "Over by 12.3 GiB. 9 ways to fit (1,234 candidates searched)." and the like.
QString fitStatusText(const AdviceResult &result, Unit unit);

} // namespace vramplan::ui
