#include "ui/phrase_text.h"

#include <QCoreApplication>
#include <QStringList>

namespace zp::ui {

QString translatedCore(const char* english) {
    if (!english || !*english) return {};
    return QCoreApplication::translate(kPhraseContext, english);
}

QString translated(const Phrase& p) {
    if (p.literal) return QString::fromStdString(p.text);
    const QString templ = translatedCore(p.text.c_str());
    QStringList args;
    for (const Phrase& a : p.args) args << translated(a);
    // One pass, as fill_placeholders: a % in an argument is never read as a placeholder.
    QString out;
    out.reserve(templ.size());
    for (qsizetype i = 0; i < templ.size(); ++i) {
        const QChar c = templ[i];
        if (c == QLatin1Char('%') && i + 1 < templ.size() && templ[i + 1] >= QLatin1Char('1') && templ[i + 1] <= QLatin1Char('9')) {
            const qsizetype n = templ[i + 1].unicode() - '1';
            if (n < args.size()) {
                out += args[n];
                ++i;
                continue;
            }
        }
        out += c;
    }
    return out;
}

}  // namespace zp::ui
