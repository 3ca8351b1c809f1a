#include "core/diagnose/log_setup.h"

#include "core/base/errors.h"
#include "core/base/format.h"
#include "core/base/json_errors.h"
#include "core/base/units.h"
#include "core/deepspeed/config_import.h"
#include "core/diagnose/oom_diagnosis.h"
#include "core/io/hf_config.h"
#include "core/model/enum_names.h"
#include "core/model/trainable_params.h"
#include "core/presets/default_scenario.h"
#include "core/presets/gpu_presets.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <regex>
#include <utility>

namespace zp {

namespace {

// DeepSpeed's launcher echoes a failed rank's command as a Python list (launcher/launch.py
// sigkill_handler: "['/usr/bin/python', '-u', 'train.py', '--local_rank=0', '--cutoff_len', '512']
// exits with return code = 1"): its items joined by spaces on a line of their own, as the command
// line was typed, or "" when the log has no such echo. An item with a space is skipped with the flag
// before it; one Python writes in double quotes (it holds an apostrophe) ends the reading.
std::string launcher_command_line(std::string_view text) {
    const std::size_t at = text.find("sigkill_handler] ['");
    if (at == std::string_view::npos) return {};
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string out = "\n";
    std::size_t i = at + std::strlen("sigkill_handler] [");
    while (i < end && text[i] == '\'') {
        const std::size_t close = text.find('\'', i + 1);
        if (close == std::string_view::npos || close > end) break;
        const std::string_view item = text.substr(i + 1, close - i - 1);
        if (item.find(' ') == std::string_view::npos) {
            out.append(item).push_back(' ');
        } else if (const std::size_t flag = out.rfind(" --"); flag != std::string::npos && out.find(' ', flag + 1) + 1 == out.size()) {
            out.erase(flag + 1);  // a value with a space is skipped with its flag, not left to the next flag
        }
        i = close + 1;
        if (text.compare(i, 2, ", ") != 0) break;
        i += 2;
    }
    out.push_back('\n');
    return out;
}

// The log's lines without their rank prefixes (several ranks print the same start-up; srun's task
// labels would break a config dump's JSON), as the reader strips them. A linear scan (a regex over
// a 10 MB log took seconds).
std::string without_rank_prefixes(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string line(text.substr(start, end - start));
        strip_rank_prefix(line);  // the reader's own (core/io/oom_log.h)
        out += line;
        if (end < text.size()) out.push_back('\n');
        start = end + 1;
    }
    return out;
}

// The balanced {...} block that starts at the first '{' at or after `from`, or "".
std::string brace_block(const std::string& text, std::size_t from) {
    const std::size_t open = text.find('{', from);
    if (open == std::string::npos) return {};
    int depth = 0;
    bool in_string = false;
    for (std::size_t i = open; i < text.size(); ++i) {
        const char c = text[i];
        if (in_string) {
            if (c == '\\') ++i;
            else if (c == '"') in_string = false;
            continue;
        }
        if (c == '"') in_string = true;
        else if (c == '{') ++depth;
        else if (c == '}' && --depth == 0) return text.substr(open, i - open + 1);
    }
    return {};
}

// The first match of `pattern` in `text`, searched only on the lines that hold `keyword` (a literal
// every match contains; no pattern spans lines): linear in the log, where a regex over the whole
// text took seconds on a 10 MB log. The pattern is compiled once.
std::optional<std::string> first_match(const std::string& text, const char* keyword, const char* pattern) {
    thread_local std::map<const char*, std::regex> compiled;
    auto it = compiled.find(pattern);
    if (it == compiled.end()) it = compiled.emplace(pattern, std::regex(pattern)).first;
    for (std::size_t at = text.find(keyword); at != std::string::npos;) {
        const std::size_t line_start = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
        const std::size_t line_end = std::min(text.find('\n', at), text.size());
        const std::string line = text.substr(line_start, line_end - line_start);
        std::smatch m;
        if (std::regex_search(line, m, it->second)) return m[1].str();
        at = line_end < text.size() ? text.find(keyword, line_end) : std::string::npos;
    }
    return std::nullopt;
}

// The preset whose memory is nearest the capacity PyTorch reports (79.32 GiB: an 80 GB card; it
// reports what the driver exposes, a little under the datasheet's), with that capacity.
GpuSpec gpu_of_capacity(double total_bytes, std::string* label) {
    const double gib = total_bytes / kBytesPerGiB;
    const GpuSpec* best = nullptr;
    for (const GpuSpec& g : gpu_presets())
        if (!best || std::abs(g.memory_gib - gib) < std::abs(best->memory_gib - gib)) best = &g;
    *label = best->display_name + "'s throughput, " + format_fixed(gib, 2) + " GiB as the message says";
    return custom_gpu(*best, gib);
}

// "4,194,304" or "4194304" (15 digits at most: a count, and under kJsonSafeInteger) -> the count.
std::optional<std::int64_t> count_of(const std::string& digits) {
    std::string plain;
    for (char c : digits)
        if (c != ',') plain += c;
    if (plain.empty() || plain.size() > 15) return std::nullopt;
    return std::stoll(plain);
}

// The PEFT line as the run's fine-tuning method: LoRA, its rank and targets when a count matches,
// "all params" held against the model's.
void apply_peft_line(const std::string& text, LogSetup& out) {
    const auto counts = read_peft_trainable_line(text);
    if (!counts) return;
    Scenario& s = out.scenario;
    out.peft_trainable = counts->first;
    out.peft_all = counts->second;
    out.fields.insert("finetune");
    out.states_anything = true;
    const std::string printed = format_count(static_cast<double>(counts->first));
    if (auto lora = lora_of_trainable_count(s, counts->first)) {
        s = *lora;
        out.peft_notes.push_back("rank " + std::to_string(s.finetune.lora_rank) + ", " + to_string(s.finetune.targets) + ": " + printed +
                                 " trainable, as PEFT printed");
        out.read.push_back("LoRA " + out.peft_notes.back() + " (its trainable params line)");
    } else {
        s.finetune.method = FineTuneMethod::Lora;
        out.read.push_back("LoRA (PEFT's trainable params line: " + printed + " trainable)");
        out.peft_notes.push_back("no rank up to 1024 with PEFT's default, attention or all-linear targets gives the " + printed +
                                 " trainable PEFT printed: assumed rank " + std::to_string(s.finetune.lora_rank) + ", " +
                                 to_string(s.finetune.targets) + " (" + format_count(parameter_split(s).trainable) + " trainable)");
        out.assumed.push_back("LoRA " + out.peft_notes.back());
    }
    const double all = parameter_split(s).peft_all();
    const double gap = (static_cast<double>(counts->second) - all) / all;
    if (std::abs(gap) > 0.01) {
        out.peft_notes.push_back("all params " + format_count(static_cast<double>(counts->second)) + " is " +
                                 format_fixed(100.0 * std::abs(gap), 1) + "% " + (gap > 0 ? "more" : "fewer") + " than " + s.model.name +
                                 " with these adapters (" + format_count(all) + "): the model is not the one the log ran");
        out.assumed.push_back("model " + s.model.name + " (" + out.peft_notes.back() + ")");
    }
}

// Without the config dump, DeepSpeed's own line names the stage and the dtype (engine.py
// _configure_zero_optimizer: log_dist(f'Creating {model_dtype} ZeRO stage {zero_stage} optimizer'),
// "torch.bfloat16" since the dtype is printed, "fp16" before), and a traceback through ZeRO-3's
// files (zero/stage3.py, partition_parameters.py, parameter_offload.py) is stage 3.
void apply_zero_stage_lines(const std::string& text, LogSetup& out) {
    Scenario& s = out.scenario;
    static const char* kStage = R"(Creating (?:torch\.)?(?:float16|bfloat16|float32|fp16|bf16|fp32) ZeRO stage ([0-3]) optimizer)";
    static const char* kDtype = R"(Creating (?:torch\.)?(float16|bfloat16|float32|fp16|bf16|fp32) ZeRO stage [0-3] optimizer)";
    if (const auto stage = first_match(text, "ZeRO stage", kStage)) {
        const std::string dtype = first_match(text, "ZeRO stage", kDtype).value_or("");
        s.zero.stage = std::stoi(*stage);
        s.training.precision = dtype == "bfloat16" || dtype == "bf16"  ? Precision::Bf16
                               : dtype == "float32" || dtype == "fp32" ? Precision::Fp32
                                                                       : Precision::Fp16;
        out.read.push_back("ZeRO stage " + *stage + ", " + dtype + " (DeepSpeed's \"Creating ... ZeRO stage\" line)");
        out.fields.insert("zero");
        out.fields.insert("precision");
        out.states_anything = true;
    } else if (first_match(text, "zero", R"((zero[/\\](?:stage3|partition_parameters|parameter_offload)\.py))")) {
        s.zero.stage = 3;
        out.read.push_back("ZeRO stage 3 (the traceback runs through DeepSpeed's ZeRO-3 code)");
        out.fields.insert("zero");
        out.states_anything = true;
    } else if (first_match(text, "stage_1_and_2", R"((zero[/\\]stage_1_and_2\.py))") ||
               first_match(text, "DeepSpeedZeroOptimizer(", R"((DeepSpeedZeroOptimizer\())")) {
        // stage_1_and_2.py's DeepSpeedZeroOptimizer is ZeRO-1 and ZeRO-2's (engine.py
        // _configure_zero_optimizer; ZeRO-3's is DeepSpeedZeroOptimizer_Stage3): planned as 2.
        s.zero.stage = 2;
        s.zero.offload_param = OffloadDevice::None;  // read at stage 3 only
        out.read.push_back("ZeRO stage 1 or 2, planned as 2 (the traceback runs through stage_1_and_2.py's DeepSpeedZeroOptimizer)");
        out.fields.insert("zero");
        out.states_anything = true;
    }
}

// The data-parallel ranks a logged batch implies: the Trainer's "***** Running training *****"
// block (trainer.py: "Instantaneous batch size per device = M", "Total train batch size (w.
// parallel, distributed & accumulation) = N", "Gradient Accumulation steps = G") or DeepSpeed's
// config dump (its batch rule, runtime/config.py: train_batch_size = micro x accumulation x ranks):
// N / (M x G), with where it came from; nothing unless all three are there and divide.
std::optional<std::pair<std::int64_t, std::string>> ranks_of_batch(const std::string& text) {
    struct Form {
        const char *total_keyword, *total, *micro_keyword, *micro, *steps_keyword, *steps, *source;
    };
    static constexpr std::array<Form, 2> kForms{{
        {"Total train batch size", R"(Total train batch size \(w\. parallel, distributed & accumulation\) = ([0-9]{1,7}))",
         "Instantaneous batch size", R"(Instantaneous batch size per device = ([0-9]{1,7}))", "Gradient Accumulation steps",
         R"(Gradient Accumulation steps = ([0-9]{1,7}))",
         "the Trainer's total train batch size over the batch per device and accumulation steps"},
        {"\"train_batch_size\"", R"("train_batch_size": ([0-9]{1,7}))", "\"train_micro_batch_size_per_gpu\"",
         R"("train_micro_batch_size_per_gpu": ([0-9]{1,7}))", "\"gradient_accumulation_steps\"",
         R"("gradient_accumulation_steps": ([0-9]{1,7}))", "DeepSpeed's train_batch_size over micro batch and accumulation steps"},
    }};
    for (const Form& f : kForms) {
        const auto total = first_match(text, f.total_keyword, f.total);
        const auto micro = first_match(text, f.micro_keyword, f.micro);
        const auto steps = first_match(text, f.steps_keyword, f.steps);
        if (!total || !micro || !steps) continue;
        const std::int64_t n = std::stoll(*total), per_rank = std::stoll(*micro) * std::stoll(*steps);
        if (n > 0 && per_rank > 0 && n % per_rank == 0) return std::make_pair(n / per_rank, std::string(f.source));
    }
    return std::nullopt;
}

}  // namespace

std::optional<std::pair<std::int64_t, std::int64_t>> read_peft_trainable_line(std::string_view raw) {
    static const std::regex re(R"(^trainable params: ([0-9][0-9,]{0,24}) \|\| all params: ([0-9][0-9,]{0,24}) \|\| trainable%)");
    std::optional<std::pair<std::int64_t, std::int64_t>> last;  // the last one: a run that re-wraps its model prints it again
    for (std::size_t at = raw.find("trainable params: "); at != std::string_view::npos; at = raw.find("trainable params: ", at + 1)) {
        const std::string line(raw.substr(at, std::min<std::size_t>(raw.find('\n', at) - at, 512)));
        std::smatch m;
        if (!std::regex_search(line, m, re)) continue;
        const auto trainable = count_of(m[1].str()), all = count_of(m[2].str());
        if (trainable && all && *all > 0) last = std::make_pair(*trainable, *all);
    }
    return last;
}

std::optional<Scenario> lora_of_trainable_count(const Scenario& base, std::int64_t trainable) {
    std::vector<std::int64_t> ranks;
    for (std::int64_t r = 1; r <= 1024; r *= 2) ranks.push_back(r);
    for (std::int64_t r : {12, 24, 48, 96}) ranks.push_back(r);
    std::sort(ranks.begin(), ranks.end());
    Scenario s = base;
    s.finetune.method = FineTuneMethod::Lora;
    // PEFT's default targets first: rank 8 on q_proj and v_proj is rank 4 on all four attention
    // projections too (4,194,304 on Llama-2-7B), and the default is what a run that names none gets.
    for (LoraTargets t : {LoraTargets::Default, LoraTargets::Attention, LoraTargets::AllLinear})
        for (std::int64_t r : ranks) {
            s.finetune.lora_rank = r;
            s.finetune.targets = t;
            try {
                if (parameter_split(s).trainable == static_cast<double>(trainable)) return s;
            } catch (const InputError&) {
                // a target set this model does not have
            }
        }
    return std::nullopt;
}

LogSetup setup_from_log(std::string_view raw, const OomLog& oom, const std::string& source_name) {
    return setup_from_log(raw, oom, source_name, default_scenario());
}

namespace {
// What the traceback's frames show of the run, whatever the log set.
void apply_traceback_facts(const OomLog& oom, LogSetup& out) {
    Scenario& s = out.scenario;
    // A traceback through torch.optim's Adam kernels (torch_optimizer_frame) shows torch's
    // optimizer, whatever was set.
    if (const std::string f = torch_optimizer_frame(oom); !f.empty() && (s.training.fused_optimizer || !out.fields.count("optimizer"))) {
        s.training.fused_optimizer = false;
        out.read.push_back("torch.optim's optimizer (the traceback's " + f + ")");
        out.fields.insert("optimizer");
    }
    // One through the loop's metrics (Composer's _eval_train_metrics) shows the loop computes them
    // over the logits: at least the one that failed (Training::logit_metrics).
    if (oom.moment == OomMoment::InStep && oom.phase == StepPhase::Metrics && s.training.logit_metrics == 0) {
        s.training.logit_metrics = 1;
        out.read.push_back("a train metric over the logits (the traceback's " + oom.deciding_frame + ")");
    }
}
}  // namespace

LogSetup setup_from_log(std::string_view raw, const OomLog& oom, const std::string& source_name, const Scenario& base) {
    LogSetup out;
    Scenario& s = out.scenario;
    s = base;
    // The launcher's echo of the failed command is read as the command line it was.
    const std::string text = without_rank_prefixes(raw) + launcher_command_line(raw);

    if (const auto at = text.find("Model config "); at != std::string::npos) {
        const std::string block = brace_block(text, at);
        if (!block.empty()) {
            s.model = import_hf_config(block, source_name + " (Model config)");
            out.read.push_back("model " + s.model.name + " (the Transformers model config it prints)");
            out.fields.insert("model");
            out.states_anything = true;
        }
    }
    std::optional<std::int64_t> world;
    // Numbers are read to 7 digits (std::stoll never overflows). The launchers' command lines too:
    // deepspeed --num_gpus N / --include localhost:0,1,2 (launcher/runner.py), torchrun --nproc_per_node N.
    if (auto v = first_match(text, "world_size", R"(\bworld_size[=: ]+([0-9]{1,7}))")) world = std::stoll(*v);
    else if (auto w = first_match(text, "WORLD_SIZE=", R"(\bWORLD_SIZE=([0-9]{1,7}))")) world = std::stoll(*w);
    else if (auto n = first_match(text, "--n", R"(--(?:num_gpus|nproc_per_node|nproc-per-node)[= ]+([0-9]{1,7}))")) world = std::stoll(*n);
    else if (auto inc = first_match(text, "--include", R"(--include[= ]+localhost:([0-9]{1,4}(?:,[0-9]{1,4}){0,63}))"))
        world = static_cast<std::int64_t>(std::count(inc->begin(), inc->end(), ',')) + 1;
    std::string world_source = "world_size";
    if (!world)
        if (const auto ranks = ranks_of_batch(text)) {
            world = ranks->first;
            world_source = ranks->second;
        }
    if (world && *world > 0) {
        const std::int64_t per_node = std::min<std::int64_t>(*world, s.cluster.gpus_per_node);
        s.cluster.gpus_per_node = per_node;
        s.cluster.nodes = (*world + per_node - 1) / per_node;
        out.read.push_back(std::to_string(*world) + " GPUs (" + world_source + ")");
        out.fields.insert("gpus");
        out.states_anything = true;
    } else {
        out.assumed.push_back(std::to_string(s.cluster.world_size()) + " GPUs (not in the log: it states no world size)");
    }
    if (const auto& e = oom.events.front(); e.total_bytes) {
        std::string label;
        s.cluster.use_gpu(gpu_of_capacity(*e.total_bytes, &label));
        out.read.push_back("GPU: " + label);
        out.fields.insert("gpu");
    }
    if (const auto at = text.find("json = {"); at != std::string::npos) {
        const std::string block = brace_block(text, at);
        if (!block.empty()) {
            s = apply_ds_config(parse_json_text(block, source_name + " (DeepSpeed's config dump)"), s);
            out.read.push_back("ZeRO stage " + std::to_string(s.zero.stage) + ", offload and buckets (DeepSpeed's config dump)");
            out.fields.insert("zero");
            if (block.find("train_micro_batch_size_per_gpu") != std::string::npos) out.fields.insert("micro_batch");
            if (block.find("\"bf16\"") != std::string::npos || block.find("\"fp16\"") != std::string::npos) out.fields.insert("precision");
            if (block.find("\"optimizer\"") != std::string::npos) out.fields.insert("optimizer");
            out.states_anything = true;
        }
    }
    if (!out.fields.count("zero")) apply_zero_stage_lines(text, out);
    if (auto v = first_match(text, "per_device_train_batch_size", R"(\bper_device_train_batch_size[= ]+([0-9]{1,7}))")) {
        s.training.micro_batch = std::stoll(*v);
        s.training.global_batch = s.training.micro_batch * data_parallel_size(s);
        s.training.auto_micro_batch = false;
        out.read.push_back("micro batch " + *v + " (TrainingArguments)");
        out.fields.insert("micro_batch");
        out.states_anything = true;
    }
    if (auto v = first_match(text, "gradient_checkpointing=", R"(\bgradient_checkpointing=(True|False))")) {
        s.training.checkpointing = *v == "True" ? Checkpointing::Full : Checkpointing::None;
        s.training.auto_checkpointing = false;
        out.read.push_back("gradient_checkpointing " + *v + " (TrainingArguments)");
        out.fields.insert("recompute");
    }
    // "--bf16 False" (an argument written out, as LLaMA-Factory's web UI writes them; the Trainer's
    // string_to_bool also takes false, 0 and no) says the opposite.
    if (first_match(text, "bf16", R"((\bbf16=True|--bf16\b(?![^A-Za-z0-9]{1,4}(?:[Ff]alse|FALSE|0|no)\b)))")) {
        s.training.precision = Precision::Bf16;
        out.fields.insert("precision");
    } else if (first_match(text, "fp16", R"((\bfp16=True|--fp16\b(?![^A-Za-z0-9]{1,4}(?:[Ff]alse|FALSE|0|no)\b)))")) {
        s.training.precision = Precision::Fp16;
        out.fields.insert("precision");
    }
    if (auto v = first_match(text, "optim=", R"(\boptim=([A-Za-z0-9_.]+))")) {
        // The Trainer's optim names torch's kernels ("adamw_torch", "adamw_torch_fused"); a ds_config
        // "optimizer" block (DeepSpeed's FusedAdam / CPU Adam) takes precedence over it in the Trainer.
        if (v->find("torch") != std::string::npos && text.find("\"optimizer\"") == std::string::npos) {
            s.training.fused_optimizer = false;
            out.read.push_back("torch.optim's optimizer (TrainingArguments optim=" + *v + ")");
            out.fields.insert("optimizer");
        }
        // bitsandbytes' (training_args.py OptimizerNames: adamw_bnb_8bit, adamw_8bit, paged_adamw_32bit,
        // paged_adamw_8bit, lion_8bit, paged_lion_*): 8-bit or paged moments (core/model/scenario.h).
        if (const OptimizerStorage storage = optimizer_storage_named(*v); storage != OptimizerStorage::Standard) {
            s.training.optimizer_storage = storage;
            if (v->find("lion") != std::string::npos) s.training.optimizer = Optimizer::Lion;
            out.read.push_back(std::string("bitsandbytes' ") + to_string(storage) + " optimizer (TrainingArguments optim=" + *v + ")");
            out.fields.insert("optimizer");
        }
    }
    apply_traceback_facts(oom, out);
    if (auto v = first_match(text, "_len", R"(\b(?:cutoff_len|max_seq_length|max_length|seq_length)[=: ]+([0-9]{1,7}))")) {
        s.training.seq_len = std::stoll(*v);
        out.read.push_back("sequence " + *v);
        out.fields.insert("sequence");
    } else {
        out.assumed.push_back("sequence " + std::to_string(s.training.seq_len) + " (not in the log: it states none)");
    }
    apply_peft_line(text, out);
    if (!first_match(text, "Model config ", R"((Model config ))"))
        out.assumed.push_back("model " + s.model.name + " (not in the log: it prints no model config)");
    return out;
}

}  // namespace zp
