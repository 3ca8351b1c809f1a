#pragma once
// Replaces the text of a read-only QPlainTextEdit paragraph by paragraph: only the blocks
// whose text changed are laid out again and repainted. setPlainText() rebuilt the document
// and laid out every paragraph on each slider move (a tenth of a change in the window).
class QPlainTextEdit;
class QString;

namespace zp::ui {

void replacePlainText(QPlainTextEdit* edit, const QString& text);

}  // namespace zp::ui
