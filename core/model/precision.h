#pragma once
// The training precision and the one fact every formula reads from it: the bytes of an element
// of the weights, gradients, activations and communication the GPU computes with.
namespace zp {

enum class Precision { Bf16, Fp16, Fp32 };

// IEEE 754 binary16 and bfloat16 take 2 bytes, binary32 4. Mixed precision (bf16, fp16) keeps its
// fp32 master and moments apart; those are counted as 4 bytes where they are made.
constexpr double bytes_per_element(Precision p) { return p == Precision::Fp32 ? 4.0 : 2.0; }

// How Transformer Engine scales FP8 tensors (TE common/recipe/__init__.py at d0067d0):
// Delayed: DelayedScaling, one scale a tensor from an amax history; Mxfp8: MXFP8BlockScaling, one
// E8M0 scale per 32 elements along each direction, so a tensor's rowwise and columnwise copies are
// separate quantizations (compute capability 10.x only: quantization.py _compute_mxfp8_support).
enum class Fp8Scaling { Delayed, Mxfp8 };

}  // namespace zp
