#include "ui/dialogs/preferences_dialog.h"

#include "ui/i18n/translations.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace zp::ui {

PreferencesDialog::PreferencesDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Preferences"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    language_ = new QComboBox;
    language_->setObjectName(QStringLiteral("language"));
    for (const Language& l : availableLanguages()) language_->addItem(l.name, l.code);
    language_->setCurrentIndex(std::max(0, language_->findData(storedLanguage())));
    form->addRow(tr("&Language:"), language_);
    layout->addLayout(form);
    auto* note = new QLabel(tr("The new language is used from the next start of ZeRO Planner."));
    note->setWordWrap(true);
    layout->addWidget(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        apply();
        accept();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

QString PreferencesDialog::chosenLanguage() const { return language_->currentData().toString(); }

void PreferencesDialog::apply() { storeLanguage(chosenLanguage()); }

}  // namespace zp::ui
