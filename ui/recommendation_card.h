#pragma once
// The recommendation card: the setup, its memory per GPU, host RAM, NVMe, step time and
// tokens/s, why it won and why every other setup lost, in plain words, plus warnings.
#include <QWidget>

class QTextBrowser;

namespace zp::ui {

class PlannerDocument;

class RecommendationCard : public QWidget {
    Q_OBJECT
public:
    explicit RecommendationCard(PlannerDocument* doc, QWidget* parent = nullptr);
    QString plainText() const;

private:
    void rebuild();
    PlannerDocument* doc_;
    QTextBrowser* text_;
};

}  // namespace zp::ui
