#pragma once
// Edit > Preferences: the window's language (ui/i18n/translations.h), stored in QSettings. Qt Widgets
// would need every label re-set to change it live, so the choice takes effect on the next start,
// and the dialog says so.

#include <QDialog>

class QComboBox;

namespace zp::ui {

class PreferencesDialog : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget* parent = nullptr);

    // The language code chosen ("" for the system's).
    QString chosenLanguage() const;

    // Stores the choice (what OK does).
    void apply();

private:
    QComboBox* language_ = nullptr;
};

}  // namespace zp::ui
