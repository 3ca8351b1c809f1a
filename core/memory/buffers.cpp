#include "core/memory/buffers.h"

#include "core/model/layer_modules.h"
#include "core/model/trainable_params.h"

#include <algorithm>

namespace zp {

namespace {

// A rank's buffers when its modules are a `tensor`-th of the model's (tensor parallelism splits
// every linear and the vocabulary-parallel embedding). At ZeRO-3 the gathered set is the largest
// module's 16-bit parameter and, when it trains, its gradient (4 Lp, as DeepSpeed's
// estimate_zero3_model_states_mem_needs counts it), plus what the prefetch has in flight: the
// bucket capped by stage3_max_live_parameters, or the next layer module whole when it is larger
// (core/model/layer_modules.h). `gathered_elems`, when given, receives the elements of that set
// (largest module + prefetch) for the terms that scale with it.
BufferBytes rank_buffer_bytes(const ModelSpec& m, const Training& t, const ZeroSetup& z, double tensor, bool gradients,
                              double* gathered_elems) {
    const double elem = bytes_per_element(t.precision);  // communication dtype
    BufferBytes b;
    switch (z.stage) {
    case 0:
        // Data parallelism all-reduces gradients in reduce_bucket_size buckets.
        b.buckets = elem * z.reduce_bucket_elems;
        break;
    case 1:
    case 2:
        // ZeRO-1/2 allocate the reduce (ipg) and all-gather buckets at full size, whatever the
        // model size; overlap_comm multiplies them (see kOverlapCommBucketFactor).
        b.buckets = elem * (z.reduce_bucket_elems + z.allgather_bucket_elems) * (z.overlap_comm ? kOverlapCommBucketFactor : 1.0);
        break;
    default: {
        const double largest = static_cast<double>(largest_layer_params(m)) / tensor;
        const LayerModules modules = layer_modules(m, z);
        const double layer_module = modules.largest_params / tensor;
        const double prefetch = zero3_prefetch_elems(z, layer_module);
        b.gathered = (gradients ? 2.0 : 1.0) * elem * largest + elem * prefetch;
        b.buckets = elem * z.reduce_bucket_elems;  // the gradient reduce bucket
        if (gathered_elems) *gathered_elems = largest + prefetch;
        // Where the step is (Zero3Gathered): the vocabulary-parallel matrix is V x h / tensor.
        const double vocabulary = static_cast<double>(m.vocab) * static_cast<double>(m.hidden) / tensor;
        Zero3Gathered& at = b.gathered_at;
        at.layer = elem * layer_module;
        at.layer_gradient = gradients ? at.layer : 0.0;
        at.vocabulary = elem * vocabulary;
        at.vocabulary_gradient = gradients ? at.vocabulary : 0.0;
        at.layer_prefetch = elem * prefetch;
        at.vocabulary_prefetch = elem * zero3_prefetch_elems(z, vocabulary);
        at.layer_elems = modules.layer_params;
        at.prefetch_fills_max_live = zero3_prefetch_fills_max_live(m, z, modules);
        break;
    }
    }
    return b;
}

}  // namespace

BufferBytes buffer_bytes(const ModelSpec& m, const Training& t, const ZeroSetup& z) {
    return rank_buffer_bytes(m, t, z, 1.0, true, nullptr);
}

namespace {
// QLoRA: the Linear being computed, dequantised to the compute dtype (largest first), whatever the engine.
double dequantized_bytes(const Scenario& s) {
    if (s.finetune.method != FineTuneMethod::Qlora) return 0;
    double largest_linear = 0;
    for (const LinearModule& l : linear_modules(s.model))
        if (bnb_quantizes(l)) largest_linear = std::max(largest_linear, static_cast<double>(l.in) * static_cast<double>(l.out));
    return bytes_per_element(s.training.precision) * largest_linear;
}
}  // namespace

BufferBytes buffer_bytes(const Scenario& s) {
    // PyTorch FSDP has no DeepSpeed buckets or module gathers: its gathered units are placed by the
    // step timeline (core/memory/fsdp_memory.h fsdp_units), the one home of that set.
    if (is_fsdp(s.fsdp)) {
        BufferBytes b;
        b.dequantized = dequantized_bytes(s);
        return b;
    }
    const ZeroSetup& z = s.zero;
    const FineTune& f = s.finetune;
    // With a frozen base the gathered modules make no gradient.
    double gathered_elems = 0;
    BufferBytes b = rank_buffer_bytes(s.model, s.training, z, static_cast<double>(std::max<std::int64_t>(s.parallel.tensor, 1)),
                                      !f.adapters(), &gathered_elems);
    if (z.stage != 3 && !f.adapters()) return b;  // nothing below depends on more (the search's common case)
    b.dequantized = dequantized_bytes(s);
    const ZeroPlusPlus zpp = effective_zeropp(s);
    if (zpp.quantized_weights) {
        // qwZ (partition_parameters.py all_gather_coalesced with quantize): each module is gathered
        // as int8 (1 byte an element, its scales negligible) and dequantised into the 16-bit
        // parameter, so the gathered set has an int8 twin while it lands.
        b.gathered += gathered_elems;
        const double elem_bytes = bytes_per_element(s.training.precision);
        Zero3Gathered& at = b.gathered_at;
        for (double* weights : {&at.layer, &at.vocabulary, &at.layer_prefetch, &at.vocabulary_prefetch})
            *weights *= (elem_bytes + 1.0) / elem_bytes;
    }
    if (zpp.quantized_gradients) {
        // qgZ (runtime/comm/coalesced_collectives.py all_to_all_quant_reduce), per reduce bucket:
        // the int4 swizzled copy and the intra-node all-to-all output (0.5 byte an element each),
        // the reduced int4 partition and its inter-node output (0.5 / GPUs per node each), and the
        // dequantised fp16 result of the node's share (2 / nodes).
        const double g = static_cast<double>(std::max<std::int64_t>(s.cluster.gpus_per_node, 1));
        const double n = static_cast<double>(std::max<std::int64_t>(s.cluster.nodes, 1));
        b.quantized_reduce = z.reduce_bucket_elems * (0.5 + 0.5 + 2 * 0.5 / g + 2.0 / n);
    }
    return b;
}

}  // namespace zp
