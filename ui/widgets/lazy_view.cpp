#include "ui/widgets/lazy_view.h"

#include <QEvent>

namespace zp::ui {

void LazyView::flush() {
    if (stale_) rebuildNow();
}

void LazyView::documentChanged() {
    if (isVisible()) rebuildNow();
    else stale_ = true;
}

void LazyView::rebuildNow() {
    stale_ = false;
    rebuild();
}

void LazyView::showEvent(QShowEvent* e) {
    QWidget::showEvent(e);
    flush();
}

void LazyView::changeEvent(QEvent* e) {
    QWidget::changeEvent(e);
    if (e->type() == QEvent::PaletteChange || e->type() == QEvent::ApplicationPaletteChange) {
        restyle();
        documentChanged();
    }
}

}  // namespace zp::ui
