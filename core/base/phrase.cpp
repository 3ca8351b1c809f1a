#include "core/base/phrase.h"

namespace zp {

Phrase phrase(const char* english_template, std::vector<Phrase> args) {
    Phrase p;
    p.text = english_template;
    p.args = std::move(args);
    return p;
}

std::string fill_placeholders(const std::string& templ, const std::vector<std::string>& args) {
    std::string out;
    out.reserve(templ.size());
    for (std::size_t i = 0; i < templ.size(); ++i) {
        const char c = templ[i];
        if (c == '%' && i + 1 < templ.size() && templ[i + 1] >= '1' && templ[i + 1] <= '9') {
            const auto n = static_cast<std::size_t>(templ[i + 1] - '1');
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

std::string english(const Phrase& p) {
    if (p.literal) return p.text;
    std::vector<std::string> args;
    args.reserve(p.args.size());
    for (const Phrase& a : p.args) args.push_back(english(a));
    return fill_placeholders(p.text, args);
}

}  // namespace zp
