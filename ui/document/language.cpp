#include "document/language.h"

#include <QCoreApplication>
#include <QFontDatabase>
#include <QFontInfo>
#include <QGuiApplication>
#include <QLibraryInfo>
#include <QPointer>
#include <QTranslator>

namespace vramplan::ui {
namespace {

// Where the build embeds vramplan's .qm files (qt_add_translations in ui/CMakeLists.txt).
const QString resourceFolder = QStringLiteral(":/i18n");
const QString prefix = QStringLiteral("vramplan_");

// Children of the application, which outlives the window.
QPointer<QTranslator> ownTranslator;
QPointer<QTranslator> qtTranslator;
QString installed;

// A translation vramplan has: ":/i18n/vramplan_<name>.qm".
bool has(const QString &name)
{
    return QTranslator().load(prefix + name, resourceFolder);
}

QLocale localeOf(const QString &translation)
{
    return QLocale(translation);
}

// Chinese text in a font without Chinese comes from a fallback font, whose taller lines make a
// line of Chinese taller than a line of digits beside it (the breakdown's measured numbers). A
// Chinese desktop's font has both; elsewhere (an English system, vramplan in Chinese by choice)
// the application takes a Chinese font that has Latin letters too, as such a desktop would.
void useFontFor(const QString &translation)
{
    if (!qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return;
    // The families of the application's own font, to go back to (a QFont kept past the
    // application would outlive its font cache).
    static QStringList original;
    static bool changed = false;
    QFont font = QGuiApplication::font();
    if (changed) {
        font.setFamilies(original);
        QGuiApplication::setFont(font);
        changed = false;
    }
    if (translation != QLatin1String("zh_CN"))
        return;
    const QStringList chinese = QFontDatabase::families(QFontDatabase::SimplifiedChinese);
    if (chinese.isEmpty() || QFontDatabase::writingSystems(QFontInfo(font).family())
                                 .contains(QFontDatabase::SimplifiedChinese))
        return;
    // The sans-serif faces Chinese desktops ship, then any.
    QString family = chinese.first();
    for (const char *preferred : {"Noto Sans CJK SC", "Source Han Sans SC", "WenQuanYi Micro Hei",
                                  "Microsoft YaHei", "PingFang SC", "Noto Sans SC"})
        if (chinese.contains(QLatin1String(preferred))) {
            family = QLatin1String(preferred);
            break;
        }
    original = font.families().isEmpty() ? QStringList{font.family()} : font.families();
    font.setFamilies({family});
    QGuiApplication::setFont(font);
    changed = true;
}

} // namespace

QString languageKey(Language language)
{
    switch (language) {
    case Language::System:
        break;
    case Language::English:
        return QStringLiteral("en");
    case Language::SimplifiedChinese:
        return QStringLiteral("zh_CN");
    }
    return QStringLiteral("system");
}

Language languageFromKey(const QString &key)
{
    if (key == QLatin1String("en"))
        return Language::English;
    if (key == QLatin1String("zh_CN"))
        return Language::SimplifiedChinese;
    return Language::System;
}

QString translationFor(Language language, const QLocale &system)
{
    switch (language) {
    case Language::English:
        return QString();
    case Language::SimplifiedChinese:
        return QStringLiteral("zh_CN");
    case Language::System:
        break;
    }
    // The system's languages in its order of preference ("zh-Hans-CN", "zh-CN", "zh", then the
    // next one): the first one vramplan has a translation for, and English where that comes
    // first. A Chinese of another script or region (zh-Hant-TW) is not Simplified Chinese.
    for (const QString &ui : system.uiLanguages()) {
        const QLocale locale(ui);
        if (locale.language() == QLocale::English || locale.language() == QLocale::C)
            return QString();
        if (locale.language() == QLocale::Chinese &&
            locale.script() == QLocale::SimplifiedChineseScript && has(QStringLiteral("zh_CN")))
            return QStringLiteral("zh_CN");
    }
    return QString();
}

QString installTranslations(Language language, const QLocale &system)
{
    for (QPointer<QTranslator> *translator : {&ownTranslator, &qtTranslator}) {
        if (*translator) {
            QCoreApplication::removeTranslator(*translator);
            delete translator->data();
        }
    }
    installed.clear();
    const QString translation = translationFor(language, system);
    useFontFor(translation);
    if (translation.isEmpty())
        return installed;
    // Qt's first, so that vramplan's own words take precedence (the last installed is asked
    // first).
    auto *qt = new QTranslator(QCoreApplication::instance());
    if (qt->load(localeOf(translation), QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
        qtTranslator = qt;
    } else {
        delete qt;
    }
    auto *own = new QTranslator(QCoreApplication::instance());
    if (own->load(prefix + translation, resourceFolder)) {
        QCoreApplication::installTranslator(own);
        ownTranslator = own;
        installed = translation;
    } else {
        delete own;
    }
    return installed;
}

QString installedTranslation()
{
    return installed;
}

bool qtTranslationInstalled()
{
    return qtTranslator != nullptr;
}

QString translatedInto(const QString &translation, const char *context, const char *source)
{
    QTranslator translator;
    if (translation.isEmpty() || !translator.load(prefix + translation, resourceFolder))
        return QString::fromUtf8(source);
    const QString text = translator.translate(context, source);
    return text.isEmpty() ? QString::fromUtf8(source) : text;
}

} // namespace vramplan::ui
