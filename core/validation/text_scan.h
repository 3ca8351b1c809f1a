#pragma once
// The pieces the measured-run files' free-text fields are read with (measured_runs.cpp: "TP=4,
// PP=12", "hpZ=16", "LoRA r=8, alpha 32", "OOM at 30"), written out instead of std::regex with
// ECMAScript's meaning kept (tests/core/tst_text_scan.cpp compares each reader with the regular
// expression it replaced, on generated texts). libstdc++ 12's regex executor looks the "w" class up
// through the locale at every \b it tests (regex_traits::lookup_classname, use_facet, a
// dynamic_cast): reading the bundled files was 2.8 of `validate --holdout`'s 8.1 G instructions.
#include <cstddef>
#include <optional>
#include <string_view>

namespace zp::validation {

// ECMAScript's \w, \s and \d in the classic locale (what std::regex uses), whatever the C locale.
constexpr bool word_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'; }
constexpr bool space_char(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
constexpr bool digit_char(char c) { return c >= '0' && c <= '9'; }

// A read position in a text. Each take_ consumes what it matches and says whether it matched; a
// failed take_ consumes nothing.
class TextScan {
public:
    TextScan(std::string_view text, std::size_t at) : text_(text), at_(at) {}

    // \b before a word character: the text starts here or a non-word character precedes.
    bool after_non_word() const { return at_ == 0 || !word_char(text_[at_ - 1]); }
    // \b after a word character: the text ends here or a non-word character follows.
    bool before_non_word() const { return at_ == text_.size() || !word_char(text_[at_]); }
    bool starts_with(std::string_view literal) const { return text_.substr(at_).substr(0, literal.size()) == literal; }

    bool take(std::string_view literal) {
        if (!starts_with(literal)) return false;
        at_ += literal.size();
        return true;
    }
    bool take_one_of(std::string_view chars) {
        if (at_ == text_.size() || chars.find(text_[at_]) == std::string_view::npos) return false;
        ++at_;
        return true;
    }
    // The longest run of characters `is_in` accepts (possibly empty).
    template <class CharClass>
    std::string_view take_run(CharClass is_in) {
        const std::size_t from = at_;
        while (at_ < text_.size() && is_in(text_[at_])) ++at_;
        return text_.substr(from, at_ - from);
    }
    void skip_spaces() { take_run(space_char); }
    // `X+` followed by nothing the caller needs to backtrack into: the run, or nothing when empty.
    template <class CharClass>
    std::optional<std::string_view> take_some(CharClass is_in) {
        const std::string_view run = take_run(is_in);
        if (run.empty()) return std::nullopt;
        return run;
    }
    std::optional<std::string_view> take_digits() { return take_some(digit_char); }
    // The character here, if any; take_char() consumes it.
    std::optional<char> peek() const {
        if (at_ == text_.size()) return std::nullopt;
        return text_[at_];
    }
    bool take_char() {
        if (at_ == text_.size()) return false;
        ++at_;
        return true;
    }

private:
    std::string_view text_;
    std::size_t at_;
};

// std::regex_search's leftmost match: what `match` (a TextScan -> optional capture) gives at the
// first position of `text` where it gives anything.
template <class Match>
std::optional<std::string_view> search_text(std::string_view text, Match match) {
    for (std::size_t at = 0; at <= text.size(); ++at)
        if (const std::optional<std::string_view> capture = match(TextScan(text, at))) return capture;
    return std::nullopt;
}

}  // namespace zp::validation
