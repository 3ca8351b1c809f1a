// Holds a command's JSON output against an oracle an earlier release printed
// (tests/data/sessions/README.md): every value the oracle has must be in the output, equal,
// unless tests/data/sessions/intended_changes.json lists that value as changed on purpose, with
// the issue and the reason. Keys the oracle lacks are new output and allowed. A listed change
// that no longer differs is an error too, so the list only holds what really changed.
//
//   frozen_compare ORACLE ACTUAL CHANGES SESSION_NAME
// Exit 0 when they agree, 1 with one line per difference on stderr, 2 on a bad file.
#include <nlohmann/json.hpp>

#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

using nlohmann::json;

namespace {

json load(const char* path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(std::string("cannot read ") + path);
    std::stringstream ss;
    ss << in.rdbuf();
    return json::parse(ss.str());
}

// Every leaf of `oracle` that `actual` does not have equal, as JSON pointers.
void differences(const json& oracle, const json& actual, const std::string& at, std::set<std::string>& out) {
    if (oracle.is_object() && actual.is_object()) {
        for (const auto& [key, value] : oracle.items()) {
            std::string escaped;  // RFC 6901: ~ and / in a key
            for (char ch : key) escaped += ch == '~' ? std::string("~0") : ch == '/' ? std::string("~1") : std::string(1, ch);
            const std::string here = at + "/" + escaped;
            if (!actual.contains(key)) out.insert(here);
            else differences(value, actual.at(key), here, out);
        }
        return;
    }
    if (oracle.is_array() && actual.is_array() && oracle.size() == actual.size()) {
        for (std::size_t i = 0; i < oracle.size(); ++i) differences(oracle[i], actual[i], at + "/" + std::to_string(i), out);
        return;
    }
    if (oracle != actual) out.insert(at);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 5) {
        std::cerr << "usage: frozen_compare ORACLE ACTUAL CHANGES SESSION_NAME\n";
        return 2;
    }
    try {
        const json oracle = load(argv[1]);
        const json actual = load(argv[2]);
        const json changes = load(argv[3]);
        const std::string session = argv[4];
        std::set<std::string> intended;
        for (const json& c : changes.at("changes"))
            if (c.at("session").get<std::string>() == session) intended.insert(c.at("pointer").get<std::string>());
        std::set<std::string> found;
        differences(oracle, actual, "", found);
        int errors = 0;
        for (const std::string& p : found)
            if (!intended.count(p)) {
                std::cerr << session << ": " << p << " was " << oracle.at(json::json_pointer(p)).dump() << ", now "
                          << (actual.contains(json::json_pointer(p)) ? actual.at(json::json_pointer(p)).dump() : std::string("missing"))
                          << " (not listed in intended_changes.json)\n";
                ++errors;
            }
        for (const std::string& p : intended)
            if (!found.count(p)) {
                std::cerr << session << ": intended_changes.json lists " << p << " but it no longer differs: remove the entry\n";
                ++errors;
            }
        return errors == 0 ? 0 : 1;
    } catch (const std::exception& e) {
        std::cerr << "frozen_compare: " << e.what() << "\n";
        return 2;
    }
}
