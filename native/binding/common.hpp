// The only place (with the other native/binding files) that knows about Node-API.
// Every pointer handed to a kernel comes from a typed array checked here: dtype, length
// and byte offset, so a wrong call from JS is a thrown TypeError/RangeError, never a
// crash of the process.
#pragma once
#include <napi.h>

#include <complex>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lapis/common.hpp"

namespace lapis::binding {

// Must match dtypeCode() in src/core/dtype.ts.
enum DTypeCode : int { F32 = 0, F64 = 1, C64 = 2, C128 = 3, I32 = 4 };

using Fn = Napi::Value (*)(const Napi::CallbackInfo&);

// Self-registration: each binding file declares `static Export e("name", fn);` so adding
// an op never edits a shared file.
std::vector<std::pair<const char*, Fn>>& exports_list();
struct Export {
  Export(const char* name, Fn fn) { exports_list().emplace_back(name, fn); }
};

[[noreturn]] inline void type_error(Napi::Env env, const std::string& msg) {
  throw Napi::TypeError::New(env, msg);
}
[[noreturn]] inline void range_error(Napi::Env env, const std::string& msg) {
  throw Napi::RangeError::New(env, msg);
}

inline int64_t arg_int(const Napi::CallbackInfo& info, size_t i, const char* who, const char* name) {
  if (i >= info.Length() || !info[i].IsNumber()) type_error(info.Env(), std::string(who) + ": " + name + " must be a number");
  double d = info[i].As<Napi::Number>().DoubleValue();
  if (d != static_cast<double>(static_cast<int64_t>(d))) type_error(info.Env(), std::string(who) + ": " + name + " must be an integer");
  return static_cast<int64_t>(d);
}

inline double arg_double(const Napi::CallbackInfo& info, size_t i, const char* who, const char* name) {
  if (i >= info.Length() || !info[i].IsNumber()) type_error(info.Env(), std::string(who) + ": " + name + " must be a number");
  return info[i].As<Napi::Number>().DoubleValue();
}

inline bool arg_bool(const Napi::CallbackInfo& info, size_t i, const char* who, const char* name) {
  if (i >= info.Length() || !info[i].IsBoolean()) type_error(info.Env(), std::string(who) + ": " + name + " must be a boolean");
  return info[i].As<Napi::Boolean>().Value();
}

template <class S> constexpr napi_typedarray_type typed_array_type();
template <> constexpr napi_typedarray_type typed_array_type<float>() { return napi_float32_array; }
template <> constexpr napi_typedarray_type typed_array_type<double>() { return napi_float64_array; }
template <> constexpr napi_typedarray_type typed_array_type<int32_t>() { return napi_int32_array; }

// A typed array viewed as T elements (T complex: pairs of scalars). `count` is in T units.
template <class T> struct Span {
  T* data = nullptr;
  int64_t count = 0;
};

// T is the element type (float, double, std::complex<...>, int32_t). Checks the array
// type, that a complex array has an even length, and (if need >= 0) that it holds at
// least `need` elements.
template <class T>
Span<T> arg_array(const Napi::CallbackInfo& info, size_t i, const char* who, const char* name, int64_t need = -1) {
  using S = real_t<T>;
  Napi::Env env = info.Env();
  if (i >= info.Length() || !info[i].IsTypedArray()) type_error(env, std::string(who) + ": " + name + " must be a typed array");
  auto ta = info[i].As<Napi::TypedArray>();
  if (ta.TypedArrayType() != typed_array_type<S>()) {
    type_error(env, std::string(who) + ": " + name + " has the wrong element type for this dtype");
  }
  size_t scalars = ta.ElementLength();
  constexpr size_t k = sizeof(T) / sizeof(S);
  if (scalars % k != 0) range_error(env, std::string(who) + ": " + name + " (complex) has an odd length");
  auto* base = static_cast<uint8_t*>(ta.ArrayBuffer().Data()) + ta.ByteOffset();
  if (reinterpret_cast<uintptr_t>(base) % alignof(S) != 0) range_error(env, std::string(who) + ": " + name + " is misaligned");
  Span<T> s{reinterpret_cast<T*>(base), static_cast<int64_t>(scalars / k)};
  if (need >= 0 && s.count < need) {
    range_error(env, std::string(who) + ": " + name + " holds " + std::to_string(s.count) + " elements, needs " +
                         std::to_string(need));
  }
  return s;
}

// Optional Int32Array (null/undefined → empty span): broadcast index maps.
inline Span<int32_t> arg_index_map(const Napi::CallbackInfo& info, size_t i, const char* who, const char* name,
                                   int64_t need, int64_t bound) {
  if (i >= info.Length() || info[i].IsNull() || info[i].IsUndefined()) return {};
  auto s = arg_array<int32_t>(info, i, who, name, need);
  for (int64_t j = 0; j < need; ++j) {
    if (s.data[j] < 0 || s.data[j] >= bound) range_error(info.Env(), std::string(who) + ": " + name + " has an out-of-range entry");
  }
  return s;
}

// The two broadcast maps of a batched binary op (A's and B's matrix per output matrix),
// each optional; without a map the operand must hold exactly `count` matrices.
struct BatchMaps {
  Span<int32_t> a, b;
};
inline BatchMaps arg_batch_maps(const Napi::CallbackInfo& info, size_t ia, const char* who, int64_t count,
                                int64_t aCount, int64_t bCount) {
  BatchMaps m{arg_index_map(info, ia, who, "aIdx", count, aCount), arg_index_map(info, ia + 1, who, "bIdx", count, bCount)};
  if ((!m.a.data && aCount != count) || (!m.b.data && bCount != count)) {
    range_error(info.Env(), std::string(who) + ": batch counts disagree");
  }
  return m;
}

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

template <class F>
auto dispatch_real(Napi::Env env, int64_t code, const char* who, F&& f) {
  switch (code) {
    case F32: return f(float{});
    case F64: return f(double{});
    default: type_error(env, std::string(who) + ": this op takes float32 or float64 only");
  }
}

}  // namespace lapis::binding
