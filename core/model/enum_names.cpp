#include "core/model/enum_names.h"
#include "core/base/phrase.h"

#include <cctype>
#include <string>

namespace zp {
namespace {

template <class E>
const char* name_of(E value) {
    for (const auto& n : EnumVocabulary<E>::names)
        if (n.value == value) return n.name;
    return "?";  // only for a value cast from an out-of-range integer
}

}  // namespace

const char* to_string(Precision p) { return name_of(p); }
const char* to_string(Optimizer o) { return name_of(o); }
const char* to_string(OptimizerStorage o) { return name_of(o); }

OptimizerStorage optimizer_storage_named(std::string_view text) {
    std::string l(text);
    for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const auto has = [&](std::string_view w) { return l.find(w) != std::string::npos; };
    const bool paged = has("paged");
    const bool eight = has("8bit") || has("8-bit") || has("8 bit");
    if (paged) return eight ? OptimizerStorage::PagedEightBit : OptimizerStorage::Paged;
    return eight ? OptimizerStorage::EightBit : OptimizerStorage::Standard;
}
const char* to_string(Checkpointing c) { return name_of(c); }
const char* to_string(OffloadDevice d) { return name_of(d); }
const char* to_string(Convention c) { return name_of(c); }
const char* to_string(NormKind n) { return name_of(n); }
const char* to_string(MlpActivation a) { return name_of(a); }
const char* to_string(LossKernel k) { return name_of(k); }
const char* to_string(GradientAccumulation g) { return name_of(g); }
const char* to_string(AttentionSoftmax a) { return name_of(a); }
const char* to_string(LmHead h) { return name_of(h); }
const char* to_string(Fp8Scaling f) { return name_of(f); }
const char* to_string(StepPhase p) { return name_of(p); }
const char* to_string(HostPhase p) { return name_of(p); }
const char* to_string(FineTuneMethod m) { return name_of(m); }
const char* to_string(BasePrecision b) { return name_of(b); }
const char* to_string(LoraTargets t) { return name_of(t); }
const char* to_string(QuantStorage q) { return name_of(q); }
const char* to_string(Engine e) { return name_of(e); }
const char* to_string(FsdpPrecision p) { return name_of(p); }
const char* to_string(PipelineSend p) { return name_of(p); }
const char* to_string(Job j) { return name_of(j); }

const char* host_phase_words(HostPhase p) {
    switch (p) {
    case HostPhase::Loading: return QT_TRANSLATE_NOOP("Core", "while loading the model");
    case HostPhase::Initialize: return QT_TRANSLATE_NOOP("Core", "in deepspeed.initialize");
    case HostPhase::Training: return QT_TRANSLATE_NOOP("Core", "during training (from the first optimizer step on)");
    case HostPhase::CheckpointSave: return QT_TRANSLATE_NOOP("Core", "while saving a checkpoint");
    }
    return "?";
}

}  // namespace zp
