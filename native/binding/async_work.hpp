// Runs a kernel call either now (on the JS thread) or on a libuv worker thread, resolving
// a Promise when done. While the worker runs, the typed arrays it reads and writes are
// held by persistent references so the garbage collector cannot free them. Any C++
// exception from the kernel (bad_alloc) becomes a JS error instead of ending the process.
#pragma once
#include <napi.h>

#include <exception>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace lapis::binding {

class KernelWorker : public Napi::AsyncWorker {
 public:
  KernelWorker(Napi::Env env, std::function<void()> work, std::vector<Napi::ObjectReference> refs)
      : Napi::AsyncWorker(env), work_(std::move(work)), refs_(std::move(refs)),
        deferred_(Napi::Promise::Deferred::New(env)) {}
  void Execute() override {
    try {
      work_();
    } catch (const std::exception& e) {
      SetError(e.what());
    } catch (...) {
      SetError("native kernel failed");
    }
  }
  void OnOK() override {
    refs_.clear();
    deferred_.Resolve(Env().Undefined());
  }
  void OnError(const Napi::Error& e) override {
    refs_.clear();
    deferred_.Reject(e.Value());
  }
  Napi::Promise Promise() const { return deferred_.Promise(); }

 private:
  std::function<void()> work_;
  std::vector<Napi::ObjectReference> refs_;
  Napi::Promise::Deferred deferred_;
};

// `arrays`: argument positions of the typed arrays the work touches (nulls are skipped).
inline Napi::Value run_work(const Napi::CallbackInfo& info, bool async, std::function<void()> work,
                            std::initializer_list<size_t> arrays, const char* who) {
  Napi::Env env = info.Env();
  if (!async) {
    try {
      work();
    } catch (const std::exception& e) {
      throw Napi::Error::New(env, std::string(who) + ": " + e.what());
    }
    return env.Undefined();
  }
  std::vector<Napi::ObjectReference> refs;
  for (size_t i : arrays) {
    if (i < info.Length() && info[i].IsObject()) refs.push_back(Napi::Persistent(info[i].As<Napi::Object>()));
  }
  auto* w = new KernelWorker(env, std::move(work), std::move(refs));
  Napi::Promise p = w->Promise();
  w->Queue();
  return p;
}

inline bool arg_async(const Napi::CallbackInfo& info, size_t i) {
  return i < info.Length() && info[i].IsBoolean() && info[i].As<Napi::Boolean>().Value();
}

}  // namespace lapis::binding
