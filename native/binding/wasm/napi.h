// The part of Node-API and node-addon-api that native/binding uses, for the WebAssembly
// build (docs/wasm.md): the same binding files compile against this header instead of
// node-addon-api's, so every argument check and error message exists once.
//
// A napi_value is a handle: an index into the call-scoped value table of the JS side
// (src/backend/wasm/instantiate.ts), which provides the `lapis` imports declared in
// napi_shim.cpp. A typed array argument is copied into the wasm heap when the binding first
// asks for its data, and copied back after the call where the kernel changed it. Async work
// runs to completion inside napi_queue_async_work (one thread: there is no other).
#pragma once
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <type_traits>

typedef struct napi_env__* napi_env;
typedef struct napi_value__* napi_value;
typedef struct napi_ref__* napi_ref;
typedef struct napi_deferred__* napi_deferred;
typedef struct napi_async_work__* napi_async_work;
typedef struct napi_handle_scope__* napi_handle_scope;

typedef enum {
  napi_ok,
  napi_invalid_arg,
  napi_object_expected,
  napi_string_expected,
  napi_name_expected,
  napi_function_expected,
  napi_number_expected,
  napi_boolean_expected,
  napi_array_expected,
  napi_generic_failure,
} napi_status;

typedef enum {
  napi_undefined,
  napi_null,
  napi_boolean,
  napi_number,
  napi_string,
  napi_symbol,
  napi_object,
  napi_function,
  napi_external,
  napi_bigint,
} napi_valuetype;

typedef enum {
  napi_int8_array,
  napi_uint8_array,
  napi_uint8_clamped_array,
  napi_int16_array,
  napi_uint16_array,
  napi_int32_array,
  napi_uint32_array,
  napi_float32_array,
  napi_float64_array,
  napi_bigint64_array,
  napi_biguint64_array,
} napi_typedarray_type;

typedef void (*napi_async_execute_callback)(napi_env env, void* data);
typedef void (*napi_async_complete_callback)(napi_env env, napi_status status, void* data);

#define NAPI_AUTO_LENGTH SIZE_MAX

extern "C" {
napi_status napi_typeof(napi_env env, napi_value value, napi_valuetype* result);
napi_status napi_get_value_double(napi_env env, napi_value value, double* result);
napi_status napi_get_value_bool(napi_env env, napi_value value, bool* result);
napi_status napi_is_typedarray(napi_env env, napi_value value, bool* result);
napi_status napi_get_typedarray_info(napi_env env, napi_value typedarray, napi_typedarray_type* type, size_t* length,
                                     void** data, napi_value* arraybuffer, size_t* byte_offset);
napi_status napi_is_arraybuffer(napi_env env, napi_value value, bool* result);
napi_status napi_is_array(napi_env env, napi_value value, bool* result);
napi_status napi_get_array_length(napi_env env, napi_value value, uint32_t* result);
napi_status napi_get_element(napi_env env, napi_value object, uint32_t index, napi_value* result);
napi_status napi_get_undefined(napi_env env, napi_value* result);
napi_status napi_create_string_utf8(napi_env env, const char* str, size_t length, napi_value* result);
napi_status napi_create_error(napi_env env, napi_value code, napi_value msg, napi_value* result);
napi_status napi_create_range_error(napi_env env, napi_value code, napi_value msg, napi_value* result);
napi_status napi_create_promise(napi_env env, napi_deferred* deferred, napi_value* promise);
napi_status napi_resolve_deferred(napi_env env, napi_deferred deferred, napi_value resolution);
napi_status napi_reject_deferred(napi_env env, napi_deferred deferred, napi_value rejection);
napi_status napi_create_reference(napi_env env, napi_value value, uint32_t initial_refcount, napi_ref* result);
napi_status napi_delete_reference(napi_env env, napi_ref ref);
napi_status napi_get_reference_value(napi_env env, napi_ref ref, napi_value* result);
napi_status napi_create_async_work(napi_env env, napi_value async_resource, napi_value async_resource_name,
                                   napi_async_execute_callback execute, napi_async_complete_callback complete,
                                   void* data, napi_async_work* result);
napi_status napi_queue_async_work(napi_env env, napi_async_work work);
napi_status napi_delete_async_work(napi_env env, napi_async_work work);
napi_status napi_open_handle_scope(napi_env env, napi_handle_scope* result);
napi_status napi_close_handle_scope(napi_env env, napi_handle_scope scope);
napi_status napi_is_exception_pending(napi_env env, bool* result);
napi_status napi_get_and_clear_last_exception(napi_env env, napi_value* result);
}

namespace lapis::wasm {
// The JS side's value table (napi_shim.cpp).
napi_value make_double(double d);
napi_value make_object();
napi_value make_array();
void set_named(napi_value object, const char* key, napi_value value);
void set_element(napi_value array, uint32_t index, napi_value value);
napi_value undefined_value();
napi_value null_value();
}  // namespace lapis::wasm

namespace Napi {

class Value;

class Env {
 public:
  Env(napi_env env) : env_(env) {}  // NOLINT: implicit, as node-addon-api's
  operator napi_env() const { return env_; }
  Value Undefined() const;
  Value Null() const;

 private:
  napi_env env_;
};

class Value {
 public:
  Value() = default;
  Value(napi_env env, napi_value value) : env_(env), value_(value) {}
  operator napi_value() const { return value_; }  // NOLINT: implicit, as node-addon-api's
  Napi::Env Env() const { return Napi::Env(env_); }

 protected:
  napi_env env_ = nullptr;
  napi_value value_ = nullptr;
};

inline Value Env::Undefined() const { return Value(env_, lapis::wasm::undefined_value()); }
inline Value Env::Null() const { return Value(env_, lapis::wasm::null_value()); }

class Number : public Value {
 public:
  using Value::Value;
  static Number New(napi_env env, double d) { return Number(env, lapis::wasm::make_double(d)); }
};

class String : public Value {
 public:
  using Value::Value;
  static String New(napi_env env, const char* s) {
    napi_value v = nullptr;
    napi_create_string_utf8(env, s, NAPI_AUTO_LENGTH, &v);
    return String(env, v);
  }
  static String New(napi_env env, const std::string& s) {
    napi_value v = nullptr;
    napi_create_string_utf8(env, s.data(), s.size(), &v);
    return String(env, v);
  }
};

namespace detail {
inline napi_value to_value(napi_env, const Value& v) { return v; }
template <class T, class = std::enable_if_t<std::is_arithmetic<T>::value>>
napi_value to_value(napi_env, T x) {
  return lapis::wasm::make_double(static_cast<double>(x));
}
inline napi_value to_value(napi_env env, const char* s) { return String::New(env, s); }
inline napi_value to_value(napi_env env, const std::string& s) { return String::New(env, s); }
}  // namespace detail

class Object : public Value {
 public:
  using Value::Value;
  static Object New(napi_env env) { return Object(env, lapis::wasm::make_object()); }
  template <class T>
  void Set(const char* key, const T& v) {
    lapis::wasm::set_named(value_, key, detail::to_value(env_, v));
  }
};

class Array : public Object {
 public:
  using Object::Object;
  static Array New(napi_env env) { return Array(env, lapis::wasm::make_array()); }
  using Object::Set;
  template <class T>
  void Set(uint32_t index, const T& v) {
    lapis::wasm::set_element(value_, index, detail::to_value(env_, v));
  }
};

// Thrown by the bindings and turned into a JS Error, TypeError or RangeError by the export
// entry (lapis_wasm_call in addon.cpp).
class Error : public std::exception {
 public:
  enum Kind : int { Plain = 0, Type = 1, Range = 2 };
  Error() = default;
  Error(Kind kind, std::string message) : kind_(kind), message_(std::move(message)) {}
  static Error New(napi_env, const std::string& message) { return Error(Plain, message); }
  static Error New(napi_env) { return Error(Plain, "a Node-API call failed"); }
  const char* what() const noexcept override { return message_.c_str(); }
  const std::string& Message() const { return message_; }
  Kind kind() const { return kind_; }

 private:
  Kind kind_ = Plain;
  std::string message_;
};

class TypeError : public Error {
 public:
  using Error::Error;
  static TypeError New(napi_env, const std::string& message) { return TypeError(Type, message); }
};

class RangeError : public Error {
 public:
  using Error::Error;
  static RangeError New(napi_env, const std::string& message) { return RangeError(Range, message); }
};

class CallbackInfo {
 public:
  CallbackInfo(napi_env env, const napi_value* argv, size_t argc, void* data)
      : env_(env), argv_(argv), argc_(argc), data_(data) {}
  CallbackInfo(const CallbackInfo&) = delete;
  CallbackInfo& operator=(const CallbackInfo&) = delete;
  Napi::Env Env() const { return Napi::Env(env_); }
  size_t Length() const { return argc_; }
  Value operator[](size_t i) const { return Value(env_, i < argc_ ? argv_[i] : lapis::wasm::undefined_value()); }
  void* Data() const { return data_; }

 private:
  napi_env env_;
  const napi_value* argv_;
  size_t argc_;
  void* data_;
};

}  // namespace Napi

#define NAPI_THROW_IF_FAILED(env, status, ...)            \
  if ((status) != napi_ok) {                              \
    throw Napi::Error::New(env, "a Node-API call failed"); \
  }

namespace lapis::wasm {
// A handle of the JS value table as a napi_value and back (0: no value).
inline napi_value from_handle(uint32_t h) { return reinterpret_cast<napi_value>(static_cast<uintptr_t>(h)); }
inline uint32_t to_handle(napi_value v) { return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(v)); }
// Makes the JS side throw `message` as an Error (0), TypeError (1) or RangeError (2) once
// the current export returns.
void throw_js(int kind, const std::string& message);
}  // namespace lapis::wasm
