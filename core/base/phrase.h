#pragma once
// The core's explanations in a form the window can translate, without Qt in core (docs/design.md
// §10.2). Every fixed phrase is marked with QT_TRANSLATE_NOOP("Core", ...), which lupdate collects
// into translations/*.ts; a sentence with numbers or names is a Phrase: an English template with
// %1..%9 and its arguments, themselves phrases or literals. The command line prints english(p);
// the window translates the template and each argument (ui/i18n/phrase_text.h), then fills them in.

#include <string>
#include <vector>

// Qt's own definition, token for token (qglobal.h), so including this beside Qt is harmless.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(scope, x) x
#endif

namespace zp {

// The translation context of every core phrase.
inline constexpr const char* kPhraseContext = "Core";

struct Phrase {
    Phrase() = default;
    // A literal: a number with its unit, a name, a config key; shown as it is.
    Phrase(std::string literal_text) : text(std::move(literal_text)), literal(true) {}  // NOLINT: implicit on purpose

    std::string text;          // English: a template with %1..%9, or the literal itself
    std::vector<Phrase> args;  // what %1, %2, ... stand for
    bool literal = false;
};

// A translatable template (marked with QT_TRANSLATE_NOOP("Core", ...) where it is written).
Phrase phrase(const char* english_template, std::vector<Phrase> args = {});

// Fills %1..%9 in one pass, so a % inside an argument is never taken for a placeholder.
std::string fill_placeholders(const std::string& templ, const std::vector<std::string>& args);

// The English sentence, as the command line prints it.
std::string english(const Phrase& p);

}  // namespace zp
