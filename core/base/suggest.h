#pragma once
// "Did you mean ...?": the known name nearest to a mistyped one. One rule for the command
// line's unknown commands and options and the linter's unknown ds_config keys.
#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace zp {

// Levenshtein distance: insertions, deletions and substitutions each cost 1.
std::size_t edit_distance(std::string_view a, std::string_view b);

// How far `word` is from `candidate` for a suggestion: the edit distance, except that a word
// the candidate starts with (a cut-off name, "stage3_prefetch" for "stage3_prefetch_bucket_size")
// counts as 1.
std::size_t name_distance(std::string_view word, std::string_view candidate);

// The typos a short name can carry and still be recognised: a third of its length, at least one
// ("estimat" -> 2, "foo" -> 1).
inline std::size_t typo_allowance(std::string_view word) { return std::max<std::size_t>(1, word.size() / 3); }

// The candidate nearest to `word` by name_distance, if it is at most `max_distance` away and
// keeps something of the word (a distance below its length: "x" does not suggest "h", nor the
// empty word anything); on a tie the earlier candidate. `candidates`: any range of things convertible to std::string_view.
template <class Range>
std::optional<std::string> closest_name(std::string_view word, const Range& candidates, std::size_t max_distance) {
    std::optional<std::string> best;
    std::size_t best_distance = max_distance + 1;
    for (const auto& candidate : candidates) {
        const std::string_view c(candidate);
        if (const std::size_t d = name_distance(word, c); d < best_distance && d < word.size()) {
            best_distance = d;
            best = std::string(c);
        }
    }
    return best;
}

template <class Range>
std::optional<std::string> closest_name(std::string_view word, const Range& candidates) {
    return closest_name(word, candidates, typo_allowance(word));
}

}  // namespace zp
