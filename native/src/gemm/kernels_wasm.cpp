// WebAssembly SIMD128 micro-kernels: the wasm build's family (docs/wasm.md), picked by
// gemm.cpp under __wasm_simd128__. V8 compiles wasm for x64 with 16 xmm registers (one its
// scratch) and, without relaxed SIMD, no fused multiply-add: each multiply-add is a mul
// into a temporary and an add, so the two add pipes bound a 128-bit kernel at 8 flops a
// cycle in double. Tiles of 8 accumulators reach that bound (measured against 12 and
// more, which V8 spills); the k loop stays rolled under wasm (LAPIS_UNROLL, ukernel.hpp).
//   double 2×8, float 4×8, complex<double> 2×2, complex<float> 2×4.
// Packing uses whole vectors (pack_copy / pack_trans); Generic<16>'s lane loops, which
// clang left as stack traffic for f32x4, are splats and shuffles in Pack<Wasm128>.
#include "gemm_kernels.hpp"

#if defined(__wasm_simd128__)
#include "ukernel.hpp"

namespace lapis::gemm_detail {
namespace {
using WD = simd::Pack<simd::Wasm128, double>;
using WS = simd::Pack<simd::Wasm128, float>;

template <class KS, class P, int MR, int NR>
void set_packs(KS& k) {
  k.pack_a_copy = &pack_copy<P, MR>;
  k.pack_a_trans = &pack_trans<P, MR>;
  k.pack_b_copy = &pack_copy<P, NR>;
  k.pack_b_trans = &pack_trans<P, NR>;
}
}  // namespace

Family wasm_family() {
  Family f;
  f.name = "wasm128";
  // mc/kc: 64–192 rows and kc 128–512 measured alike at 256³ (the B micro-panel in L1, the
  // A block in L2); these are the portable family's.
  f.d = real_set<WD, 2, 4>(128, 256, 4096);
  f.s = real_set<WS, 4, 2>(128, 256, 4096);
  f.z = complex_set<WD, 2, 2>(64, 256, 2048);
  f.c = complex_set<WS, 2, 2>(128, 256, 2048);
  set_packs<KernelSet<double>, WD, 2, 8>(f.d);
  set_packs<KernelSet<float>, WS, 4, 8>(f.s);
  return f;
}

}  // namespace lapis::gemm_detail
#endif
