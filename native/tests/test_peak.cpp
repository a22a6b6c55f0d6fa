// C++-only test of the FMA peak probe (lapis/peak.hpp): float32 and float64, one thread,
// two, and more threads than the hardware runs at once, each gives a positive finite
// GFLOP/s figure and returns (no thread left waiting). Its size is a timing, so only its
// sign and finiteness are checked. Run by scripts/test-native.sh with each kernel family.
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <thread>

#include "lapis/isa.hpp"
#include "lapis/peak.hpp"

int main() {
  int failures = 0;
  const int over = 2 * static_cast<int>(std::thread::hardware_concurrency()) + 1;
  for (bool f64 : {false, true})
    for (int threads : {1, 2, over}) {
      const double g = lapis::peak_gflops(f64, threads, 0.02);
      const bool ok = std::isfinite(g) && g > 0;
      std::printf("%s %s threads=%d: %.2f GFLOP/s%s\n", lapis::isa_name(lapis::active_isa()), f64 ? "float64" : "float32",
                  threads, g, ok ? "" : "  FAIL");
      failures += !ok;
    }
  return failures ? 1 : 0;
}
