#include "app/cli/scenario_options.h"

#include "app/cli/number_parse.h"
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/base/json_errors.h"
#include "core/base/units.h"
#include "core/deepspeed/config_import.h"
#include "core/deepspeed/lint.h"
#include "core/io/hf_config.h"
#include "core/io/scenario_json.h"
#include "core/model/enum_names.h"
#include "core/model/experts.h"
#include "core/model/limits.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/default_scenario.h"
#include "core/presets/model_presets.h"
#include "core/search/zero_setups.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace zp::cli {

// clang-format off
const std::set<std::string>& scenario_option_names() {
    static const std::set<std::string> names = {
        "--session", "--model", "--params", "--hf-config", "--layers", "--hidden", "--heads", "--kv-heads", "--ffn", "--vocab",
        "--cluster", "--gpus", "--gpus-per-node", "--gpu", "--gpu-mem", "--intra-bw", "--inter-bw", "--nics", "--pcie-bw", "--cpu-ram",
        "--nvme", "--nvme-bw", "--precision", "--optimizer", "--seq", "--micro-batch", "--global-batch", "--checkpointing",
        "--flash-attention", "--cpu-checkpointing", "--stage", "--offload-optimizer", "--offload-param", "--overlap-comm",
        "--reduce-bucket-size", "--allgather-bucket-size", "--headroom", "--convention", "--mfu", "--cuda-context",
        "--fragmentation", "--zero-init", "--ds-config", "--loss-upcast", "--loss-kernel", "--fused-optimizer",
        "--load-dtype", "--low-cpu-mem-usage", "--dataloader-workers", "--pin-memory", "--save-16bit-model",
        "--finetune", "--lora-rank", "--lora-alpha", "--lora-dropout", "--lora-targets", "--lora-train", "--base-precision",
        "--double-quant", "--quant-storage", "--freeze", "--zeropp", "--hpz", "--hpz-size", "--quantized-weights", "--quantized-gradients",
        "--tp", "--pp", "--virtual-stages", "--pp-schedule", "--sequence-parallel", "--ep", "--capacity-factor", "--sp",
        "--mics-shard-size", "--mics-hierarchical-gather",
    };
    return names;
}
// clang-format on

namespace {

bool any_architecture_option(const Args& a) {
    for (const char* k : {"--layers", "--hidden", "--heads", "--kv-heads", "--ffn", "--vocab"})
        if (a.has(k)) return true;
    return false;
}

void apply_architecture_overrides(const Args& a, ModelSpec& m) {
    using namespace limits;
    if (auto v = a.get("--layers")) m.layers = parse_positive_int(*v, "--layers", kLayers.max);
    if (auto v = a.get("--hidden")) {
        m.hidden = parse_positive_int(*v, "--hidden", kModelWidth.max);
        if (!a.has("--heads") && m.hidden % m.heads == 0) m.head_dim = m.hidden / m.heads;
    }
    if (auto v = a.get("--heads")) {
        m.heads = parse_positive_int(*v, "--heads", kModelWidth.max);
        if (!a.has("--kv-heads")) m.kv_heads = m.heads;
        if (m.hidden % m.heads != 0) throw InputError("--heads " + *v + " does not divide the hidden size " + std::to_string(m.hidden));
        m.head_dim = m.hidden / m.heads;
    }
    if (auto v = a.get("--kv-heads")) m.kv_heads = parse_positive_int(*v, "--kv-heads", kModelWidth.max);
    if (auto v = a.get("--ffn")) m.ffn = parse_positive_int(*v, "--ffn", kModelTable.max);
    if (auto v = a.get("--vocab")) m.vocab = parse_positive_int(*v, "--vocab", kModelTable.max);
    m.params_override = 0;
    m.largest_layer_override = 0;
    m.synthesized = false;
    if (m.name.rfind("custom", 0) != 0) m.name += " (modified)";
}

ModelSpec custom_model(const Args& a) {
    for (const char* k : {"--layers", "--hidden", "--heads"})
        if (!a.has(k))
            throw InputError(std::string("a custom architecture needs --layers, --hidden and --heads (missing ") + k +
                             "); or give --model NAME, --params N or --hf-config FILE");
    const std::int64_t hidden = parse_positive_int(*a.get("--hidden"), "--hidden", limits::kModelWidth.max);
    ModelSpec m;
    m.name = "custom";
    m.family = "custom";
    m.layers = 1;
    m.hidden = hidden;
    m.heads = 1;
    m.kv_heads = 1;
    m.head_dim = hidden;
    m.ffn = 4 * hidden;  // docs/design.md §8.3: default 4 x hidden
    m.vocab = 51200;     // docs/design.md §8.3: default vocabulary
    m.norm = NormKind::LayerNorm;
    m.tied_embeddings = true;
    apply_architecture_overrides(a, m);
    m.name = "custom";
    return m;
}

void apply_model(const Args& a, Scenario& s, ScenarioNotes* notes) {
    const int sources = (a.has("--model") ? 1 : 0) + (a.has("--hf-config") ? 1 : 0);
    if (sources > 1) throw InputError("give only one of --model and --hf-config");
    if (a.has("--params") && sources > 0)
        throw InputError("--params contradicts --model/--hf-config, which fix the parameter count; give one of them");
    if (auto v = a.get("--model")) s.model = model_preset(*v).spec;
    if (auto v = a.get("--hf-config")) s.model = import_hf_config(read_text_file(*v), *v);
    if (sources > 0) {
        if (any_architecture_option(a)) apply_architecture_overrides(a, s.model);
    } else if (auto v = a.get("--params")) {
        const std::int64_t params = parse_count(*v, "--params");
        if (any_architecture_option(a)) {
            ModelSpec m = custom_model(a);
            const double count = static_cast<double>(parameter_count(m));
            if (std::fabs(count - static_cast<double>(params)) > 0.01 * static_cast<double>(params))
                throw InputError("--params " + *v + " contradicts the architecture options, which give " +
                                 std::to_string(parameter_count(m)) + " parameters; drop one of them");
            m.params_override = params;
            s.model = m;
        } else {
            s.model = synthesize_model(params);
            if (notes) notes->synthesized = true;
        }
    } else if (any_architecture_option(a)) {
        if (a.has("--session")) apply_architecture_overrides(a, s.model);
        else s.model = custom_model(a);
    }
    validate(s.model);
}

void apply_cluster(const Args& a, Scenario& s) {
    using namespace limits;
    Cluster& c = s.cluster;
    if (auto v = a.get("--cluster")) c = cluster_preset(*v).cluster;
    if (auto v = a.get("--gpu")) c.use_gpu(gpu_preset(*v));
    if (auto v = a.get("--gpu-mem")) c.gpu = custom_gpu(c.gpu, parse_number(*v, "--gpu-mem (GiB)", kGpuMemoryGib));
    std::int64_t per_node = c.gpus_per_node;
    if (auto v = a.get("--gpus-per-node")) per_node = parse_positive_int(*v, "--gpus-per-node", kGpusPerNode.max);
    if (auto v = a.get("--gpus")) {
        const std::string accepted =
            "--gpus must be a whole number of GPUs from 1 to " + format_limit(kWorldSize.max) + ", got '" + *v + "'";
        double total = 0;
        try {
            total = parse_number(*v, "--gpus", -1e18, 1e18);
        } catch (const InputError&) {
            throw InputError(accepted);
        }
        if (total < 1 || total != std::floor(total) || total > static_cast<double>(kWorldSize.max)) throw InputError(accepted);
        const auto gpus = static_cast<std::int64_t>(total);
        if (!a.has("--gpus-per-node") && gpus < per_node) per_node = gpus;
        if (gpus % per_node != 0)
            throw InputError("--gpus " + *v + " is not a multiple of " + std::to_string(per_node) +
                             " GPUs per node; give --gpus-per-node to match your nodes");
        c.nodes = gpus / per_node;
    } else if (a.has("--gpus-per-node")) {
        c.nodes = 1;
    }
    c.gpus_per_node = per_node;
    if (auto v = a.get("--intra-bw")) c.intra_node_gbytes_per_s = parse_number(*v, "--intra-bw (GB/s per GPU)", kIntraNodeGBytesPerS);
    if (auto v = a.get("--inter-bw")) c.inter_node_gbits_per_s = parse_number(*v, "--inter-bw (Gbit/s per node)", kInterNodeGbitsPerS);
    if (auto v = a.get("--nics")) c.nics_per_node = parse_positive_int(*v, "--nics", kNicsPerNode.max);
    if (auto v = a.get("--pcie-bw")) c.pcie_gbytes_per_s = parse_number(*v, "--pcie-bw (GB/s per GPU)", kPcieGBytesPerS);
    if (auto v = a.get("--cpu-ram")) c.cpu_ram_bytes_per_node = gib_to_bytes(parse_number(*v, "--cpu-ram (GiB per node)", kCpuRamGib));
    if (auto v = a.get("--nvme")) c.nvme_bytes_per_node = gib_to_bytes(parse_number(*v, "--nvme (GiB per node)", kNvmeGib));
    if (auto v = a.get("--nvme-bw")) c.nvme_gbytes_per_s = parse_number(*v, "--nvme-bw (GB/s per node)", kNvmeGBytesPerS);
}

void apply_training(const Args& a, Scenario& s) {
    Training& t = s.training;
    if (auto v = a.get("--precision")) t.precision = parse_precision(*v);
    if (auto v = a.get("--optimizer")) t.optimizer = parse_optimizer(*v);
    if (auto v = a.get("--seq")) t.seq_len = parse_positive_int(*v, "--seq", limits::kSeqLen.max);
    if (auto v = a.get("--micro-batch")) {
        t.micro_batch = parse_positive_int(*v, "--micro-batch", limits::kMicroBatch.max);
        t.auto_micro_batch = false;  // recommend keeps a micro batch the user fixed
    }
    // 0 (automatic) is what leaving the option out means, so the option takes 1 and up.
    if (auto v = a.get("--global-batch")) t.global_batch = parse_positive_int(*v, "--global-batch", limits::kGlobalBatch.max);
    if (auto v = a.get("--checkpointing")) {
        t.checkpointing = parse_checkpointing(*v);
        t.auto_checkpointing = false;  // recommend keeps a recompute policy the user fixed
    }
    if (auto v = a.get("--flash-attention")) t.flash_attention = parse_on_off(*v, "--flash-attention");
    if (auto v = a.get("--cpu-checkpointing")) t.cpu_checkpointing = parse_on_off(*v, "--cpu-checkpointing");
    if (auto v = a.get("--loss-upcast")) t.loss_fp32_upcast = parse_on_off(*v, "--loss-upcast");
    if (auto v = a.get("--loss-kernel")) t.loss_kernel = parse_loss_kernel(*v);
    if (auto v = a.get("--fused-optimizer")) t.fused_optimizer = parse_on_off(*v, "--fused-optimizer");
    if (auto v = a.get("--load-dtype")) {
        if (*v != "fp32" && *v != "16bit") throw InputError("--load-dtype must be fp32 or 16bit, got '" + *v + "'");
        t.load_in_16bit = *v == "16bit";
    }
    if (auto v = a.get("--low-cpu-mem-usage")) t.low_cpu_mem_usage = parse_on_off(*v, "--low-cpu-mem-usage");
    if (auto v = a.get("--dataloader-workers")) {
        const double n = parse_number(*v, "--dataloader-workers", 0.0, static_cast<double>(limits::kDataloaderWorkers.max));
        if (n != std::floor(n)) throw InputError("--dataloader-workers must be a whole number, got '" + *v + "'");
        t.dataloader_workers = static_cast<std::int64_t>(n);
    }
}

void apply_zero(const Args& a, Scenario& s) {
    ZeroSetup& z = s.zero;
    if (auto v = a.get("--stage")) {
        if (*v != "0" && *v != "1" && *v != "2" && *v != "3") throw InputError("--stage must be 0, 1, 2 or 3, got '" + *v + "'");
        z.stage = std::stoi(*v);
    }
    if (auto v = a.get("--offload-optimizer")) z.offload_optimizer = parse_offload_device(*v);
    if (auto v = a.get("--offload-param")) z.offload_param = parse_offload_device(*v);
    if (auto v = a.get("--overlap-comm")) z.overlap_comm = parse_on_off(*v, "--overlap-comm");
    if (auto v = a.get("--reduce-bucket-size")) z.reduce_bucket_elems = static_cast<double>(parse_count(*v, "--reduce-bucket-size"));
    if (auto v = a.get("--allgather-bucket-size"))
        z.allgather_bucket_elems = static_cast<double>(parse_count(*v, "--allgather-bucket-size"));
    if (auto v = a.get("--zero-init")) z.zero_init = parse_on_off(*v, "--zero-init");
    if (auto v = a.get("--pin-memory")) z.pin_memory = parse_on_off(*v, "--pin-memory");
    if (auto v = a.get("--save-16bit-model")) z.gather_16bit_weights_on_model_save = parse_on_off(*v, "--save-16bit-model");
    // ZeRO++: --zeropp on (or hpz+qwz+qgz) turns on all three as DeepSpeed's tutorial does (hpZ over
    // the node's GPUs), hpz the secondary partition alone; the single switches given beside it win.
    if (auto v = a.get("--zeropp")) {
        const std::string& w = *v;
        if (w == "auto")  // plan_scenario_from_args takes it before this
            throw InputError(
                "--zeropp auto lets the recommender choose (recommend, export, session, the window); here give off, hpz or "
                "hpz+qwz+qgz");
        std::optional<ZeroppChoice> choice;
        if (w == "on") choice = ZeroppChoice::HpzQwzQgz;
        for (ZeroppChoice c : kZeroppChoices)
            if (w == to_string(c)) choice = c;
        if (!choice) throw InputError("--zeropp must be off, hpz, hpz+qwz+qgz (or on, the same), got '" + w + "'");
        apply_zeropp_choice(z, *choice, s.cluster.gpus_per_node);
    }
    if (a.has("--hpz") && a.has("--hpz-size")) throw InputError("give the hpZ size once: --hpz-size (or its short form --hpz)");
    for (const char* option : {"--hpz", "--hpz-size"})
        if (auto v = a.get(option)) z.hpz_partition_size = parse_positive_int(*v, option, limits::kWorldSize.max);
    if (auto v = a.get("--quantized-weights")) z.quantized_weights = parse_on_off(*v, "--quantized-weights");
    if (auto v = a.get("--quantized-gradients")) z.quantized_gradients = parse_on_off(*v, "--quantized-gradients");
    // MiCS (core/model/mics.h): mics_shard_size, 1 = off (DeepSpeed's -1), and its hierarchical gather.
    if (auto v = a.get("--mics-shard-size")) z.mics_shard_size = parse_positive_int(*v, "--mics-shard-size", limits::kWorldSize.max);
    if (auto v = a.get("--mics-hierarchical-gather")) z.mics_hierarchical_params_gather = parse_on_off(*v, "--mics-hierarchical-gather");
}

// Megatron-DeepSpeed's model parallelism (core/model/scenario.h Parallelism).
void apply_parallel(const Args& a, Scenario& s) {
    Parallelism& p = s.parallel;
    if (auto v = a.get("--tp")) p.tensor = parse_positive_int(*v, "--tp", limits::kWorldSize.max);
    if (auto v = a.get("--pp")) p.pipeline = parse_positive_int(*v, "--pp", limits::kWorldSize.max);
    if (auto v = a.get("--virtual-stages")) p.virtual_stages = parse_positive_int(*v, "--virtual-stages", limits::kLayers.max);
    // --pp-schedule 1f1b | interleaved:V (Megatron's --num-layers-per-virtual-pipeline-stage gives V
    // model chunks per pipeline rank): the same as --virtual-stages 1 or V.
    if (auto v = a.get("--pp-schedule")) {
        if (a.has("--virtual-stages")) throw InputError("give the schedule once: --pp-schedule or --virtual-stages");
        const std::string& w = *v;
        if (w == "1f1b") p.virtual_stages = 1;
        else if (w.starts_with("interleaved:"))
            p.virtual_stages = parse_positive_int(w.substr(12), "--pp-schedule interleaved:V", limits::kLayers.max);
        else throw InputError("--pp-schedule must be 1f1b or interleaved:V (V model chunks per pipeline GPU), got '" + w + "'");
    }
    if (auto v = a.get("--sequence-parallel")) p.sequence_parallel = parse_on_off(*v, "--sequence-parallel");
    // DeepSpeed-MoE expert parallelism (core/model/experts.h): ep_size and the training capacity factor.
    if (auto v = a.get("--ep")) p.expert = parse_positive_int(*v, "--ep", limits::kExperts.max);
    if (auto v = a.get("--capacity-factor"))
        s.training.capacity_factor = parse_number(*v, "--capacity-factor", 1e-3, deepspeed_moe::kMaxCapacityFactor);
    // DeepSpeed-Ulysses' sequence_parallel_size (not Megatron's --sequence-parallel above).
    if (auto v = a.get("--sp")) p.ulysses = parse_positive_int(*v, "--sp", limits::kWorldSize.max);
}

std::vector<std::string> split_list(const std::string& list) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= list.size()) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        if (comma > start) items.push_back(list.substr(start, comma - start));
        start = comma + 1;
    }
    return items;
}

// --finetune full|lora|qlora and its settings (core/model/finetune.h). --lora-targets takes
// default, attention, all-linear or module names; --freeze embeddings, layers:K or both, comma-separated.
void apply_finetune(const Args& a, Scenario& s) {
    FineTune& f = s.finetune;
    if (auto v = a.get("--finetune")) f.method = parse_finetune_method(*v);
    if (auto v = a.get("--lora-rank")) f.lora_rank = parse_positive_int(*v, "--lora-rank", 65536);
    if (auto v = a.get("--lora-alpha")) f.lora_alpha = parse_number(*v, "--lora-alpha", 1e-6, 1e6);
    if (auto v = a.get("--lora-dropout")) f.lora_dropout = parse_number(*v, "--lora-dropout", 0.0, 0.999);
    if (auto v = a.get("--lora-targets")) {
        if (*v == "default" || *v == "attention" || *v == "all-linear" || *v == "all_linear") {
            f.targets = parse_lora_targets(*v);
            f.target_modules.clear();
        } else {
            f.targets = LoraTargets::Modules;
            f.target_modules = *v;
        }
    }
    if (auto v = a.get("--lora-train")) {
        f.train_embeddings = f.train_lm_head = false;
        for (const std::string& item : split_list(*v)) {
            if (item == "embeddings") f.train_embeddings = true;
            else if (item == "lm-head" || item == "lm_head") f.train_lm_head = true;
            else if (item != "none")
                throw InputError("--lora-train takes embeddings, lm-head or none (comma-separated), got '" + item + "'");
        }
    }
    if (auto v = a.get("--base-precision")) f.base_precision = parse_base_precision(*v);
    if (auto v = a.get("--double-quant")) f.double_quant = parse_on_off(*v, "--double-quant");
    if (auto v = a.get("--quant-storage")) f.quant_storage = parse_quant_storage(*v);
    if (a.has("--freeze") && f.adapters())
        throw InputError("--freeze is for full fine-tuning: with --finetune lora/qlora the whole base is frozen already");
    if (auto v = a.get("--freeze")) {
        f.freeze_embeddings = false;
        f.freeze_layers = 0;
        for (const std::string& item : split_list(*v)) {
            if (item == "embeddings") f.freeze_embeddings = true;
            else if (item.rfind("layers:", 0) == 0)
                f.freeze_layers = parse_positive_int(item.substr(7), "--freeze layers:K", limits::kLayers.max);
            else if (item != "none") throw InputError("--freeze takes embeddings, layers:K or none (comma-separated), got '" + item + "'");
        }
    }
}

void apply_assumptions(const Args& a, Scenario& s) {
    using namespace limits;
    Assumptions& as = s.assumptions;
    if (auto v = a.get("--headroom")) as.headroom = parse_number(*v, "--headroom (fraction)", kHeadroom);
    if (auto v = a.get("--convention")) as.convention = parse_convention(*v);
    if (auto v = a.get("--mfu")) as.mfu = parse_number(*v, "--mfu (fraction)", kMfu);
    if (auto v = a.get("--cuda-context")) as.cuda_context_bytes = gib_to_bytes(parse_number(*v, "--cuda-context (GiB)", kCudaContextGib));
    if (auto v = a.get("--fragmentation")) as.fragmentation = parse_number(*v, "--fragmentation (fraction)", kFragmentation);
}

}  // namespace

bool layout_search_given(const Args& a) {
    for (const char* option : {"--tp", "--pp", "--ep", "--sp"})
        if (a.get(option) == "auto") return true;
    return false;
}

Scenario plan_scenario_from_args(const Args& a, ScenarioNotes* notes) {
    Args rest = a;
    // A size on auto starts at 1 (with its dependents at their defaults), so a stored size the new
    // model or cluster no longer takes is not checked: the search chooses it.
    for (const char* option : {"--tp", "--pp", "--ep", "--sp"})
        if (a.get(option) == "auto") rest.values[option] = "1";
    if (a.get("--tp") == "auto" && !a.has("--sequence-parallel")) rest.values["--sequence-parallel"] = "off";
    if (a.get("--pp") == "auto" && !a.has("--virtual-stages") && !a.has("--pp-schedule")) rest.values["--virtual-stages"] = "1";
    // --zeropp auto: the search chooses the three switches (ZeroSetup::auto_zeropp); a switch
    // given beside it would be ignored, so it is refused. A switch given alone fixes ZeRO++.
    const bool zeropp_auto = a.get("--zeropp") == "auto";
    const bool zeropp_switch = a.has("--hpz") || a.has("--hpz-size") || a.has("--quantized-weights") || a.has("--quantized-gradients");
    if (zeropp_auto && zeropp_switch)
        throw InputError(
            "--zeropp auto lets the recommender choose the ZeRO++ switches; give --hpz-size, --quantized-weights and "
            "--quantized-gradients without it");
    if (zeropp_auto) rest.values["--zeropp"] = "off";
    Scenario s = scenario_from_args(rest, notes);
    if (!a.has("--session")) search_layouts_by_default(s);
    if (a.has("--zeropp") || zeropp_switch) s.zero.auto_zeropp = zeropp_auto;
    if (a.has("--tp")) s.parallel.auto_tensor = a.get("--tp") == "auto";
    if (a.has("--pp")) s.parallel.auto_pipeline = a.get("--pp") == "auto";
    if (a.has("--ep")) s.parallel.auto_expert = a.get("--ep") == "auto";
    if (a.has("--sp")) s.parallel.auto_ulysses = a.get("--sp") == "auto";
    return s;
}

Scenario scenario_from_args(const Args& a, ScenarioNotes* notes) {
    Scenario s = default_scenario();
    if (auto v = a.get("--session")) s = parse_session(read_text_file(*v), *v);
    apply_cluster(a, s);
    apply_model(a, s, notes);
    if (notes && s.model.synthesized) notes->synthesized = true;
    // An existing ds_config.json: its stage, offload, batch, precision, optimizer and buckets
    // (what File > Import ds_config.json does in the window). It reads the cluster (its batch
    // rule needs the world size); every training and ZeRO option given beside it wins.
    if (auto v = a.get("--ds-config")) s = apply_ds_config(parse_json_text(read_text_file(*v), *v), s);
    apply_training(a, s);
    apply_zero(a, s);
    apply_parallel(a, s);
    apply_finetune(a, s);
    apply_assumptions(a, s);
    validate(s);
    return s;
}

LintContext lint_context_from_args(const Args& a) {
    LintContext c;
    if (auto v = a.get("--gpus-per-node")) c.gpus_per_node = parse_positive_int(*v, "--gpus-per-node", limits::kGpusPerNode.max);
    if (a.has("--model") || a.has("--hf-config")) {
        // The preset or config.json, with --heads / --kv-heads over it as everywhere else.
        Scenario s = default_scenario();
        apply_model(a, s, nullptr);
        c.heads = s.model.heads;
        c.kv_heads = s.model.kv_heads;
    } else if (auto v = a.get("--heads")) {
        c.heads = parse_positive_int(*v, "--heads", limits::kModelWidth.max);
        c.kv_heads = c.heads;
        if (auto kv = a.get("--kv-heads")) c.kv_heads = parse_positive_int(*kv, "--kv-heads", limits::kModelWidth.max);
    } else if (a.has("--kv-heads")) {
        throw InputError("--kv-heads needs --heads (or --model / --hf-config)");
    }
    if (auto v = a.get("--seq")) c.seq_len = parse_positive_int(*v, "--seq", limits::kSeqLen.max);
    return c;
}

FineTune finetune_from_args(const Args& a) {
    Scenario s = default_scenario();
    apply_finetune(a, s);
    return s.finetune;
}

}  // namespace zp::cli
