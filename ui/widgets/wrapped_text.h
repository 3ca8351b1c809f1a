#pragma once
// Word-wrapped plain text, measured and drawn as a word-wrapped QLabel, that asks its parents to
// lay out again only when its height at its width changes. QLabel::setText always does
// (QLabelPrivate::updateLabel calls updateGeometry), and the model and parallelism lines change on
// nearly every slider move: the control panel's layouts ran each time (bench_gui). Its size policy
// has a height for a width, as a word-wrapped QLabel's; with a fixed height it never asks. After a
// change it let pass, its layout's cached heights for other widths are stale, so the next resize
// asks once.
#include <QWidget>

namespace zp::ui {

class WrappedText : public QWidget {
    Q_OBJECT
public:
    explicit WrappedText(QWidget* parent = nullptr);
    void setText(const QString& text);
    QString text() const { return text_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    int heightForWidth(int width) const override;

protected:
    void paintEvent(QPaintEvent*) override;
    void changeEvent(QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    // QLabelPrivate::sizeForWidth: the size at `width`, or at QLabel's guessed width when negative.
    QSize sizeForWidth(int width) const;

    // The measurements, kept until the text, the font or the size limits change (a QLabel keeps its
    // hints so too): the layouts ask them many times over while the window is built.
    void forgetSizes() const;
    void forgetSizesIfLimitsMoved() const;
    QString text_;
    mutable QSize hint_, least_hint_;                        // invalid: to be measured
    mutable int measured_width_ = -1, measured_height_ = 0;  // the last heightForWidth
    mutable QSize measured_least_, measured_most_;           // minimumSize() and maximumSize() then
    mutable QMargins measured_margins_;
    bool hints_stale_ = false;  // the text changed since the layout last read the sizes
};

}  // namespace zp::ui
