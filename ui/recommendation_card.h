#pragma once
// The recommendation card: the setup, its memory per GPU, host RAM, NVMe, step time and
// tokens/s, why it won and why every other setup lost, in plain words, plus warnings.
// Plain text without word-wrapped labels: it is rebuilt on every slider move, and rich text or
// wrapped labels cost more layout time than all three plots together.
#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace zp::ui {
class TextLine;
}

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
    TextLine* title_;
    QList<QLabel*> keys_;
    QList<TextLine*> values_;
    QPlainTextEdit* details_;  // why it won, why the others lost, warnings: laid out lazily
};

}  // namespace zp::ui
