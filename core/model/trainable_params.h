#pragma once
// What a fine-tuning method trains and what it freezes (docs/design.md §4.9): the trainable and
// frozen parameter counts as PEFT's print_trainable_parameters() reports them, and the bytes the
// frozen base takes as stored (16-bit, or quantised by bitsandbytes with its quantisation state).
#include "core/model/finetune.h"
#include "core/model/linear_modules.h"
#include "core/model/scenario.h"

#include <vector>

namespace zp {

struct ParameterSplit {
    double base = 0;          // the model's own parameters (parameter_count)
    double adapter = 0;       // LoRA's lora_A and lora_B over the adapted modules
    double saved_copies = 0;  // modules_to_save: PEFT trains a copy and keeps the original
    double trainable = 0;     // what the optimizer steps
    double frozen = 0;        // what it does not: the base (LoRA), or the frozen parts (full)
    double quantized = 0;     // of frozen: Linear weights stored in 8 or 4 bits
    // Bytes of the frozen parameters as stored, which ZeRO-3 partitions like any parameter, and
    // bitsandbytes' quantisation constants, which are module state (quant_state, SCB) and are not.
    double frozen_bytes = 0;
    double quant_state_bytes = 0;
    // Of trainable: the routed experts this rank holds under expert parallelism, which ZeRO
    // partitions over the expert-data-parallel group (core/model/experts.h); 0 without it.
    double expert = 0;

    // PEFT's "all params": the base, the adapters and the saved copies (peft_model.py
    // get_nb_trainable_parameters counts a Params4bit as numel x 2 x itemsize: the unpacked count).
    double peft_all() const { return base + adapter + saved_copies; }
};

// The modules LoRA adapts: the targets resolved against the model's Linear modules (PEFT matches
// a name when it is the module's own name). Throws InputError naming an unknown module.
std::vector<LinearModule> adapted_modules(const ModelSpec& m, const FineTune& f);

// The split of `s` under its fine-tuning method (the whole model trainable for plain full training).
ParameterSplit parameter_split(const Scenario& s);

// Bytes per frozen parameter a quantised base takes, quantisation state included: NF4/FP4 0.5 +
// absmax (fp32 per block, or with double quantisation 8-bit per block + fp32 per 256 blocks);
// int8 1 (+ a fp32 scale per output row, counted separately). 0 for an unquantised base.
double quantized_weight_bytes(const FineTune& f);

// Int8, NF4 or FP4: a base bitsandbytes quantises (QLoRA's); the others are 16-bit or the training dtype.
bool is_quantized_base(BasePrecision b);

// Whether the packed 4-bit weights are kept in the compute dtype: ZeRO-3 partitions them with the
// other parameters as tensors of one dtype (PEFT docs accelerate/deepspeed.md, "QLoRA with
// DeepSpeed ZeRO3"), and FSDP1 flattens a unit's parameters into one FlatParameter under every
// sharding strategy, NO_SHARD included (uint8 storage fails to flatten:
// huggingface/alignment-handbook#169); FSDP2 shards each parameter on its own, and PEFT's FSDP
// guide (accelerate/fsdp.md) writes the compute dtype for it too, which is what Auto resolves to.
// quant_storage_must_be_compute_dtype: where another storage fails (ZeRO-3, FSDP1).
bool quant_storage_shares_compute_dtype(const Scenario& s);
bool quant_storage_must_be_compute_dtype(const Scenario& s);

// The storage dtype bitsandbytes packs 4-bit weights in, Auto resolved: the compute dtype where the
// packed weights share it with the other parameters (above), uint8 (bitsandbytes' default) otherwise.
QuantStorage resolved_quant_storage(const FineTune& f, bool shares_compute_dtype, Precision p);

// Throws InputError for a fine-tuning setting that makes no sense for `s` (rank 0, a 4-bit base
// without QLoRA, more frozen layers than the model has, QLoRA at ZeRO-3 with a storage dtype other
// than the compute dtype, ...).
void validate_finetune(const Scenario& s);

}  // namespace zp
