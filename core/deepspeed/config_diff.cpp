#include "core/deepspeed/config_diff.h"

#include <nlohmann/json.hpp>

namespace zp {

using nlohmann::ordered_json;

namespace {

std::string join(const std::string& prefix, const std::string& key) { return prefix.empty() ? key : prefix + "." + key; }

// A value wholly on one side: each of its leaves is one difference, so an offload block that
// appears lists its keys as a block that changed would.
void one_side(const std::string& path, const ordered_json& value, bool before_side, std::vector<ConfigDifference>& out) {
    if (value.is_object() && !value.empty()) {
        for (const auto& [key, child] : value.items()) one_side(join(path, key), child, before_side, out);
        return;
    }
    ConfigDifference d;
    d.key = path;
    (before_side ? d.in_before : d.in_after) = true;
    (before_side ? d.before : d.after) = value.dump();
    out.push_back(std::move(d));
}

void walk(const std::string& path, const ordered_json& a, const ordered_json& b, std::vector<ConfigDifference>& out) {
    if (a.is_object() && b.is_object()) {
        for (const auto& [key, child] : a.items()) {
            if (b.contains(key)) walk(join(path, key), child, b.at(key), out);
            else one_side(join(path, key), child, true, out);
        }
        for (const auto& [key, child] : b.items())
            if (!a.contains(key)) one_side(join(path, key), child, false, out);
        return;
    }
    if (a == b) return;
    out.push_back({path, true, true, a.dump(), b.dump()});
}

}  // namespace

std::vector<ConfigDifference> config_diff(const ordered_json& before, const ordered_json& after) {
    std::vector<ConfigDifference> out;
    walk("", before, after, out);
    return out;
}

}  // namespace zp
