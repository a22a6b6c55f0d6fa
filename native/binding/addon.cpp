#include "common.hpp"
#include "lapis/gemm.hpp"
#include "lapis/parallel.hpp"

namespace lapis::binding {

std::vector<std::pair<const char*, Fn>>& exports_list() {
  static std::vector<std::pair<const char*, Fn>> list;
  return list;
}

namespace {

Napi::Value NumThreads(const Napi::CallbackInfo& info) {
  if (info.Length() > 0 && !info[0].IsUndefined()) {
    int64_t n = arg_int(info, 0, "setNumThreads", "n");
    if (n < 1 || n > 256) range_error(info.Env(), "setNumThreads: n must be in 1..256");
    set_num_threads(static_cast<int>(n));
  }
  return Napi::Number::New(info.Env(), num_threads());
}
Export e_threads("numThreads", NumThreads);

Napi::Value KernelName(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), gemm_kernel_name());
}
Export e_kernel("gemmKernel", KernelName);

}  // namespace
}  // namespace lapis::binding

static Napi::Object InitLapis(Napi::Env env, Napi::Object exports) {
  for (auto& [name, fn] : lapis::binding::exports_list()) exports.Set(name, Napi::Function::New(env, fn, name));
  return exports;
}

NODE_API_MODULE(lapis, InitLapis)
