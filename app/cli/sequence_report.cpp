#include "app/cli/sequence_report.h"

#include "core/base/format.h"
#include "core/memory/memory_model.h"
#include "core/model/enum_names.h"
#include "core/model/mics.h"
#include "core/model/parallel_layout.h"
#include "core/search/scenario_edits.h"
#include "core/search/zero_setups.h"

#include <nlohmann/json.hpp>

#include <sstream>

namespace zp::cli {
namespace {

std::string limit_words(const Scenario& s, const SequenceCeiling& c) {
    const std::int64_t next = c.max_seq_len + sequence_granularity(s);
    switch (c.limit) {
    case SequenceLimit::GpuMemory: return "GPU memory at " + format_count(static_cast<double>(next)) + " tokens";
    case SequenceLimit::HostMemory: return "host RAM at " + format_count(static_cast<double>(next)) + " tokens";
    case SequenceLimit::Nvme: return "NVMe at " + format_count(static_cast<double>(next)) + " tokens";
    case SequenceLimit::KernelIndex:
        return "int32 kernel indexing at " + format_count(static_cast<double>(kernel_index_limit_seq_len(s))) +
               " tokens (2^31 elements of a rank's [tokens x hidden]; --kernel-index int64 with FlashAttention-3 and "
               "Liger-Kernel >= #804)";
    case SequenceLimit::Ceiling: return "the planner's longest sequence";
    }
    return {};
}

// "tensor 8 x pipeline 4 x data 32", or "data parallel" where the layout is that alone.
std::string layout_or_data(const Scenario& s) {
    const std::string words = layout_words(s);
    return words.empty() ? std::string("data parallel") : words;
}

}  // namespace

std::string sequence_ceiling_text(const Scenario& scenario, const SequenceCeiling& c) {
    const Scenario s = at_ceiling_degree(scenario, c);
    std::ostringstream o;
    const std::string setup = setup_label(c.setup, s.fsdp.engine, fsdp_hybrid_sharding(s));
    if (c.max_seq_len <= 0) {
        o << "Longest sequence: none fits with " << setup << ", not even " << format_count(static_cast<double>(sequence_granularity(s)))
          << " tokens (" << to_string(c.limit) << ")\n";
        return o.str();
    }
    const Scenario at = at_sequence_length(with_setup(s, c.setup), c.max_seq_len);
    o << "Longest sequence: " << format_count(static_cast<double>(c.max_seq_len)) << " tokens with " << setup << " (steps of "
      << format_count(static_cast<double>(sequence_granularity(s))) << "); stopped by " << limit_words(s, c) << "\n";
    o << "  at that length: " << format_bytes(c.at_max.memory.peak_required_bytes) << " of " << format_bytes(usable_gpu_bytes(at))
      << " per GPU must fit, host RAM " << format_bytes(c.at_max.memory.cpu_bytes_per_node) << " of "
      << format_bytes(at.cluster.cpu_ram_bytes_per_node) << " per node; step " << format_seconds(c.at_max.step.seconds) << ", "
      << format_count(c.at_max.step.tokens_per_second) << " tokens/s\n";
    return o.str();
}

std::string sequence_search_text(const Scenario& s, const SequenceSearch& r) {
    std::ostringstream o;
    if (r.layouts_searched)
        o << "Longest sequence per setup, at the layout that reaches furthest (steps of " << kSequenceGranuleTokens
          << " x the Ulysses degree):\n";
    else if (r.ulysses_searched)
        o << "Longest sequence per setup, at the DeepSpeed-Ulysses degree that reaches furthest (steps of " << kSequenceGranuleTokens
          << " x the degree):\n";
    else o << "Longest sequence per setup (steps of " << format_count(static_cast<double>(r.granularity)) << " tokens):\n";
    for (const SequenceCeiling& c : r.per_setup) {
        std::string label = setup_label(c.setup, s.fsdp.engine, fsdp_hybrid_sharding(s));
        if (label.size() < 40) label.append(40 - label.size(), ' ');
        o << "  " << label;
        if (c.max_seq_len <= 0) {
            o << "none fits (" << to_string(c.limit) << ")\n";
            continue;
        }
        std::string len = format_count(static_cast<double>(c.max_seq_len));
        if (len.size() < 12) len.insert(0, 12 - len.size(), ' ');
        o << len << "  " << format_seconds(c.at_max.step.seconds) << ", " << format_count(c.at_max.step.tokens_per_second)
          << " tokens/s; then " << to_string(c.limit);
        if (r.layouts_searched) o << " (" << layout_or_data(at_ceiling_degree(with_setup(s, c.setup), c)) << ")";
        else if (r.ulysses_searched) o << " (Ulysses " << c.ulysses << ")";
        o << "\n";
    }
    if (r.longest < 0) o << "No setup fits a sequence of " << format_count(static_cast<double>(r.granularity)) << " tokens.\n";
    else o << "\n" << sequence_ceiling_text(s, r.per_setup[static_cast<std::size_t>(r.longest)]);
    return o.str();
}

nlohmann::json sequence_ceiling_json(const Scenario& scenario, const SequenceCeiling& c) {
    const Scenario s = at_ceiling_degree(scenario, c);
    nlohmann::json j;
    j["stage"] = c.setup.stage;
    j["offload_optimizer"] = to_string(c.setup.offload_optimizer);
    j["offload_param"] = to_string(c.setup.offload_param);
    j["setup"] = setup_label(c.setup, s.fsdp.engine, fsdp_hybrid_sharding(s));
    j["max_seq_len"] = c.max_seq_len;
    j["limit"] = to_string(c.limit);
    j["ulysses"] = c.ulysses;
    j["tensor"] = s.parallel.tensor;
    j["pipeline"] = s.parallel.pipeline;
    j["granularity"] = sequence_granularity(s);
    const std::int64_t index_limit = kernel_index_limit_seq_len(s);
    j["kernel_index_limit_seq_len"] = index_limit > 0 ? nlohmann::json(index_limit) : nlohmann::json(nullptr);
    if (c.max_seq_len > 0) {
        j["per_gpu_required_bytes"] = static_cast<std::int64_t>(c.at_max.memory.peak_required_bytes);
        j["cpu_bytes_per_node"] = static_cast<std::int64_t>(c.at_max.memory.cpu_bytes_per_node);
        j["step_seconds"] = round_to(c.at_max.step.seconds, 4);
        j["tokens_per_second"] = round_to(c.at_max.step.tokens_per_second, 1);
    }
    return j;
}

nlohmann::json sequence_search_json(const Scenario& s, const SequenceSearch& r) {
    nlohmann::json j;
    j["granularity"] = r.granularity;
    j["ulysses_searched"] = r.ulysses_searched;
    j["layouts_searched"] = r.layouts_searched;
    j["per_setup"] = nlohmann::json::array();
    for (const SequenceCeiling& c : r.per_setup) j["per_setup"].push_back(sequence_ceiling_json(s, c));
    j["longest"] = r.longest < 0 ? nlohmann::json(nullptr) : sequence_ceiling_json(s, r.per_setup[static_cast<std::size_t>(r.longest)]);
    return j;
}

}  // namespace zp::cli
