#pragma once
// The recommendation card: the setup, its memory per GPU, host RAM, NVMe, step time and
// tokens/s, why it won and why every other setup lost, in plain words, plus warnings.
// Plain text without word-wrapped labels: it is rebuilt on every slider move, and rich text or
// wrapped labels cost more layout time than all three plots together.
#include <QStringList>
#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace zp::ui {
class TextLine;
}

namespace zp {
struct Overview;
struct Scenario;
}  // namespace zp

namespace zp::ui {

class PlannerDocument;

class RecommendationCard : public QWidget {
    Q_OBJECT
public:
    explicit RecommendationCard(PlannerDocument* doc, QWidget* parent = nullptr);
    QString plainText() const;
    // The card's figures, and why the other setups lost, as GitHub pipe tables (core's
    // markdown_table): what its context menu's Copy as Markdown puts on the clipboard.
    QString markdown() const;

private:
    void rebuild();
    void figuresOf(const Overview& o, const Scenario& s, QStringList& keys, QStringList& values) const;
    QString detailsOf(const Overview& o) const;
    void showMenu(QWidget* on, const QPoint& at);
    PlannerDocument* doc_;
    TextLine* title_;
    TextLine* headroom_;  // headroom first: what is left at the peak
    QList<QLabel*> keys_;
    QList<TextLine*> values_;
    QPlainTextEdit* details_;  // why it won, why the others lost, warnings: laid out lazily
};

}  // namespace zp::ui
