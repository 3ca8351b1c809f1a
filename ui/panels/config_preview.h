#pragma once
// The config preview: the ds_config.json for the recommended setup (or the bar the user
// clicked), with Copy and Export.
#include <QWidget>

class QComboBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace zp::ui {

class PlannerDocument;

class ConfigPreview : public QWidget {
    Q_OBJECT
public:
    explicit ConfigPreview(PlannerDocument* doc, QWidget* parent = nullptr);
    QString configText() const;  // the shown format's text; empty when the scenario cannot be exported
    QString formatName() const;  // an ExportFormat id (core/deepspeed/export_formats.h)
    void setFormat(const QString& name);
    QString suggestedFileName() const;
    void copyToClipboard() const;
    QString title() const;  // the header's text as shown (rich text)

signals:
    void exportRequested();

protected:
    void showEvent(QShowEvent* e) override;

private:
    void rebuild();
    QString titleFor(const QString& setup) const;  // the header above the file (rich text)
    PlannerDocument* doc_;
    QLabel* title_;
    QComboBox* format_;
    QPlainTextEdit* text_;
    QPushButton* copy_;
    QPushButton* export_;
    QString config_;
    bool fixed_font_set_ = false;
    bool shown_fsdp_ = false;  // the engine the shown file was for: PyTorch FSDP or DeepSpeed
};

}  // namespace zp::ui
