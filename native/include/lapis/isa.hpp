// The instruction-set family every kernel family dispatches on, chosen once per process:
// the widest one the CPU (and OS) runs, narrowed by the LAPIS_KERNELS environment variable
// ("avx2" rules out AVX-512, "portable" rules out every ISA build; the test suites run
// once with each forced). Each family then runs its widest build not wider than this:
// families with no AVX-512 build run AVX2 under avx512, families with no NEON build run
// their portable one under neon.
#pragma once

namespace lapis {

enum class Isa { portable, avx2, avx512, neon };

struct CpuFeatures {
  bool avx2_fma = false;  // AVX2 and FMA, with the OS saving the ymm state
  bool avx512 = false;    // AVX-512 F, DQ and VL, with the OS saving the zmm and mask state
  bool neon = false;      // arm64 (NEON is always there)
};

// What this CPU supports (CPUID on x86-64; arm64 always has NEON).
CpuFeatures cpu_features();

// The family for a LAPIS_KERNELS value (null when unset) on a CPU with these features. An
// unknown value, or one naming a family the CPU lacks, leaves the widest family.
Isa pick_isa(const char* lapis_kernels, const CpuFeatures& f);

// pick_isa(getenv("LAPIS_KERNELS"), cpu_features()), computed on first use (thread-safe).
Isa active_isa();

// "portable", "avx2", "avx512", "neon".
const char* isa_name(Isa isa);

// True where an AVX2+FMA build may run (avx2, or avx512 for families without an AVX-512 build).
inline bool runs_avx2(Isa isa) { return isa == Isa::avx2 || isa == Isa::avx512; }

}  // namespace lapis
