#pragma once
// The language the window speaks: the system's (LANG, LANGUAGE) by default, or English or
// Simplified Chinese as the user chooses (View > Language, kept in Settings). vramplan's own
// translation is compiled in (translations/vramplan_zh_CN.ts, embedded as ":/i18n/*.qm"); Qt's
// (standard dialogs, the file chooser) comes from Qt's translations folder where the system has
// it (Debian: qt6-translations-l10n). The words the estimator itself writes (formulas, tensor
// names, warnings, errors in a file) stay English.
//
// The translators are installed once, before the window is built: a change of language takes
// effect when vramplan next starts.

#include <QLocale>
#include <QString>

namespace vramplan::ui {

enum class Language
{
    System,
    English,
    SimplifiedChinese
};

// As kept in the settings: "system", "en", "zh_CN"; an unknown key is System.
QString languageKey(Language language);
Language languageFromKey(const QString &key);

// The translation a choice picks: "zh_CN", or "" for English (the words of the sources).
// System picks by the system's UI languages (`system`: QLocale::system() unless a test gives
// another), the first one vramplan has a translation for; English where it has none.
QString translationFor(Language language, const QLocale &system = QLocale::system());

// Installs on the application the translators for `language` (vramplan's and Qt's own),
// replacing any installed before, and for Chinese a font with Chinese letters where the
// application's has none; returns the translation installed ("zh_CN", or "" for English).
QString installTranslations(Language language, const QLocale &system = QLocale::system());
// The translation installTranslations last installed.
QString installedTranslation();
// Whether Qt's own translation (standard buttons, dialogs) was found for it.
bool qtTranslationInstalled();

// `source` (a string of `context`) in the language `translation` ("" for English), whatever
// language is installed: a message that must read in the language just chosen.
QString translatedInto(const QString &translation, const char *context, const char *source);

} // namespace vramplan::ui
