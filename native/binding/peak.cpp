#include "common.hpp"
#include "lapis/peak.hpp"

namespace lapis::binding {
namespace {

// cpuPeakFlops({ dtype, threads, seconds }): GFLOP/s of the register-only FMA loop
// (lapis/peak.hpp), float32 or float64, on `threads` threads of its own for ~`seconds`.
Napi::Value CpuPeakFlops(const Napi::CallbackInfo& info) {
  const Opts o(info, "cpuPeakFlops");
  const int64_t code = o.int_("dtype");
  if (code != F32 && code != F64) type_error(info.Env(), "cpuPeakFlops: dtype must be float32 or float64");
  const int64_t threads = o.int_("threads");
  if (threads < 1 || threads > 256) range_error(info.Env(), "cpuPeakFlops: threads must be in 1..256");
  const double seconds = o.number("seconds");
  if (!(seconds > 0 && seconds <= 60)) range_error(info.Env(), "cpuPeakFlops: seconds must be in (0, 60]");
  return Napi::Number::New(info.Env(), peak_gflops(code == F64, static_cast<int>(threads), seconds));
}
Export e_peak("cpuPeakFlops", CpuPeakFlops, {"dtype", "threads", "seconds"});

}  // namespace
}  // namespace lapis::binding
