#pragma once
// Scroll bars drawn flat: a solid groove and a solid handle, arrow buttons from the
// application style. The text views' scroll bar repaints whenever their line count changes,
// which a slider move often does; the Fusion groove is a vertical gradient, and Qt 6.4 fills
// any area over 96 rows tall on its thread pool, so each repaint cost two thread hand-offs
// (two thirds of the window's context switches, a fifth of the time of a slider change).
// Solid opaque fills take the raster engine's direct path.
#include <QProxyStyle>

class QScrollBar;

namespace zp::ui {

class FlatScrollBarStyle : public QProxyStyle {
    Q_OBJECT
public:
    using QProxyStyle::QProxyStyle;
    void drawComplexControl(ComplexControl control, const QStyleOptionComplex* option, QPainter* painter,
                            const QWidget* widget = nullptr) const override;
};

// Gives `bar` the flat look; the style object is owned by the scroll bar.
void makeFlat(QScrollBar* bar);

}  // namespace zp::ui
