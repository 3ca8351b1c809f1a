#pragma once
// How Megatron-DeepSpeed's tensor and pipeline parallelism (Scenario::parallel) divide the model
// among the ranks: the parameters on the most loaded rank, what ZeRO then partitions over the
// data-parallel ranks (docs/design.md §4.11).
#include "core/model/scenario.h"
#include "core/model/trainable_params.h"

namespace zp {

// The share of the model's parameters on the most loaded rank: the pipeline stage with the
// input embedding (the first) or with the output layer (the last; with tied embeddings and more
// than one stage a second copy of the word embedding, Megatron's shared embedding group), its
// transformer layers L/p, all divided by the tensor-parallel size (column/row-parallel linears,
// vocabulary-parallel embedding; the layer norms, replicated, are neglected). 1 without model parallelism.
double model_parallel_share(const Scenario& s);

// parameter_split(s) on the most loaded rank (every field times model_parallel_share).
ParameterSplit rank_parameter_split(const Scenario& s);

}  // namespace zp
