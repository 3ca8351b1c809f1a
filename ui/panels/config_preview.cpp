#include "ui/panels/config_preview.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/deepspeed/config_export.h"
#include "core/deepspeed/export_formats.h"
#include "core/memory/memory_model.h"
#include "core/model/mics.h"
#include "ui/chart/plot_style.h"
#include "ui/document/planner_document.h"
#include "ui/i18n/phrase_text.h"
#include "ui/widgets/flat_scroll_bar_style.h"
#include "ui/widgets/plain_text_update.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QVBoxLayout>

namespace zp::ui {

ConfigPreview::ConfigPreview(PlannerDocument* doc, QWidget* parent)
    : QWidget(parent),
      doc_(doc),
      title_(new QLabel(this)),
      format_(new QComboBox(this)),
      text_(new QPlainTextEdit(this)),
      copy_(new QPushButton(tr("Copy"), this)),
      export_(new QPushButton(tr("Export..."), this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    title_->setWordWrap(true);
    top->addWidget(title_, 1);
    for (const ExportFormat& f : export_formats())
        format_->addItem(QCoreApplication::translate("zp::ExportFormat", std::string(f.label).c_str()),
                         QString::fromUtf8(f.id.data(), static_cast<qsizetype>(f.id.size())));
    format_->setToolTip(tr("What to preview, copy and export"));
    top->addWidget(format_);
    top->addWidget(copy_);
    top->addWidget(export_);
    layout->addLayout(top);
    text_->setReadOnly(true);
    text_->setLineWrapMode(QPlainTextEdit::NoWrap);
    makeFlat(text_->verticalScrollBar());
    makeFlat(text_->horizontalScrollBar());
    layout->addWidget(text_, 1);
    copy_->setToolTip(tr("Copy the previewed file to the clipboard"));
    export_->setToolTip(tr("Save the previewed file"));
    connect(format_, &QComboBox::currentIndexChanged, this, &ConfigPreview::rebuild);
    connect(copy_, &QPushButton::clicked, this, &ConfigPreview::copyToClipboard);
    connect(export_, &QPushButton::clicked, this, &ConfigPreview::exportRequested);
    connect(doc_, &PlannerDocument::resultsChanged, this, &ConfigPreview::rebuild);
    connect(doc_, &PlannerDocument::selectionChanged, this, &ConfigPreview::rebuild);
    rebuild();
}

// The fixed-pitch font is set when the preview is first shown, not with the window it sits hidden
// in: loading its font engine was 2.3M of the 189M instructions to the window's first painted
// frame (bench_gui first-frame under callgrind), and the text edit's size hints do not read it.
void ConfigPreview::showEvent(QShowEvent* e) {
    if (!fixed_font_set_) {
        text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        fixed_font_set_ = true;
    }
    QWidget::showEvent(e);
}

QString ConfigPreview::configText() const { return config_; }
QString ConfigPreview::title() const { return title_->text(); }
QString ConfigPreview::formatName() const { return format_->currentData().toString(); }
void ConfigPreview::setFormat(const QString& name) { format_->setCurrentIndex(std::max(0, format_->findData(name))); }

namespace {
const ExportFormat& formatNamed(const QString& id) {
    const ExportFormat* f = find_export_format(id.toStdString());
    return f ? *f : export_formats().front();
}
}  // namespace

QString ConfigPreview::suggestedFileName() const {
    const std::string_view name = formatNamed(formatName()).file_name;
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

void ConfigPreview::copyToClipboard() const {
    if (!config_.isEmpty()) QApplication::clipboard()->setText(config_);
}

// Which setup the file is for and what it is: the recommendation, a clicked bar, or, when nothing
// fits (the Recommendation card's "Nothing fits"), a setup that does not fit, in the warning colour:
// it stays exportable, but is never called recommended.
QString ConfigPreview::titleFor(const QString& setup) const {
    const Overview& o = doc_->overview();
    if (!o.plan_valid || o.plan.feasible)
        return doc_->selectionFollowsPlan() ? tr("For <b>%1</b> (recommended)").arg(setup)
                                            : tr("For <b>%1</b> (clicked; click the recommended bar to go back)").arg(setup);
    const ShownSetup& shown = doc_->shownSetup();  // throws InputError, as render does
    const QString text = shown.fits ? tr("For <b>%1</b>: does not fit this cluster; nothing fits it").arg(setup)
                                    : tr("For <b>%1</b>: does not fit (needs %2 of %3 per GPU); nothing fits this cluster")
                                          .arg(setup, fromCore(format_bytes(shown.memory.peak_required_bytes)),
                                               fromCore(format_bytes(usable_gpu_bytes(shown.scenario))));
    return QStringLiteral("<span style=\"color:%1\">%2</span>").arg(warningColor(palette()).name(), text);
}

namespace {
// The first format that renders `s` (export_formats' order), or an empty id when none does.
QString firstFormatFor(const Scenario& s) {
    for (const ExportFormat& f : export_formats()) {
        try {
            f.render(s);
            return QString::fromUtf8(f.id.data(), static_cast<qsizetype>(f.id.size()));
        } catch (const InputError&) {
        }
    }
    return {};
}
}  // namespace

void ConfigPreview::rebuild() {
    const Scenario& s = doc_->exportScenario();
    // Another engine: a format that has no file for it (ds_config.json under FSDP) gives way to
    // the first that has (the Trainer's arguments under FSDP), so the tab does not open on "No config".
    if (is_fsdp(s.fsdp) != shown_fsdp_) {
        shown_fsdp_ = is_fsdp(s.fsdp);
        try {
            formatNamed(formatName()).render(s);
        } catch (const InputError&) {
            if (const QString first = firstFormatFor(s); !first.isEmpty()) {
                const QSignalBlocker quiet(format_);
                setFormat(first);
            }
        }
    }
    const QString setup = translated(setup_phrase(setup_key(s.zero), s.fsdp.engine, fsdp_hybrid_sharding(s)));
    try {
        config_ = QString::fromStdString(formatNamed(formatName()).render(s));
        QString title = titleFor(setup);
        // A ds_config of a plan with tensor or pipeline ranks counts Megatron's data-parallel
        // ranks (core's megatron_batch_phrase): said under the title, as export says it.
        if (const Phrase batch = megatron_batch_phrase(s); formatName() == QLatin1String("deepspeed") && !batch.text.empty())
            title += QStringLiteral("<br><span style=\"color:%1\">%2</span>")
                         .arg(warningColor(palette()).name(), tr("Note: %1.").arg(translated(batch).toHtmlEscaped()));
        title_->setText(title);
    } catch (const InputError& e) {
        config_.clear();
        title_->setText(tr("<b>No config</b>: %1").arg(QString::fromStdString(e.what()).toHtmlEscaped()));
    }
    replacePlainText(text_, config_);
    copy_->setEnabled(!config_.isEmpty());
    export_->setEnabled(!config_.isEmpty());
}

}  // namespace zp::ui
