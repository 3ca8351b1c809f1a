#include "ui/config_preview.h"

#include "core/ds_config_export.h"
#include "core/errors.h"
#include "ui/planner_document.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace zp::ui {

ConfigPreview::ConfigPreview(PlannerDocument* doc, QWidget* parent)
    : QWidget(parent), doc_(doc), title_(new QLabel(this)), text_(new QPlainTextEdit(this)), copy_(new QPushButton(tr("Copy"), this)),
      export_(new QPushButton(tr("Export..."), this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    title_->setWordWrap(true);
    top->addWidget(title_, 1);
    top->addWidget(copy_);
    top->addWidget(export_);
    layout->addLayout(top);
    text_->setReadOnly(true);
    text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);
    layout->addWidget(text_, 1);
    copy_->setToolTip(tr("Copy the ds_config.json to the clipboard"));
    export_->setToolTip(tr("Save the ds_config.json to a file"));
    connect(copy_, &QPushButton::clicked, this, &ConfigPreview::copyToClipboard);
    connect(export_, &QPushButton::clicked, this, &ConfigPreview::exportRequested);
    connect(doc_, &PlannerDocument::resultsChanged, this, &ConfigPreview::rebuild);
    rebuild();
}

QString ConfigPreview::configText() const { return config_; }

void ConfigPreview::copyToClipboard() const {
    if (!config_.isEmpty()) QApplication::clipboard()->setText(config_);
}

void ConfigPreview::rebuild() {
    const Scenario s = doc_->exportScenario();
    const QString setup = QString::fromStdString(setup_label(s.zero));
    try {
        config_ = QString::fromStdString(deepspeed_config_text(s));
        title_->setText(doc_->selectionFollowsPlan() ? tr("<b>ds_config.json</b> for %1 (recommended)").arg(setup)
                                                     : tr("<b>ds_config.json</b> for %1 (clicked; click the recommended bar to go back)").arg(setup));
    } catch (const InputError& e) {
        config_.clear();
        title_->setText(tr("<b>No config</b>: %1").arg(QString::fromStdString(e.what()).toHtmlEscaped()));
    }
    text_->setPlainText(config_);
    copy_->setEnabled(!config_.isEmpty());
    export_->setEnabled(!config_.isEmpty());
}

}  // namespace zp::ui
