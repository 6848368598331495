#pragma once
// What a choice of one of the core's enumerations reads as in the window: its scenario-file
// spelling ("bf16_mixed", "selective", "adamw"), which is also the English label, or its
// translation ("bf16 混合精度", "选择性", "AdamW"). One table (enumlabels.cpp) lists every
// spelling the window shows, for lupdate to find.

#include "formats/enum_names.h"
#include "scenario.h"
#include "serving_config.h"

#include <QString>

#include <string_view>

namespace vramplan::ui {

// The enumeration a spelling belongs to ("recompute"): "none" and "full" mean different things
// in different ones. The translation's disambiguation.
const char *enumKind(Mode);
const char *enumKind(Precision);
const char *enumKind(Optimizer);
const char *enumKind(MasterDtype);
const char *enumKind(GradientDtype);
const char *enumKind(StateDtype);
const char *enumKind(Framework);
const char *enumKind(Offload);
const char *enumKind(Recompute);
const char *enumKind(Attention);
const char *enumKind(FinetuneMethod);
const char *enumKind(LossKind);
const char *enumKind(Kernels);
const char *enumKind(TrainingLoop);
const char *enumKind(ServingEngine);
const char *enumKind(KvCacheDtype);
const char *enumKind(WeightQuantization);
const char *enumKind(RlAlgorithm);
const char *enumKind(RlFramework);
const char *enumKind(RolloutPlacement);

// The spelling `name` of the enumeration `kind`, in the window's language.
QString enumLabel(const char *kind, std::string_view name);

template <typename E> QString enumLabel(E value)
{
    return enumLabel(enumKind(value), toString(value));
}

} // namespace vramplan::ui
