#include "core/report/plan_pins.h"

#include "core/base/errors.h"
#include "core/base/json_errors.h"
#include "core/io/scenario_json.h"
#include "core/search/zero_setups.h"

#include <nlohmann/json.hpp>

namespace zp {

using nlohmann::json;

std::string default_pin_name(const Scenario& s) {
    std::string gpu = s.cluster.gpu.display_name.empty() ? s.cluster.gpu.name : s.cluster.gpu.display_name;
    // "A100 80GB (SXM)" -> "A100 80GB": the form factor rarely tells two pins apart.
    if (const auto paren = gpu.find(" ("); paren != std::string::npos) gpu.erase(paren);
    return std::to_string(s.cluster.world_size()) + " x " + gpu + " " + short_setup_label(s.zero);
}

SessionFile parse_session_file(std::string_view text, const std::string& source) {
    const json doc = upgrade_session(parse_json_text(text, source), source);
    SessionFile f;
    f.scenario = scenario_from_json(doc, source);
    if (!doc.contains("pins")) return f;
    const json& pins = doc.at("pins");
    if (!pins.is_array()) throw InputError(source + ": pins must be a list");
    if (pins.size() > kMaxPins)
        throw InputError(source + ": pins holds " + std::to_string(pins.size()) + " plans; at most " + std::to_string(kMaxPins));
    for (std::size_t i = 0; i < pins.size(); ++i) {
        const std::string where = source + ": pins[" + std::to_string(i) + "]";
        const json& p = pins[i];
        if (!p.is_object()) throw InputError(where + " must be an object");
        if (!p.contains("name") || !p.at("name").is_string()) throw InputError(where + ".name must be a string");
        if (!p.contains("session")) throw InputError(where + ".session is missing");
        PlanPin pin;
        pin.name = p.at("name").get<std::string>();
        pin.scenario = scenario_from_json(p.at("session"), where + ".session");
        f.pins.push_back(std::move(pin));
    }
    return f;
}

std::string session_file_text(const SessionFile& f) {
    json doc = scenario_to_json(f.scenario);
    if (!f.pins.empty()) {
        json pins = json::array();
        for (const PlanPin& p : f.pins) pins.push_back({{"name", p.name}, {"session", scenario_to_json(p.scenario)}});
        doc["pins"] = std::move(pins);
    }
    return doc.dump(2) + "\n";
}

}  // namespace zp
