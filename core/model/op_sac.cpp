#include "core/model/op_sac.h"

namespace zp {

BlockMatmuls block_matmuls(const ModelSpec& m) {
    const double h = static_cast<double>(m.hidden);
    const double q = static_cast<double>(m.heads * head_width(m));
    const double kv = static_cast<double>((m.kv_heads > 0 ? m.kv_heads : m.heads) * head_width(m));
    const double ffn = static_cast<double>(m.ffn);
    BlockMatmuls b;
    const auto add = [&b](double in, double out) { b.mm[static_cast<std::size_t>(b.count++)] = {in, out}; };
    if (m.fused_qkv) {
        add(h, q + 2 * kv);
    } else {
        add(h, q);
        add(h, kv);
        add(h, kv);
    }
    add(q, h);
    if (!m.gated_mlp) {
        add(h, ffn);
    } else if (m.fused_gate_up) {
        add(h, 2 * ffn);
    } else {
        add(h, ffn);
        add(h, ffn);
    }
    add(ffn, h);
    return b;
}

BlockMatmuls op_sac_recomputed(const ModelSpec& m) {
    const BlockMatmuls all = block_matmuls(m);
    BlockMatmuls out;
    for (int i = 0; i < all.count; ++i)
        if (!op_sac_saves(i)) out.mm[static_cast<std::size_t>(out.count++)] = all.mm[static_cast<std::size_t>(i)];
    return out;
}

OpSacKept op_sac_kept_per_token(const ModelSpec& m) {
    const BlockMatmuls b = block_matmuls(m);
    OpSacKept k;
    k.elements = static_cast<double>(m.hidden) + static_cast<double>(m.heads * head_width(m));  // input, attention output
    for (int i = 0; i < b.count; ++i)
        if (op_sac_saves(i)) k.elements += b.mm[static_cast<std::size_t>(i)].out;
    k.lse_fp32 = static_cast<double>(m.heads);
    return k;
}

}  // namespace zp
