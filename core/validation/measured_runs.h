#pragma once
// A measured-runs document (tests/data/anchors/measured_runs.json: public DeepSpeed and FSDP runs
// with what their source printed) read into Scenarios and Measurements the planner can be held
// against (core/validation/validate.h, `zero-planner validate`). Only generic rules: units by
// name, precision and optimizer by keyword, GPUs by a table of type-name fragments; nothing here
// knows a case by its id.
#include "core/model/scenario.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace zp::validation {

// What a measurement is of, in one table (quantity_info): its name, the `what` prefix that
// selects it, its aggregate group and its tolerance.
enum class Quantity {
    Allocated,         // torch.cuda.max_memory_allocated, bytes
    Reserved,          // torch.cuda.max_memory_reserved, bytes
    NvidiaSmi,         // nvidia-smi "used": reserved plus the CUDA context, bytes
    Fit,               // fits or runs out of memory at a micro batch
    StepSeconds,       // seconds per optimizer step
    SamplesPerSecond,  // global samples per second
    TflopsPerGpu,      // hardware FLOP/s per GPU (recompute included)
    HostRam,           // host RAM per node, bytes
};

struct QuantityInfo {
    Quantity quantity;
    const char* name;         // JSON and text: "allocated"
    const char* what_prefix;  // the start of measured.what that selects it: "max_allocated"
    const char* group;        // the aggregate it counts in: "GPU memory, allocated"
    double tolerance;         // |predicted / measured - 1| within this counts as right; 0 for fits
};

const QuantityInfo& quantity_info(Quantity q);
const std::vector<QuantityInfo>& quantity_table();

// One side of a fits/OOM boundary: "fits at micro_batch 20; OOM at 30" is two of these.
struct FitCheck {
    std::int64_t micro_batch = 1;
    bool fits = false;
    bool plain_data_parallel = false;  // the clause names DDP: stage 0, nothing offloaded
};

struct Measurement {
    std::string kind;  // peak_memory, fits_or_oom, throughput, host_ram
    Quantity quantity = Quantity::Allocated;
    double value = 0;  // bytes, seconds, samples/s or FLOP/s per GPU (0 for fits)
    std::vector<FitCheck> fit_checks;
    std::string what;  // measured.what as the file says it
};

struct MeasuredCase {
    std::string id;
    std::string source;  // the case's cited source as the file states it (validate --holdout groups by it)
    Scenario scenario;
    Measurement measurement;
    std::string gpu_label;                 // the matched preset, or "custom (<type>)"
    std::vector<std::string> assumed;      // fields that were missing and took a default
    std::vector<std::string> from_source;  // what a SourceFacts document filled in or corrected, and from where
    std::vector<std::string> notes;        // model and GPU matching, FSDP, unchecked fit clauses
    std::string not_representable;         // why the planner cannot model it; empty when it can
    // Host RAM sampled around the training loop only (PEFT's examples' TorchTracemalloc context:
    // psutil RSS peak between entering and leaving the epoch), so it is compared with the
    // training phase, not with the whole run's peak (core/memory/host_memory.h).
    bool host_training_window = false;
};

// Defaults for missing values (each reported in MeasuredCase::assumed).
inline constexpr std::int64_t kAssumedSeqLen =
    1024;  // the cutoff most fine-tuning recipes default to (GPT-2 context, LLaMA-Factory cutoff_len)
inline constexpr std::int64_t kAssumedMicroBatch = 1;
inline constexpr std::int64_t kAssumedGradAccum = 1;
inline constexpr std::int64_t kAssumedGpusPerNodeMax = 8;  // gpus_per_node missing: min(gpus, 8)
inline constexpr const char* kAssumedGpuPreset = "a100-80gb";

// What the run's own cited source states where the case file is silent or says otherwise:
// tests/data/anchors/measured_runs_facts.json,
//   {"facts": [{"ids": [...], "fields": {...}, "source": "...", "quote": "..."}],
//    "corrections": [{"ids": [...], "fields": {...}, "was": {...}, "source": "...", "quote": "...", "why": "..."}]}.
// A fact only fills a field that is missing or null (the GPU type of a training log whose README
// names the cluster); a correction only replaces the exact value it names in "was" (a launch
// flag the case's own cited script sets), so a corrected or changed file makes it an error rather
// than a silent override. Every applied line is listed by `validate`.
// An entry names its cases by "ids" (the bundled documents' own; an id a document lacks is
// another document's) or by "sources": every case whose "source" contains one of the strings,
// in any runs document, a user's too (a fact of the script every run of that source used, such
// as its attention implementation). A source-keyed fact fills only what a case leaves missing and
// a source-keyed correction replaces only the value in "was": a case stating anything else keeps it.
struct SourceFacts {
    std::string_view json_text;
    std::string source_name;
    bool by_source_only = false;  // a user's FILE: only the "sources" entries (its ids are its own)
};

// Throws InputError naming the source, the case id and the field for a malformed document;
// "<source>: invalid JSON at line L, column C" for a syntax error.
std::vector<MeasuredCase> parse_measured_runs(std::string_view json_text, const std::string& source_name,
                                              const SourceFacts* facts = nullptr);

// The pieces, for tests.
enum class Dimension { Bytes, Seconds, PerSecond, FlopsPerSecond };
struct Unit {
    Dimension dimension;
    double factor;  // to bytes, seconds, 1/s or FLOP/s
};
// By name: MiB = 2^20, "MB (MiB)" = MiB, GB = 1e9, GiB = 2^30, ms, s/iteration, samples/s,
// TFLOPs. A binary unit named in parentheses wins ("GB (GiB)"). nullopt when unknown.
std::optional<Unit> parse_unit(std::string_view unit);
// "OOM", "fits", "fits at micro_batch 20; OOM at 30", "max fitting micro_batch 40 ...";
// `micro_batch` is the case's, for a bare "fits"/"OOM". Clauses that are none of these are
// appended to `unchecked`. Empty when nothing could be read. These text readers, and the three
// below, refuse a number they cannot convert ("r=99999999999999999999", "alpha .") with an
// InputError that quotes the text; parse_measured_runs adds the case.
std::vector<FitCheck> parse_fit_text(std::string_view text, std::int64_t micro_batch, std::vector<std::string>* unchecked = nullptr);
// The preset a `gpu.type` names ("V100-SXM3 32GB (DGX-2)" -> v100-32gb), with `memory_gib` when
// given (then it is a custom GPU of that preset's throughput and links). Label in *label.
std::optional<GpuSpec> match_gpu_type(std::string_view type, double memory_gib, std::string* label = nullptr);
// A case's "lora" text ("LoRA r=8, alpha 32, default T5 targets (q,v)", "QLoRA r=64, alpha 16,
// dropout 0.1, target all-linear") as the fine-tuning settings it states; what it does not state
// keeps PEFT's defaults. Empty when it names no rank.
std::optional<FineTune> finetune_from_text(const std::string& text);
// The ZeRO++ switches an assumptions text names ("zero_hpz_partition_size 16",
// "zero_quantized_weights true", "hpZ=16", "qwZ", "qgZ"), or nothing when it names none.
std::optional<ZeroPlusPlus> zeropp_from_text(std::string_view assumptions);
// The tensor and pipeline parallel sizes an assumptions text names ("TP=4, PP=12",
// "--tensor-model-parallel-size 2"); 1 each when it names none.
Parallelism parallelism_from_text(std::string_view assumptions);
// Why a case cannot be planned (LoRA without a rank, ZeRO++ without its switches); empty if it can.
std::string not_representable_reason(const std::optional<std::string>& lora, std::string_view assumptions);
// Whether a case's precision or optimizer text names low-precision master weights: DeepSpeed's keys
// (bf16_master_weights_and_grads, bf16_optimizer_states, fp16_master_weights_and_grads) or
// bf16/fp16/low-precision master weights ("bf16 (fp32 master)" is not one).
bool names_low_precision_master(std::string_view precision_and_optimizer);

}  // namespace zp::validation
