#!/usr/bin/env python3
"""Hand calculations behind the literal expectations in tests/core.

Written from docs/design.md §4 (memory) and §5 (step time), nccl-tests doc/PERFORMANCE.md, Korthikanti et al. 2022
(arXiv 2205.05198), the ZeRO, ZeRO-Offload and ZeRO-Infinity papers and DeepSpeed's estimators and
swap buffers -- never from the C++ sources, and never by printing what the code returns. Run it to
see the numbers the tests hold as literals:

  tst_step_time.cpp      nccl_tests_times                            ("collectives")
  tst_memory_model.cpp   hand_computed_breakdown                     ("the slices' formulas")
  tst_host_memory.cpp    phases, nvme, pinned rounding               ("host RAM over a run")
  tst_step_timeline.cpp  the ZeRO-3 reuse distance (H12)             ("step timeline")
  tst_finetune.cpp       LoRA and QLoRA counts                       ("LoRA and QLoRA")
  tst_model_spec.cpp     preset counts and largest modules           ("model presets")

Every figure a test holds is printed through hold(test, value); `--check ROOT` then finds each in
its test file under ROOT/tests/core as a numeric literal outside comments, to the precision the
literal is written with (CTest runs it: structure.hand_calculations). A figure the tests no longer
hold fails the check: drop it here, or put the literal back in the test.

When a test and this script disagree, decide which one is wrong from the sources above; do not
copy the code's output into either.
"""
import re
import sys
from math import ceil, floor
GiB = 2**30

# (test file, what, value) for every figure a test holds as a literal: --check finds each there.
# A zero is not looked for: any 0.0 of the test would do.
HELD = []
def hold(test, what, value):
    if value != 0:
        HELD.append((test, what, value))
    return value

# ---- GPT-2 124M (HF openai-community/gpt2 config.json): published count and largest module
L, h, a, V, pos = 12, 768, 12, 50257, 1024
P_gpt2 = 124_439_808            # HF model card / sum of numel
Lp_gpt2 = V * h                 # wte, 38,597,376 (anchors/hf/expected.json)
# Cross-check the published count from the architecture (biases, LayerNorm weight+bias, tied head):
arch = V*h + pos*h + L*(2*h + (h*3*h + 3*h) + (h*h + h) + 2*h + (h*4*h + 4*h) + (4*h*h + h)) + 2*h
assert arch == P_gpt2, arch
assert Lp_gpt2 == 38_597_376

def ring(kind, S, N, B_GBps):
    if N <= 1: return 0.0
    f = 2 if kind == 'allreduce' else 1
    return f * (N - 1) / N * S / (B_GBps * 1e9)

print("== collectives: S = 1e9 bytes, bus bandwidth 100 GB/s")
for N in (1, 2, 3, 8, 64):
    print(N, repr(hold('tst_step_time.cpp', f'all-reduce on {N}', ring('allreduce', 1e9, N, 100))),
          repr(hold('tst_step_time.cpp', f'reduce-scatter on {N}', ring('rs', 1e9, N, 100))))

print("== the slices' formulas (the step timeline's inputs), GPT-2 124M, seq 1024, bf16 AdamW, DeepSpeed convention, buckets 2e8")
def acts(s, b, ckpt, flash):
    sbh = s * b * h
    full_layer = sbh * 34 + (0 if flash else 5 * a * s * s * b)   # Korthikanti Table 2
    emb = s * b * (4 * h + 6 * V)                                     # docs/design.md §4.3: final norm + head inputs, 16-bit + fp32 logits
    if ckpt == 'none': return L * full_layer + emb
    if ckpt == 'selective': return L * 34 * sbh + emb
    return L * 2 * sbh + full_layer + emb                             # full: 2sbh kept per layer + one layer rebuilt
def mem(name, nodes, g, stage, oo, op, micro, ckpt, flash, overlap=True):
    P, Lp = P_gpt2, Lp_gpt2
    N = nodes * g; n = nodes
    os_share = 1/N if stage >= 1 else 1; g_share = 1/N if stage >= 2 else 1; p_share = 1/N if stage >= 3 else 1
    params = 2 * P * p_share
    grads = (0 if stage == 3 else 2 * P * g_share) + 4 * P * os_share
    opt = 12 * P * os_share
    if oo != 'none': grads = opt = 0
    if op != 'none': params = 0
    act = acts(1024, micro, ckpt, flash)
    if stage == 0: buf = 2 * 2e8
    elif stage in (1, 2): buf = 2 * (2e8 + 2e8) * (4.5 if overlap else 1)
    else: buf = 2 * 2 * Lp + 2 * min(5e7, 1e9) + 2 * 2e8
    cpu = max(host_run(P, Lp, g, n, stage, oo, op, factor=tensor_factor(768, 12, 12, 3072, 50257, 12, N, 2, fused_qkv=True)).values())
    print(name)
    for k, v in dict(params=params, grads=grads, opt=opt, act=act, buf=buf, cpu=cpu).items():
        print('   ', k, repr(hold('tst_memory_model.cpp', f'{name.split()[0]} {k}', v)))

print("== host RAM over a run, per node (docs/design.md §4.6): DeepSpeed v0.19.6 allocations, transformers from_pretrained")
# Read from DeepSpeed's stage_1_and_2.py / stage3.py / swap_tensor, transformers' modeling_utils.py and
# PyTorch's CachingHostAllocator (power-of-two rounding of pinned blocks); see docs/design.md §4.6.
PROC, WORKER, SHARD = 2.06e9, 0.322e9, 5e9
def pow2(x):
    if x <= 1: return max(x, 0)
    p = 1
    while p < x: p *= 2
    return p
def pinned(x, pin): return pow2(x) if pin else x
def tensor_factor(hid, heads, kv, ffn, vocab, layers, parts, w, fused_qkv=False, gated=False, hd=None):
    hd = hd or hid // heads
    mats = ([hid * (heads + 2 * kv) * hd] if fused_qkv else [hid * heads * hd, hid * kv * hd, hid * kv * hd]) + [heads * hd * hid]
    mats += [hid * ffn] * (2 if gated else 1) + [ffn * hid]
    plain = sum(layers * ceil(m / parts) * w for m in mats) + ceil(vocab * hid / parts) * w
    pin = sum(layers * pow2(ceil(m / parts) * w) for m in mats) + pow2(ceil(vocab * hid / parts) * w)
    return pin / plain
def host_run(P, Lp, g, n, stage, oo, op, w=2, pin=True, gas=1, zero_init=True, load16=False, lowmem=False, workers=0,
             moments=8, gpu_gib=80.0, ctx=2**30, factor=1.0, sub_group=1e9, gather=True):
    N = g * n; Pr = P / N
    proc = g * PROC
    model = P * (2 if load16 else 4); shard = min(model, SHARD)
    if stage == 3 and zero_init:                                      # op nvme: Init's swap pool, 5 x 1e8 16-bit elements
        loading = proc + g * shard + (g * w * Pr * (factor if pin else 1) if op == 'cpu' else 0) + (g * 5 * 1e8 * w if op == 'nvme' else 0)
    else:
        loading = proc + g * (model + (0 if lowmem else shard))
    last = 0; nvme = 0; moment_bytes = 0; accum = 0
    if stage in (1, 2) and oo == 'cpu':
        last = g * (pinned(4 * Pr, pin) + pinned(4 * Pr, pin) + pinned(w * Pr, pin) + pinned(w * Lp, pin))
        moment_bytes = g * moments * Pr
        if gas > 1: accum = g * w * Pr * (factor if pin else 1)    # made in the first backward
    if stage == 3:
        full = int(Pr // sub_group) if Pr > sub_group else 0
        rem = Pr - full * sub_group
        largest = sub_group if full else rem
        if op == 'cpu':
            last += g * pow2(w * Pr) + (g * w * Pr * factor if pin else 0)
        if op == 'nvme':
            inc = min(Pr, 1e9)                                          # max_in_cpu
            last += g * pow2(w * inc) + g * 5 * 1e8 * w
            nvme += g * w * (Pr - inc)
        if oo == 'cpu':
            moment_bytes = g * moments * Pr
            last += g * 4 * Pr + g * (full * pinned(4 * sub_group, pin) + pinned(4 * rem, pin)) + g * pinned(w * Pr, pin)
        if oo == 'nvme':
            last += g * 4 * largest * 4 + g * 4 * largest + g * pinned(w * Pr, pin)
            nvme += g * (4 + moments + 4) * Pr
    training = proc + g * workers * WORKER + last + moment_bytes + accum
    # initialize, per rank: the partitions at its end, or a moment before they exist, whichever is more
    top = last / g
    if oo == 'cpu' and stage == 3: top += 4 * largest * 2              # conversion + gradient buffer on top
    if oo == 'cpu' and stage in (1, 2) and pin:                       # pinned master beside its pageable copy
        top = max(top, pow2(4 * Pr) + 4 * Pr)
    if stage in (1, 2) and 2 * w * P + ctx > gpu_gib * GiB:           # flattening: cpu_data + flat buffer
        top = max(top, 2 * w * P)
    init = proc + g * top
    model_save = (w * P if gather else 0) if stage == 3 else g * w * P
    opt_save = (g * 4 * Pr if stage > 0 else 4 * P) if oo == 'none' else 0
    save = training + max(model_save, opt_save)
    return dict(loading=loading, initialize=init, training=training, save=save, nvme=nvme)
P_t5_3b, Lp_t5_3b = 2_851_598_336, 32128 * 1024
P_t5_11b = 11_307_321_344
print('T5-3B per-tensor factor, 1 part (d_kv 128):', repr(tensor_factor(1024, 32, 32, 16384, 32128, 48, 1, 2, hd=128)))
for name, args in [
    ('H1 t5-3b 1x1 ZeRO-2 cpu, pinned, gas 1 (M21 today)', dict(P=P_t5_3b, Lp=Lp_t5_3b, g=1, n=1, stage=2, oo='cpu', op='none', gpu_gib=24.0)),
    ('H2 t5-3b 1x1 ZeRO-2 cpu, pageable, gas 1 (M21 in 2021)', dict(P=P_t5_3b, Lp=Lp_t5_3b, g=1, n=1, stage=2, oo='cpu', op='none', pin=False, gpu_gib=24.0)),
    ('H3 t5-11b 1x1 ZeRO-2 cpu, pageable, gas 1 (H01)', dict(P=P_t5_11b, Lp=Lp_t5_3b, g=1, n=1, stage=2, oo='cpu', op='none', pin=False, gpu_gib=40.0)),
    ('H4 gpt2 1x8 ZeRO-2 no offload', dict(P=P_gpt2, Lp=Lp_gpt2, g=8, n=1, stage=2, oo='none', op='none')),
    ('H5 gpt2 1x8 ZeRO-3 no offload, zero.Init', dict(P=P_gpt2, Lp=Lp_gpt2, g=8, n=1, stage=3, oo='none', op='none')),
    ('H6 gpt2 2x8 ZeRO-3 cpu both, pinned', dict(P=P_gpt2, Lp=Lp_gpt2, g=8, n=2, stage=3, oo='cpu', op='cpu',
                                                factor=tensor_factor(768, 12, 12, 3072, 50257, 12, 16, 2, fused_qkv=True))),
    ('H7 llama-2-70b 1x8 ZeRO-3 opt nvme, zero.Init', dict(P=68_976_648_192, Lp=32000 * 8192, g=8, n=1, stage=3, oo='nvme', op='none')),
    ('H8 gpt2 1x8 ZeRO-2 no offload, 16-bit load, low_cpu_mem_usage, 2 workers', dict(P=P_gpt2, Lp=Lp_gpt2, g=8, n=1, stage=2, oo='none', op='none', load16=True, lowmem=True, workers=2)),
    ('H10 llama-2-70b 1x8 ZeRO-3 both nvme, zero.Init', dict(P=68_976_648_192, Lp=32000 * 8192, g=8, n=1, stage=3, oo='nvme', op='nvme')),
    ('H11 llama-2-70b 1x8 ZeRO-2 cpu, pinned, 16-bit low-mem load, gas 4 (flattening on the host)', dict(P=68_976_648_192, Lp=32000 * 8192, g=8, n=1, stage=2, oo='cpu', op='none', load16=True, lowmem=True, gas=4,
                                                factor=tensor_factor(8192, 64, 8, 28672, 32000, 80, 1, 2, gated=True))),
    ('H13 t5-3b 1x1 ZeRO-3 opt nvme (the advice for H1 on a 48 GiB node)', H13 := dict(P=P_t5_3b, Lp=Lp_t5_3b, g=1, n=1, stage=3, oo='nvme', op='none', gpu_gib=24.0)),
]:
    phases = host_run(**args)
    # tst_host_memory holds every phase of H1-H10; of H11 the two the flattening decides; of H13
    # the peak the advice names (and its NVMe in GiB, below).
    held = {'H11': ('initialize', 'training'), 'H13': ('save',)}.get(name.split()[0], phases.keys())
    print(name, {k: repr(hold('tst_host_memory.cpp', f'{name.split()[0]} {k}', v) if k in held else v) for k, v in phases.items()})
print('H13 NVMe per node:', hold('tst_host_memory.cpp', 'H13 NVMe, GiB', round(host_run(**H13)['nvme'] / GiB, 1)), 'GiB')
f70 = tensor_factor(8192, 64, 8, 28672, 32000, 80, 8, 2, gated=True)
print('H9 llama-2-70b 1x8 ZeRO-3 cpu both, pinned (tst_recommender)', f70,
      {k: repr(v / 2**40) + ' TiB' for k, v in host_run(P=68_976_648_192, Lp=32000 * 8192, g=8, n=1, stage=3, oo='cpu', op='cpu', factor=f70).items()})
print('GPT-2 per-tensor factor, 16 parts:', repr(hold('tst_host_memory.cpp', 'GPT-2 per-tensor factor', tensor_factor(768, 12, 12, 3072, 50257, 12, 16, 2, fused_qkv=True))))

mem('M1 1x8 ZeRO-2 micro 1 no recompute no flash', 1, 8, 2, 'none', 'none', 1, 'none', False)
mem('M2 1x8 ZeRO-3 micro 2 full recompute flash', 1, 8, 3, 'none', 'none', 2, 'full', True)
mem('M3 2x8 ZeRO-3+CPU both, micro 4 selective', 2, 8, 3, 'cpu', 'cpu', 4, 'selective', False)
mem('M4 1x1 DDP micro 1 none flash', 1, 1, 0, 'none', 'none', 1, 'none', True)

print("== activations, GPT-2 124M, seq 1024 (tests/core/tst_memory_model.cpp)")
# transformers' gelu_new (activations.py NewGELUActivation: 0.5 * x * (1.0 + torch.tanh(...))): autograd
# keeps tanh's output, 1 + tanh and 0.5 * x, three 16-bit tensors of 4h per token a layer more.
print('gelu_new extra, micro 1: none', hold('tst_memory_model.cpp', 'gelu_new extra, no recompute', L * 1024 * 3 * 2 * 4 * h),
      'full (one layer)', hold('tst_memory_model.cpp', 'gelu_new extra, full recompute', 1024 * 3 * 2 * 4 * h))
print('acts micro1 none', hold('tst_memory_model.cpp', 'activations, micro 1, no recompute', acts(1024, 1, 'none', False)))

print("== step timeline (tests/core/tst_step_timeline.cpp)")
P7 = 6738415616
print('torch AdamW temporary, LLaMA-7B ZeRO-2 on 8:', 4 * P7 / 8, 'bytes =',
      hold('tst_step_timeline.cpp', 'torch AdamW temporary, GiB', round(4 * P7 / 8 / GiB, 2)), 'GiB (the trace: 3.14 GiB)')
for N in (8, 64):
    print('ZeRO-1/2 start-up on', N, ': fp32 gradient zeros 4P/N =', 4 * P7 / N, ', weights + master + moments 2P + 12P/N =', 2 * P7 + 12 * P7 / N)
P13 = 13015864320
print('ZeRO-3 llama-2-13b on 64, no zero.Init: 2P =', 2 * P13, '; zero.Init: 20P/64 + 2 x 2e8 =', 20 * P13 / 64 + 2 * 2e8)
sbV = 8192 * 128256
print('Llama-3-8B loss at 8192 tokens: sbV =', sbV, '; up-cast backward 12 sbV =', 12 * sbV, '; without 6 sbV =', 6 * sbV)
print('ZeRO-2 ipg buffers with overlap_comm, 2e8 elements:', 2 * 2 * 2e8)

print("== LoRA and QLoRA parameter counts (tests/core/tst_finetune.cpp)")
# A Linear(in, out) with a rank-r adapter adds r x (in + out) (lora_A r x in, lora_B out x r, no bias).
h, f, L = 4096, 11008, 32                                     # Llama-2 7B
P7 = 6_738_415_616
def lora(what, count): return hold('tst_finetune.cpp', what, count)
print('llama-2-7b r8 q,v', lora('llama-2-7b r8 q,v', L * 2 * 8 * (h + h)), 'all', lora('llama-2-7b r8 q,v with the base', P7 + L * 2 * 8 * (h + h)))
print('llama-2-7b r16 all-linear', lora('llama-2-7b r16 all-linear', L * 16 * (4 * 2 * h + 3 * (h + f))))
print('llama-2-7b r16 attention', lora('llama-2-7b r16 attention', L * 4 * 16 * 2 * h))
print('llama-2-7b r64 all-linear (QLoRA)', lora('llama-2-7b r64 all-linear', L * 64 * (4 * 2 * h + 3 * (h + f))))
lin = L * (4 * h * h + 3 * h * f)
print('llama-2-7b quantised linear weights', lora('llama-2-7b quantised linear weights', lin), 'rest', lora('llama-2-7b the rest', P7 - lin),
      'nf4 bytes', lin * 0.5 + (P7 - lin) * 2, 'absmax dq', lin * (1 / 64 + 4 / (64 * 256)))
print('mixtral r8 all-linear', lora('mixtral r8 all-linear', 32 * 8 * (2 * 4096 + 2 * (4096 + 1024) + 2 * 4096) + 32 * 8 * (4096 + 8) + 32 * 8 * 8 * 3 * (4096 + 14336)))
print('mt0-large r8 q,v', lora('mt0-large r8 q,v', (24 + 48) * 2 * 8 * (1024 + 1024)))
print('gpt2 r8 c_attn', lora('gpt2 r8 c_attn', 12 * 8 * (768 + 2304)), 'r4 c_proj (both)', lora('gpt2 r4 c_proj', 12 * 4 * (768 + 768) + 12 * 4 * (3072 + 768)))
print('llama-2-7b block', lora('llama-2-7b block', 4 * h * h + 3 * h * f + 2 * h), 'embedding', lora('llama-2-7b embedding', 32000 * h))

print("== model presets (tests/core/tst_model_spec.cpp)")
# Every preset's count, module by module as transformers builds the model from its config.json
# (sum of numel over model.parameters(), a tied LM head once). The dimensions are the config.json
# values quoted in core/presets/model_presets.cpp; the module lists are the transformers modeling
# files: models/llama (q/k/v/o_proj, gate/up/down_proj, input_layernorm + post_attention_layernorm,
# final norm), models/qwen2 (bias on q/k/v_proj only), models/gemma2 (four RMSNorms per layer),
# models/phi3 (qkv_proj, gate_up_proj: the same numel as separate modules), models/mistral,
# models/mixtral (block_sparse_moe.gate h x E, E experts w1/w3/w2), models/olmo2 (q_norm over
# heads*head_dim, k_norm over kv_heads*head_dim, post_attention_layernorm +
# post_feedforward_layernorm), models/deepseek_v2 (MLA and DeepseekV2MoE). RMSNorm: a weight.
def decoder(L, h, a, kv, f, V, tied, hd=None, qkv_bias=False, norms=2, qk_norm=False, E=1):
    hd = hd or h // a
    q, k = a * hd, kv * hd
    attn = h * q + h * k + h * k + q * h          # q_proj, k_proj, v_proj, o_proj
    if qkv_bias: attn += q + k + k
    if qk_norm: attn += q + k                      # q_norm, k_norm
    mlp = 3 * h * f                                # gate, up, down
    if E > 1: mlp = E * mlp + h * E                # experts + router
    return V * h + L * (attn + mlp + norms * h) + h + (0 if tied else V * h)

def deepseek_v2(L, h, a, V, f, mf, E, S, first, q_lora, kv_lora, nope, rope, v, tied=False):
    qk = nope + rope
    q = h * a * qk if q_lora == 0 else h * q_lora + q_lora + q_lora * a * qk   # q_proj | q_a_proj, q_a_layernorm, q_b_proj
    attn = q + h * (kv_lora + rope) + kv_lora + kv_lora * a * (nope + v) + a * v * h
    dense = 3 * h * f                              # DeepseekV2MLP(intermediate_size)
    moe = E * 3 * h * mf + h * E + 3 * h * (S * mf)  # experts, gate, shared_experts (one MLP of S*mf)
    return V * h + L * (attn + 2 * h) + first * dense + (L - first) * moe + h + (0 if tied else V * h)

presets = {
    'llama-3.1-8b': decoder(32, 4096, 32, 8, 14336, 128256, False),
    'llama-3.1-70b': decoder(80, 8192, 64, 8, 28672, 128256, False),
    'llama-3.1-405b': decoder(126, 16384, 128, 8, 53248, 128256, False),
    'llama-3.2-1b': decoder(16, 2048, 32, 8, 8192, 128256, True, hd=64),
    'llama-3.2-3b': decoder(28, 3072, 24, 8, 8192, 128256, True, hd=128),
    'qwen2.5-0.5b': decoder(24, 896, 14, 2, 4864, 151936, True, qkv_bias=True),
    'qwen2.5-1.5b': decoder(28, 1536, 12, 2, 8960, 151936, True, qkv_bias=True),
    'qwen2.5-3b': decoder(36, 2048, 16, 2, 11008, 151936, True, qkv_bias=True),
    'qwen2.5-7b': decoder(28, 3584, 28, 4, 18944, 152064, False, qkv_bias=True),
    'qwen2.5-14b': decoder(48, 5120, 40, 8, 13824, 152064, False, qkv_bias=True),
    'qwen2.5-32b': decoder(64, 5120, 40, 8, 27648, 152064, False, qkv_bias=True),
    'qwen2.5-72b': decoder(80, 8192, 64, 8, 29568, 152064, False, qkv_bias=True),
    'gemma-2-2b': decoder(26, 2304, 8, 4, 9216, 256000, True, hd=256, norms=4),
    'gemma-2-9b': decoder(42, 3584, 16, 8, 14336, 256000, True, hd=256, norms=4),
    'gemma-2-27b': decoder(46, 4608, 32, 16, 36864, 256000, True, hd=128, norms=4),
    'phi-3-mini': decoder(32, 3072, 32, 32, 8192, 32064, False),
    'phi-3-medium': decoder(40, 5120, 40, 10, 17920, 32064, False),
    'mistral-nemo-12b': decoder(40, 5120, 32, 8, 14336, 131072, False, hd=128),
    'mixtral-8x22b': decoder(56, 6144, 48, 8, 16384, 32000, False, E=8),
    'deepseek-v2-lite': deepseek_v2(27, 2048, 16, 102400, 10944, 1408, 64, 2, 1, 0, 512, 128, 64, 128),
    'olmo-2-7b': decoder(32, 4096, 32, 32, 11008, 100352, False, qk_norm=True),
}
# Exact counts known for these checkpoints (the list); the dimensions must reproduce them.
known = {'llama-3.1-8b': 8_030_261_248, 'llama-3.1-70b': 70_553_706_496, 'llama-3.1-405b': 405_853_388_800,
         'qwen2.5-7b': 7_615_616_512, 'gemma-2-9b': 9_241_705_984, 'mistral-nemo-12b': 12_247_782_400,
         'deepseek-v2-lite': 15_706_484_224}
for name, n in known.items():
    assert presets[name] == n, (name, presets[name], n)
for name, n in presets.items():
    print(f'{name:18} {hold("tst_model_spec.cpp", name, n)}')
# DeepSeek-V2 (deepseek-ai/DeepSeek-V2 config.json): the compressed query (q_lora_rank 1536), for the
# deepseek_v2 importer's row: 60 layers of 5120, 128 heads, vocabulary 102400, dense MLP 12288 in the
# first layer, then 160 routed experts of 1536 (6 per token) and 2 shared.
print('deepseek-v2 (236B)', hold('tst_model_spec.cpp', 'deepseek-v2', deepseek_v2(60, 5120, 128, 102400, 12288, 1536, 160, 2, 1, 1536, 512, 128, 64, 128)))
# Largest single modules (DeepSpeed's largest layer).
def largest(what, numel): return hold('tst_model_spec.cpp', 'largest module of ' + what, numel)
print('largest: phi-3-medium gate_up_proj', largest('phi-3-medium', 5120 * 2 * 17920), '> embedding', 32064 * 5120)
print('largest: llama-3.1-405b embedding', largest('llama-3.1-405b', 128256 * 16384), '> gate_proj', 16384 * 53248)
print('largest: deepseek-v2-lite embedding', largest('deepseek-v2-lite', 102400 * 2048), '> dense gate_proj', 2048 * 10944)
print('largest: mixtral-8x22b embedding', largest('mixtral-8x22b', 32000 * 6144), '> expert w1', 6144 * 16384)
att = 16 * ((2048 + 3072) + (2048 + 576) + (512 + 4096) + (2048 + 2048)) * 27
dense = 16 * 3 * (2048 + 10944)
experts = 26 * 64 * 3 * 16 * (2048 + 1408)
shared = 26 * 3 * 16 * (2048 + 2 * 1408)
print('deepseek-v2-lite r16 all-linear', att, dense, experts, shared, hold('tst_finetune.cpp', 'deepseek-v2-lite r16 all-linear', att + dense + experts + shared))

# H12 ZeRO-3 keeps gathered what it reuses within stage3_max_reuse_distance (1e9 numel):
# partitioned_param_coordinator.py __params_to_release looks ahead along the trace of one forward
# and backward (no wrap). A module x layers before the end of the forward comes back after the x
# layers behind it, the LM head's forward and backward (V h numel each) and those x layers'
# backward (2x layers; 3x under full recompute, whose recompute is the reuse). At the loss every
# kept layer is still there, the last one too (16-bit, 2 bytes; a layer = its Linears' in x out).
# Under full recompute the k-th layer from the end comes back after (3k - 2) layers and the head
# twice, every module of it alike: whole layers are kept.
# Megatron's GPT has no head module: the root's backward pre-hook fetches the word embedding once
# between (head_hooks 1).
def retained_at_loss(layer_linears, V, h, L, passes, reuse=1e9, w_bytes=2, head_hooks=2):
    if passes == 3:
        layers = min(max(floor((reuse - head_hooks * V * h + 2 * layer_linears) / (3 * layer_linears)), 0), L)
    else:
        layers = min(max((reuse - head_hooks * V * h) / (passes * layer_linears), 0), L)
    return w_bytes * layer_linears * layers
gpt2_linears = 768 * 3 * 768 + 768 * 768 + 2 * 768 * 3072           # c_attn, c_proj, c_fc, mlp c_proj
llama2_7b_linears = 4 * 4096 * 4096 + 3 * 4096 * 11008              # q, k, v, o; gate, up, down
llama2_70b_linears = 2 * 8192 * 8192 + 2 * 8192 * 1024 + 3 * 8192 * 28672  # q, o; k, v (GQA 8); MLP
llama3_8b_linears = 2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336
llama32_1b_linears = 2 * 2048 * 2048 + 2 * 2048 * 512 + 3 * 2048 * 8192       # GQA 8 of 32 heads of 64
for name, lin, V_, h_, L_, passes in [('gpt2', gpt2_linears, 50257, 768, 12, 2), ('llama-2-7b', llama2_7b_linears, 32000, 4096, 32, 2),
                                      ('llama-3.2-1b', llama32_1b_linears, 128256, 2048, 16, 2),
                                      ('llama-3.2-1b full recompute', llama32_1b_linears, 128256, 2048, 16, 3),
                                      ('llama-2-70b', llama2_70b_linears, 32000, 8192, 80, 2), ('llama-3-8b', llama3_8b_linears, 128256, 4096, 32, 2)]:
    kept = retained_at_loss(lin, V_, h_, L_, passes)
    print('H12 retained at the loss,', name, repr(hold('tst_step_timeline.cpp', 'H12 ' + name, kept) if kept else kept))
gpt2_xl_linears = 1600 * 3 * 1600 + 1600 * 1600 + 2 * 1600 * 6400
print('H12 retained at the loss, gpt2-xl', repr(hold('tst_step_timeline.cpp', 'H12 gpt2-xl', retained_at_loss(gpt2_xl_linears, 50257, 1600, 48, 2))))
print('H12 retained at the loss, gpt2-xl as Megatron',
      repr(hold('tst_step_timeline.cpp', 'H12 gpt2-xl as Megatron', retained_at_loss(gpt2_xl_linears, 50257, 1600, 48, 2, head_hooks=1))))


# ---- --check ROOT: every held figure is a numeric literal of its test (comments stripped).
NUMBER = re.compile(r"(?<![\w.'])(\d[\d']*(?:\.\d*)?(?:[eE][+-]?\d+)?)")

def literals(path):
    """The numeric literals of a C++ file outside comments, as written (digit separators dropped)."""
    with open(path, encoding='utf-8') as f:
        code = re.sub(r'//[^\n]*|/\*.*?\*/', ' ', f.read(), flags=re.S)
    return [m.group(1).replace("'", '') for m in NUMBER.finditer(code)]

def significant_digits(text):
    mantissa = text.lower().partition('e')[0]
    return len(mantissa.replace('.', '').lstrip('0').rstrip('0') or '0') if '.' in mantissa else len(mantissa.lstrip('0'))

def written_as(literal, value):
    """`literal` is `value` to the precision it is written with, and says at least as much of it as
    three significant digits (or all of a shorter figure's): 0.0175 holds 0.0175, 3.14 holds
    3.1378..., 3 holds neither."""
    mantissa, _, exponent = literal.lower().partition('e')
    decimals = len(mantissa.partition('.')[2])
    try:
        step = 10.0 ** ((int(exponent) if exponent else 0) - decimals)
        x = float(literal)
    except (ValueError, OverflowError):
        return False
    if significant_digits(literal) < min(3, significant_digits(repr(float(value)))):
        return False
    return abs(x - value) <= step / 2 * (1 + 1e-9) + abs(value) * 1e-15

def check(root):
    missing, files = [], {}
    for test, what, value in HELD:
        if test not in files:
            files[test] = literals(f'{root}/tests/core/{test}')
        if not any(written_as(t, value) for t in files[test]):
            missing.append(f'{test}: {what} = {value!r} is not a literal there')
    for line in missing:
        print('MISSING', line)
    print(f'{len(HELD) - len(missing)} of {len(HELD)} hand-calculated figures found in the {len(files)} tests that hold them')
    return 1 if missing else 0

if len(sys.argv) == 3 and sys.argv[1] == '--check':
    sys.exit(check(sys.argv[2]))
