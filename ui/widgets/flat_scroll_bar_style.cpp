#include "ui/widgets/flat_scroll_bar_style.h"

#include <QPainter>
#include <QScrollBar>
#include <QStyleOptionSlider>

namespace zp::ui {

void FlatScrollBarStyle::drawComplexControl(ComplexControl control, const QStyleOptionComplex* option, QPainter* painter,
                                            const QWidget* widget) const {
    const auto* bar = qstyleoption_cast<const QStyleOptionSlider*>(option);
    if (control != CC_ScrollBar || !bar) {
        QProxyStyle::drawComplexControl(control, option, painter, widget);
        return;
    }
    const QPalette& pal = option->palette;
    painter->fillRect(option->rect, pal.color(QPalette::Window));
    if (bar->subControls & SC_ScrollBarSlider) {
        const QRect handle = subControlRect(control, bar, SC_ScrollBarSlider, widget);
        const bool pressed = (bar->state & State_Sunken) && (bar->activeSubControls & SC_ScrollBarSlider);
        const bool hovered = (bar->state & State_MouseOver) && (bar->activeSubControls & SC_ScrollBarSlider);
        QColor color = pal.color(QPalette::Mid);
        if (pressed) color = pal.color(QPalette::Dark);
        else if (hovered) color = color.darker(115);
        const int inset = 3;
        painter->fillRect(bar->orientation == Qt::Vertical ? handle.adjusted(inset, 1, -inset, -1) : handle.adjusted(1, inset, -1, -inset),
                          color);
    }
    // The arrow buttons are small: let the application style draw them as everywhere else.
    QStyleOptionSlider arrows = *bar;
    arrows.subControls = bar->subControls & (SC_ScrollBarAddLine | SC_ScrollBarSubLine);
    if (arrows.subControls) QProxyStyle::drawComplexControl(control, &arrows, painter, widget);
}

void makeFlat(QScrollBar* bar) {
    auto* style = new FlatScrollBarStyle;  // a proxy for the application style
    style->setParent(bar);
    bar->setStyle(style);
}

}  // namespace zp::ui
