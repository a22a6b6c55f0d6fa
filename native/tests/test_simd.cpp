// C++-only test of lapis/simd.hpp (every op of every packet this CPU runs, lane by lane
// against scalar code) and of lapis/isa.hpp (what each LAPIS_KERNELS value selects).
// Exits non-zero on any failure.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"  // Generic<32/64> values in a baseline-ISA test
#endif

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

#include "lapis/isa.hpp"
#include "lapis/simd.hpp"

namespace {

int g_failures = 0;
long g_checks = 0;

void fail(const char* pack, const char* op, int lane, double got, double want) {
  if (++g_failures <= 40) std::printf("FAIL %s %s lane %d: got %.17g want %.17g\n", pack, op, lane, got, want);
}

namespace t_generic {
#include "simd_checks.hpp"
}

#if LAPIS_SIMD_X86
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#elif defined(__GNUC__)
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif
namespace t_avx2 {
#include "simd_checks.hpp"
void run() {
  check_pack<lapis::simd::Pack<lapis::simd::Avx2, double>>("avx2 double");
  check_pack<lapis::simd::Pack<lapis::simd::Avx2, float>>("avx2 float");
}
}  // namespace t_avx2
#if defined(__clang__)
#pragma clang attribute pop
#pragma clang attribute push(__attribute__((target("avx512f,avx512dq,avx512vl,avx2,fma"))), apply_to = function)
#elif defined(__GNUC__)
#pragma GCC pop_options
#pragma GCC push_options
#pragma GCC target("avx512f,avx512dq,avx512vl,avx2,fma")
#endif
namespace t_avx512 {
#include "simd_checks.hpp"
void run() {
  check_pack<lapis::simd::Pack<lapis::simd::Avx512, double>>("avx512 double");
  check_pack<lapis::simd::Pack<lapis::simd::Avx512, float>>("avx512 float");
}
}  // namespace t_avx512
#if defined(__clang__)
#pragma clang attribute pop
#elif defined(__GNUC__)
#pragma GCC pop_options
#endif
#endif

void expect_isa(const char* env, lapis::CpuFeatures f, lapis::Isa want) {
  const lapis::Isa got = lapis::pick_isa(env, f);
  ++g_checks;
  if (got != want)
    std::printf("FAIL pick_isa(%s, avx2=%d avx512=%d neon=%d) = %s, want %s\n", env ? env : "unset", f.avx2_fma,
                f.avx512, f.neon, lapis::isa_name(got), lapis::isa_name(want)), ++g_failures;
}

void check_isa() {
  using lapis::Isa;
  const lapis::CpuFeatures none{}, avx2{true, false, false}, avx512{true, true, false}, arm{false, false, true};
  for (const char* env : {static_cast<const char*>(nullptr), "", "avx512", "neon", "junk"}) {
    expect_isa(env, none, Isa::portable);
    expect_isa(env, avx2, Isa::avx2);
    expect_isa(env, avx512, Isa::avx512);
    expect_isa(env, arm, Isa::neon);
  }
  // "avx2" rules out AVX-512 only; "portable" rules out every ISA build.
  expect_isa("avx2", avx512, Isa::avx2);
  expect_isa("avx2", avx2, Isa::avx2);
  expect_isa("avx2", arm, Isa::neon);
  expect_isa("avx2", none, Isa::portable);
  for (auto f : {none, avx2, avx512, arm}) expect_isa("portable", f, Isa::portable);
  // active_isa is the pick for this process's environment and CPU, and does not change.
  const Isa a = lapis::active_isa();
  ++g_checks;
  if (a != lapis::pick_isa(std::getenv("LAPIS_KERNELS"), lapis::cpu_features()) || a != lapis::active_isa())
    std::printf("FAIL active_isa() = %s\n", lapis::isa_name(a)), ++g_failures;
  std::printf("active ISA: %s\n", lapis::isa_name(a));
}

}  // namespace

int main() {
  check_isa();
  t_generic::check_pack<lapis::simd::Pack<lapis::simd::Portable, double>>("portable double");
  t_generic::check_pack<lapis::simd::Pack<lapis::simd::Portable, float>>("portable float");
  t_generic::check_pack<lapis::simd::Pack<lapis::simd::Generic<32>, double>>("generic32 double");
  t_generic::check_pack<lapis::simd::Pack<lapis::simd::Generic<64>, float>>("generic64 float");
  const lapis::CpuFeatures f = lapis::cpu_features();
#if LAPIS_SIMD_X86
  if (f.avx2_fma) t_avx2::run();
  if (f.avx512) t_avx512::run();
#endif
#if LAPIS_SIMD_NEON
  t_generic::check_pack<lapis::simd::Pack<lapis::simd::Neon, double>>("neon double");
  t_generic::check_pack<lapis::simd::Pack<lapis::simd::Neon, float>>("neon float");
#endif
  (void)f;
  std::printf("%ld checks, %d failures\n", g_checks, g_failures);
  return g_failures ? 1 : 0;
}
