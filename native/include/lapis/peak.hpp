// The machine's measured FMA peak: a register-only multiply-add loop, built for the ISA
// that active_isa() picked (so the figure is what the kernels' own instructions can do),
// run on its own std::threads — independent of the lapis pool — for a fixed time. GEMM-
// bound figures read as a fraction of it (bench/, docs/gemm.md "Peak").
#pragma once

namespace lapis {

// Total GFLOP/s (2 flops per FMA lane; a mul + add on the portable build) of `threads`
// threads running the loop at once, each for about `seconds` after a short warm-up.
// float64 when f64, else float32. threads ≥ 1, seconds > 0 (the binding checks).
double peak_gflops(bool f64, int threads, double seconds);

}  // namespace lapis
