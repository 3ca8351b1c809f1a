#include "ui/widgets/plain_text_update.h"

#include <QPlainTextEdit>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>

#include <algorithm>

namespace zp::ui {

void replacePlainText(QPlainTextEdit* edit, const QString& text) {
    QTextDocument* doc = edit->document();
    // No undo history for text the program writes (it would grow with every slider move).
    doc->setUndoRedoEnabled(false);
    const QStringList paragraphs = text.split(QLatin1Char('\n'));
    const int old_count = doc->blockCount();
    const int new_count = static_cast<int>(paragraphs.size());
    QTextCursor cursor(doc);
    cursor.beginEditBlock();
    for (int i = 0; i < std::min(old_count, new_count); ++i) {
        const QTextBlock block = doc->findBlockByNumber(i);
        if (block.text() == paragraphs[i]) continue;
        cursor.setPosition(block.position());
        cursor.setPosition(block.position() + block.length() - 1, QTextCursor::KeepAnchor);
        cursor.insertText(paragraphs[i]);
    }
    if (new_count > old_count) {
        cursor.movePosition(QTextCursor::End);
        for (int i = old_count; i < new_count; ++i) {
            cursor.insertBlock();
            cursor.insertText(paragraphs[i]);
        }
    } else if (new_count < old_count) {
        // From the end of the last paragraph kept to the end of the document.
        const QTextBlock last_kept = doc->findBlockByNumber(new_count - 1);
        cursor.setPosition(last_kept.position() + last_kept.length() - 1);
        cursor.movePosition(QTextCursor::End, QTextCursor::KeepAnchor);
        cursor.removeSelectedText();
    }
    cursor.endEditBlock();
}

}  // namespace zp::ui
