// The only place (with the other native/binding files) that knows about Node-API.
// Every pointer handed to a kernel comes from a typed array checked here: dtype, length
// and byte offset, so a wrong call from JS is a thrown TypeError/RangeError, never a
// crash of the process.
#pragma once
#include <napi.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "lapis/common.hpp"

namespace lapis::binding {

// Must match dtypeCode() in src/core/dtype.ts.
enum DTypeCode : int { F32 = 0, F64 = 1, C64 = 2, C128 = 3, I32 = 4, U32 = 5, BOOL = 6 };

using Fn = Napi::Value (*)(const Napi::CallbackInfo&);

// One exported function: its name, its C++ entry and the names of its options, declared
// once here. The addon attaches them to the JS function (`fn.options`, comma-separated); binding.ts
// turns them into a wrapper that passes the options object's fields as arguments in this
// order (JS property reads: napi named-property reads from C++ cost more than a whole tiny
// solve, docs/decisions.md), and Opts reads each one by its name through this list.
struct ExportDef {
  const char* name;
  Fn fn;
  std::vector<const char*> options;
};

// Self-registration: each binding file declares `static Export e("name", fn, {options});`
// so adding an op never edits a shared file.
std::vector<ExportDef>& exports_list();
struct Export {
  Export(const char* name, Fn fn, std::initializer_list<const char*> options = {}) {
    exports_list().push_back({name, fn, options});
  }
};

// The problem size of the native call running on this thread, noted by each binding once
// its dims are known, so an exception from the kernels (out of memory) can be reported
// as "qr: out of memory for a 4194304×12 float64 matrix".
struct CallSize {
  int64_t dtype = -1, batch = 1, m = -1, n = -1;
};
inline CallSize& current_call_size() {
  static thread_local CallSize s;
  return s;
}
inline void note_size(int64_t dtype, int64_t batch, int64_t m, int64_t n) { current_call_size() = {dtype, batch, m, n}; }

inline std::string describe_size(const CallSize& c) {
  static const char* names[] = {"float32", "float64", "complex64", "complex128", "int32", "uint32", "bool"};
  if (c.m < 0 || c.n < 0) return "";
  const char* dt = c.dtype >= 0 && c.dtype <= 6 ? names[c.dtype] : "";
  std::string dims = std::to_string(c.m) + "\xc3\x97" + std::to_string(c.n) + (*dt ? " " : "") + dt;
  if (c.batch == 1) return " for a " + dims + " matrix";
  return " for a batch of " + std::to_string(c.batch) + " " + dims + " matrices";
}

// What a C++ exception escaping a kernel becomes in JS (call inside a catch block): out of
// memory (bad_alloc, or a size a std::vector cannot hold) a RangeError naming the op and
// the size, anything else an Error naming the op.
struct NativeFailure {
  bool range = false;
  std::string message;
};
inline NativeFailure current_failure(const char* who, const CallSize& size) {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    return {true, std::string(who) + ": out of memory" + describe_size(size)};
  } catch (const std::length_error&) {
    return {true, std::string(who) + ": out of memory" + describe_size(size) + " (the workspace is too large)"};
  } catch (const std::exception& e) {
    return {false, std::string(who) + ": native kernel failed" + describe_size(size) + ": " + e.what()};
  } catch (...) {
    return {false, std::string(who) + ": native kernel failed" + describe_size(size)};
  }
}

[[noreturn]] inline void type_error(Napi::Env env, const std::string& msg) {
  throw Napi::TypeError::New(env, msg);
}
[[noreturn]] inline void range_error(Napi::Env env, const std::string& msg) {
  throw Napi::RangeError::New(env, msg);
}

template <class S> constexpr napi_typedarray_type typed_array_type();
template <> constexpr napi_typedarray_type typed_array_type<float>() { return napi_float32_array; }
template <> constexpr napi_typedarray_type typed_array_type<double>() { return napi_float64_array; }
template <> constexpr napi_typedarray_type typed_array_type<int32_t>() { return napi_int32_array; }
template <> constexpr napi_typedarray_type typed_array_type<uint32_t>() { return napi_uint32_array; }
// bool tensors are Uint8Array (0/1) on the CPU; there is no uint8 dtype for it to clash with.
template <> constexpr napi_typedarray_type typed_array_type<uint8_t>() { return napi_uint8_array; }

// A typed array viewed as T elements (T complex: pairs of scalars). `count` is in T units.
// `js` is the array itself (valid during the call) and `shared` says it lives on a
// SharedArrayBuffer (another thread may write it at any time): see Call in async_work.hpp.
template <class T> struct Span {
  T* data = nullptr;
  int64_t count = 0;
  napi_value js = nullptr;
  bool shared = false;
};

// T is the element type (float, double, std::complex<...>, int32_t). Checks the array
// type, that a complex array has an even length, and (if need >= 0) that it holds at
// least `need` elements. `option`: v is the options field `name`, so undefined is "missing".
template <class T>
Span<T> typed_span(Napi::Env env, napi_value v, const char* who, const char* name, int64_t need = -1, bool option = false) {
  using S = real_t<T>;
  bool is_ta = false;
  if (napi_is_typedarray(env, v, &is_ta) != napi_ok || !is_ta) {
    napi_valuetype t = napi_undefined;
    napi_typeof(env, v, &t);
    if (option && t == napi_undefined) type_error(env, std::string(who) + ": option " + name + " is missing");
    type_error(env, std::string(who) + ": " + name + " must be a typed array");
  }
  // The data pointer straight from napi_get_typedarray_info: TypedArray::ArrayBuffer()
  // fails on a SharedArrayBuffer ("Invalid argument").
  napi_typedarray_type type;
  size_t scalars = 0, offset = 0;
  void* data = nullptr;
  napi_value buffer = nullptr;
  if (napi_get_typedarray_info(env, v, &type, &scalars, &data, &buffer, &offset) != napi_ok) {
    type_error(env, std::string(who) + ": " + name + " could not be read as a typed array");
  }
  if (type != typed_array_type<S>()) {
    type_error(env, std::string(who) + ": " + name + " has the wrong element type for this dtype");
  }
  constexpr size_t k = sizeof(T) / sizeof(S);
  if (scalars % k != 0) range_error(env, std::string(who) + ": " + name + " (complex) has an odd length");
  // An empty (or detached) array may have no data pointer; kernels get a valid one anyway,
  // since memcpy(nullptr, …, 0) and &p[0] on a null p are undefined behaviour (UBSan).
  alignas(64) static uint8_t empty_storage[64];
  auto* base = data != nullptr ? static_cast<uint8_t*>(data) : empty_storage;
  if (reinterpret_cast<uintptr_t>(base) % alignof(S) != 0) range_error(env, std::string(who) + ": " + name + " is misaligned");
  bool plain = true;
  napi_is_arraybuffer(env, buffer, &plain);
  Span<T> s{reinterpret_cast<T*>(base), static_cast<int64_t>(scalars / k), v, !plain};
  if (need >= 0 && s.count < need) {
    range_error(env, std::string(who) + ": " + name + " holds " + std::to_string(s.count) + " elements, needs " +
                         std::to_string(need));
  }
  return s;
}

// The options of one native call (the Addon interface in src/backend/cpu/binding.ts), read
// by name: each name is looked up in the export's declared option list (ExportDef), whose
// order binding.ts follows when it passes the options object's fields. Every field is
// required; one that may be absent in meaning is passed as null. So a missing or misspelt
// field (it arrives as undefined) is a TypeError naming it, never a silent default.
class Opts {
 public:
  Opts(const Napi::CallbackInfo& info, const char* who)
      : info_(info), env_(info.Env()), who_(who), def_(static_cast<const ExportDef*>(info.Data())) {
    if (def_ == nullptr || info.Length() != def_->options.size()) type_error(env_, std::string(who) + ": expects one options object");
  }

  Napi::Env env() const { return env_; }
  const char* who() const { return who_; }

  // The field's value; a missing (undefined) field throws.
  napi_value get(const char* name) const {
    napi_value v = raw(name);
    if (type_of(v) == napi_undefined) missing(name);
    return v;
  }
  bool is_null(napi_value v) const { return type_of(v) == napi_null; }

  int64_t int_(const char* name) const {
    const double d = number(name);
    if (d != static_cast<double>(static_cast<int64_t>(d))) type_error(env_, std::string(who_) + ": " + name + " must be an integer");
    return static_cast<int64_t>(d);
  }
  double number(const char* name) const {
    napi_value v = raw(name);
    double d = 0;
    if (napi_get_value_double(env_, v, &d) != napi_ok) wrong(v, name, "a number");
    return d;
  }
  bool boolean(const char* name) const {
    napi_value v = raw(name);
    bool b = false;
    if (napi_get_value_bool(env_, v, &b) != napi_ok) wrong(v, name, "a boolean");
    return b;
  }
  // A typed array of T holding at least `need` elements (need < 0: any length); typed_span
  // names a missing (undefined) field, so no napi_typeof on the way in.
  template <class T>
  Span<T> array(const char* name, int64_t need = -1) const {
    return typed_span<T>(env_, raw(name), who_, name, need, true);
  }
  // The same, or an empty span (data null) where the field is null.
  template <class T>
  Span<T> array_or_null(const char* name, int64_t need = -1) const {
    napi_value v = raw(name);
    if (is_null(v)) return {};
    return typed_span<T>(env_, v, who_, name, need, true);
  }

 private:
  // The argument at the declared position of `name`; fields are mostly read in declared
  // order, so the search starts after the last one found.
  napi_value raw(const char* name) const {
    const auto& names = def_->options;
    const size_t n = names.size();
    size_t i = next_ < n ? next_ : 0;  // a wrap, not a modulo: a division per field showed in profiles
    for (size_t step = 0; step < n; ++step, i = i + 1 < n ? i + 1 : 0) {
      if (names[i] == name || (names[i][0] == name[0] && std::strcmp(names[i], name) == 0)) {
        next_ = i + 1;
        return info_[i];
      }
    }
    throw Napi::Error::New(env_, std::string(who_) + ": the binding reads an undeclared option " + name);
  }
  napi_valuetype type_of(napi_value v) const {
    napi_valuetype t = napi_undefined;
    napi_typeof(env_, v, &t);
    return t;
  }
  [[noreturn]] void missing(const char* name) const {
    type_error(env_, std::string(who_) + ": option " + name + " is missing");
  }
  [[noreturn]] void wrong(napi_value v, const char* name, const char* what) const {
    if (type_of(v) == napi_undefined) missing(name);
    type_error(env_, std::string(who_) + ": " + name + " must be " + what);
  }

  const Napi::CallbackInfo& info_;
  Napi::Env env_;
  const char* who_;
  const ExportDef* def_;
  mutable size_t next_ = 0;
};

// The two broadcast maps of a batched binary op (A's and B's matrix per output matrix),
// each optional; without a map the operand must hold exactly `count` matrices. Read them
// with Call::batch_maps (async_work.hpp), which range-checks the copy the kernel uses.
struct BatchMaps {
  Span<int32_t> a, b;
};

// Calls f(T{}) with T the C++ type of a dtype code (floating dtypes only).
template <class F>
auto dispatch_float(Napi::Env env, int64_t code, const char* who, F&& f) {
  switch (code) {
    case F32: return f(float{});
    case F64: return f(double{});
    case C64: return f(std::complex<float>{});
    case C128: return f(std::complex<double>{});
    default: type_error(env, std::string(who) + ": unsupported dtype code " + std::to_string(code));
  }
}

// Calls f(T{}) for every dtype: the floating ones, int32_t, uint32_t and uint8_t (bool).
template <class F>
auto dispatch_all(Napi::Env env, int64_t code, const char* who, F&& f) {
  switch (code) {
    case F32: return f(float{});
    case F64: return f(double{});
    case C64: return f(std::complex<float>{});
    case C128: return f(std::complex<double>{});
    case I32: return f(int32_t{});
    case U32: return f(uint32_t{});
    case BOOL: return f(uint8_t{});
    default: type_error(env, std::string(who) + ": unsupported dtype code " + std::to_string(code));
  }
}

template <class F>
auto dispatch_real(Napi::Env env, int64_t code, const char* who, F&& f) {
  switch (code) {
    case F32: return f(float{});
    case F64: return f(double{});
    default: type_error(env, std::string(who) + ": this op takes float32 or float64 only");
  }
}

}  // namespace lapis::binding
