#include "core/validation/measured_runs.h"

#include "core/validation/text_scan.h"

#include "core/time/compute_time.h"

#include "core/base/errors.h"
#include "core/base/json_errors.h"
#include "core/base/units.h"
#include "core/model/deepspeed_release.h"
#include "core/model/enum_names.h"
#include "core/model/logits.h"
#include "core/model/transformers_release.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/default_scenario.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/model_presets.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace zp::validation {

// clang-format off
const std::vector<QuantityInfo>& quantity_table() {
    // Tolerances, the accuracy the planner promises against measured runs: allocated within 15%,
    // reserved and nvidia-smi within 20% (the allocator's reserve is modelled more coarsely), step
    // time and host RAM within 15% (docs/design.md §5.4).
    static const std::vector<QuantityInfo> table = {
        {Quantity::Allocated,        "allocated",        "max_allocated",  "GPU memory, allocated",         0.15},
        {Quantity::Reserved,         "reserved",         "max_reserved",   "GPU memory, reserved/nvidia-smi", 0.20},
        {Quantity::NvidiaSmi,        "nvidia-smi",       "nvidia-smi",     "GPU memory, reserved/nvidia-smi", 0.20},
        {Quantity::Fit,              "fits",             "",               "fits / OOM",                    0.0},
        {Quantity::StepSeconds,      "step_seconds",     "step_s",         "step time",                     0.15},
        {Quantity::SamplesPerSecond, "samples_per_s",    "samples_per_s",  "step time",                     0.15},
        {Quantity::TflopsPerGpu,     "tflops_per_gpu",   "tflops_per_gpu", "step time",                     0.15},
        {Quantity::HostRam,          "host_ram",         "host_ram",       "host RAM per node",             0.15},
    };
    return table;
}
// clang-format on

const QuantityInfo& quantity_info(Quantity q) {
    for (const QuantityInfo& i : quantity_table())
        if (i.quantity == q) return i;
    return quantity_table().front();
}

namespace {

// The transformers release a case that names none is read as (training's defaults in case_from_json).
constexpr TransformersRelease kUnnamedTransformersRelease = transformers_firsts::kLossOutsideModel;  // 4.46 to 4.50

std::string lower(std::string_view s) {
    std::string out(s);
    for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

// Lowercase letters and digits only: "V100-SXM3 32GB" -> "v100sxm332gb".
std::string squeezed(std::string_view s) {
    std::string out;
    for (char c : s)
        if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return out;
}

bool contains(std::string_view haystack, std::string_view needle) { return haystack.find(needle) != std::string_view::npos; }

std::string trimmed(std::string_view s) {
    const auto b = s.find_first_not_of(" \t");
    if (b == std::string_view::npos) return {};
    return std::string(s.substr(b, s.find_last_not_of(" \t") - b + 1));
}

}  // namespace

std::optional<Unit> parse_unit(std::string_view text) {
    const std::string u = trimmed(text);
    const std::string l = lower(u);
    const bool binary_in_parens = contains(u, "(") && (contains(u.substr(u.find('(')), "MiB") || contains(u.substr(u.find('(')), "GiB"));
    auto starts = [&](std::string_view p) { return u.rfind(p, 0) == 0; };
    if (starts("KiB")) return Unit{Dimension::Bytes, 1024.0};
    if (starts("MiB")) return Unit{Dimension::Bytes, kBytesPerMiB};
    if (starts("GiB")) return Unit{Dimension::Bytes, kBytesPerGiB};
    if (starts("TiB")) return Unit{Dimension::Bytes, kBytesPerTiB};
    if (starts("MB")) {
        if (binary_in_parens) return Unit{Dimension::Bytes, kBytesPerMiB};
        return Unit{Dimension::Bytes, 1e6};
    }
    if (starts("GB")) {
        if (binary_in_parens) return Unit{Dimension::Bytes, kBytesPerGiB};
        return Unit{Dimension::Bytes, 1e9};
    }
    if (starts("TB")) return Unit{Dimension::Bytes, 1e12};
    if (l.rfind("ms", 0) == 0) return Unit{Dimension::Seconds, 1e-3};
    if (l.rfind("samples/s", 0) == 0) return Unit{Dimension::PerSecond, 1.0};
    if (l.rfind("tflops", 0) == 0) return Unit{Dimension::FlopsPerSecond, 1e12};
    if (l == "s" || l.rfind("s/", 0) == 0 || l.rfind("s ", 0) == 0 || l.rfind("seconds", 0) == 0) return Unit{Dimension::Seconds, 1.0};
    return std::nullopt;
}

namespace {

// A number the free-text readers below captured that does not convert: digits beyond a count's
// range ("r=99999999999999999999") or a decimal of points alone ("alpha ."). parse_measured_runs
// adds the case it is in.
class UnreadableNumber : public InputError {
public:
    using InputError::InputError;
};

[[noreturn]] void refuse_number(std::string_view number, std::string_view text) {
    throw UnreadableNumber("\"" + std::string(text) + "\": " + std::string(number) +
                           " is not a number the planner can read; write a whole number such as 8 or a decimal such as 0.05");
}

// A reader's capture of digits as a count (what std::stoll would give, refused instead of thrown
// when out of range).
std::int64_t count_in(std::string_view digits, std::string_view text) {
    std::int64_t n = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (error != std::errc() || end != digits.data() + digits.size()) refuse_number(digits, text);
    return n;
}

// A capture of digits and points as a decimal: its longest leading number, as std::stod reads it
// ("1.5.2" is 1.5), refused when there is none or it is out of range.
double decimal_in(std::string_view number, std::string_view text) {
    double x = 0;
    if (std::from_chars(number.data(), number.data() + number.size(), x).ec != std::errc()) refuse_number(number, text);
    return x;
}

// `^prefix(?:optional_word)?(\d+)`: the number a clause starts with after `prefix`.
std::optional<std::string_view> number_at_start(std::string_view clause, std::string_view prefix, std::string_view optional_word = {}) {
    TextScan at(clause, 0);
    if (!at.take(prefix)) return std::nullopt;
    at.take(optional_word);
    return at.take_digits();
}

enum class WordStart { No, Yes };
enum class Mark { Optional, Required };

// `\bkey\s*[marks]\s*(value+)` at `at`, the \b only with WordStart::Yes and `[marks]?` with
// Mark::Optional: the value. Spaces, marks and the value's characters never overlap here, so taking
// each run whole is what the regex's backtracking would find.
template <class CharClass>
std::optional<std::string_view> key_mark_value(TextScan at, WordStart word_start, std::string_view key, std::string_view marks, Mark mark,
                                               CharClass value) {
    if (word_start == WordStart::Yes && !at.after_non_word()) return std::nullopt;
    if (!at.take(key)) return std::nullopt;
    at.skip_spaces();
    if (!at.take_one_of(marks) && mark == Mark::Required) return std::nullopt;
    at.skip_spaces();
    return at.take_some(value);
}

// `(?:\bshort\s*=\s*|megatron_flag[\s=]+|hf_key[\s=:]+)(\d+)` at `at` ("TP=4",
// "--tensor-model-parallel-size 2", "tensor_parallel_size: 8"): the size.
std::optional<std::string_view> parallel_size(TextScan at, std::string_view short_key, std::string_view megatron_flag,
                                              std::string_view hf_key) {
    if (const auto size = key_mark_value(at, WordStart::Yes, short_key, "=", Mark::Required, digit_char)) return size;
    const auto key_separators_size = [&](std::string_view key, std::string_view marks) -> std::optional<std::string_view> {
        TextScan k = at;
        if (!k.take(key) || !k.take_some([&](char c) { return space_char(c) || marks.find(c) != std::string_view::npos; }))
            return std::nullopt;
        return k.take_digits();
    };
    if (const auto size = key_separators_size(megatron_flag, "=")) return size;
    return key_separators_size(hf_key, "=:");
}

// `\(([a-z0-9_,\s]+)\)` at `at` ("(q,v)"): the list inside.
std::optional<std::string_view> parenthesised_module_list(TextScan at) {
    if (!at.take("(")) return std::nullopt;
    const auto list = at.take_some([](char c) { return (c >= 'a' && c <= 'z') || digit_char(c) || c == '_' || c == ',' || space_char(c); });
    if (!list || !at.take(")")) return std::nullopt;
    return list;
}

// `\bword\b` somewhere in `text`.
bool names_word(std::string_view text, std::string_view word) {
    return search_text(text,
                       [&](TextScan at) -> std::optional<std::string_view> {
                           if (at.after_non_word() && at.take(word) && at.before_non_word()) return word;
                           return std::nullopt;
                       })
        .has_value();
}

// `(bf16|fp16|16-bit|low[- ]precision)(?:(?!fp32)[^,;|]){0,20}master` at `at`: a low-precision
// word, then "master" within 20 characters that cross no , ; | and start no "fp32".
std::optional<std::string_view> low_precision_then_master(TextScan at) {
    const bool low_precision =
        at.take("bf16") || at.take("fp16") || at.take("16-bit") || (at.take("low") && at.take_one_of("- ") && at.take("precision"));
    if (!low_precision) return std::nullopt;
    for (int between = 0;; ++between) {
        if (at.starts_with("master")) return std::string_view("master");
        const std::optional<char> c = at.peek();
        if (between == 20 || !c || std::string_view(",;|").find(*c) != std::string_view::npos || at.starts_with("fp32"))
            return std::nullopt;
        at.take_char();
    }
}

}  // namespace

std::vector<FitCheck> parse_fit_text(std::string_view text, std::int64_t micro_batch, std::vector<std::string>* unchecked) {
    std::vector<FitCheck> checks;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(';', start), text.size());
        const std::string raw = trimmed(text.substr(start, end - start));
        start = end + 1;
        if (raw.empty()) continue;
        std::string clause = lower(raw);
        FitCheck c;
        if (clause.rfind("ddp ", 0) == 0) {  // the same run without ZeRO: plain data parallel
            c.plain_data_parallel = true;
            clause = trimmed(clause.substr(4));
        }
        std::optional<std::string_view> n = number_at_start(clause, "fits at micro_batch ");
        if (!n) n = number_at_start(clause, "max fitting micro_batch ");
        if (n) {
            c.micro_batch = count_in(*n, raw);
            c.fits = true;
        } else if (const auto oom = number_at_start(clause, "oom at ", "micro_batch ")) {
            c.micro_batch = count_in(*oom, raw);
            c.fits = false;
        } else if (clause == "fits" || clause == "oom") {
            c.micro_batch = micro_batch;
            c.fits = clause == "fits";
        } else {
            if (unchecked) unchecked->push_back(raw);
            continue;
        }
        checks.push_back(c);
    }
    return checks;
}

namespace {

// GPU types by name fragments (all must appear, letters and digits only, lowercase); the first
// row that matches wins, so the more specific rows come first. A row without a preset of its
// own starts from `preset` and overrides what differs.
struct GpuTypeRow {
    std::vector<const char*> fragments;
    const char* preset;
    bool own_preset;           // false: a GPU the presets do not have, built from `preset`
    double peak_tflops_16bit;  // 0: the preset's
    double intra_node_gbytes_per_s;
    double pcie_gbytes_per_s;
};

// clang-format off
const std::vector<GpuTypeRow>& gpu_type_rows() {
    static const std::vector<GpuTypeRow> rows = {
        {{"v100", "16gb"}, "v100-16gb",  true,  0, 0, 0},
        {{"v100"},         "v100-32gb",  true,  0, 0, 0},
        {{"a100", "40gb"}, "a100-40gb",  true,  0, 0, 0},
        {{"a100"},         "a100-80gb",  true,  0, 0, 0},
        // A800: the A100 for China with NVLink cut to 400 GB/s both directions (NVIDIA A800 datasheet).
        {{"a800"},         "a100-80gb",  false, 0, 200, 0},
        {{"h100", "pcie"}, "h100-pcie",  true,  0, 0, 0},
        {{"h100"},         "h100-80gb",  true,  0, 0, 0},
        {{"h200"},         "h200-141gb", true,  0, 0, 0},
        {{"l40s"},         "l40s",       true,  0, 0, 0},
        {{"a10g"},         "a10g",       true,  0, 0, 0},
        {{"rtx3090"},      "rtx-3090",   true,  0, 0, 0},
        {{"rtx4090"},      "rtx-4090",   true,  0, 0, 0},
        // Titan RTX (Turing TU102): 130 TFLOP/s fp16 tensor with FP32 accumulate, PCIe 3.0 x16
        // (NVIDIA Titan RTX datasheet); no NVLink assumed.
        {{"titanrtx"},     "rtx-3090",   false, 130.0, links::kPcie3x16, links::kPcie3x16},
        {{"mi250x"},       "mi250x",     true,  0, 0, 0},
        {{"mi300x"},       "mi300x",     true,  0, 0, 0},
    };
    return rows;
}
// clang-format on

}  // namespace

std::optional<GpuSpec> match_gpu_type(std::string_view type, double memory_gib, std::string* label) {
    const std::string t = squeezed(type);
    for (const GpuTypeRow& row : gpu_type_rows()) {
        if (!std::all_of(row.fragments.begin(), row.fragments.end(), [&](const char* f) { return contains(t, f); })) continue;
        GpuSpec g = gpu_preset(row.preset);
        if (row.peak_tflops_16bit > 0) g.peak_tflops_16bit = row.peak_tflops_16bit;
        if (row.intra_node_gbytes_per_s > 0) g.intra_node_gbytes_per_s = row.intra_node_gbytes_per_s;
        if (row.pcie_gbytes_per_s > 0) g.pcie_gbytes_per_s = row.pcie_gbytes_per_s;
        const bool same_memory = memory_gib <= 0 || std::abs(memory_gib - g.memory_gib) < 0.005;
        if (row.own_preset && same_memory) {
            if (label) *label = row.preset;
            return g;
        }
        if (!row.own_preset) g.display_name = std::string(type);
        if (label) *label = row.own_preset ? std::string(row.preset) + " with the case's memory" : "custom from " + std::string(row.preset);
        return custom_gpu(g, memory_gib > 0 ? memory_gib : g.memory_gib);
    }
    return std::nullopt;
}

std::optional<FineTune> finetune_from_text(const std::string& text) {
    const std::string l = lower(text);
    FineTune f;
    f.method = contains(l, "qlora") ? FineTuneMethod::Qlora : FineTuneMethod::Lora;
    const auto rank = search_text(l, [](TextScan at) { return key_mark_value(at, WordStart::Yes, "r", "=", Mark::Required, digit_char); });
    if (!rank) return std::nullopt;
    f.lora_rank = count_in(*rank, text);
    const auto decimal = [](char c) { return digit_char(c) || c == '.'; };
    const auto value_of = [&](std::string_view key) {  // key\s*=?\s*([\d.]+)
        return search_text(l, [&](TextScan at) { return key_mark_value(at, WordStart::No, key, "=", Mark::Optional, decimal); });
    };
    if (const auto alpha = value_of("alpha")) f.lora_alpha = decimal_in(*alpha, text);
    if (const auto dropout = value_of("dropout")) f.lora_dropout = decimal_in(*dropout, text);
    if (contains(l, "all-linear") || contains(l, "all linear")) f.targets = LoraTargets::AllLinear;
    else if (contains(l, "default")) f.targets = LoraTargets::Default;
    else if (const auto list = search_text(l, parenthesised_module_list)) {
        f.targets = LoraTargets::Modules;
        f.target_modules = std::string(*list);
    }
    return f;
}

std::optional<ZeroPlusPlus> zeropp_from_text(std::string_view assumptions) {
    const std::string a = lower(assumptions);
    ZeroPlusPlus z;
    // (?:zero_hpz_partition_size|hpz)\s*[=:]?\s*(\d+)
    const auto hpz = search_text(a, [](TextScan at) {
        auto size = key_mark_value(at, WordStart::No, "zero_hpz_partition_size", "=:", Mark::Optional, digit_char);
        return size ? size : key_mark_value(at, WordStart::No, "hpz", "=:", Mark::Optional, digit_char);
    });
    if (hpz) z.hpz_partition_size = std::max<std::int64_t>(1, count_in(*hpz, assumptions));
    z.quantized_weights = contains(a, "zero_quantized_weights true") || names_word(a, "qwz");
    z.quantized_gradients = contains(a, "zero_quantized_gradients true") || names_word(a, "qgz");
    if (!z.any()) return std::nullopt;
    return z;
}

bool names_low_precision_master(std::string_view precision_and_optimizer) {
    const std::string po = lower(precision_and_optimizer);
    return contains(po, "master_weights_and_grads") || contains(po, "bf16_optimizer_states") ||
           search_text(po, low_precision_then_master).has_value();
}

std::string not_representable_reason(const std::optional<std::string>& lora, std::string_view assumptions) {
    if (lora && !finetune_from_text(*lora)) return "LoRA/QLoRA (" + *lora + "): states no rank (r=...)";
    const std::string a = lower(assumptions);
    if ((contains(a, "zero++") || contains(a, "zero_quantized") || contains(a, "zero_hpz")) && !zeropp_from_text(assumptions))
        return "ZeRO++ named without its switches (zero_hpz_partition_size, zero_quantized_weights/gradients)";
    return {};
}

Parallelism parallelism_from_text(std::string_view assumptions) {
    const std::string a = lower(assumptions);
    Parallelism out;
    const auto tp =
        search_text(a, [](TextScan at) { return parallel_size(at, "tp", "tensor-model-parallel-size", "tensor_parallel_size"); });
    if (tp) out.tensor = std::max<std::int64_t>(1, count_in(*tp, assumptions));
    const auto pp =
        search_text(a, [](TextScan at) { return parallel_size(at, "pp", "pipeline-model-parallel-size", "pipeline_parallel_size"); });
    if (pp) out.pipeline = std::max<std::int64_t>(1, count_in(*pp, assumptions));
    return out;
}

namespace {

// Reads one case's fields; every error names the source, the case and the field.
class CaseReader {
public:
    CaseReader(const nlohmann::json& j, std::string where) : j_(j), where_(std::move(where)) {}

    [[noreturn]] void fail(const std::string& field, const std::string& what) const {
        throw InputError(where_ + ": " + field + " " + what);
    }
    const nlohmann::json* find(const char* key) const {
        auto it = j_.find(key);
        return it == j_.end() || it->is_null() ? nullptr : &*it;
    }
    const nlohmann::json& object(const char* key) const {
        const nlohmann::json* v = find(key);
        if (!v || !v->is_object()) fail(key, "must be an object");
        return *v;
    }
    std::optional<std::string> optional_text(const char* key) const {
        const nlohmann::json* v = find(key);
        if (!v) return std::nullopt;
        if (!v->is_string()) fail(key, "must be text");
        return v->get<std::string>();
    }
    std::string text(const char* key) const {
        auto v = optional_text(key);
        if (!v) fail(key, "is missing");
        return *v;
    }
    std::optional<std::int64_t> optional_integer(const char* key, std::int64_t min) const {
        const nlohmann::json* v = find(key);
        if (!v) return std::nullopt;
        if (!v->is_number_integer() || v->get<std::int64_t>() < min)
            fail(key, "must be an integer >= " + std::to_string(min) + ", got " + v->dump());
        return v->get<std::int64_t>();
    }
    std::int64_t integer(const char* key, std::int64_t min) const {
        auto v = optional_integer(key, min);
        if (!v) fail(key, "is missing");
        return *v;
    }
    std::optional<bool> optional_bool(const char* key) const {
        const nlohmann::json* v = find(key);
        if (!v) return std::nullopt;
        if (!v->is_boolean()) fail(key, "must be true or false");
        return v->get<bool>();
    }
    CaseReader nested(const char* key) const { return CaseReader(object(key), where_ + ": " + key); }
    const nlohmann::json& json() const { return j_; }

private:
    const nlohmann::json& j_;
    std::string where_;
};

Precision precision_from_text(const CaseReader& r, const std::string& t) {
    const std::string l = lower(t);
    if (contains(l, "bf16") || contains(l, "bfloat16")) return Precision::Bf16;
    if (contains(l, "fp16") || contains(l, "float16") || contains(l, "half")) return Precision::Fp16;
    if (contains(l, "fp32") || contains(l, "float32")) return Precision::Fp32;
    r.fail("precision", "'" + t + "' names none of bf16, fp16, fp32");
}

Optimizer optimizer_from_text(const CaseReader& r, const std::string& t) {
    const std::string l = lower(t);
    // AdamW before Adam: "FusedAdam (AdamW mode)" and "AdamW (DeepSpeed CPU Adam)" are AdamW.
    if (contains(l, "adamw")) return Optimizer::AdamW;
    if (contains(l, "adam")) return Optimizer::Adam;
    if (contains(l, "lamb")) return Optimizer::Lamb;
    if (contains(l, "lion")) return Optimizer::Lion;
    if (contains(l, "adagrad")) return Optimizer::Adagrad;
    if (contains(l, "sgd")) return contains(l, "momentum") ? Optimizer::SgdMomentum : Optimizer::Sgd;
    r.fail("optimizer", "'" + t + "' names none of AdamW, Adam, Lamb, Lion, Adagrad, SGD");
}

// Whose optimizer kernel: torch.optim (with its temporaries) when the text names torch or the
// Hugging Face Trainer (which builds torch.optim.AdamW unless the DeepSpeed config has an
// "optimizer" block); DeepSpeed's FusedAdam / CPU Adam otherwise.
bool fused_optimizer_from_text(const std::string& t) {
    const std::string l = lower(t);
    return !(contains(l, "torch") || contains(l, "hf trainer"));
}

// A case's enum field when it states one (an unknown word is refused with the field's name).
template <typename E>
std::optional<E> optional_enum_field(const CaseReader& r, const char* key) {
    const auto v = r.optional_text(key);
    if (!v) return std::nullopt;
    try {
        return parse_enum<E>(*v);
    } catch (const InputError& e) {
        r.fail(key, e.what());
    }
}

// The same, with `fallback` listed under "Assumed" when the case is silent.
template <typename E>
E enum_field(const CaseReader& r, const char* key, E fallback, MeasuredCase& c) {
    if (auto v = optional_enum_field<E>(r, key)) return *v;
    c.assumed.push_back(std::string(key) + " = " + to_string(fallback));
    return fallback;
}

// The architecture from the case's dimensions; a preset only when its name appears in the case's
// model name and its dimensions agree.
ModelSpec model_from_dims(const CaseReader& r, MeasuredCase& c) {
    const CaseReader m = r.nested("model");
    const std::string name = m.optional_text("name").value_or("custom");
    const std::int64_t layers = m.integer("layers", 1), hidden = m.integer("hidden", 1), heads = m.integer("heads", 1);
    const std::int64_t kv_heads = m.optional_integer("kv_heads", 1).value_or(heads);
    const std::int64_t ffn = m.optional_integer("ffn", 1).value_or(4 * hidden);
    const std::int64_t vocab = m.integer("vocab", 1);
    const std::optional<std::int64_t> params = m.optional_integer("params", 1);

    const std::string key = squeezed(name);
    const ModelPreset* named = nullptr;
    for (const ModelPreset& p : model_presets())
        if (contains(key, squeezed(p.name)) && (!named || p.name.size() > named->name.size())) named = &p;
    if (named) {
        const ModelSpec& s = named->spec;
        if (s.layers == layers && s.hidden == hidden && s.heads == heads && s.kv_heads == kv_heads && s.ffn == ffn && s.vocab == vocab) {
            c.notes.push_back("model: preset " + named->name);
            return s;
        }
        c.notes.push_back("model: the name suggests preset " + named->name + " but the dimensions differ; built from the dimensions");
    }

    ModelSpec spec;
    const std::string l = lower(name);
    if (contains(l, "t5") || contains(l, "encoder-decoder")) {
        // T5: RMS-style norm without bias, no biases, 32 relative-attention buckets; v1.0 (ungated
        // ReLU MLP) ties the head to the embedding, v1.1 and Flan-T5 (gated GELU) do not.
        spec = llama_style(layers, hidden, heads, kv_heads, ffn, vocab, false);  // RMSNorm, no biases
        spec.family = "t5";
        spec.gated_mlp = ffn != 4 * hidden;
        spec.tied_embeddings = !spec.gated_mlp;
        spec.encoder_decoder = true;
        spec.relative_attention_buckets = 32;
        c.notes.push_back("model: encoder-decoder built from the dimensions");
    } else if (ffn == 4 * hidden) {
        spec = gpt2_style(layers, hidden, heads, vocab, 0);  // GPT-2/OPT/BLOOM shape: 4h MLP, LayerNorm, biases
        spec.kv_heads = kv_heads;
        c.notes.push_back("model: GPT-style (4h MLP, LayerNorm) built from the dimensions");
    } else {
        spec = llama_style(layers, hidden, heads, kv_heads, ffn, vocab, false);
        c.notes.push_back("model: Llama-style (gated MLP, RMSNorm) built from the dimensions");
    }
    spec.name = name;
    if (params) {
        const double built = static_cast<double>(parameter_count(spec));
        if (std::abs(built / static_cast<double>(*params) - 1.0) > 0.01) {
            spec.params_override = *params;
            c.notes.push_back("model: the dimensions count " + std::to_string(static_cast<std::int64_t>(built)) +
                              " parameters, the case states " + std::to_string(*params) + "; the stated count is used");
        }
    }
    try {
        validate(spec);
    } catch (const InputError& e) {
        r.fail("model", e.what());
    }
    return spec;
}

Cluster cluster_from_case(const CaseReader& r, std::int64_t gpus, MeasuredCase& c) {
    Cluster cl = default_scenario().cluster;
    const nlohmann::json* g = r.find("gpu");
    if (!g) {
        cl.use_gpu(gpu_preset(kAssumedGpuPreset));
        c.gpu_label = kAssumedGpuPreset;
        c.assumed.push_back(std::string("gpu = ") + kAssumedGpuPreset);
    } else {
        const CaseReader gr = r.nested("gpu");
        const std::string type = gr.text("type");
        double memory_gib = 0;
        if (const nlohmann::json* mem = gr.find("memory_gib")) {
            if (!mem->is_number() || mem->get<double>() <= 0) gr.fail("memory_gib", "must be a positive number of GiB");
            memory_gib = mem->get<double>();
        }
        auto spec = match_gpu_type(type, memory_gib, &c.gpu_label);
        if (!spec) {
            if (memory_gib <= 0) gr.fail("type", "'" + type + "' matches no GPU preset and no memory_gib is given");
            spec = custom_gpu(gpu_preset(kAssumedGpuPreset), memory_gib);
            c.gpu_label = "custom";
            c.assumed.push_back("gpu throughput and links of " + std::string(kAssumedGpuPreset) + " ('" + type + "' matches no preset)");
        }
        cl.use_gpu(*spec);
        // CPU Adam's rate (the host memory bandwidth), the network between nodes, host RAM and NVMe
        // are those of the node this GPU comes in, when there is one (the cluster preset built with
        // it: DGX-2 for V100 32GB, 800 Gbit/s over 8 EDR NICs, 1.5 TB RAM, 30 TB NVMe at 25 GB/s;
        // DGX A100 for A100 80GB): what decides whether an offloaded run fits its node.
        for (const ClusterPreset& p : cluster_presets())
            if (p.cluster.gpu.name == spec->name ||
                (spec->name == kCustomGpuName && p.cluster.gpu.peak_tflops_16bit == spec->peak_tflops_16bit)) {
                cl.cpu_adam_params_per_second = p.cluster.cpu_adam_params_per_second;
                cl.inter_node_gbits_per_s = p.cluster.inter_node_gbits_per_s;
                cl.nics_per_node = p.cluster.nics_per_node;
                cl.cpu_ram_bytes_per_node = p.cluster.cpu_ram_bytes_per_node;
                cl.nvme_bytes_per_node = p.cluster.nvme_bytes_per_node;
                cl.nvme_gbytes_per_s = p.cluster.nvme_gbytes_per_s;
                break;
            }
    }
    std::int64_t per_node = 0;
    if (auto v = r.optional_integer("gpus_per_node", 1)) {
        per_node = *v;
    } else {
        per_node = std::min(gpus, kAssumedGpusPerNodeMax);
        c.assumed.push_back("gpus_per_node = " + std::to_string(per_node));
    }
    std::int64_t nodes = 0;
    if (auto v = r.optional_integer("nodes", 1)) {
        nodes = *v;
    } else {
        nodes = (gpus + per_node - 1) / per_node;
        c.assumed.push_back("nodes = " + std::to_string(nodes));
    }
    if (gpus % nodes != 0 || gpus / nodes > per_node)
        r.fail("gpus",
               std::to_string(gpus) + " cannot be spread over " + std::to_string(nodes) + " node(s) of " + std::to_string(per_node));
    if (gpus / nodes < per_node)
        c.notes.push_back(std::to_string(gpus / nodes) + " of the " + std::to_string(per_node) + " GPUs per node used");
    cl.nodes = nodes;
    cl.gpus_per_node = gpus / nodes;
    // The network between nodes, where the source states it (the ZeRO++ blog's 1 x and 4 x 100 Gb/s).
    if (auto v = r.optional_integer("inter_node_gbits_per_s", 1)) {
        cl.inter_node_gbits_per_s = static_cast<double>(*v);
        c.notes.push_back("inter-node " + std::to_string(*v) + " Gbit/s per node");
    }
    if (auto v = r.optional_integer("nics_per_node", 1)) {
        cl.nics_per_node = *v;
        c.notes.push_back(std::to_string(*v) + " NIC(s) per node");
    }
    return cl;
}

Measurement measurement_from_case(const CaseReader& r, const std::string& kind, std::int64_t micro_batch, MeasuredCase& c) {
    const CaseReader m = r.nested("measured");
    Measurement out;
    out.kind = kind;
    out.what = m.optional_text("what").value_or("");
    const nlohmann::json* value = m.find("value");
    if (!value) m.fail("value", "is missing");
    if (kind == "fits_or_oom") {
        out.quantity = Quantity::Fit;
        if (!value->is_string()) m.fail("value", "must be text (OOM, fits, fits at micro_batch N; OOM at M) for kind fits_or_oom");
        std::vector<std::string> unchecked;
        out.fit_checks = parse_fit_text(value->get<std::string>(), micro_batch, &unchecked);
        if (out.fit_checks.empty())
            m.fail("value", "'" + value->get<std::string>() + "' is neither OOM, fits nor 'fits at micro_batch N; OOM at M'");
        for (const std::string& u : unchecked) c.notes.push_back("not checked: '" + u + "'");
        return out;
    }
    const QuantityInfo* q = nullptr;
    const std::string what = lower(out.what);
    for (const QuantityInfo& i : quantity_table())
        if (*i.what_prefix && what.rfind(i.what_prefix, 0) == 0) q = &i;
    if (!q)
        m.fail("what",
               "'" + out.what +
                   "' starts with none of max_allocated, max_reserved, nvidia-smi, host_ram, step_s, samples_per_s, tflops_per_gpu");
    out.quantity = q->quantity;
    const bool memory = out.quantity == Quantity::Allocated || out.quantity == Quantity::Reserved || out.quantity == Quantity::NvidiaSmi ||
                        out.quantity == Quantity::HostRam;
    if ((kind == "peak_memory" && (!memory || out.quantity == Quantity::HostRam)) ||
        (kind == "host_ram" && out.quantity != Quantity::HostRam) || (kind == "throughput" && memory))
        m.fail("what", "'" + out.what + "' is not a measurement of kind " + kind);
    if (!value->is_number() || value->get<double>() <= 0)
        m.fail("value", "must be a positive number for kind " + kind + ", got " + value->dump());
    const std::string unit_text = m.text("unit");
    const auto unit = parse_unit(unit_text);
    const Dimension wanted = memory                                   ? Dimension::Bytes
                             : out.quantity == Quantity::StepSeconds  ? Dimension::Seconds
                             : out.quantity == Quantity::TflopsPerGpu ? Dimension::FlopsPerSecond
                                                                      : Dimension::PerSecond;
    if (!unit || unit->dimension != wanted)
        m.fail("unit", "'" + unit_text + "' is not a unit of " + quantity_info(out.quantity).name +
                           " (MiB, MB (MiB), GB, GiB, ms, s/iteration, samples/s, TFLOPs)");
    out.value = value->get<double>() * unit->factor;
    return out;
}

// The tensor/pipeline layout: the explicit fields "tensor_parallel", "pipeline_parallel",
// "virtual_stages" (interleaved 1F1B model chunks per pipeline rank), "sequence_parallel"
// (Megatron's --sequence-parallel) and "pipeline_send" (Parallelism::pipeline_send) where the case states them, else what its assumptions text
// names (parallelism_from_text). Consistency with the GPUs, heads and layers is validate()'s.
Parallelism parallelism_from_case(const CaseReader& r) {
    Parallelism p = parallelism_from_text(r.optional_text("assumptions").value_or(""));
    if (auto v = r.optional_integer("tensor_parallel", 1)) p.tensor = *v;
    if (auto v = r.optional_integer("pipeline_parallel", 1)) p.pipeline = *v;
    if (auto v = r.optional_integer("virtual_stages", 1)) p.virtual_stages = *v;
    if (auto v = r.optional_bool("sequence_parallel")) p.sequence_parallel = *v;
    if (auto v = r.optional_text("pipeline_send")) {
        try {
            p.pipeline_send = parse_pipeline_send(*v);
        } catch (const InputError&) {
            r.fail(
                "pipeline_send",
                "'" + *v + "' is neither 'whole' (Megatron-Core) nor 'scatter-gather' (DeepSpeed's PipelineEngine, Megatron-LM 2021-2022)");
        }
    }
    return p;
}

// The ZeRO++ switches and the zero_optimization sizes a case states, and overlap_comm for a
// throughput case, each stated one noted.
void zero_knobs_from_case(const CaseReader& r, const std::string& kind, ZeroSetup& z, MeasuredCase& c) {
    if (auto zpp = zeropp_from_text(r.optional_text("assumptions").value_or(""))) {
        z.hpz_partition_size = zpp->hpz_partition_size;
        z.quantized_weights = zpp->quantized_weights;
        z.quantized_gradients = zpp->quantized_gradients;
        c.notes.push_back("ZeRO++: hpZ " + std::to_string(zpp->hpz_partition_size) + (zpp->quantized_weights ? ", qwZ" : "") +
                          (zpp->quantized_gradients ? ", qgZ" : ""));
    }
    // The ds_config's zero_optimization sizes (elements) the case states: the reduce bucket, and the
    // stage-3 knobs that decide how far ZeRO-3's gathers run ahead.
    struct SizeKey {
        const char* key;
        std::int64_t min;
        double ZeroSetup::*field;
    };
    for (const SizeKey& k : {SizeKey{"reduce_bucket_size", 1, &ZeroSetup::reduce_bucket_elems},
                             SizeKey{"stage3_max_live_parameters", 1, &ZeroSetup::stage3_max_live_parameters},
                             SizeKey{"stage3_prefetch_bucket_size", 0, &ZeroSetup::stage3_prefetch_bucket_elems},
                             SizeKey{"stage3_param_persistence_threshold", 0, &ZeroSetup::stage3_param_persistence_threshold}})
        if (auto v = r.optional_integer(k.key, k.min)) {
            z.*k.field = static_cast<double>(*v);
            c.notes.push_back(std::string(k.key) + " " + std::to_string(*v));
        }
    // Whether saving gathers the whole 16-bit model on rank 0 (host RAM at the checkpoint save):
    // zero_optimization.stage3_gather_16bit_weights_on_model_save, read by save_16bit_model() alone.
    if (auto f = r.optional_bool("gather_16bit_weights_on_model_save")) z.gather_16bit_weights_on_model_save = *f;
    // The model's code: deepspeed.zero.TiledLinear's tile factor (ZeroSetup::linear_tile_factor).
    if (auto v = r.optional_integer("tile_factor", 1)) {
        z.linear_tile_factor = *v;
        c.notes.push_back("TiledLinear: tile factor " + std::to_string(*v));
    }
    // Throughput cases: overlap_comm as the run's DeepSpeed had it: as stated, else DeepSpeed's
    // default for the stage (on at stage 3 only: core/model/deepspeed_defaults.h); it decides what the
    // step time hides. (Memory cases keep the planner's default, which their allocator fit used.)
    if (kind == "throughput") {
        if (auto o = r.optional_bool("overlap_comm")) z.overlap_comm = *o;
        else z.overlap_comm = deepspeed::defaults::overlap_comm_for_stage(z.stage);
    }
}

// The fine-tuning method and the training settings a case states; what it leaves out is assumed
// and listed. The global batch follows from the layout, so s.parallel is set before.
void training_from_case(const CaseReader& r, const std::string& kind, Scenario& s, MeasuredCase& c) {
    if (auto lora = r.optional_text("lora"))
        if (auto f = finetune_from_text(*lora)) {
            s.finetune = *f;
            c.notes.push_back(std::string("fine-tuning: ") + to_string(f->method) + " r " + std::to_string(f->lora_rank) + ", targets " +
                              (f->targets == LoraTargets::Modules ? f->target_modules : to_string(f->targets)));
        }
    Training& t = s.training;
    if (auto p = r.optional_text("precision")) t.precision = precision_from_text(r, *p);
    else {
        // Unstated, it is what a plan on the case's GPU takes (precision_for_gpu: fp16 on a V100).
        t.precision = precision_for_gpu(t.precision, s.cluster.gpu);
        c.assumed.push_back(std::string("precision = ") + to_string(t.precision));
    }
    if (auto o = r.optional_text("optimizer")) {
        t.optimizer = optimizer_from_text(r, *o);
        t.fused_optimizer = fused_optimizer_from_text(*o);
        t.optimizer_storage = optimizer_storage_named(*o);
    } else c.assumed.push_back(std::string("optimizer = ") + to_string(t.optimizer));
    auto with_default = [&](const char* key, std::int64_t fallback) {
        if (auto v = r.optional_integer(key, 1)) return *v;
        c.assumed.push_back(std::string(key) + " = " + std::to_string(fallback));
        return fallback;
    };
    t.micro_batch = with_default("micro_batch", kAssumedMicroBatch);
    const std::int64_t grad_accum = with_default("grad_accum", kAssumedGradAccum);
    // A peak-memory figure rests on the activations, which scale with the sequence: with no stated
    // length (a dataset padded to the longest in each batch) the assumed one decides the answer,
    // so the case is listed, not checked. Fit and throughput cases keep the assumption.
    if (kind == "peak_memory" && !r.optional_integer("seq", 1) && c.not_representable.empty())
        c.not_representable = "the sequence length is not stated, and the peak's activations scale with it: not checked";
    t.seq_len = with_default("seq", kAssumedSeqLen);
    t.global_batch = t.micro_batch * grad_accum * data_parallel_size(s);
    t.auto_micro_batch = false;
    t.checkpointing = enum_field<Checkpointing>(r, "checkpointing", Checkpointing::None, c);
    t.auto_checkpointing = false;
    if (auto f = r.optional_bool("flash_attention")) t.flash_attention = *f;
    else c.assumed.push_back(std::string("flash_attention = ") + (t.flash_attention ? "true" : "false"));
    // The flash attention kernel, where the case names one: FlashAttention-2, which the planner
    // times, or MPT's Triton kernel at its share of that rate (compute_model::kTritonFlashShare).
    if (auto k = r.optional_text("attention_kernel")) {
        if (!t.flash_attention) r.fail("attention_kernel", "names a flash attention kernel, but flash_attention is false");
        if (*k == "triton") s.assumptions.flash_attention_scale = compute_model::kTritonFlashShare;
        else if (*k != "flash-attn-2") r.fail("attention_kernel", "'" + *k + "' is none of flash-attn-2, triton");
        c.notes.push_back("attention kernel " + *k);
    }
    // Without flash attention, the scores' scale, masks and softmax: the planner's default (unfused, what
    // a Hugging Face model's eager attention runs) unless the case or a fact about its source names
    // Megatron's fused kernel (scenario.h AttentionSoftmax).
    if (auto v = optional_enum_field<AttentionSoftmax>(r, "attention_softmax")) t.attention_softmax = *v;
    else if (!t.flash_attention) c.assumed.push_back(std::string("attention_softmax = ") + to_string(t.attention_softmax));
    // Where the logits' weight is read: a Hugging Face lm_head module unless the case or a fact about
    // its source names Megatron's GPT (scenario.h LmHead; ZeRO-3 gathers the two differently).
    if (auto v = optional_enum_field<LmHead>(r, "lm_head")) t.lm_head = *v;
    // The transformers release the run used, where the case states it: the load, the re-entrant
    // recompute and the model's own loss as that release behaves (core/model/transformers_release.h;
    // before 4.46 the loss was computed in the model's forward on a shifted copy of its logits, up-cast
    // where the family's forward did: logits.h forward_upcasts_logits).
    const std::optional<std::string> named_release = r.optional_text("transformers");
    if (named_release) {
        const std::optional<TransformersRelease> release = parse_transformers_release(*named_release);
        if (!release) r.fail("transformers", "'" + *named_release + "' is not a release such as 4.31.0");
        apply_transformers_release(t, *release);
    }
    // DeepSpeed's activation_checkpointing block (runtime/activation_checkpointing/config.py): the
    // checkpoints in host memory, and split over the tensor-parallel ranks.
    if (auto f = r.optional_bool("cpu_checkpointing")) t.cpu_checkpointing = *f;
    if (auto f = r.optional_bool("partition_activations")) t.partition_activations = *f;
    // Where the micro batches' gradients are summed: DeepSpeed's engine (autograd, the default) unless
    // the case names Megatron-LM's main_grad hook or its fused accumulation.
    if (auto v = optional_enum_field<GradientAccumulation>(r, "gradient_accumulation")) t.gradient_accumulation = *v;
    if (auto v = optional_enum_field<LossKernel>(r, "loss_kernel")) t.loss_kernel = *v;
    if (named_release && t.loss_kernel == LossKernel::Shifted)
        c.notes.push_back("loss: transformers " + *named_release + " (before 4.46): the model returns " +
                          (loss_upcasts(s.model, t) ? "up-cast logits" : "its 16-bit logits") + " and shifts a copy");
    if (auto f = r.optional_bool("use_cache")) t.kv_cache_in_training = *f;
    if (auto f = r.optional_bool("keeps_outputs")) t.outputs_kept = *f;
    // The cross-entropy metrics the loop computes over each micro batch's logits (Composer's train metrics).
    if (auto n = r.optional_integer("logit_metrics", 0)) t.logit_metrics = *n;
}

// Every field `validate` reads, at the top of a case and inside its objects. A field outside these
// lists is refused by name: a run scored without a setting it states (a context_parallel, an
// expert count) would be scored as a run it was not, and its row would be a wrong accuracy figure.
// clang-format off
constexpr std::array<std::string_view, 52> kCaseFields{
    "id", "source", "quote", "kind", "assumptions", "engine", "fsdp_sync_each_batch", "fsdp_checkpoint_early_stop", "attention_kernel", "loss_kernel", "model", "gpus", "gpus_per_node", "gpu", "nodes",
    "inter_node_gbits_per_s", "nics_per_node", "stage", "offload_optimizer", "offload_param", "pin_memory", "deepspeed_version",
    "tensor_parallel", "pipeline_parallel", "virtual_stages", "sequence_parallel", "pipeline_send", "reduce_bucket_size",
    "stage3_max_live_parameters", "stage3_prefetch_bucket_size", "stage3_param_persistence_threshold",
    "overlap_comm", "precision", "optimizer", "micro_batch", "grad_accum", "seq", "checkpointing",
    "flash_attention", "attention_softmax", "lm_head", "cpu_checkpointing", "partition_activations", "lora", "measured", "transformers", "use_cache",
    "keeps_outputs", "logit_metrics", "gradient_accumulation", "tile_factor", "gather_16bit_weights_on_model_save"};
constexpr std::array<std::string_view, 8> kModelFields{"name", "params", "layers", "hidden", "heads", "kv_heads", "ffn", "vocab"};
constexpr std::array<std::string_view, 2> kGpuFields{"type", "memory_gib"};
constexpr std::array<std::string_view, 3> kMeasuredFields{"value", "unit", "what"};
// clang-format on

template <std::size_t N>
void refuse_unknown_fields(const nlohmann::json& j, const std::array<std::string_view, N>& known, const std::string& where) {
    if (!j.is_object()) return;  // the field's own reader says what it must be
    for (const auto& [key, value] : j.items()) {
        if (std::find(known.begin(), known.end(), key) != known.end()) continue;
        std::string list;
        for (std::string_view k : known) list += (list.empty() ? "" : ", ") + std::string(k);
        throw InputError(where + ": unknown field '" + key + "' (validate reads " + list +
                         "); a run scored without a setting it states would be a wrong accuracy figure");
    }
}

void refuse_unknown_case_fields(const nlohmann::json& j, const std::string& where) {
    refuse_unknown_fields(j, kCaseFields, where);
    if (auto it = j.find("model"); it != j.end()) refuse_unknown_fields(*it, kModelFields, where + ": model");
    if (auto it = j.find("gpu"); it != j.end()) refuse_unknown_fields(*it, kGpuFields, where + ": gpu");
    if (auto it = j.find("measured"); it != j.end()) refuse_unknown_fields(*it, kMeasuredFields, where + ": measured");
}

// The training engine a case ran under: "deepspeed" (also when absent), or PyTorch FSDP ("fsdp",
// "fsdp2"), whose memory the planner models apart (core/memory/fsdp_memory.h); any other name is
// refused, never scored as something it was not.
FsdpSetup engine_from_case(const CaseReader& r) {
    FsdpSetup f;
    const std::string engine = r.optional_text("engine").value_or("deepspeed");
    try {
        f.engine = parse_engine(engine);
    } catch (const InputError&) {
        r.fail("engine", "'" + engine + "' is none of deepspeed, fsdp, fsdp2");
    }
    return f;
}

// FSDP's dtypes from a case's precision text (core/model/engine.h): "pure" is a model loaded in the
// training dtype; the Hugging Face Trainer and Accelerate, or a named MixedPrecision policy, keep an
// fp32 model with param_dtype the training dtype; "AMP"/"autocast" alone is an fp32 model under
// torch.autocast with no policy. Unnamed: the Trainer's and Accelerate's MixedPrecision.
FsdpPrecision fsdp_precision_from_text(const std::string& t) {
    const std::string l = lower(t);
    if (contains(l, "pure")) return FsdpPrecision::Pure;
    if (contains(l, "mixedprecision") || contains(l, "mixed") || contains(l, "trainer") || contains(l, "accelerate"))
        return FsdpPrecision::Mixed;
    if (contains(l, "amp") || contains(l, "autocast")) return FsdpPrecision::Autocast;
    return FsdpPrecision::Mixed;
}

MeasuredCase case_from_json(const nlohmann::json& j, std::size_t index, const std::string& source_name) {
    if (!j.is_object()) throw InputError(source_name + ": cases[" + std::to_string(index) + "] must be an object");
    MeasuredCase c;
    {
        auto it = j.find("id");
        if (it == j.end() || (it->is_string() && it->get<std::string>().empty()))
            throw InputError(source_name + ": cases[" + std::to_string(index) + "]: id is missing");
        if (!it->is_string())
            throw InputError(source_name + ": cases[" + std::to_string(index) + "]: id must be text (a short name of the run), got " +
                             it->dump());
        c.id = it->get<std::string>();
    }
    refuse_unknown_case_fields(j, source_name + ": case " + c.id);
    const CaseReader r(j, source_name + ": case " + c.id);
    c.source = r.optional_text("source").value_or("");
    const std::string kind = r.text("kind");
    if (kind != "peak_memory" && kind != "fits_or_oom" && kind != "throughput" && kind != "host_ram")
        r.fail("kind", "'" + kind + "' is none of peak_memory, fits_or_oom, throughput, host_ram");
    const FsdpSetup fsdp = engine_from_case(r);
    c.not_representable = not_representable_reason(r.optional_text("lora"), r.optional_text("assumptions").value_or(""));
    if (contains(lower(r.optional_text("assumptions").value_or("")), "torchtracemalloc")) {
        c.host_training_window = true;
        if (kind == "host_ram")
            c.notes.push_back("host RAM sampled around the training loop (TorchTracemalloc): the training phase is compared");
    }

    Scenario s = default_scenario();
    // A case that names no transformers release ("transformers") reads as 4.46 to 4.50: every bundled
    // run predates 4.51 and 5.0, so from_pretrained loaded fp32 unless told otherwise, with the model
    // plus a checkpoint shard on the host unless low_cpu_mem_usage was set, and the Trainer recomputed
    // re-entrantly (as DeepSpeed's and Megatron's own checkpointing do); the model's own loss is
    // 4.46's, which a run on an older release says (transformers_release.h).
    apply_transformers_release(s.training, kUnnamedTransformersRelease);
    s.model = model_from_dims(r, c);
    const std::int64_t gpus = r.integer("gpus", 1);
    s.cluster = cluster_from_case(r, gpus, c);

    const auto stage = r.integer("stage", 0);
    if (stage > 3) r.fail("stage", "must be 0, 1, 2 or 3");
    s.zero.stage = static_cast<int>(stage);
    s.zero.offload_optimizer = enum_field<OffloadDevice>(r, "offload_optimizer", OffloadDevice::None, c);
    s.zero.offload_param = enum_field<OffloadDevice>(r, "offload_param", OffloadDevice::None, c);
    s.parallel = parallelism_from_case(r);
    if (s.parallel.model_parallel() > 1)
        c.notes.push_back("Megatron: tensor " + std::to_string(s.parallel.tensor) + " x pipeline " + std::to_string(s.parallel.pipeline) +
                          " x data " + std::to_string(gpus / s.parallel.model_parallel()) +
                          (s.parallel.virtual_stages > 1 ? ", interleaved " + std::to_string(s.parallel.virtual_stages) + " chunks" : "") +
                          (s.parallel.sequence_parallel ? ", sequence parallel" : ""));
    zero_knobs_from_case(r, kind, s.zero, c);
    s.fsdp = fsdp;
    training_from_case(r, kind, s, c);
    // Low-precision master weights named in the precision or optimizer text (the bf16_master_weight
    // README's "BF16 low-precision (master + opt states)"): DeepSpeed's two bf16 keys, where the
    // planner models them (ZeroSetup::bf16_master_weights: bf16 at ZeRO 1-3 on the GPU);
    // elsewhere the case is not representable rather than scored as fp32 master weights.
    if (names_low_precision_master(r.optional_text("precision").value_or("") + " | " + r.optional_text("optimizer").value_or(""))) {
        s.zero.bf16_master_weights = true;
        if (const std::string refusal = master_weights_refusal(s); refusal.empty()) {
            c.notes.push_back("bf16 master weights, gradients and optimizer states (bf16_master_weights_and_grads, bf16_optimizer_states)");
        } else {
            s.zero.bf16_master_weights = false;
            if (c.not_representable.empty()) c.not_representable = "16-bit master weights: " + refusal;
        }
    }
    if (is_fsdp(s.fsdp)) {
        // FSDP's own defaults where DeepSpeed's were set above: no ZeRO++ or MiCS, torch.optim's AdamW.
        if (auto p = r.optional_text("precision")) s.fsdp.precision = fsdp_precision_from_text(*p);
        // Whether gradients are reduce-scattered every micro step (FsdpSetup::sync_each_batch):
        // Composer, for one, never enters no_sync under FSDP.
        if (auto v = r.optional_bool("fsdp_sync_each_batch")) s.fsdp.sync_each_batch = *v;
        // Whether its full recompute stops at a block's last saved tensor (FsdpSetup::checkpoint_early_stop).
        if (auto v = r.optional_bool("fsdp_checkpoint_early_stop")) s.fsdp.checkpoint_early_stop = *v;
        c.notes.push_back(std::string("engine ") + to_string(s.fsdp.engine) + ", FSDP precision " + to_string(s.fsdp.precision));
    } else {
        for (const char* field : {"fsdp_sync_each_batch", "fsdp_checkpoint_early_stop"})
            if (r.find(field)) r.fail(field, "is PyTorch FSDP's: the case's engine is DeepSpeed");
    }

    // pin_memory of the offload blocks: a case that does not state it ran with DeepSpeed's default
    // of its day, false up to v0.19.4 (zero/offload_config.py; true since v0.19.5, 2026-08), which
    // every bundled case predates. It decides whether the offloaded buffers are pinned, and so
    // rounded up to a power of two (core/memory/host_memory.cpp). DeepSpeed's key only: FSDP's
    // CPUOffload pins its host shards whatever it says (_flat_param.py init_flat_param_attributes).
    if (auto p = r.optional_bool("pin_memory")) s.zero.pin_memory = *p;
    else if (is_fsdp(s.fsdp)) s.zero.pin_memory = true;
    else {
        s.zero.pin_memory = false;
        if (s.zero.offload_optimizer != OffloadDevice::None || s.zero.offload_param != OffloadDevice::None)
            c.assumed.push_back("pin_memory = false (DeepSpeed's default before v0.19.5)");
    }

    // The DeepSpeed release the run used, where the case states it ("0.3"; "0.12" reads as
    // 0.12.0): the ZeroSetup fields that follow the release (core/model/deepspeed_release.h).
    // Absent: today's DeepSpeed.
    if (auto v = r.optional_text("deepspeed_version")) {
        const std::optional<DeepSpeedRelease> release = parse_deepspeed_release(*v);
        if (!release) r.fail("deepspeed_version", "must be a release like \"0.3\" or \"0.14.2\", got \"" + *v + "\"");
        apply_deepspeed_release(s.zero, *release);
        s.deepspeed_release = release_text(*release);  // what reads the release itself (release_has), as --deepspeed-release sets it
    }

    c.measurement = measurement_from_case(r, kind, s.training.micro_batch, c);
    // A well-formed case the planner refuses (fp32 with CPU Adam, ...) is reported, not an error.
    try {
        validate(s);
    } catch (const InputError& e) {
        if (c.not_representable.empty()) c.not_representable = std::string("the planner refuses the configuration: ") + e.what();
    }
    c.scenario = s;
    return c;
}

// One entry of the facts file, read and checked.
struct FactEntry {
    std::string where;  // "measured_runs_facts.json: corrections[2]"
    bool correction = false;
    std::vector<std::string> ids, sources;
    const nlohmann::json* fields = nullptr;
    const nlohmann::json* was = nullptr;
    std::string source, why;
};

std::vector<std::string> text_list(const nlohmann::json& fact, const char* key, const std::string& where) {
    std::vector<std::string> out;
    if (!fact.contains(key)) return out;
    if (!fact[key].is_array() || fact[key].empty()) throw InputError(where + ": '" + key + "' must be a non-empty array of text");
    for (const nlohmann::json& v : fact[key]) {
        if (!v.is_string() || v.get<std::string>().empty()) throw InputError(where + ": '" + key + "' must hold non-empty text");
        out.push_back(v.get<std::string>());
    }
    return out;
}

std::vector<FactEntry> fact_entries(const nlohmann::json& f, const std::string& name) {
    if (!f.is_object() || !f.contains("facts") || !f["facts"].is_array())
        throw InputError(name + ": expected an object with a 'facts' array");
    std::vector<FactEntry> out;
    for (const char* list : {"facts", "corrections"}) {
        if (!f.contains(list)) continue;
        if (!f[list].is_array()) throw InputError(name + ": '" + list + "' must be an array");
        for (std::size_t i = 0; i < f[list].size(); ++i) {
            const nlohmann::json& fact = f[list][i];
            FactEntry e;
            e.where = name + ": " + list + "[" + std::to_string(i) + "]";
            e.correction = std::string_view(list) == "corrections";
            if (!fact.is_object() || !fact.contains("fields") || !fact["fields"].is_object() || fact["fields"].empty() ||
                !fact.contains("source") || !fact["source"].is_string() || fact.contains("ids") == fact.contains("sources"))
                throw InputError(
                    e.where + ": needs 'ids' or 'sources' (an array, one of the two), 'fields' (a non-empty object) and 'source' (text)");
            if (e.correction && (!fact.contains("was") || !fact["was"].is_object() || !fact.contains("why") || !fact["why"].is_string()))
                throw InputError(e.where + ": a correction needs 'was' (the file's values it replaces) and 'why'");
            e.ids = text_list(fact, "ids", e.where);
            e.sources = text_list(fact, "sources", e.where);
            e.fields = &fact["fields"];
            e.was = e.correction ? &fact["was"] : nullptr;
            e.source = fact["source"].get<std::string>();
            if (e.correction) e.why = fact["why"].get<std::string>();
            out.push_back(std::move(e));
        }
    }
    return out;
}

// Applies `facts` (see SourceFacts) to the cases; returns, per case id, the lines that say what
// was filled or corrected and from where.
std::map<std::string, std::vector<std::string>> apply_source_facts(nlohmann::json& doc, const SourceFacts& facts) {
    const nlohmann::json f = parse_json_text(facts.json_text, facts.source_name);
    const auto shown = [](const nlohmann::json& v) {
        const nlohmann::json& s = v.is_object() && v.contains("type") ? v["type"] : v;
        return s.is_string() ? s.get<std::string>() : s.dump();
    };
    std::map<std::string, std::vector<std::string>> applied;
    for (const FactEntry& e : fact_entries(f, facts.source_name)) {
        const bool by_source = !e.sources.empty();
        if (facts.by_source_only && !by_source) continue;
        for (nlohmann::json& target : doc["cases"]) {
            if (!target.is_object()) continue;
            // A case whose id is not text matches no fact; case_from_json names the mistake.
            const std::string case_id = target.contains("id") && target["id"].is_string() ? target["id"].get<std::string>() : "";
            const std::string case_source =
                target.contains("source") && target["source"].is_string() ? target["source"].get<std::string>() : "";
            const bool named = by_source ? std::any_of(e.sources.begin(), e.sources.end(),
                                                       [&](const std::string& src) { return case_source.find(src) != std::string::npos; })
                                         : std::find(e.ids.begin(), e.ids.end(), case_id) != e.ids.end();
            if (!named) continue;
            std::string what;
            for (const auto& [key, value] : e.fields->items()) {
                auto it = target.find(key);
                const bool stated = it != target.end() && !it->is_null();
                const bool as_was = stated && e.was && e.was->contains(key) && *it == (*e.was)[key];
                if (by_source && (e.correction ? !as_was : stated)) continue;  // the case says otherwise: it stands
                if (!e.correction && stated)
                    throw InputError(e.where + ": case " + case_id + " states " + key + " itself; a fact only fills a missing value");
                if (e.correction && !as_was)
                    throw InputError(e.where + ": case " + case_id + "'s " + key + " is not the value the correction replaces ('was')");
                what += (what.empty() ? "" : ", ") + key + " = " + shown(value) +
                        (e.correction ? " (the file says " + shown((*e.was)[key]) + ")" : "");
                target[key] = value;
            }
            if (!what.empty()) applied[case_id].push_back(what + ": " + e.source + (e.correction ? "; " + e.why : ""));
        }
    }
    return applied;
}

}  // namespace

std::vector<MeasuredCase> parse_measured_runs(std::string_view json_text, const std::string& source_name, const SourceFacts* facts) {
    nlohmann::json doc = parse_json_text(json_text, source_name);
    if (!doc.is_object() || !doc.contains("cases") || !doc["cases"].is_array())
        throw InputError(source_name + ": expected an object with a 'cases' array");
    const auto applied = facts ? apply_source_facts(doc, *facts) : std::map<std::string, std::vector<std::string>>{};
    std::vector<MeasuredCase> cases;
    cases.reserve(doc["cases"].size());
    for (std::size_t i = 0; i < doc["cases"].size(); ++i) {
        try {
            cases.push_back(case_from_json(doc["cases"][i], i, source_name));
        } catch (const UnreadableNumber& e) {  // raised after the case's id was read and checked
            throw InputError(source_name + ": case " + doc["cases"][i]["id"].get<std::string>() + ": " + e.what());
        }
        if (auto it = applied.find(cases.back().id); it != applied.end()) cases.back().from_source = it->second;
        for (std::size_t k = 0; k + 1 < cases.size(); ++k)
            if (cases[k].id == cases.back().id) throw InputError(source_name + ": case " + cases.back().id + ": id appears twice");
    }
    if (cases.empty()) throw InputError(source_name + ": 'cases' is empty");
    return cases;
}

}  // namespace zp::validation
