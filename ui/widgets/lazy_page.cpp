#include "ui/widgets/lazy_page.h"

#include <QTabWidget>
#include <QVBoxLayout>

namespace zp::ui {

LazyPage::LazyPage(std::function<QWidget*(QWidget* page)> build, QWidget* parent) : QWidget(parent), build_(std::move(build)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
}

QWidget* LazyPage::content() {
    if (!content_) {
        content_ = build_(this);
        layout()->addWidget(content_);
        emit built(content_);
    }
    return content_;
}

void LazyPage::showEvent(QShowEvent* e) {
    content();
    QWidget::showEvent(e);
}

QWidget* tabPageOf(const QTabWidget* tabs, QWidget* w) {
    for (; w; w = w->parentWidget())
        if (tabs->indexOf(w) >= 0) return w;
    return nullptr;
}

}  // namespace zp::ui
