#pragma once
// UI state kept between runs (QSettings), through typed accessors in one place: window
// geometry, the size unit, the language, whether the "Make it fit" panel is collapsed. Scenarios
// live in files, never here.

#include "charts/units.h"
#include "document/language.h"

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
    static Language language(); // System unless the user chose one
    static void setLanguage(Language language);
    static bool fitPanelCollapsed();
    static void setFitPanelCollapsed(bool collapsed);
    static QStringList recentFiles();
    static void addRecentFile(const QString &path); // most recent first, at most 8
};

} // namespace vramplan::ui
