#include "document/settings.h"

#include <QSettings>

namespace vramplan::ui {

namespace {
const char *keyGeometry = "window/geometry";
const char *keyState = "window/state";
const char *keyUnit = "view/unit";
const char *keyRecent = "files/recent";
const char *keyFitCollapsed = "view/fitPanelCollapsed";
const char *keyLanguage = "view/language";
constexpr int maxRecent = 8;
} // namespace

QByteArray Settings::windowGeometry()
{
    return QSettings().value(keyGeometry).toByteArray();
}
void Settings::setWindowGeometry(const QByteArray &g)
{
    QSettings().setValue(keyGeometry, g);
}
QByteArray Settings::windowState()
{
    return QSettings().value(keyState).toByteArray();
}
void Settings::setWindowState(const QByteArray &s)
{
    QSettings().setValue(keyState, s);
}

Unit Settings::unit()
{
    return QSettings().value(keyUnit, QStringLiteral("GiB")).toString() == QStringLiteral("GB")
               ? Unit::GB
               : Unit::GiB;
}

void Settings::setUnit(Unit unit)
{
    QSettings().setValue(keyUnit, unitName(unit));
}

Language Settings::language()
{
    return languageFromKey(QSettings().value(keyLanguage).toString());
}

void Settings::setLanguage(Language language)
{
    QSettings().setValue(keyLanguage, languageKey(language));
}

bool Settings::fitPanelCollapsed()
{
    return QSettings().value(keyFitCollapsed, false).toBool();
}

void Settings::setFitPanelCollapsed(bool collapsed)
{
    QSettings().setValue(keyFitCollapsed, collapsed);
}

QStringList Settings::recentFiles()
{
    return QSettings().value(keyRecent).toStringList();
}

void Settings::addRecentFile(const QString &path)
{
    QStringList files = recentFiles();
    files.removeAll(path);
    files.prepend(path);
    while (files.size() > maxRecent)
        files.removeLast();
    QSettings().setValue(keyRecent, files);
}

} // namespace vramplan::ui
