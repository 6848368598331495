#pragma once
// Small helpers the control groups share: combo boxes over the core's enumerations (each choice
// with a tooltip), whole-number spin boxes, and showing a value without emitting.

#include "formats/enum_names.h"
#include "panels/enumlabels.h"

#include <QComboBox>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QString>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <utility>
#include <vector>

namespace vramplan::ui {

inline QString fromView(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

// Every value of E by its scenario-file name (or its translation: enumLabel); `abouts` gives
// each a tooltip saying what it is.
template <typename E>
void fillEnum(QComboBox *box, std::initializer_list<std::pair<E, QString>> abouts = {})
{
    for (const auto &entry : enumNames<E>()) {
        box->addItem(enumLabel(entry.value), int(entry.value));
        for (const auto &[value, about] : abouts)
            if (value == entry.value)
                box->setItemData(box->count() - 1, about, Qt::ToolTipRole);
    }
}

template <typename E> void showEnum(QComboBox *box, E value)
{
    const QSignalBlocker blocker(box);
    box->setCurrentIndex(box->findData(int(value)));
}

inline void showData(QComboBox *box, const QVariant &data)
{
    const QSignalBlocker blocker(box);
    box->setCurrentIndex(box->findData(data));
}

template <typename E> E enumAt(const QComboBox *box)
{
    return static_cast<E>(box->currentData().toInt());
}

inline QSpinBox *spinBox(int minimum, int maximum)
{
    auto *box = new QSpinBox;
    box->setRange(minimum, maximum);
    box->setKeyboardTracking(false);
    box->setAccelerated(true);
    return box;
}

inline void showInt(QSpinBox *box, int64_t value)
{
    const QSignalBlocker blocker(box);
    box->setValue(int(std::clamp<int64_t>(value, box->minimum(), box->maximum())));
}

inline std::vector<double> powersOfTwo(double from, double to)
{
    std::vector<double> out;
    for (double v = 1; v <= to; v *= 2)
        if (v >= from)
            out.push_back(v);
    return out;
}

} // namespace vramplan::ui
