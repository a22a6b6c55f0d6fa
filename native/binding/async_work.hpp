// The arguments of one native call as its kernel sees them, and the call itself: run now
// on the JS thread, or on a libuv thread with a Promise settled when it is done.
//
// Memory an async kernel may touch must stay valid and unchanged while JS keeps running,
// and JS can transfer an ArrayBuffer, shrink a resizable one, or overwrite an input at any
// time. So an async call never touches JS memory from its worker thread: its inputs are
// copied when the call starts, its outputs are written to storage the call owns and copied
// into the JS arrays on the JS thread when the kernel is done (an array that vanished in
// between makes the Promise reject). Synchronous calls are zero-copy, except for arrays on
// a SharedArrayBuffer: another thread may write those at any moment, so the kernel gets a
// private copy (index maps and pivots are range-checked on the copy it will use).
//
// Settling the Promise uses the plain C API with every status ignored: during worker or
// environment teardown (worker.terminate(), process.exit() in a worker) resolving may
// fail, and nothing may throw out of the completion callback.
#pragma once
#include <napi.h>

#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common.hpp"
#include "lapis/pages.hpp"
#include "lapis/parallel.hpp"

namespace lapis::binding {

namespace detail {

struct Staged {
  std::unique_ptr<unsigned char[]> bytes;
};

// An output staged in the call's own storage, copied into `js` at the end.
struct StagedOutput {
  napi_ref ref = nullptr;   // async: keeps the JS array alive until copied
  napi_value js = nullptr;  // sync: the array (valid during the call)
  const unsigned char* data = nullptr;
  size_t bytes = 0;
};

inline bool copy_out(napi_env env, napi_value js, const StagedOutput& o) {
  napi_typedarray_type type;
  size_t length = 0, offset = 0;
  void* data = nullptr;
  napi_value buffer = nullptr;
  if (js == nullptr || napi_get_typedarray_info(env, js, &type, &length, &data, &buffer, &offset) != napi_ok) return false;
  size_t bpe = 1;
  switch (type) {
    case napi_int32_array: case napi_float32_array: bpe = 4; break;
    case napi_float64_array: bpe = 8; break;
    default: return false;
  }
  if (length * bpe < o.bytes || (o.bytes > 0 && data == nullptr)) return false;  // detached or shrunk meanwhile
  if (o.bytes > 0) std::memcpy(data, o.data, o.bytes);
  return true;
}

// The async call: raw napi_async_work so that completion never throws.
class AsyncJob {
 public:
  AsyncJob(const char* who, CallSize size, std::function<void()> work, std::vector<Staged> storage,
           std::vector<StagedOutput> outputs)
      : who_(who), size_(size), work_(std::move(work)), storage_(std::move(storage)), outputs_(std::move(outputs)) {}

  ~AsyncJob() = default;

  // Queues the job; on success the completion callback owns (and deletes) it.
  static Napi::Value queue(Napi::Env env, std::unique_ptr<AsyncJob> job) {
    napi_value promise = nullptr, name = nullptr;
    if (napi_create_promise(env, &job->deferred_, &promise) != napi_ok ||
        napi_create_string_utf8(env, job->who_, NAPI_AUTO_LENGTH, &name) != napi_ok ||
        napi_create_async_work(env, nullptr, name, Execute, Complete, job.get(), &job->work_handle_) != napi_ok ||
        napi_queue_async_work(env, job->work_handle_) != napi_ok) {
      if (job->work_handle_) napi_delete_async_work(env, job->work_handle_);
      job->release(env);
      throw Napi::Error::New(env, std::string(job->who_) + ": could not queue the async work");
    }
    job.release();
    return Napi::Value(env, promise);
  }

 private:
  static void Execute(napi_env, void* p) {
    auto* job = static_cast<AsyncJob*>(p);
    try {
      // Waits for a slot of the CPU budget (lapis/parallel.hpp): sync calls go first.
      CpuSlot slot(CpuSlot::Kind::Async);
      job->work_();
    } catch (...) {
      // Sorted on the JS thread (settle), by the same code as a sync call's errors.
      job->failed_ = true;
      job->error_ = std::current_exception();
    }
  }

  static void Complete(napi_env env, napi_status status, void* p) {
    std::unique_ptr<AsyncJob> job(static_cast<AsyncJob*>(p));
    napi_handle_scope scope = nullptr;
    const bool scoped = napi_open_handle_scope(env, &scope) == napi_ok;
    job->settle(env, status);
    bool pending = false;
    if (napi_is_exception_pending(env, &pending) == napi_ok && pending) {
      napi_value ignored;
      napi_get_and_clear_last_exception(env, &ignored);
    }
    napi_delete_async_work(env, job->work_handle_);
    job->release(env);
    if (scoped) napi_close_handle_scope(env, scope);
  }

  void settle(napi_env env, napi_status status) noexcept {
    if (deferred_ == nullptr) return;
    bool range = false;
    std::string message;
    if (status != napi_ok) {
      message = std::string(who_) + ": the async call was cancelled";
    } else if (failed_) {
      try {
        std::rethrow_exception(error_);
      } catch (...) {
        failure_ = current_failure(who_, size_);
      }
      range = failure_.range;
      message = failure_.message;
    } else {
      for (const auto& o : outputs_) {
        napi_value js = nullptr;
        if (napi_get_reference_value(env, o.ref, &js) != napi_ok || !copy_out(env, js, o)) {
          message = std::string(who_) + ": an output array was detached or shrunk during the async call";
          break;
        }
      }
    }
    napi_deferred d = std::exchange(deferred_, nullptr);
    if (message.empty()) {
      napi_value undefined = nullptr;
      if (napi_get_undefined(env, &undefined) == napi_ok) napi_resolve_deferred(env, d, undefined);
      return;
    }
    napi_value msg = nullptr, err = nullptr;
    if (napi_create_string_utf8(env, message.c_str(), message.size(), &msg) != napi_ok) return;
    if ((range ? napi_create_range_error(env, nullptr, msg, &err) : napi_create_error(env, nullptr, msg, &err)) != napi_ok)
      return;
    napi_reject_deferred(env, d, err);
  }

  void release(napi_env env) noexcept {
    for (auto& o : outputs_) {
      if (o.ref) napi_delete_reference(env, o.ref);
      o.ref = nullptr;
    }
  }

  const char* who_;
  CallSize size_;
  std::function<void()> work_;
  std::vector<Staged> storage_;
  std::vector<StagedOutput> outputs_;
  napi_deferred deferred_ = nullptr;
  napi_async_work work_handle_ = nullptr;
  bool failed_ = false;
  NativeFailure failure_;
  std::exception_ptr error_;
};

}  // namespace detail

class Call {
 public:
  Call(const Opts& o, bool async) : opts_(o), env_(o.env()), who_(o.who()), async_(async) {}
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  // An array the kernel only reads.
  template <class T>
  Span<T> in(Span<T> s) {
    if (!async_ && !s.shared) return s;
    T* copy = stage<T>(s.count);
    if (s.count > 0) std::memcpy(copy, s.data, bytes_of(s));
    return {copy, s.count, nullptr, false};
  }

  // An array the kernel writes (and may read back). Starts as the JS array's contents.
  template <class T>
  Span<T> out(Span<T> s) {
    const size_t bytes = bytes_of(s);
    // Fresh outputs are untouched zero pages: 2 MiB pages take 512× fewer first-touch faults.
    lapis::detail::advise_hugepages(s.data, bytes, 1);
    if (!async_ && !s.shared) return s;
    T* buf = stage<T>(s.count);
    lapis::detail::advise_hugepages(buf, bytes, 1);
    if (s.count > 0) std::memcpy(buf, s.data, bytes);
    detail::StagedOutput o;
    o.data = reinterpret_cast<const unsigned char*>(buf);
    o.bytes = bytes;
    if (async_) {
      NAPI_THROW_IF_FAILED(env_, napi_create_reference(env_, s.js, 1, &o.ref), Span<T>());
    } else {
      o.js = s.js;
    }
    outputs_.push_back(o);
    return {buf, s.count, nullptr, false};
  }

  // Int32Array option (null → empty span) of indices in [0, bound): a broadcast index
  // map, range-checked on the copy the kernel will read.
  Span<int32_t> index_map(const char* name, int64_t need, int64_t bound) {
    auto js = opts_.array_or_null<int32_t>(name, need);
    if (!js.data) return {};
    auto s = in(js);
    for (int64_t j = 0; j < need; ++j) {
      if (s.data[j] < 0 || s.data[j] >= bound) range_error(env_, std::string(who_) + ": " + name + " has an out-of-range entry");
    }
    return s;
  }

  // The two broadcast maps of a batched binary op, options aIdx and bIdx (BatchMaps in
  // common.hpp).
  BatchMaps batch_maps(int64_t count, int64_t aCount, int64_t bCount) {
    BatchMaps m{index_map("aIdx", count, aCount), index_map("bIdx", count, bCount)};
    if ((!m.a.data && aCount != count) || (!m.b.data && bCount != count)) {
      range_error(env_, std::string(who_) + ": batch counts disagree");
    }
    return m;
  }

  // Runs `work` (which must only use spans from this Call): now, returning undefined, or
  // on a libuv thread, returning a Promise. A template so that a sync call runs the lambda
  // in place: a std::function of a capturing lambda is a heap allocation on every call.
  template <class F>
  Napi::Value run(F&& work) {
    Napi::Env env = env_;
    if (!async_) {
      {
        CpuSlot slot(CpuSlot::Kind::Sync);
        work();
      }
      for (const auto& o : outputs_) {
        if (!detail::copy_out(env, o.js, o)) throw Napi::Error::New(env, std::string(who_) + ": an output array changed size");
      }
      return env.Undefined();
    }
    auto job = std::make_unique<detail::AsyncJob>(who_, current_call_size(), std::function<void()>(std::forward<F>(work)), std::move(storage_),
                                                  std::move(outputs_));
    outputs_.clear();
    return detail::AsyncJob::queue(env, std::move(job));
  }

  ~Call() {
    // References of a call that threw before run() handed them to its job.
    for (auto& o : outputs_) {
      if (o.ref) napi_delete_reference(env_, o.ref);
    }
  }

 private:
  template <class T>
  static size_t bytes_of(const Span<T>& s) {
    return static_cast<size_t>(s.count) * sizeof(T);
  }

  // At least one element, so even an empty span gets a valid pointer.
  template <class T>
  T* stage(int64_t count) {
    const size_t bytes = std::max<size_t>(static_cast<size_t>(count), 1) * sizeof(T);
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "staged storage alignment");
    detail::Staged st{std::unique_ptr<unsigned char[]>(new unsigned char[bytes])};
    T* p = reinterpret_cast<T*>(st.bytes.get());
    storage_.push_back(std::move(st));
    return p;
  }

  const Opts& opts_;
  Napi::Env env_;
  const char* who_;
  bool async_;
  std::vector<detail::Staged> storage_;
  std::vector<detail::StagedOutput> outputs_;
};

}  // namespace lapis::binding
