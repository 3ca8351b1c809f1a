#include "app/cli/number_parse.h"

#include "core/base/errors.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace zp::cli {
namespace {

bool parse_double(const std::string& text, double& out) {
    if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
    // strtod reads C's hexadecimal forms too ("0x10" as 16): not a way anyone writes a size.
    if (text.find_first_of("xX") != std::string::npos) return false;
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return end == text.c_str() + text.size() && std::isfinite(out);
}

}  // namespace

std::int64_t parse_count(const std::string& text, const std::string& option) {
    const std::string accepted = " (accepted: a count such as 7e9, 7000000000, 7B, 70b, 1.5T, 125M)";
    if (text.empty()) throw InputError(option + " needs a value" + accepted);
    double scale = 1;
    std::string digits = text;
    switch (std::toupper(static_cast<unsigned char>(text.back()))) {
    case 'K': scale = 1e3; break;
    case 'M': scale = 1e6; break;
    case 'B':
    case 'G': scale = 1e9; break;
    case 'T': scale = 1e12; break;
    default: break;
    }
    if (scale != 1) digits.pop_back();
    double v = 0;
    if (!parse_double(digits, v)) throw InputError(option + " '" + text + "' is not a number" + accepted);
    v *= scale;
    if (!(v >= 1) || v > 1e15) throw InputError(option + " '" + text + "' must be between 1 and 1e15" + accepted);
    const double rounded = std::round(v);
    // A suffixed decimal is whole up to the product's rounding ("1.1B": 1.1 x 1e9 is 1100000000.0000002),
    // a few ulps of the value; anything more is a fraction ("1234567890.5").
    const double rounding = std::max(1e-6, 4 * std::numeric_limits<double>::epsilon() * v);
    if (std::fabs(v - rounded) > rounding) throw InputError(option + " '" + text + "' is not a whole number" + accepted);
    return static_cast<std::int64_t>(rounded);
}

namespace {
// "32k" or "1M" where a plain count is read (a sequence length, a width): which of the two it means
// is the writer's, 2^10 or 10^3 ("128K context" is 131,072 tokens for Llama 3.1, "1M" often
// 1,000,000), so the message offers both instead of choosing.
std::string suffix_hint(const std::string& text, std::int64_t max) {
    if (text.size() < 2) return "";
    const char unit = static_cast<char>(std::toupper(static_cast<unsigned char>(text.back())));
    if (unit != 'K' && unit != 'M') return "";
    double n = 0;
    if (!parse_double(text.substr(0, text.size() - 1), n) || n <= 0 || n != std::floor(n) || n > 1e6) return "";
    const auto whole = [](double x) { return std::to_string(static_cast<long long>(x)); };
    const double binary = n * (unit == 'K' ? 1024.0 : 1048576.0), decimal = n * (unit == 'K' ? 1e3 : 1e6);
    const double most = static_cast<double>(max);
    if (decimal > most) return "";  // neither reading is in range: the range above says enough
    if (binary > most) return "; write the number out: " + whole(decimal);
    return "; write the number out: " + whole(binary) + " (" + text + " as powers of 2) or " + whole(decimal);
}
}  // namespace

std::int64_t parse_positive_int(const std::string& text, const std::string& option, std::int64_t max) {
    double v = 0;
    if (!parse_double(text, v) || v != std::floor(v) || v < 1 || v > static_cast<double>(max))
        throw InputError(option + " must be a whole number from 1 to " + std::to_string(max) + ", got '" + text + "'" +
                         suffix_hint(text, max));
    return static_cast<std::int64_t>(v);
}

double parse_number(const std::string& text, const std::string& option, double min, double max) {
    double v = 0;
    if (!parse_double(text, v) || v < min || v > max) {
        char range[96];
        std::snprintf(range, sizeof range, "%g to %g", min, max);
        throw InputError(option + " must be a number from " + range + ", got '" + text + "'");
    }
    return v;
}

std::int64_t parse_whole_number(const std::string& text, const std::string& option, const limits::CountRange& r) {
    const double n = parse_number(text, option, static_cast<double>(r.min), static_cast<double>(r.max));
    if (n != std::floor(n)) throw InputError(option + " must be a whole number, got '" + text + "'");
    return static_cast<std::int64_t>(n);
}

double parse_number(const std::string& text, const std::string& option, const limits::RealRange& r) {
    double v = 0;
    if (!parse_double(text, v) || !r.contains(v))
        throw InputError(option + " must be a number " + limits::describe(r) + ", got '" + text + "'");
    return v;
}

bool parse_on_off(const std::string& text, const std::string& option) {
    if (text == "on" || text == "true" || text == "1") return true;
    if (text == "off" || text == "false" || text == "0") return false;
    throw InputError(option + " must be on or off, got '" + text + "'");
}

}  // namespace zp::cli
