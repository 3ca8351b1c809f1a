#include "app/cli/scenario_options.h"

#include "app/cli/number_parse.h"
#include "app/cli/options.h"
#include "core/base/errors.h"
#include "core/base/file_io.h"
#include "core/base/format.h"
#include "core/base/units.h"
#include "core/deepspeed/config_import.h"
#include "core/deepspeed/lint.h"
#include "core/io/hf_config.h"
#include "core/io/scenario_json.h"
#include "core/model/deepspeed_release.h"
#include "core/model/enum_names.h"
#include "core/model/experts.h"
#include "core/model/limits.h"
#include "core/model/model_spec.h"
#include "core/model/transformers_release.h"
#include "core/presets/cluster_presets.h"
#include "core/presets/default_scenario.h"
#include "core/presets/gpu_presets.h"
#include "core/presets/job_presets.h"
#include "core/presets/model_presets.h"
#include "core/search/zero_setups.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace zp::cli {

namespace {

// --hf-config names a config.json; a model's folder (what from_pretrained takes) is refused with
// the file to give, rather than "is a directory".
std::string hf_config_file(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec) && fs::is_regular_file(fs::path(path) / "config.json", ec))
        throw InputError(path + ": is a model's folder; give its config.json: " + std::string(opt::hf_config.name) + " " +
                         (fs::path(path) / "config.json").string());
    return path;
}

bool any_architecture_option(const Args& a) {
    for (const Option* k : {&opt::layers, &opt::hidden, &opt::heads, &opt::kv_heads, &opt::ffn, &opt::vocab})
        if (a.has(*k)) return true;
    return false;
}

void apply_architecture_overrides(const Args& a, ModelSpec& m) {
    using namespace limits;
    if (auto v = a.get(opt::layers)) m.layers = parse_positive_int(*v, option_text(opt::layers), kLayers.max);
    if (auto v = a.get(opt::hidden)) {
        m.hidden = parse_positive_int(*v, option_text(opt::hidden), kModelWidth.max);
        // The preset's heads stay unless --heads gives others: they must divide the new width, as
        // an HF config's must (hidden_size / num_attention_heads is the head size).
        if (!a.has(opt::heads)) {
            if (m.hidden % m.heads != 0)
                throw InputError("--hidden " + *v + " is not divisible by the model's " + std::to_string(m.heads) +
                                 " attention heads: give --heads too, a divisor of the hidden size");
            m.head_dim = m.hidden / m.heads;
        }
    }
    if (auto v = a.get(opt::heads)) {
        m.heads = parse_positive_int(*v, option_text(opt::heads), kModelWidth.max);
        if (!a.has(opt::kv_heads)) m.kv_heads = m.heads;
        if (m.hidden % m.heads != 0) throw InputError("--heads " + *v + " does not divide the hidden size " + std::to_string(m.hidden));
        m.head_dim = m.hidden / m.heads;
    }
    if (auto v = a.get(opt::kv_heads)) m.kv_heads = parse_positive_int(*v, option_text(opt::kv_heads), kModelWidth.max);
    if (auto v = a.get(opt::ffn)) m.ffn = parse_positive_int(*v, option_text(opt::ffn), kModelTable.max);
    if (auto v = a.get(opt::vocab)) m.vocab = parse_positive_int(*v, option_text(opt::vocab), kModelTable.max);
    m.params_override = 0;
    m.largest_layer_override = 0;
    m.synthesized = false;
    if (m.name.rfind("custom", 0) != 0) m.name += " (modified)";
}

ModelSpec custom_model(const Args& a) {
    for (const Option* k : {&opt::layers, &opt::hidden, &opt::heads})
        if (!a.has(*k))
            throw InputError(std::string("a custom architecture needs --layers, --hidden and --heads (missing ") + option_text(*k) +
                             "); or give --model NAME, --params N or --hf-config FILE");
    const std::int64_t hidden = parse_positive_int(*a.get(opt::hidden), option_text(opt::hidden), limits::kModelWidth.max);
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
    const int sources = (a.has(opt::model) ? 1 : 0) + (a.has(opt::hf_config) ? 1 : 0);
    if (sources > 1) throw InputError("give only one of --model and --hf-config");
    if (a.has(opt::params) && sources > 0)
        throw InputError("--params contradicts --model/--hf-config, which fix the parameter count; give one of them");
    if (auto v = a.get(opt::model)) s.model = model_preset(*v).spec;
    if (auto v = a.get(opt::hf_config)) s.model = import_hf_config(read_text_file(hf_config_file(*v)), *v);
    if (sources > 0) {
        if (any_architecture_option(a)) apply_architecture_overrides(a, s.model);
    } else if (auto v = a.get(opt::params)) {
        const std::int64_t params = parse_count(*v, option_text(opt::params));
        if (any_architecture_option(a)) {
            // A bare size is synthesized whole (synthesize_model): one architecture option cannot
            // change it and keep the count, so with --params the architecture is given whole.
            for (const Option* k : {&opt::layers, &opt::hidden, &opt::heads})
                if (!a.has(*k))
                    throw InputError("--params " + *v +
                                     " is a bare size, its architecture synthesized from it; with architecture options give " +
                                     "--layers, --hidden and --heads too (missing " + option_text(*k) +
                                     "), whose parameter count --params then checks, or give --model NAME, whose architecture they change");
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
        if (a.has(opt::session)) apply_architecture_overrides(a, s.model);
        else s.model = custom_model(a);
    }
    // How the activation runs is the code's, not the architecture's: the parameter count stands.
    if (auto v = a.get(opt::mlp_activation)) s.model.activation = parse_mlp_activation(*v);
    if (auto v = a.get(opt::residual_dropout)) s.model.residual_dropout = parse_on_off(*v, option_text(opt::residual_dropout));
    validate(s.model);
}

// --gpu without --cluster (or a session, which holds its node): the GPU's usual node
// (core/presets/cluster_presets.h usual_node) instead of the default DGX A100's host, so that an
// RTX 4090 plan does not get 2 TiB of RAM and 1600 Gbit/s; the notes say which host was taken.
// --gpus N, checked: a whole number from 1 to the world-size limit; nullopt when not given.
std::optional<std::int64_t> gpu_count_option(const Args& a) {
    const auto v = a.get(opt::gpus);
    if (!v) return std::nullopt;
    const std::string accepted =
        "--gpus must be a whole number of GPUs from 1 to " + limits::format_limit(limits::kWorldSize.max) + ", got '" + *v + "'";
    double total = 0;
    try {
        total = parse_number(*v, option_text(opt::gpus), -1e18, 1e18);
    } catch (const InputError&) {
        throw InputError(accepted);
    }
    if (total < 1 || total != std::floor(total) || total > static_cast<double>(limits::kWorldSize.max)) throw InputError(accepted);
    return static_cast<std::int64_t>(total);
}

// "the DGX A100 (8x A100 80GB)'s (2.0 TiB RAM, 30.0 TiB NVMe, 1600 Gbit/s per node)"
std::string host_words(const ClusterPreset* preset, const Cluster& c) {
    return (preset ? "the " + preset->display_name + "'s" : std::string("the plan's")) + " (" + format_bytes(c.cpu_ram_bytes_per_node) +
           " RAM, " + format_bytes(c.nvme_bytes_per_node) + " NVMe, " + format_general(c.inter_node_gbits_per_s) + " Gbit/s per node)";
}

// --gpu without --cluster (or a session, which holds its node): the GPU's usual node for `gpus`
// GPUs (core/presets/cluster_presets.h usual_node) instead of the default DGX A100's host, so that
// an RTX 4090 plan does not get 2 TiB of RAM and 1600 Gbit/s; the notes say which host was taken.
void assume_gpu_node(const GpuSpec& gpu, std::int64_t gpus, Cluster& c, ScenarioNotes* notes) {
    std::string host;
    if (const ClusterPreset* node = usual_node(gpu.name, gpus)) {
        c = node->cluster;
        host = "host: " + host_words(node, c) + ", the usual node of the " + gpu.display_name + "; --cluster " + node->name +
               " or another to choose";
    } else {
        host = "host: " + host_words(cluster_preset_of(c), c) + ": no node preset has the " + gpu.display_name +
               "; give --cpu-ram, --nvme and --inter-bw for yours";
    }
    if (notes) notes->host = host;
}

void apply_cluster(const Args& a, Scenario& s, ScenarioNotes* notes) {
    using namespace limits;
    Cluster& c = s.cluster;
    const std::optional<std::int64_t> gpus = gpu_count_option(a);
    if (auto v = a.get(opt::cluster)) c = cluster_preset(*v).cluster;
    else if (a.has(opt::gpu) && !a.has(opt::session))
        assume_gpu_node(gpu_preset(*a.get(opt::gpu)), gpus.value_or(c.world_size()), c, notes);
    if (auto v = a.get(opt::gpu)) c.use_gpu(gpu_preset(*v));
    if (auto v = a.get(opt::gpu_mem)) c.gpu = custom_gpu(c.gpu, parse_number(*v, option_label(opt::gpu_mem, "GiB"), kGpuMemoryGib));
    std::int64_t per_node = c.gpus_per_node;
    if (auto v = a.get(opt::gpus_per_node)) per_node = parse_positive_int(*v, option_text(opt::gpus_per_node), kGpusPerNode.max);
    if (gpus) {
        // Fewer GPUs than a node holds are part of one node, the node's size given or not.
        if (*gpus < per_node) per_node = *gpus;
        if (*gpus % per_node != 0)
            throw InputError("--gpus " + *a.get(opt::gpus) + " is not a multiple of " + std::to_string(per_node) +
                             " GPUs per node; give --gpus-per-node to match your nodes");
        c.nodes = *gpus / per_node;
    } else if (a.has(opt::gpus_per_node)) {
        c.nodes = 1;
    }
    c.gpus_per_node = per_node;
    if (auto v = a.get(opt::intra_bw))
        c.intra_node_gbytes_per_s = parse_number(*v, option_label(opt::intra_bw, "GB/s per GPU"), kIntraNodeGBytesPerS);
    if (auto v = a.get(opt::inter_bw))
        c.inter_node_gbits_per_s = parse_number(*v, option_label(opt::inter_bw, "Gbit/s per node"), kInterNodeGbitsPerS);
    if (auto v = a.get(opt::nics)) c.nics_per_node = parse_positive_int(*v, option_text(opt::nics), kNicsPerNode.max);
    if (auto v = a.get(opt::pcie_bw)) c.pcie_gbytes_per_s = parse_number(*v, option_label(opt::pcie_bw, "GB/s per GPU"), kPcieGBytesPerS);
    if (auto v = a.get(opt::cpu_ram))
        c.cpu_ram_bytes_per_node = gib_to_bytes(parse_number(*v, option_label(opt::cpu_ram, "GiB per node"), kCpuRamGib));
    if (auto v = a.get(opt::nvme))
        c.nvme_bytes_per_node = gib_to_bytes(parse_number(*v, option_label(opt::nvme, "GiB per node"), kNvmeGib));
    if (auto v = a.get(opt::nvme_bw)) c.nvme_gbytes_per_s = parse_number(*v, option_label(opt::nvme_bw, "GB/s per node"), kNvmeGBytesPerS);
}

void apply_training(const Args& a, Scenario& s) {
    // --job, then --alst, first: the options of their parts override them.
    if (auto v = a.get(opt::job)) s = with_job(s, parse_job(*v));
    Training& t = s.training;
    if (auto v = a.get(opt::alst); v && parse_on_off(*v, option_text(opt::alst))) use_alst(t);
    if (auto v = a.get(opt::precision)) t.precision = parse_precision(*v);
    if (auto v = a.get(opt::optimizer)) t.optimizer = parse_optimizer(*v);
    if (auto v = a.get(opt::seq)) t.seq_len = parse_positive_int(*v, option_text(opt::seq), limits::kSeqLen.max);
    if (auto v = a.get(opt::micro_batch)) {
        t.micro_batch = parse_positive_int(*v, option_text(opt::micro_batch), limits::kMicroBatch.max);
        t.auto_micro_batch = false;  // recommend keeps a micro batch the user fixed
    }
    // 0 (automatic) is what leaving the option out means, so the option takes 1 and up.
    if (auto v = a.get(opt::global_batch))
        t.global_batch = parse_positive_int(*v, option_text(opt::global_batch), limits::kGlobalBatch.max);
    if (auto v = a.get(opt::checkpointing)) {
        t.checkpointing = parse_checkpointing(*v);
        t.auto_checkpointing = false;  // recommend keeps a recompute policy the user fixed
    }
    if (auto v = a.get(opt::tiled_mlp)) t.tiled_mlp = parse_on_off(*v, option_text(opt::tiled_mlp));
    if (auto v = a.get(opt::expandable_segments)) t.expandable_segments = parse_on_off(*v, option_text(opt::expandable_segments));
    if (auto v = a.get(opt::kernel_index)) {
        if (*v != "int32" && *v != "int64") throw InputError("--kernel-index must be int32 or int64, got '" + *v + "'");
        t.int64_kernel_indexing = *v == "int64";
    }
    if (auto v = a.get(opt::flash_attention)) t.flash_attention = parse_on_off(*v, option_text(opt::flash_attention));
    if (auto v = a.get(opt::attention_softmax)) t.attention_softmax = parse_attention_softmax(*v);
    if (auto v = a.get(opt::lm_head)) t.lm_head = parse_lm_head(*v);
    // The transformers release once the LM head is known (Megatron's GPT keeps its own loss), before
    // the switches it sets: given beside it, they win.
    if (auto v = a.get(opt::transformers_release)) {
        const std::optional<TransformersRelease> release = parse_transformers_release(*v);
        if (!release) throw InputError("--transformers-release must be a release like 4.46 or 5.0.1, got '" + *v + "'");
        apply_transformers_release(t, *release);
    }
    if (auto v = a.get(opt::cpu_checkpointing)) t.cpu_checkpointing = parse_on_off(*v, option_text(opt::cpu_checkpointing));
    if (auto v = a.get(opt::fp8)) {
        const bool mxfp8 = *v == "mxfp8";
        try {
            t.fp8_gemms = mxfp8 || parse_on_off(*v, option_text(opt::fp8));
        } catch (const InputError&) {
            throw InputError("--fp8 must be on, mxfp8 or off, got '" + *v + "'");
        }
        t.fp8_scaling = mxfp8 ? Fp8Scaling::Mxfp8 : Fp8Scaling::Delayed;
    }
    if (auto v = a.get(opt::partition_activations)) t.partition_activations = parse_on_off(*v, option_text(opt::partition_activations));
    if (auto v = a.get(opt::loss_upcast)) t.loss_fp32_upcast = parse_on_off(*v, option_text(opt::loss_upcast));
    if (auto v = a.get(opt::loss_kernel)) t.loss_kernel = parse_loss_kernel(*v);
    if (auto v = a.get(opt::grad_accumulation)) t.gradient_accumulation = parse_gradient_accumulation(*v);
    if (auto v = a.get(opt::kv_cache)) t.kv_cache_in_training = parse_on_off(*v, option_text(opt::kv_cache));
    if (auto v = a.get(opt::keep_outputs)) t.outputs_kept = parse_on_off(*v, option_text(opt::keep_outputs));
    if (auto v = a.get(opt::reentrant_recompute)) t.reentrant_recompute = parse_on_off(*v, option_text(opt::reentrant_recompute));
    if (auto v = a.get(opt::logit_metrics))
        t.logit_metrics = parse_whole_number(*v, option_text(opt::logit_metrics), limits::kLogitMetrics);
    if (auto v = a.get(opt::fused_optimizer)) t.fused_optimizer = parse_on_off(*v, option_text(opt::fused_optimizer));
    if (auto v = a.get(opt::optimizer_storage)) t.optimizer_storage = parse_optimizer_storage(*v);
    if (auto v = a.get(opt::load_dtype)) {
        if (*v != "fp32" && *v != "16bit") throw InputError("--load-dtype must be fp32 or 16bit, got '" + *v + "'");
        t.load_in_16bit = *v == "16bit";
    }
    if (auto v = a.get(opt::low_cpu_mem_usage)) t.low_cpu_mem_usage = parse_on_off(*v, option_text(opt::low_cpu_mem_usage));
    if (auto v = a.get(opt::dataloader_workers))
        t.dataloader_workers = parse_whole_number(*v, option_text(opt::dataloader_workers), limits::kDataloaderWorkers);
    if (auto v = a.get(opt::data_seconds_per_sample))
        t.data_seconds_per_sample = parse_number(*v, option_label(opt::data_seconds_per_sample, "seconds"), limits::kDataSecondsPerSample);
}

void apply_zero(const Args& a, Scenario& s, SearchAsked* asked) {
    ZeroSetup& z = s.zero;
    if (auto v = a.get(opt::stage)) {
        if (*v != "0" && *v != "1" && *v != "2" && *v != "3") throw InputError("--stage must be 0, 1, 2 or 3, got '" + *v + "'");
        z.stage = std::stoi(*v);
    }
    // A stage given below the offload a job, session or ds_config brought drops the offload
    // that stage cannot hold, as DeepSpeed drops it (offload_param is read at stage 3 only,
    // stage 0 offloads nothing); an offload option given says it again and is checked.
    if (a.has(opt::stage)) {
        if (z.stage < 3) z.offload_param = OffloadDevice::None;
        if (z.stage == 0) z.offload_optimizer = OffloadDevice::None;
    }
    if (auto v = a.get(opt::offload_optimizer)) z.offload_optimizer = parse_offload_device(*v);
    if (auto v = a.get(opt::offload_param)) z.offload_param = parse_offload_device(*v);
    if (auto v = a.get(opt::overlap_comm)) z.overlap_comm = parse_on_off(*v, option_text(opt::overlap_comm));
    if (auto v = a.get(opt::reduce_bucket_size))
        z.reduce_bucket_elems = static_cast<double>(parse_count(*v, option_text(opt::reduce_bucket_size)));
    if (auto v = a.get(opt::allgather_bucket_size))
        z.allgather_bucket_elems = static_cast<double>(parse_count(*v, option_text(opt::allgather_bucket_size)));
    if (auto v = a.get(opt::max_live_params))
        z.stage3_max_live_parameters = static_cast<double>(parse_count(*v, option_text(opt::max_live_params)));
    if (auto v = a.get(opt::zero_init)) z.zero_init = parse_on_off(*v, option_text(opt::zero_init));
    if (auto v = a.get(opt::pin_memory)) z.pin_memory = parse_on_off(*v, option_text(opt::pin_memory));
    // The release first: the switches it sets, given beside it, win.
    if (auto v = a.get(opt::deepspeed_release)) {
        const std::optional<DeepSpeedRelease> release = parse_deepspeed_release(*v);
        if (!release) throw InputError("--deepspeed-release must be a release like 0.3 or 0.14.2, got '" + *v + "'");
        apply_deepspeed_release(z, *release);
        s.deepspeed_release = release_text(*release);
    }
    if (auto v = a.get(opt::host_grad_buffer)) z.zero3_host_gradient_buffer = parse_on_off(*v, option_text(opt::host_grad_buffer));
    if (auto v = a.get(opt::multi_rank_allreduce)) z.multi_rank_bucket_allreduce = parse_on_off(*v, option_text(opt::multi_rank_allreduce));
    if (auto v = a.get(opt::prefetch_to_max_live)) z.zero3_prefetch_to_max_live = parse_on_off(*v, option_text(opt::prefetch_to_max_live));
    if (auto v = a.get(opt::hpz_recompute)) z.hpz_in_recompute = parse_on_off(*v, option_text(opt::hpz_recompute));
    // Both DeepSpeed keys together: the master weights alone need ZeRO-Offload, which is not modelled.
    if (auto v = a.get(opt::bf16_master_weights)) z.bf16_master_weights = parse_on_off(*v, option_text(opt::bf16_master_weights));
    if (auto v = a.get(opt::save_16bit_model)) z.gather_16bit_weights_on_model_save = parse_on_off(*v, option_text(opt::save_16bit_model));
    // ZeRO++: --zeropp on (or hpz+qwz+qgz) turns on all three as DeepSpeed's tutorial does (hpZ over
    // the node's GPUs), hpz the secondary partition alone; the single switches given beside it win.
    if (auto v = a.get(opt::zeropp)) {
        const std::string& w = *v;
        // auto: the search chooses the three switches (ZeroSetup::auto_zeropp), starting from off.
        if (w == "auto" && !asked)
            throw InputError(
                "--zeropp auto lets the recommender choose (recommend, export, session, the window); here give off, hpz or "
                "hpz+qwz+qgz");
        std::optional<ZeroppChoice> choice;
        if (w == "on") choice = ZeroppChoice::HpzQwzQgz;
        if (w == "auto") choice = ZeroppChoice::Off;
        for (ZeroppChoice c : kZeroppChoices)
            if (w == to_string(c)) choice = c;
        if (!choice) throw InputError("--zeropp must be off, hpz, hpz+qwz+qgz (or on, the same), got '" + w + "'");
        apply_zeropp_choice(z, *choice, s.cluster.gpus_per_node);
        if (asked) asked->zeropp = w == "auto";
    }
    if (a.has(opt::hpz) && a.has(opt::hpz_size)) throw InputError("give the hpZ size once: --hpz-size (or its short form --hpz)");
    for (const Option* option : {&opt::hpz, &opt::hpz_size})
        if (auto v = a.get(*option)) z.hpz_partition_size = parse_positive_int(*v, option_text(*option), limits::kWorldSize.max);
    if (auto v = a.get(opt::quantized_weights)) z.quantized_weights = parse_on_off(*v, option_text(opt::quantized_weights));
    if (auto v = a.get(opt::quantized_gradients)) z.quantized_gradients = parse_on_off(*v, option_text(opt::quantized_gradients));
    // MiCS (core/model/mics.h): mics_shard_size, 1 = off (DeepSpeed's -1), and its hierarchical gather.
    if (auto v = a.get(opt::mics_shard_size))
        z.mics_shard_size = parse_positive_int(*v, option_text(opt::mics_shard_size), limits::kWorldSize.max);
    if (auto v = a.get(opt::tile_factor))
        z.linear_tile_factor = parse_positive_int(*v, option_text(opt::tile_factor), limits::kLinearTileFactor.max);
    if (auto v = a.get(opt::mics_hierarchical_gather))
        z.mics_hierarchical_params_gather = parse_on_off(*v, option_text(opt::mics_hierarchical_gather));
    // PyTorch FSDP (core/model/engine.h): ZeRO++ and MiCS are DeepSpeed's, so choosing FSDP turns
    // "auto" off; switches given explicitly stay, and validate names them.
    if (auto v = a.get(opt::engine)) {
        // auto: the recommender searches both engines (recommend_engines), from DeepSpeed's settings.
        if (*v == "auto" && !asked)
            throw InputError(
                "--engine auto lets the recommender choose (recommend, export, session, the window); here give deepspeed, fsdp "
                "or fsdp2");
        s.fsdp.auto_engine = *v == "auto";
        if (!s.fsdp.auto_engine) {
            try {
                s.fsdp.engine = parse_engine(*v);
            } catch (const InputError&) {
                throw InputError("--engine must be deepspeed, fsdp, fsdp2 or auto, got '" + *v + "'");
            }
            // A session planned with FSDP's hybrid sharding, now under DeepSpeed: off, as the
            // window's engine box does (with_engine).
            if (!is_fsdp(s.fsdp)) s.fsdp.hybrid_shard = false;
        }
        if (is_fsdp(s.fsdp)) z.auto_zeropp = false;
    }
    if (auto v = a.get(opt::fsdp_precision)) s.fsdp.precision = parse_fsdp_precision(*v);
    if (auto v = a.get(opt::limit_all_gathers)) s.fsdp.limit_all_gathers = parse_on_off(*v, option_text(opt::limit_all_gathers));
    if (auto v = a.get(opt::sync_each_batch)) s.fsdp.sync_each_batch = parse_on_off(*v, option_text(opt::sync_each_batch));
    if (auto v = a.get(opt::hybrid_shard)) s.fsdp.hybrid_shard = parse_on_off(*v, option_text(opt::hybrid_shard));
}

// The size a layout option gives; with `asked` (the planning commands), auto too, which starts
// the size at 1 and records that the search chooses it.
std::optional<std::int64_t> layout_size(const Args& a, const Option& o, std::int64_t max, SearchAsked* asked,
                                        std::optional<bool> SearchAsked::*slot) {
    const auto v = a.get(o);
    if (!v) return std::nullopt;
    const SizeOrAuto size = parse_size_or_auto(*v, o, max, asked != nullptr);
    if (asked) asked->*slot = !size.has_value();
    return size.value_or(1);
}

// Megatron-DeepSpeed's model parallelism (core/model/scenario.h Parallelism).
void apply_parallel(const Args& a, Scenario& s, SearchAsked* asked) {
    Parallelism& p = s.parallel;
    using limits::kWorldSize;
    if (auto v = layout_size(a, opt::tp, kWorldSize.max, asked, &SearchAsked::tensor)) p.tensor = *v;
    if (auto v = layout_size(a, opt::pp, kWorldSize.max, asked, &SearchAsked::pipeline)) p.pipeline = *v;
    if (auto v = a.get(opt::virtual_stages))
        p.virtual_stages = parse_positive_int(*v, option_text(opt::virtual_stages), limits::kLayers.max);
    // --pp-schedule 1f1b | interleaved:V (Megatron's --num-layers-per-virtual-pipeline-stage gives V
    // model chunks per pipeline rank): the same as --virtual-stages 1 or V.
    if (auto v = a.get(opt::pp_schedule)) {
        if (a.has(opt::virtual_stages)) throw InputError("give the schedule once: --pp-schedule or --virtual-stages");
        const std::string& w = *v;
        if (w == "1f1b") p.virtual_stages = 1;
        else if (w.starts_with("interleaved:"))
            p.virtual_stages = parse_positive_int(w.substr(12), option_text(opt::pp_schedule) + " interleaved:V", limits::kLayers.max);
        else throw InputError("--pp-schedule must be 1f1b or interleaved:V (V model chunks per pipeline GPU), got '" + w + "'");
    } else if (!a.has(opt::virtual_stages) && asked && asked->pipeline == true) {
        p.virtual_stages = 1;  // a pipeline on auto starts without a stored interleaving
    }
    if (auto v = a.get(opt::sequence_parallel)) p.sequence_parallel = parse_on_off(*v, option_text(opt::sequence_parallel));
    else if (asked && asked->tensor == true) p.sequence_parallel = false;  // Megatron's needs a TP the search has not chosen yet
    if (auto v = a.get(opt::pp_send)) {
        try {
            p.pipeline_send = parse_pipeline_send(*v);
        } catch (const InputError&) {
            throw InputError("--pp-send must be whole or scatter-gather, got '" + *v + "'");
        }
    }
    // DeepSpeed-MoE expert parallelism (core/model/experts.h): ep_size and the training capacity factor.
    if (auto v = layout_size(a, opt::ep, limits::kExperts.max, asked, &SearchAsked::expert)) p.expert = *v;
    if (auto v = a.get(opt::capacity_factor))
        s.training.capacity_factor = parse_number(*v, option_text(opt::capacity_factor), 1e-3, deepspeed_moe::kMaxCapacityFactor);
    // DeepSpeed-Ulysses' sequence_parallel_size (not Megatron's --sequence-parallel above).
    if (auto v = layout_size(a, opt::sp, kWorldSize.max, asked, &SearchAsked::ulysses)) p.ulysses = *v;
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
    if (auto v = a.get(opt::finetune)) f.method = parse_finetune_method(*v);
    if (auto v = a.get(opt::lora_rank)) f.lora_rank = parse_positive_int(*v, option_text(opt::lora_rank), limits::kLoraRank.max);
    if (auto v = a.get(opt::lora_alpha))
        f.lora_alpha = parse_number(*v, option_text(opt::lora_alpha), limits::kLoraAlpha.min, limits::kLoraAlpha.max);
    if (auto v = a.get(opt::lora_dropout))
        f.lora_dropout = parse_number(*v, option_text(opt::lora_dropout), limits::kLoraDropout.min, limits::kLoraDropout.max);
    if (auto v = a.get(opt::lora_targets)) {
        if (*v == "default" || *v == "attention" || *v == "all-linear" || *v == "all_linear") {
            f.targets = parse_lora_targets(*v);
            f.target_modules.clear();
        } else {
            f.targets = LoraTargets::Modules;
            f.target_modules = *v;
        }
    }
    if (auto v = a.get(opt::lora_train)) {
        f.train_embeddings = f.train_lm_head = false;
        for (const std::string& item : split_list(*v)) {
            if (item == "embeddings") f.train_embeddings = true;
            else if (item == "lm-head" || item == "lm_head") f.train_lm_head = true;
            else if (item != "none")
                throw InputError("--lora-train takes embeddings, lm-head or none (comma-separated), got '" + item + "'");
        }
    }
    if (auto v = a.get(opt::base_precision)) f.base_precision = parse_base_precision(*v);
    if (auto v = a.get(opt::double_quant)) f.double_quant = parse_on_off(*v, option_text(opt::double_quant));
    if (auto v = a.get(opt::quant_storage)) f.quant_storage = parse_quant_storage(*v);
    if (a.has(opt::freeze) && f.adapters())
        throw InputError("--freeze is for full fine-tuning: with --finetune lora/qlora the whole base is frozen already");
    if (auto v = a.get(opt::freeze)) {
        f.freeze_embeddings = false;
        f.freeze_layers = 0;
        for (const std::string& item : split_list(*v)) {
            if (item == "embeddings") f.freeze_embeddings = true;
            else if (item.rfind("layers:", 0) == 0)
                f.freeze_layers = parse_positive_int(item.substr(7), option_text(opt::freeze) + " layers:K", limits::kLayers.max);
            else if (item != "none") throw InputError("--freeze takes embeddings, layers:K or none (comma-separated), got '" + item + "'");
        }
    }
}

void apply_assumptions(const Args& a, Scenario& s) {
    using namespace limits;
    Assumptions& as = s.assumptions;
    if (auto v = a.get(opt::headroom)) as.headroom = parse_number(*v, option_label(opt::headroom, "fraction"), kHeadroom);
    if (auto v = a.get(opt::convention)) as.convention = parse_convention(*v);
    if (auto v = a.get(opt::mfu)) as.mfu = parse_number(*v, option_label(opt::mfu, "fraction"), kMfu);
    if (auto v = a.get(opt::cuda_context))
        as.cuda_context_bytes = gib_to_bytes(parse_number(*v, option_label(opt::cuda_context, "GiB"), kCudaContextGib));
    if (auto v = a.get(opt::tokens)) {
        as.token_budget = static_cast<double>(parse_count(*v, option_text(opt::tokens)));  // 1 to 1e15, within kTokenBudget
    } else if (!a.has(opt::job) && !a.has(opt::session) && s.finetune.adapters() && as.token_budget == kPreTrainingTokenBudget) {
        as.token_budget = kFineTuneTokenBudget;  // --finetune lora|qlora without a job: a fine-tune's budget, as the job gives it
    }
}

}  // namespace

SizeOrAuto parse_size_or_auto(const std::string& text, const Option& o, std::int64_t max, bool auto_allowed) {
    if (text == "auto") {
        if (auto_allowed) return std::nullopt;
        // estimate, compare and export plan the sizes given: the search that "auto" asks for is recommend's.
        throw InputError(std::string(o.name) + " auto searches the sizes, which recommend does; give a size here (" + std::string(o.name) +
                         " 1 for none), or run recommend");
    }
    return parse_positive_int(text, option_text(o), max);
}

namespace {

// --ds-config FILE onto the scenario. A value DeepSpeed would refuse (a stage written "3" or 7, a
// negative micro batch) is not imported (apply_ds_config keeps the scenario's value), so planning
// on would show a plan the file does not describe: such a file is refused with the linter's first
// error, as `zero-planner lint FILE` reports it. The batch rule waits for the layout (tensor and
// pipeline sizes come later), so it is checked for consistency only here.
Scenario imported_ds_config(const std::string& path, const Scenario& s, ScenarioNotes* notes) {
    const std::string text = read_text_file(path);
    const LintResult lint = lint_ds_config(text, std::nullopt, path, std::nullopt, lint_context_of(s));
    const auto is_error = [](const Diagnostic& d) { return d.severity == Severity::Error; };
    const auto first = std::find_if(lint.diagnostics.begin(), lint.diagnostics.end(), is_error);
    if (first != lint.diagnostics.end()) {
        const auto errors = std::count_if(lint.diagnostics.begin(), lint.diagnostics.end(), is_error);
        std::string message = path + ": " + (first->path.empty() ? "" : first->path + ": ") + first->message;
        if (!first->suggestion.empty()) message += " (" + first->suggestion + ")";
        message += errors > 1 ? "; " + std::to_string(errors - 1) + " more error" + (errors > 2 ? "s" : "") + ": `zero-planner lint " +
                                    path + "` lists them all"
                              : "; DeepSpeed would refuse it, so it is not planned";
        throw InputError(message);
    }
    if (notes)
        for (const Diagnostic& d : lint.diagnostics)
            if (d.severity == Severity::Warning)
                notes->ds_config_warnings.push_back(path + ": " + (d.path.empty() ? "" : d.path + ": ") + d.message);
    return apply_ds_config(parse_ds_config_text(text, path), s);
}

// The scenario the options describe; with `asked`, auto sizes and --zeropp auto are taken and
// recorded there, else refused.
// Options one engine has and the other does not (core/model/engine.h), given for the other:
// refused in one line rather than ignored (or, like the bucket sizes, read where they mean
// nothing). Engine auto plans both engines, so it takes both kinds.
void check_engine_options(const Args& a, const Scenario& s) {
    if (s.fsdp.auto_engine) return;
    static const std::array<const Option*, 21> deepspeed_only{&opt::overlap_comm,
                                                              &opt::reduce_bucket_size,
                                                              &opt::allgather_bucket_size,
                                                              &opt::max_live_params,
                                                              &opt::zero_init,
                                                              &opt::pin_memory,
                                                              &opt::host_grad_buffer,
                                                              &opt::multi_rank_allreduce,
                                                              &opt::deepspeed_release,
                                                              &opt::prefetch_to_max_live,
                                                              &opt::hpz_recompute,
                                                              &opt::bf16_master_weights,
                                                              &opt::save_16bit_model,
                                                              &opt::zeropp,
                                                              &opt::hpz_size,
                                                              &opt::hpz,
                                                              &opt::quantized_weights,
                                                              &opt::quantized_gradients,
                                                              &opt::mics_shard_size,
                                                              &opt::mics_hierarchical_gather,
                                                              &opt::tile_factor};
    static const std::array<const Option*, 4> fsdp_only{&opt::fsdp_precision, &opt::limit_all_gathers, &opt::sync_each_batch,
                                                        &opt::hybrid_shard};
    if (is_fsdp(s.fsdp)) {
        for (const Option* o : deepspeed_only)
            if (a.has(*o))
                throw InputError(std::string(o->name) + " is a DeepSpeed setting that PyTorch FSDP does not have: drop it, or plan with " +
                                 "--engine deepspeed (or auto, which plans both engines)");
    } else {
        // Turning an FSDP feature off is what DeepSpeed runs anyway: only asking for one is refused.
        for (const Option* o : fsdp_only)
            if (a.has(*o) && !((o == &opt::hybrid_shard || o == &opt::sync_each_batch) && a.get(*o) == "off"))
                throw InputError(std::string(o->name) +
                                 " is PyTorch FSDP's: plan with --engine fsdp or fsdp2 (or auto, which plans both "
                                 "engines), or drop it");
    }
}

Scenario build_scenario(const Args& a, ScenarioNotes* notes, SearchAsked* asked, const Scenario* base = nullptr) {
    Scenario s = base ? *base : default_scenario();
    if (auto v = a.get(opt::session)) s = parse_session(read_text_file(*v), *v);
    apply_cluster(a, s, notes);
    apply_model(a, s, notes);
    if (notes && s.model.synthesized) notes->synthesized = true;
    // An existing ds_config.json: its stage, offload, batch, precision, optimizer and buckets
    // (what File > Import ds_config.json does in the window). It reads the cluster (its batch
    // rule needs the world size); every training and ZeRO option given beside it wins.
    if (auto v = a.get(opt::ds_config)) s = imported_ds_config(*v, s, notes);
    apply_training(a, s);
    // A precision nothing stated (no --precision, session, ds_config.json or run log; a --job's
    // bf16 is a default too) follows the GPU: fp16 where it has no bf16 tensor cores (precision_for_gpu).
    if (!base && !a.has(opt::precision) && !a.has(opt::session) && !a.has(opt::ds_config))
        s.training.precision = precision_for_gpu(s.training.precision, s.cluster.gpu);
    apply_zero(a, s, asked);
    apply_parallel(a, s, asked);
    apply_finetune(a, s);
    apply_assumptions(a, s);
    check_engine_options(a, s);
    validate(s);
    return s;
}

}  // namespace

Scenario plan_scenario_from_args(const Args& a, ScenarioNotes* notes, SearchAsked* asked_out) {
    // A switch given beside --zeropp auto would be ignored, so it is refused (before anything else
    // is read); a switch given alone fixes ZeRO++.
    const bool zeropp_switch = a.has(opt::hpz) || a.has(opt::hpz_size) || a.has(opt::quantized_weights) || a.has(opt::quantized_gradients);
    if (zeropp_switch && a.get(opt::zeropp) == "auto")
        throw InputError(
            "--zeropp auto lets the recommender choose the ZeRO++ switches; give --hpz-size, --quantized-weights and "
            "--quantized-gradients without it");
    // A size on auto starts at 1 (with its dependents at their defaults), so a stored size the new
    // model or cluster no longer takes is not checked: the search chooses it.
    SearchAsked asked;
    Scenario s = build_scenario(a, notes, &asked);
    if (!a.has(opt::session)) search_layouts_by_default(s);
    if (asked.zeropp || zeropp_switch) s.zero.auto_zeropp = asked.zeropp.value_or(false);
    if (asked.tensor) s.parallel.auto_tensor = *asked.tensor;
    if (asked.pipeline) s.parallel.auto_pipeline = *asked.pipeline;
    if (asked.expert) s.parallel.auto_expert = *asked.expert;
    if (asked.ulysses) s.parallel.auto_ulysses = *asked.ulysses;
    if (asked_out) *asked_out = asked;
    return s;
}

Scenario scenario_from_args(const Args& a, ScenarioNotes* notes) { return build_scenario(a, notes, nullptr); }

Scenario scenario_from_args_over(const Args& a, const Scenario& base) { return build_scenario(a, nullptr, nullptr, &base); }

LintContext lint_context_from_args(const Args& a) {
    LintContext c;
    if (auto v = a.get(opt::gpus_per_node))
        c.gpus_per_node = parse_positive_int(*v, option_text(opt::gpus_per_node), limits::kGpusPerNode.max);
    if (a.has(opt::model) || a.has(opt::hf_config)) {
        // The preset or config.json, with --heads / --kv-heads over it as everywhere else.
        Scenario s = default_scenario();
        apply_model(a, s, nullptr);
        c.heads = s.model.heads;
        c.kv_heads = s.model.kv_heads;
        c.model_family = s.model.family;
        c.largest_layer = largest_layer_params(s.model);
        c.hidden = s.model.hidden;
    } else if (auto v = a.get(opt::heads)) {
        c.heads = parse_positive_int(*v, option_text(opt::heads), limits::kModelWidth.max);
        c.kv_heads = c.heads;
        if (auto kv = a.get(opt::kv_heads)) c.kv_heads = parse_positive_int(*kv, option_text(opt::kv_heads), limits::kModelWidth.max);
    } else if (a.has(opt::kv_heads)) {
        throw InputError("--kv-heads needs --heads (or --model / --hf-config)");
    }
    if (auto v = a.get(opt::seq)) c.seq_len = parse_positive_int(*v, option_text(opt::seq), limits::kSeqLen.max);
    return c;
}

FineTune finetune_from_args(const Args& a) {
    Scenario s = default_scenario();
    apply_finetune(a, s);
    return s.finetune;
}

}  // namespace zp::cli
