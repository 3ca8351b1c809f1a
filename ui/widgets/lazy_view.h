#pragma once
// A view that rebuilds only while it is visible: a document change while it is hidden (another
// tab) marks it stale, and it rebuilds when shown or flushed. A palette change restyles it and
// counts as a change. The step and host views are such views; the overview is always shown.
#include <QWidget>

namespace zp::ui {

class LazyView : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    // Rebuilds now if a change arrived while hidden (screenshots, tests, flushPending).
    void flush();

protected:
    // Connect the document's change signals here.
    void documentChanged();
    void showEvent(QShowEvent* e) override;
    void changeEvent(QEvent* e) override;
    // Draw the document's current state; restyle() applies the palette.
    virtual void rebuild() = 0;
    virtual void restyle() = 0;

private:
    void rebuildNow();
    bool stale_ = true;
};

}  // namespace zp::ui
