#pragma once
// Which ds_config.json keys differ between two configs (the Compare panel shows them): the two
// JSON documents walked key by key. Objects are entered; any other value (arrays included) is
// compared whole. Pure and order-stable: keys come in the first document's order, then the keys
// only the second has, in its order.
#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace zp {

struct ConfigDifference {
    std::string key;  // dotted path: "zero_optimization.offload_optimizer.device"
    bool in_before = false;
    bool in_after = false;
    std::string before;  // the value as compact JSON ("3", "\"cpu\"", "true"); empty when !in_before
    std::string after;   // likewise for the second document
};

// Every leaf that is in one document and not the other, or in both with different values. A key
// that is an object in one and a plain value in the other is one difference at that key.
std::vector<ConfigDifference> config_diff(const nlohmann::ordered_json& before, const nlohmann::ordered_json& after);

}  // namespace zp
