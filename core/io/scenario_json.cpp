#include "core/io/scenario_json.h"

#include "core/base/errors.h"
#include "core/base/json_errors.h"
#include "core/base/units.h"
#include "core/io/session_fields.h"
#include "core/io/session_version.h"
#include "core/model/enum_names.h"
#include "core/presets/default_scenario.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

namespace zp {

using nlohmann::json;

namespace {

// Reads fields of one section, naming "section.field" in every error.
class Reader {
public:
    Reader(const json& root, const char* section, std::string source) : source_(std::move(source)), section_(section) {
        if (root.contains(section)) {
            if (!root.at(section).is_object()) fail(section, "must be an object");
            obj_ = &root.at(section);
        }
    }
    void integer(const char* key, std::int64_t& out, std::int64_t min = 0) const {
        const json* v = get(key);
        if (!v) return;
        const double d = v->is_number() ? v->get<double>() : NAN;
        if (!std::isfinite(d) || d != std::floor(d) || d < static_cast<double>(min) || d > kJsonSafeInteger)
            fail(key, "must be an integer >= " + std::to_string(min) + ", got " + v->dump());
        out = static_cast<std::int64_t>(d);
    }
    void integer(const char* key, int& out, int min = 0) const {
        std::int64_t v = out;
        integer(key, v, min);
        out = static_cast<int>(v);
    }
    void number(const char* key, double& out) const {
        const json* v = get(key);
        if (!v) return;
        if (!v->is_number() || !std::isfinite(v->get<double>()) || v->get<double>() < 0)
            fail(key, "must be a finite number >= 0, got " + v->dump());
        out = v->get<double>();
    }
    void boolean(const char* key, bool& out) const {
        const json* v = get(key);
        if (!v) return;
        if (!v->is_boolean()) fail(key, "must be true or false, got " + v->dump());
        out = v->get<bool>();
    }
    void text(const char* key, std::string& out) const {
        const json* v = get(key);
        if (!v) return;
        if (!v->is_string()) fail(key, "must be a string, got " + v->dump());
        out = v->get<std::string>();
    }
    template <typename E, typename Parse>
    void choice(const char* key, E& out, Parse parse) const {
        std::string s;
        text(key, s);
        if (s.empty() && !get(key)) return;
        try {
            out = parse(s);
        } catch (const InputError& e) {
            fail(key, e.what());
        }
    }
    [[noreturn]] void fail(const std::string& key, const std::string& what) const {
        const std::string path = key == section_ ? key : section_ + "." + key;
        throw InputError(source_ + ": " + path + " " + what);
    }

private:
    const json* get(const char* key) const {
        if (!obj_ || !obj_->contains(key)) return nullptr;
        return &obj_->at(key);
    }
    const json* obj_ = nullptr;
    std::string source_;
    std::string section_;
};

// Walks the field list (core/io/session_fields.h) reading each field, one Reader per section.
class FieldReader {
public:
    FieldReader(const json& root, std::string source) : root_(root), source_(std::move(source)) {}

    template <class T>
    void operator()(const char* section, const char* key, T& member, FieldRule rule = {}) {
        const Reader& r = reader(section);
        if constexpr (std::is_same_v<T, std::string>) r.text(key, member);
        else if constexpr (std::is_same_v<T, bool>) r.boolean(key, member);
        else if constexpr (std::is_same_v<T, double>) r.number(key, member);
        else if constexpr (std::is_same_v<T, std::int64_t>) r.integer(key, member, rule.min);
        else if constexpr (std::is_same_v<T, int>) r.integer(key, member, static_cast<int>(rule.min));
        else if constexpr (std::is_enum_v<T>) r.choice(key, member, parse_enum<T>);
        else static_assert(sizeof(T) == 0, "a session field of a type the reader does not know");
    }

private:
    const Reader& reader(const char* section) {
        if (!current_ || section_ != section) {
            section_ = section;
            current_.emplace(root_, section, source_);
        }
        return *current_;
    }
    const json& root_;
    std::string source_;
    std::string section_;
    std::optional<Reader> current_;
};

// Walks the field list writing each field; enums by their names in core/model/enum_names.h.
class FieldWriter {
public:
    template <class T>
    void operator()(const char* section, const char* key, const T& member, FieldRule = {}) {
        if constexpr (std::is_enum_v<T>) out[section][key] = to_string(member);
        else out[section][key] = member;
    }
    json out = json::object();
};

}  // namespace

json scenario_to_json(const Scenario& s) {
    FieldWriter w;
    w.out["version"] = kSessionVersion;
    visit_fields(s, w);
    return w.out;
}

Scenario scenario_from_json(const json& j, const std::string& source) {
    const json doc = upgrade_session(j, source);
    Scenario s = default_scenario();
    FieldReader r(doc, source);
    visit_fields(s, r);
    try {
        validate(s);
    } catch (const InputError& e) {
        throw InputError(source + ": " + e.what());
    }
    // A missing field keeps the default scenario's value, but a model is its architecture whole:
    // every version writes these four, so a model section without one is damaged (read, it named
    // Llama-3.1 70B over the default's 32 layers).
    if (const auto model = j.find("model"); model != j.end() && model->is_object())  // as the file has it, before the migration adds fields
        for (const char* key : {"layers", "hidden", "heads", "vocab"})
            if (!model->contains(key))
                throw InputError(source + ": model." + key +
                                 " is missing: a model section holds the whole architecture (every version writes it); the file is "
                                 "damaged: save the session again, or give the model with --model or --hf-config");
    return s;
}

Scenario parse_session(std::string_view text, const std::string& source_name) {
    return scenario_from_json(parse_json_text(text, source_name), source_name);
}

std::string session_text(const Scenario& s) { return scenario_to_json(s).dump(2) + "\n"; }

}  // namespace zp
