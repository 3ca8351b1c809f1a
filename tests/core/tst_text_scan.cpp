// The measured-run files' free-text readers (core/validation/measured_runs.cpp, written with
// core/validation/text_scan.h) against the ECMAScript regular expressions they replaced, on texts
// made of the words those expressions look for: the same result, or the same exception, for each.
#include "core/validation/measured_runs.h"
#include "core/validation/text_scan.h"

#include <cctype>
#include <random>
#include <regex>
#include <sstream>

#include "test_main.h"
#include "test_util.h"

using namespace zp;
using namespace zp::validation;

namespace {

std::string lowered(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// What a reader gives, or "throws" (std::stoll / std::stod on what it read).
template <class Read>
std::string outcome(Read read) {
    try {
        return read();
    } catch (const std::exception&) {
        return "throws";
    }
}

// A reader's result as compared.
std::string parallelism_text(const Parallelism& p) { return std::to_string(p.tensor) + "/" + std::to_string(p.pipeline); }
std::string zeropp_text(const std::optional<ZeroPlusPlus>& z) {
    if (!z) return "none";
    return std::to_string(z->hpz_partition_size) + "/" + std::to_string(z->quantized_weights) + std::to_string(z->quantized_gradients);
}

// The expressions measured_runs.cpp used until text_scan.h, and what it did with their captures.
std::string parallelism_by_regex(const std::string& text) {
    static const std::regex tp(R"((?:\btp\s*=\s*|tensor-model-parallel-size[\s=]+|tensor_parallel_size[\s=:]+)(\d+))");
    static const std::regex pp(R"((?:\bpp\s*=\s*|pipeline-model-parallel-size[\s=]+|pipeline_parallel_size[\s=:]+)(\d+))");
    const std::string a = lowered(text);
    Parallelism out;
    std::smatch m;
    if (std::regex_search(a, m, tp)) out.tensor = std::max<std::int64_t>(1, std::stoll(m[1].str()));
    if (std::regex_search(a, m, pp)) out.pipeline = std::max<std::int64_t>(1, std::stoll(m[1].str()));
    return parallelism_text(out);
}
std::string zeropp_by_regex(const std::string& text) {
    static const std::regex hpz(R"((?:zero_hpz_partition_size|hpz)\s*[=:]?\s*(\d+))"), qwz(R"(\bqwz\b)"), qgz(R"(\bqgz\b)");
    const std::string a = lowered(text);
    ZeroPlusPlus z;
    std::smatch m;
    if (std::regex_search(a, m, hpz)) z.hpz_partition_size = std::max<std::int64_t>(1, std::stoll(m[1].str()));
    z.quantized_weights = a.find("zero_quantized_weights true") != std::string::npos || std::regex_search(a, qwz);
    z.quantized_gradients = a.find("zero_quantized_gradients true") != std::string::npos || std::regex_search(a, qgz);
    return zeropp_text(z.any() ? std::optional(z) : std::nullopt);
}
bool low_master_by_regex(const std::string& text) {
    static const std::regex low_master(R"((bf16|fp16|16-bit|low[- ]precision)(?:(?!fp32)[^,;|]){0,20}master)");
    const std::string po = lowered(text);
    return po.find("master_weights_and_grads") != std::string::npos || po.find("bf16_optimizer_states") != std::string::npos ||
           std::regex_search(po, low_master);
}
std::string finetune_text(const std::optional<FineTune>& f) {
    if (!f) return "none";
    std::ostringstream out;
    out << int(f->method) << " r" << f->lora_rank << " a" << f->lora_alpha << " d" << f->lora_dropout << " t" << int(f->targets) << " ["
        << f->target_modules << "]";
    return out.str();
}
std::string finetune_by_regex(const std::string& text) {
    static const std::regex rank(R"(\br\s*=\s*(\d+))"), alpha(R"(alpha\s*=?\s*([\d.]+))"), dropout(R"(dropout\s*=?\s*([\d.]+))");
    static const std::regex list(R"(\(([a-z0-9_,\s]+)\))");
    const std::string l = lowered(text);
    const auto has = [&](const char* s) { return l.find(s) != std::string::npos; };
    FineTune f;
    f.method = has("qlora") ? FineTuneMethod::Qlora : FineTuneMethod::Lora;
    std::smatch m;
    if (!std::regex_search(l, m, rank)) return finetune_text(std::nullopt);
    f.lora_rank = std::stoll(m[1].str());
    if (std::regex_search(l, m, alpha)) f.lora_alpha = std::stod(m[1].str());
    if (std::regex_search(l, m, dropout)) f.lora_dropout = std::stod(m[1].str());
    if (has("all-linear") || has("all linear")) f.targets = LoraTargets::AllLinear;
    else if (has("default")) f.targets = LoraTargets::Default;
    else if (std::regex_search(l, m, list)) {
        f.targets = LoraTargets::Modules;
        f.target_modules = m[1].str();
    }
    return finetune_text(f);
}
// One clause with no ';' and no leading "DDP ", trimmed and lower-cased as parse_fit_text does.
std::string fit_by_regex(const std::string& text, std::int64_t micro_batch) {
    static const std::regex fits_at(R"(^fits at micro_batch (\d+))"), max_fitting(R"(^max fitting micro_batch (\d+))"),
        oom_at(R"(^oom at (?:micro_batch )?(\d+))");
    const auto b = text.find_first_not_of(" \t");
    if (b == std::string::npos) return "";
    const std::string clause = lowered(text.substr(b, text.find_last_not_of(" \t") - b + 1));
    std::smatch m;
    if (std::regex_search(clause, m, fits_at) || std::regex_search(clause, m, max_fitting)) return m[1].str() + ":fits ";
    if (std::regex_search(clause, m, oom_at)) return m[1].str() + ":oom ";
    if (clause == "fits" || clause == "oom") return std::to_string(micro_batch) + ":" + clause + " ";
    return "unchecked";
}
std::string fit_text(const std::string& text, std::int64_t micro_batch) {
    std::vector<std::string> unchecked;
    std::string out;
    for (const FitCheck& c : parse_fit_text(text, micro_batch, &unchecked))
        out += std::to_string(c.micro_batch) + (c.fits ? ":fits " : ":oom ");
    return unchecked.empty() ? out : "unchecked";
}

// Texts of 1 to 9 pieces drawn from `pieces`, the same on every run.
std::vector<std::string> generated_texts(const std::vector<std::string>& pieces, int count, unsigned seed) {
    std::mt19937 random(seed);
    std::vector<std::string> texts;
    for (int i = 0; i < count; ++i) {
        std::string text;
        for (int n = 1 + int(random() % 9); n > 0; --n) text += pieces[random() % pieces.size()];
        texts.push_back(text);
    }
    return texts;
}

}  // namespace

// The reader's and the regular expression's outcome on `text` are the same (the message shows both).
#define ZP_COMPARE_READERS(what, text, mine, by_regex)                                                                             \
    do {                                                                                                                           \
        const std::string zp_mine = outcome(mine), zp_theirs = outcome(by_regex);                                                  \
        ZP_VERIFY2(zp_mine == zp_theirs,                                                                                           \
                   (std::string(what) + " of '" + (text) + "': " + zp_mine + ", by the regular expression " + zp_theirs).c_str()); \
    } while (false)

class TestTextScan : public QObject {
    Q_OBJECT
private slots:
    void classes_are_ecmascripts() {
        const std::regex word(R"(\w)"), space(R"(\s)"), digit(R"(\d)");
        for (int c = 0; c < 256; ++c) {
            const std::string one(1, char(c));
            QCOMPARE(word_char(char(c)), std::regex_match(one, word));
            QCOMPARE(space_char(char(c)), std::regex_match(one, space));
            QCOMPARE(digit_char(char(c)), std::regex_match(one, digit));
        }
    }
    void parallelism_and_zeropp() {
        const std::vector<std::string> pieces{"tp",
                                              "TP",
                                              "pp",
                                              "=",
                                              " ",
                                              "\t",
                                              ":",
                                              "-",
                                              "_",
                                              "x",
                                              ",",
                                              "4",
                                              "12",
                                              "0",
                                              "tensor-model-parallel-size",
                                              "tensor_parallel_size",
                                              "pipeline-model-parallel-size",
                                              "pipeline_parallel_size",
                                              "hpz",
                                              "hpZ",
                                              "zero_hpz_partition_size",
                                              "qwz",
                                              "qgZ",
                                              "zero_quantized_weights true",
                                              "zero_quantized_gradients true",
                                              "\xc3\xa9"};
        for (const std::string& text : generated_texts(pieces, 4000, 20261201)) {
            ZP_COMPARE_READERS(
                "parallelism", text, [&] { return parallelism_text(parallelism_from_text(text)); },
                [&] { return parallelism_by_regex(text); });
            ZP_COMPARE_READERS(
                "ZeRO++", text, [&] { return zeropp_text(zeropp_from_text(text)); }, [&] { return zeropp_by_regex(text); });
        }
    }
    void low_precision_master() {
        const std::vector<std::string> pieces{"bf16",
                                              "fp16",
                                              "16-bit",
                                              "low-precision",
                                              "low precision",
                                              "low_precision",
                                              "fp32",
                                              "fp3",
                                              "master",
                                              "mast",
                                              " ",
                                              ",",
                                              ";",
                                              "|",
                                              "a",
                                              "weights ",
                                              "0123456789",
                                              "BF16",
                                              "master_weights_and_grads",
                                              "bf16_optimizer_states"};
        std::vector<std::string> texts = generated_texts(pieces, 4000, 20261202);
        // And every gap of 0 to 23 characters before "master", with "fp32", "fp3", "," or "|" at each place.
        for (int gap = 0; gap <= 23; ++gap) {
            texts.push_back("bf16" + std::string(gap, 'x') + "master");
            for (int at = 0; at < gap; ++at)
                for (const char* inside : {"fp32", "fp3", ",", "|"})
                    texts.push_back("low precision" + std::string(at, 'x') + inside + std::string(gap - at, 'x') + "master");
        }
        for (const std::string& text : texts)
            ZP_COMPARE_READERS(
                "low-precision master", text, [&] { return std::to_string(names_low_precision_master(text)); },
                [&] { return std::to_string(low_master_by_regex(text)); });
    }
    void lora_settings() {
        const std::vector<std::string> pieces{"r",     "R",       "=",          " ",          "\t",     "8", "16", ".",   "0.1",
                                              "alpha", "dropout", ",",          "lora ",      "QLoRA ", "(", ")",  "q,v", "q_proj",
                                              "Q",     "default", "all-linear", "all linear", "x",      "_", "-"};
        for (const std::string& text : generated_texts(pieces, 4000, 20261203))
            ZP_COMPARE_READERS(
                "LoRA settings", text, [&] { return finetune_text(finetune_from_text(text)); }, [&] { return finetune_by_regex(text); });
    }
    void fit_clauses() {
        const std::vector<std::string> pieces{"fits at micro_batch ",
                                              "max fitting micro_batch ",
                                              "oom at ",
                                              "OOM AT ",
                                              "micro_batch ",
                                              "fits",
                                              "oom",
                                              "FITS",
                                              "4",
                                              "30",
                                              " ",
                                              "\t",
                                              "x",
                                              "at",
                                              "(zero-3)"};
        for (const std::string& text : generated_texts(pieces, 4000, 20261204))
            ZP_COMPARE_READERS(
                "fit clause", text, [&] { return fit_text(text, 7); }, [&] { return fit_by_regex(text, 7); });
    }
};

ZP_TEST_APPLESS_MAIN(TestTextScan)
#include "tst_text_scan.moc"
