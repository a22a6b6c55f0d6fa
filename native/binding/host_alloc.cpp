// allocHost / hostCacheStats: large op outputs from the HostCache (lapis/host_cache.hpp)
// as external ArrayBuffers, whose finalizer hands the block back for the next output.
#include "common.hpp"
#include "lapis/host_cache.hpp"

namespace lapis::binding {
namespace {

using lapis::detail::HostCache;

void ReturnBlock(napi_env env, void* data, void* hint) {
  const size_t capacity = reinterpret_cast<size_t>(hint);
  (void)env;
  HostCache::instance().release(data, capacity);
}

// allocHost({ bytes }): an ArrayBuffer of `bytes` bytes (uninitialised) over a cached block,
// or null where the runtime refuses external buffers (V8 sandbox), memory is short or the
// live bound is reached. No napi_adjust_external_memory: V8 already counts every
// ArrayBuffer's length as external memory, and adding it again triggered a full GC inside
// the timed calls (add of 10 M float32: 14–18 ms with it, 7.6–9 ms without, event-loop loop).
Napi::Value AllocHost(const Napi::CallbackInfo& info) {
  const Opts o(info, "allocHost");
  Napi::Env env = o.env();
  const double d = o.number("bytes");
  if (!(d >= 1 && d <= 9007199254740991.0) || d != static_cast<double>(static_cast<int64_t>(d))) {
    range_error(env, "allocHost: bytes must be a positive integer");
  }
  const size_t bytes = static_cast<size_t>(d);
  size_t capacity = 0;
  void* p = HostCache::instance().acquire(bytes, &capacity);
  if (p == nullptr) return env.Null();
  napi_value ab = nullptr;
  const napi_status st = napi_create_external_arraybuffer(env, p, bytes, ReturnBlock, reinterpret_cast<void*>(capacity), &ab);
  if (st != napi_ok) {
    // Not created, so no finalizer will run: the block goes back now. A pending exception
    // (napi_pending_exception) is cleared so the caller falls back instead of throwing.
    HostCache::instance().release(p, capacity);
    bool pending = false;
    napi_is_exception_pending(env, &pending);
    if (pending) {
      napi_value e;
      napi_get_and_clear_last_exception(env, &e);
    }
    return env.Null();
  }
  // V8 counts GC pressure from this: without it dead outputs pile up between collections.
  return Napi::Value(env, ab);
}
Export e_alloc("allocHost", AllocHost, {"bytes"});

// hostCacheStats({ trim }): the cache's counters; trim true first frees every cached block.
Napi::Value HostCacheStatsFn(const Napi::CallbackInfo& info) {
  const Opts o(info, "hostCacheStats");
  Napi::Env env = o.env();
  if (o.boolean("trim")) HostCache::instance().trim();
  const lapis::detail::HostCacheStats s = HostCache::instance().stats();
  Napi::Object r = Napi::Object::New(env);
  r.Set("liveBlocks", Napi::Number::New(env, double(s.live_blocks)));
  r.Set("liveBytes", Napi::Number::New(env, double(s.live_bytes)));
  r.Set("cachedBlocks", Napi::Number::New(env, double(s.cached_blocks)));
  r.Set("cachedBytes", Napi::Number::New(env, double(s.cached_bytes)));
  r.Set("hits", Napi::Number::New(env, double(s.hits)));
  r.Set("misses", Napi::Number::New(env, double(s.misses)));
  r.Set("evicted", Napi::Number::New(env, double(s.evicted)));
  r.Set("refused", Napi::Number::New(env, double(s.refused)));
  r.Set("capBytes", Napi::Number::New(env, double(s.cap_bytes)));
  return r;
}
Export e_stats("hostCacheStats", HostCacheStatsFn, {"trim"});

}  // namespace
}  // namespace lapis::binding
