#include "common.hpp"

#include <cstdlib>
#include <cstring>
#include <mutex>
#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include "lapis/gemm.hpp"
#include "lapis/parallel.hpp"

namespace lapis::binding {

std::vector<ExportDef>& exports_list() {
  static std::vector<ExportDef> list;
  return list;
}

namespace {

// numThreads({ n }): n null reads the pool size, a number sets it first.
Napi::Value NumThreads(const Napi::CallbackInfo& info) {
  const Opts o(info, "numThreads");
  if (!o.is_null(o.get("n"))) {
    int64_t n = o.int_("n");
    if (n < 1 || n > 256) range_error(info.Env(), "numThreads: n must be in 1..256");
    set_num_threads(static_cast<int>(n));
  }
  return Napi::Number::New(info.Env(), num_threads());
}
Export e_threads("numThreads", NumThreads, {"n"});

// threadStats({ reset }): the CPU budget's counters (lapis::thread_stats); reset starts a
// new peak. For tests.
Napi::Value ThreadStatsFn(const Napi::CallbackInfo& info) {
  const Opts o(info, "threadStats");
  const ThreadStats s = thread_stats(o.boolean("reset"));
  Napi::Object r = Napi::Object::New(info.Env());
  r.Set("budget", s.budget);
  r.Set("busy", s.busy);
  r.Set("peak", s.peak);
  r.Set("regions", static_cast<double>(s.regions));
  r.Set("joins", static_cast<double>(s.joins));
  r.Set("waits", static_cast<double>(s.waits));
  r.Set("yields", static_cast<double>(s.yields));
  return r;
}
Export e_stats("threadStats", ThreadStatsFn, {"reset"});

Napi::Value KernelName(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), gemm_kernel_name());
}
Export e_kernel("gemmKernel", KernelName);

}  // namespace
}  // namespace lapis::binding

namespace lapis::binding {
namespace {

// Every exported function runs inside this guard: a C++ exception that is not already a JS
// error (std::bad_alloc from a kernel's workspace, a std::vector too large) becomes a JS
// error naming the op and the size instead of escaping into Node (std::terminate).
Napi::Value Guarded(const Napi::CallbackInfo& info, const char* name, Fn fn) {
  current_call_size() = {};
  try {
    return fn(info);
  } catch (const Napi::Error&) {
    throw;
  } catch (...) {
    NativeFailure f = current_failure(name, current_call_size());
    if (f.range) throw Napi::RangeError::New(info.Env(), f.message);
    throw Napi::Error::New(info.Env(), f.message);
  }
}

}  // namespace
}  // namespace lapis::binding

#ifdef __EMSCRIPTEN__
// The WebAssembly build (docs/wasm.md): src/backend/wasm/instantiate.ts lists the exports
// through these entries and calls each one with its arguments in the shim's value table.
extern "C" {

__attribute__((used)) int lapis_wasm_count() { return static_cast<int>(lapis::binding::exports_list().size()); }
__attribute__((used)) const char* lapis_wasm_name(int i) { return lapis::binding::exports_list()[i].name; }
// The option names joined by commas, as the addon's `fn.options`.
__attribute__((used)) const char* lapis_wasm_options(int i) {
  static std::vector<std::string> joined;
  const auto& list = lapis::binding::exports_list();
  if (joined.size() != list.size()) {
    joined.clear();
    for (const auto& def : list) {
      std::string names;
      for (const char* o : def.options) names += (names.empty() ? "" : ",") + std::string(o);
      joined.push_back(names);
    }
  }
  return joined[i].c_str();
}
// Calls export i with the argc values at handles first, first + 1, …; returns the result's
// handle, or 0 after handing the JS side the error to throw.
__attribute__((used)) uint32_t lapis_wasm_call(int i, uint32_t first, uint32_t argc) {
  const lapis::binding::ExportDef& def = lapis::binding::exports_list()[i];
  try {
    std::vector<napi_value> argv(argc);
    for (uint32_t k = 0; k < argc; ++k) argv[k] = lapis::wasm::from_handle(first + k);
    Napi::CallbackInfo info(nullptr, argv.data(), argc, const_cast<lapis::binding::ExportDef*>(&def));
    return lapis::wasm::to_handle(lapis::binding::Guarded(info, def.name, def.fn));
  } catch (const Napi::Error& e) {
    lapis::wasm::throw_js(e.kind(), e.Message());
  } catch (const std::bad_alloc&) {
    lapis::wasm::throw_js(Napi::Error::Range, std::string(def.name) + ": out of memory");
  } catch (...) {
    lapis::wasm::throw_js(Napi::Error::Plain, std::string(def.name) + ": native call failed");
  }
  return 0;
}

}  // extern "C"
#else
#if defined(__GLIBC__)
// Node frees a result's memory only at a later GC; by then glibc's default trim has given the
// heap top back to the OS, so the next results fault their pages in afresh, which on a VM costs
// as much as a medium solve. glibc's own dynamic thresholds top out at these values: they are
// set from the start. A process that configures malloc itself (environment) keeps its settings.
static void tune_malloc() {
  const char* t = std::getenv("GLIBC_TUNABLES");
  if ((t && std::strstr(t, "glibc.malloc.")) || std::getenv("MALLOC_MMAP_THRESHOLD_") ||
      std::getenv("MALLOC_TRIM_THRESHOLD_") || std::getenv("MALLOC_TOP_PAD_") || std::getenv("MALLOC_ARENA_MAX"))
    return;
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
}
#endif

static Napi::Object InitLapis(Napi::Env env, Napi::Object exports) {
#if defined(__GLIBC__)
  static std::once_flag malloc_once;
  std::call_once(malloc_once, tune_malloc);
#endif
  // A worker terminated while it loads the addon makes these calls fail, and a C++ throw out
  // of module registration ends the whole process (the error cannot be thrown into JS then),
  // so a failure leaves the exports as they are.
  try {
    for (const lapis::binding::ExportDef& def : lapis::binding::exports_list()) {
      const lapis::binding::ExportDef* d = &def;
      Napi::Function f = Napi::Function::New(
          env, [d](const Napi::CallbackInfo& info) { return lapis::binding::Guarded(info, d->name, d->fn); }, d->name,
          const_cast<lapis::binding::ExportDef*>(d));
      std::string names;  // "dtype,A,LU,…": one string, so loading stays a few napi calls per function
      for (const char* o : d->options) names += (names.empty() ? "" : ",") + std::string(o);
      f.Set("options", Napi::String::New(env, names));
      exports.Set(d->name, f);
    }
  } catch (const Napi::Error&) {
  }
  return exports;
}

NODE_API_MODULE(lapis, InitLapis)
#endif
