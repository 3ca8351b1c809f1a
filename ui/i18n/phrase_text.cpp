#include "ui/i18n/phrase_text.h"

#include <QCoreApplication>
#include <string>
#include <vector>

namespace zp::ui {

QString translatedCore(const char* english) {
    if (!english || !*english) return {};
    return QCoreApplication::translate(kPhraseContext, english);
}

QString translated(const Phrase& p) {
    if (p.literal) return QString::fromStdString(p.text);
    std::vector<std::string> args;
    args.reserve(p.args.size());
    for (const Phrase& a : p.args) args.push_back(translated(a).toStdString());
    // The core's one pass (UTF-8 through; the placeholders are ASCII): a % in an argument is never
    // read as a placeholder.
    return QString::fromStdString(fill_placeholders(translatedCore(p.text.c_str()).toStdString(), args));
}

}  // namespace zp::ui
