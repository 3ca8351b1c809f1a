#include "ui/i18n/translations.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QPointer>
#include <QSettings>
#include <QTranslator>

namespace zp::ui {

namespace {
constexpr QLatin1String kLanguageKey("ui/language");

// Installed translators, replaced on the next applyLanguage (owned by the application).
QPointer<QTranslator>& ownTranslator() {
    static QPointer<QTranslator> t;
    return t;
}
QPointer<QTranslator>& qtTranslator() {
    static QPointer<QTranslator> t;
    return t;
}

void remove(QPointer<QTranslator>& t) {
    if (!t) return;
    QCoreApplication::removeTranslator(t);
    delete t;
}
}  // namespace

QList<Language> availableLanguages() {
    return {{QString(), QCoreApplication::translate("Preferences", "System language")},
            {QStringLiteral("en"), QStringLiteral("English")},
            {QStringLiteral("zh_CN"), QStringLiteral("\u7b80\u4f53\u4e2d\u6587")}};
}

QString storedLanguage() { return QSettings().value(kLanguageKey).toString(); }

void storeLanguage(const QString& code) {
    QSettings settings;
    if (code.isEmpty()) settings.remove(kLanguageKey);
    else settings.setValue(kLanguageKey, code);
}

QLocale preferredLocale() {
    const QString code = storedLanguage();
    return code.isEmpty() ? QLocale::system() : QLocale(code);
}

bool applyLanguage(const QLocale& locale) {
    remove(ownTranslator());
    remove(qtTranslator());
    QLocale::setDefault(locale);
    if (locale.language() == QLocale::English || locale.language() == QLocale::C) return true;
    auto* own = new QTranslator(QCoreApplication::instance());
    if (!own->load(locale, QStringLiteral("zero-planner"), QStringLiteral("_"), QStringLiteral(":/i18n"))) {
        delete own;
        return false;
    }
    QCoreApplication::installTranslator(own);
    ownTranslator() = own;
    // Qt's own strings (Save, Discard, Cancel, the file dialogs) when Qt's translations are installed.
    auto* qt = new QTranslator(QCoreApplication::instance());
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"), QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt);
        qtTranslator() = qt;
    } else {
        delete qt;
    }
    return true;
}

QString localeNumber(double value, int decimals) {
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() | QLocale::OmitGroupSeparator);
    return locale.toString(value, 'f', decimals);
}

}  // namespace zp::ui
