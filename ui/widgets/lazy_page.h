#pragma once
// A tab page whose content is built the first time the page is shown or the content is asked
// for. A hidden tab then costs nothing before the window's first frame: building the Compare and
// sequence tabs behind the recommendation was 4.8M of the 189M instructions to the first painted
// frame (bench_gui first-frame under callgrind; docs/design.md §10, "Speed"). Anything that needs
// the content (an accessor, a menu action, a screenshot) calls content(), which builds it then.
#include <QWidget>

#include <functional>

namespace zp::ui {

class LazyPage : public QWidget {
    Q_OBJECT
public:
    // `build` makes the content with the page as its parent (so it is built in the window's font
    // and style, once) and connects it; the page's layout then fills the page with it.
    explicit LazyPage(std::function<QWidget*(QWidget* page)> build, QWidget* parent = nullptr);
    // The content, built now if it was not yet.
    QWidget* content();
    bool isBuilt() const { return content_ != nullptr; }

signals:
    // Once, right after the content joined the page (the window makes it keyboard-friendly then).
    void built(QWidget* content);

protected:
    void showEvent(QShowEvent* e) override;

private:
    std::function<QWidget*(QWidget* page)> build_;
    QWidget* content_ = nullptr;
};

// The page of `tabs` that holds `w` (w itself when it is a page), or null.
QWidget* tabPageOf(const class QTabWidget* tabs, QWidget* w);

}  // namespace zp::ui
