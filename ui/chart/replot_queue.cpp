#include "ui/chart/replot_queue.h"

#include "ui/qcustomplot_include.h"

#include <QCoreApplication>
#include <QEvent>
#include <QTimer>

namespace zp::ui {

namespace {

// Lives as the plot's child: whether a replot is owed, and whether a single shot is on its way.
class ReplotQueue : public QObject {
public:
    explicit ReplotQueue(QCustomPlot* plot) : QObject(plot), plot_(plot) {
        setObjectName(QStringLiteral("zpReplotQueue"));
        // Any replot that starts after the request pays it: the queued one, a resize's
        // (QCustomPlot::resizeEvent) or an explicit immediate one. A request made while a replot
        // runs (an afterReplot handler that changed a label) stays owed.
        connect(plot, &QCustomPlot::beforeReplot, this, [this] { owed_ = false; });
        // Installed with the plot, so the last filter to see its events: every other one has seen a
        // resize before this one takes it.
        plot->installEventFilter(this);
    }

    void queue() {
        owed_ = true;
        if (!plot_->isVisible() || posted_) return;  // hidden: on Show (eventFilter)
        posted_ = true;
        QTimer::singleShot(0, this, [this] {
            posted_ = false;
            if (owed_ && plot_->isVisible()) plot_->replot();
        });
    }

protected:
    bool eventFilter(QObject* watched, QEvent* e) override {
        if (watched != plot_) return false;
        // A widget being shown gets its pending resize before it is visible (qwidget.cpp,
        // QWidgetPrivate::show_helper), and QCustomPlot::resizeEvent replots on it. In a
        // QTabWidget that size is stale: the tab widget lays its pages out only in its own
        // showEvent, after its children are shown (qtabwidget.cpp, setUpLayout: "we'll do it
        // later"), and resizes the plot again; the "GPU count" plot drew twice before the first
        // frame, at 1031x285 and then at 432x360. Here the pending resize only moves the viewport,
        // and the Show that follows queues the one replot, which a later resize pays.
        if (e->type() == QEvent::Resize && !plot_->isVisible()) {
            plot_->setViewport(plot_->rect());
            owed_ = true;
            return true;
        }
        if (e->type() == QEvent::Show && owed_) queue();
        return false;
    }

private:
    QCustomPlot* plot_;
    bool owed_ = false;
    bool posted_ = false;
};

}  // namespace

void queueReplot(QCustomPlot* plot) {
    if (!plot) return;
    auto* q = static_cast<ReplotQueue*>(plot->findChild<QObject*>(QStringLiteral("zpReplotQueue"), Qt::FindDirectChildrenOnly));
    if (!q) q = new ReplotQueue(plot);
    q->queue();
}

QCustomPlot* newPlot(QWidget* parent) {
    auto* plot = new QCustomPlot(parent);
    // Only the constructor's queued replot is posted to a plot this new.
    QCoreApplication::removePostedEvents(plot, QEvent::MetaCall);
    new ReplotQueue(plot);
    return plot;
}

void relayoutInReplot(QCustomPlot* plot) {
    plot->plotLayout()->update(QCPLayoutElement::upPreparation);
    plot->plotLayout()->update(QCPLayoutElement::upMargins);
    plot->plotLayout()->update(QCPLayoutElement::upLayout);
    emit plot->afterLayout();
}

}  // namespace zp::ui
