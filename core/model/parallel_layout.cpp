#include "core/model/parallel_layout.h"

#include "core/model/model_spec.h"

#include <algorithm>
#include <cmath>

namespace zp {

double model_parallel_share(const Scenario& s) {
    const Parallelism& p = s.parallel;
    if (p.model_parallel() <= 1) return 1.0;
    const ModelSpec& m = s.model;
    const double P = static_cast<double>(parameter_count(m));
    if (P <= 0) return 1.0;
    const double h = static_cast<double>(m.hidden);
    const double word = static_cast<double>(m.vocab) * h;
    const double input = word + static_cast<double>(m.positions) * h;
    const double head = m.tied_embeddings ? 0.0 : word;
    const double layers = std::max(0.0, P - input - head);
    double stage = P;
    if (p.pipeline > 1) {
        // The most loaded stage's layers: the ceiling of L/p when they do not divide.
        const double L = static_cast<double>(std::max<std::int64_t>(m.layers, 1));
        const double stage_layers = layers * std::ceil(L / static_cast<double>(p.pipeline)) / L;
        const double first = input + stage_layers;
        const double last = stage_layers + word;  // the output layer, or the tied embedding's copy
        stage = std::max(first, last);
    }
    return stage / static_cast<double>(p.tensor) / P;
}

ParameterSplit rank_parameter_split(const Scenario& s) {
    ParameterSplit out = parameter_split(s);
    const double f = model_parallel_share(s);
    if (f == 1.0) return out;
    for (double* v : {&out.base, &out.adapter, &out.saved_copies, &out.trainable, &out.frozen, &out.quantized, &out.frozen_bytes,
                      &out.quant_state_bytes})
        *v *= f;
    return out;
}

}  // namespace zp
