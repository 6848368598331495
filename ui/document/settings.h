#pragma once
// UI state kept between runs (QSettings), through typed accessors in one place: window
// geometry and the size unit. Scenarios live in files, never here.

#include "charts/units.h"

#include <QByteArray>
#include <QStringList>

namespace vramplan::ui {

class Settings
{
public:
    static QByteArray windowGeometry();
    static void setWindowGeometry(const QByteArray &geometry);
    static QByteArray windowState();
    static void setWindowState(const QByteArray &state);
    static Unit unit();
    static void setUnit(Unit unit);
    static QStringList recentFiles();
    static void addRecentFile(const QString &path); // most recent first, at most 8
};

} // namespace vramplan::ui
