// Internal to the peak probe: one loop per (ISA, type), each `rounds` rounds of its
// register-only FMA block (peak_loop.hpp); *lanes gets the FMA lanes done, the result is
// the accumulators' sum (a use, so the loop stays).
#pragma once
#include <cstdint>

#include "lapis/simd.hpp"

namespace lapis::peak_detail {

using Loop = double (*)(uint64_t rounds, double m, double c, uint64_t* lanes);

struct Loops {
  Loop f32, f64;
};

Loops portable_loops();
#if LAPIS_SIMD_X86
Loops avx2_loops();
Loops avx512_loops();
#endif
#if LAPIS_SIMD_NEON
Loops neon_loops();
#endif

}  // namespace lapis::peak_detail
