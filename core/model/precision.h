#pragma once
// The training precision and the one fact every formula reads from it: the bytes of an element
// of the weights, gradients, activations and communication the GPU computes with.
namespace zp {

enum class Precision { Bf16, Fp16, Fp32 };

// IEEE 754 binary16 and bfloat16 take 2 bytes, binary32 4. Mixed precision (bf16, fp16) keeps its
// fp32 master and moments apart; those are counted as 4 bytes where they are made.
constexpr double bytes_per_element(Precision p) { return p == Precision::Fp32 ? 4.0 : 2.0; }

}  // namespace zp
