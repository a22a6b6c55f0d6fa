// One reading of LAPIS_KERNELS and one CPUID check for every kernel family (lapis/isa.hpp).
#include "lapis/isa.hpp"

#include <cstdlib>
#include <cstring>

#if (defined(__x86_64__) || defined(_M_X64) || defined(__i386__) || defined(_M_IX86))
#define LAPIS_ISA_X86 1
#if defined(_MSC_VER)
#include <intrin.h>
#endif
#else
#define LAPIS_ISA_X86 0
#endif

namespace lapis {

CpuFeatures cpu_features() {
  CpuFeatures f;
#if LAPIS_ISA_X86
#if defined(_MSC_VER)
  int r[4];
  __cpuid(r, 0);
  if (r[0] < 7) return f;
  __cpuid(r, 1);
  const bool fma = (r[2] >> 12) & 1, osxsave = (r[2] >> 27) & 1, avx = (r[2] >> 28) & 1;
  if (!(fma && osxsave && avx)) return f;
  const unsigned long long xcr0 = _xgetbv(0);
  if ((xcr0 & 6) != 6) return f;  // the OS saves the ymm state
  __cpuidex(r, 7, 0);
  f.avx2_fma = (r[1] >> 5) & 1;
  // F (bit 16), DQ (17), VL (31), and the OS saving the zmm / mask state
  f.avx512 = f.avx2_fma && ((r[1] >> 16) & 1) && ((r[1] >> 17) & 1) && ((r[1] >> 31) & 1) && (xcr0 & 0xE6) == 0xE6;
#else
  __builtin_cpu_init();  // libgcc / compiler-rt also check that the OS saves the ymm / zmm state
  f.avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  // The AVX-512 builds use DQ and VL instructions as well as F (every AVX-512 CPU but Xeon Phi).
  f.avx512 = f.avx2_fma && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
             __builtin_cpu_supports("avx512vl");
#endif
#elif defined(__aarch64__) || defined(_M_ARM64)
  f.neon = true;
#endif
  return f;
}

Isa pick_isa(const char* lapis_kernels, const CpuFeatures& f) {
  const char* want = lapis_kernels ? lapis_kernels : "";
  if (std::strcmp(want, "portable") == 0) return Isa::portable;
  if (f.avx512 && std::strcmp(want, "avx2") != 0) return Isa::avx512;
  if (f.avx2_fma) return Isa::avx2;
  if (f.neon) return Isa::neon;
  return Isa::portable;
}

Isa active_isa() {
  static const Isa isa = pick_isa(std::getenv("LAPIS_KERNELS"), cpu_features());
  return isa;
}

const char* isa_name(Isa isa) {
  switch (isa) {
    case Isa::avx2: return "avx2";
    case Isa::avx512: return "avx512";
    case Isa::neon: return "neon";
    default: return "portable";
  }
}

}  // namespace lapis
