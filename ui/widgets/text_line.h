#pragma once
// One line of plain text that repaints itself when it changes and never asks its parents to
// re-lay out (a QLabel does, and on every slider move that repainted the whole window).
// Text that does not fit is elided; the full text is the tooltip.
#include <QWidget>

namespace zp::ui {

class TextLine : public QWidget {
    Q_OBJECT
public:
    explicit TextLine(QWidget* parent = nullptr);
    void setText(const QString& text);
    QString text() const { return text_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent*) override;
    void changeEvent(QEvent* e) override;

private:
    QString text_;
};

}  // namespace zp::ui
