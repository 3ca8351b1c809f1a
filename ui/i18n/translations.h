#pragma once
// The language the window speaks (docs/design.md §10.2): the one chosen in Preferences, kept in
// QSettings, or else the system's (LANG=zh_CN.UTF-8 -> Simplified Chinese). The window's own
// strings come from :/i18n/zero-planner_<locale>.qm (translations/*.ts, built by
// qt_add_translations), Qt's standard buttons and dialogs from Qt's qtbase_<locale>.qm.

#include <QList>
#include <QLocale>
#include <QString>

namespace zp::ui {

struct Language {
    QString code;  // "" for the system's, else a QLocale name: "en", "zh_CN"
    QString name;  // as its speakers write it: "English", "简体中文"
};

// The choices Preferences offers, the system's first.
QList<Language> availableLanguages();

// The language stored by Preferences ("" when the system's is followed).
QString storedLanguage();
void storeLanguage(const QString& code);

// The locale the window uses: the stored language, or the system's.
QLocale preferredLocale();

// Installs the translations for `locale` on the application, replacing any installed before, and
// makes it the default QLocale (numbers in the window). Returns whether the window's own
// translation was found; English needs none and returns true.
bool applyLanguage(const QLocale& locale);

// A number as the window shows it: the default QLocale's digits and decimal point, `decimals`
// after it, no group separator (as the core's figures beside it: "1288", not "1,288").
QString localeNumber(double value, int decimals);

}  // namespace zp::ui
