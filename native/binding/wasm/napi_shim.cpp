// Node-API on the JS value table of src/backend/wasm/instantiate.ts (see napi.h): each
// function here is one call of an import of the `lapis` module.
#include <napi.h>

#include <cstring>
#include <new>
#include <utility>

#ifdef __EMSCRIPTEN_PTHREADS__
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>

#include "lapis/parallel.hpp"
#endif

#define LAPIS_IMPORT(name) __attribute__((import_module("lapis"), import_name(#name)))

extern "C" {
LAPIS_IMPORT(type_of) int lapis_js_type_of(uint32_t h);
LAPIS_IMPORT(number) double lapis_js_number(uint32_t h);
LAPIS_IMPORT(boolean) int lapis_js_boolean(uint32_t h);
// 0: not a typed array; 1: *out = {type, length, heap pointer of its copy}; 2: no heap for the copy.
LAPIS_IMPORT(typed_array) int lapis_js_typed_array(uint32_t h, uint32_t* out);
LAPIS_IMPORT(is_array) int lapis_js_is_array(uint32_t h);
LAPIS_IMPORT(array_length) uint32_t lapis_js_array_length(uint32_t h);
LAPIS_IMPORT(element) uint32_t lapis_js_element(uint32_t h, uint32_t index);
LAPIS_IMPORT(string) uint32_t lapis_js_string(const char* s, uint32_t length);
LAPIS_IMPORT(double) uint32_t lapis_js_double(double d);
LAPIS_IMPORT(object) uint32_t lapis_js_object();
LAPIS_IMPORT(array) uint32_t lapis_js_array();
LAPIS_IMPORT(set_named) void lapis_js_set_named(uint32_t object, const char* key, uint32_t key_length, uint32_t value);
LAPIS_IMPORT(set_element) void lapis_js_set_element(uint32_t array, uint32_t index, uint32_t value);
LAPIS_IMPORT(error) uint32_t lapis_js_error(int kind, uint32_t message);
// Returns the promise's handle and writes its deferred's handle to *deferred.
LAPIS_IMPORT(promise) uint32_t lapis_js_promise(uint32_t* deferred);
LAPIS_IMPORT(settle) void lapis_js_settle(uint32_t deferred, int resolve, uint32_t value);
LAPIS_IMPORT(throw) void lapis_js_throw(int kind, const char* message, uint32_t length);
// References outlive the call (an async call's outputs are read when it completes): ids
// into a table of their own; deref puts the value in the running call's table.
LAPIS_IMPORT(ref) uint32_t lapis_js_ref(uint32_t h);
LAPIS_IMPORT(deref) uint32_t lapis_js_deref(uint32_t ref);
LAPIS_IMPORT(unref) void lapis_js_unref(uint32_t ref);
#ifdef __EMSCRIPTEN_PTHREADS__
// Called on the async runner thread when a work item is done: its worker posts a message
// that makes the JS thread call lapis_wasm_async_complete.
LAPIS_IMPORT(async_done) void lapis_js_async_done();
// On the JS thread, before an item's completion: the call whose outputs it copies (its
// deferred), so the heap copies set aside for them when the call was made are used.
LAPIS_IMPORT(completing) void lapis_js_completing(uint32_t deferred);
#endif
}

namespace {
using lapis::wasm::from_handle;
using lapis::wasm::to_handle;
constexpr uint32_t kUndefined = 1, kNull = 2;  // fixed entries of the value table

struct AsyncWork {
  napi_env env;
  napi_async_execute_callback execute;
  napi_async_complete_callback complete;
  void* data;
  uint32_t deferred = 0;      // the promise's deferred (napi_create_promise just before)
  AsyncWork* next = nullptr;  // in the runner's queues (intrusive: queueing never allocates)
};

// The deferred of the promise the running call created last (AsyncJob::queue creates the
// promise, then the work).
uint32_t g_last_deferred = 0;
// Inside lapis_wasm_async_complete: a typed array that cannot be staged must not throw
// (the completion is noexcept: std::terminate); it reports an error status instead.
bool g_completing = false;

#ifdef __EMSCRIPTEN_PTHREADS__
// A FIFO of work items linked through AsyncWork::next.
struct WorkList {
  AsyncWork* head = nullptr;
  AsyncWork* tail = nullptr;
  bool empty() const { return head == nullptr; }
  void push(AsyncWork* w) {
    w->next = nullptr;
    (tail ? tail->next : head) = w;
    tail = w;
  }
  AsyncWork* pop() {
    AsyncWork* w = head;
    head = w->next;
    if (!head) tail = nullptr;
    w->next = nullptr;
    return w;
  }
};
// The threaded build runs async work on one thread of its own (a pool worker), one item at
// a time, in the order queued; the JS thread completes the items when told they are done.
// The runner allocates nothing of its own between items, so a heap that a kernel filled
// cannot make its bookkeeping throw where nothing catches.
struct AsyncQueue {
  std::mutex mu;
  std::condition_variable ready;
  WorkList todo, done;
  bool started = false;
};
AsyncQueue& async_queue() {
  static AsyncQueue* q = new AsyncQueue;  // never destroyed: the runner thread outlives static destruction
  return *q;
}

void async_runner() {
  AsyncQueue& q = async_queue();
  for (;;) {
    AsyncWork* w = nullptr;
    {
      std::unique_lock<std::mutex> lock(q.mu);
      q.ready.wait(lock, [&] { return !q.todo.empty(); });
      w = q.todo.pop();
    }
    w->execute(w->env, w->data);  // never throws (AsyncJob::Execute catches everything)
    {
      std::lock_guard<std::mutex> lock(q.mu);
      q.done.push(w);
    }
    lapis_js_async_done();
  }
}

// Queues w for the runner, starting it first if need be; false if no thread could be started.
bool queue_on_runner(AsyncWork* w) {
  AsyncQueue& q = async_queue();
  std::lock_guard<std::mutex> lock(q.mu);
  if (!q.started) {
    // The pool starts its threads when first used; only the JS thread can start threads
    // (a worker's pthread_create fails), so it must not be the runner that first uses it.
    lapis::num_threads();
    try {
      std::thread(async_runner).detach();
    } catch (const std::system_error&) {
      return false;  // no worker for it (a page whose workers the pool holds): run in the call
    }
    q.started = true;
  }
  q.todo.push(w);
  q.ready.notify_one();
  return true;
}
#endif
}  // namespace

namespace lapis::wasm {
napi_value make_double(double d) { return from_handle(lapis_js_double(d)); }
napi_value make_object() { return from_handle(lapis_js_object()); }
napi_value make_array() { return from_handle(lapis_js_array()); }
void set_named(napi_value object, const char* key, napi_value value) {
  lapis_js_set_named(to_handle(object), key, static_cast<uint32_t>(std::strlen(key)), to_handle(value));
}
void set_element(napi_value array, uint32_t index, napi_value value) {
  lapis_js_set_element(to_handle(array), index, to_handle(value));
}
napi_value undefined_value() { return from_handle(kUndefined); }
napi_value null_value() { return from_handle(kNull); }
void throw_js(int kind, const std::string& message) {
  lapis_js_throw(kind, message.data(), static_cast<uint32_t>(message.size()));
}
}  // namespace lapis::wasm

extern "C" {

napi_status napi_typeof(napi_env, napi_value value, napi_valuetype* result) {
  *result = static_cast<napi_valuetype>(lapis_js_type_of(to_handle(value)));
  return napi_ok;
}
napi_status napi_get_value_double(napi_env, napi_value value, double* result) {
  if (lapis_js_type_of(to_handle(value)) != napi_number) return napi_number_expected;
  *result = lapis_js_number(to_handle(value));
  return napi_ok;
}
napi_status napi_get_value_bool(napi_env, napi_value value, bool* result) {
  if (lapis_js_type_of(to_handle(value)) != napi_boolean) return napi_boolean_expected;
  *result = lapis_js_boolean(to_handle(value)) != 0;
  return napi_ok;
}
napi_status napi_is_typedarray(napi_env, napi_value value, bool* result) {
  uint32_t info[3];
  // Reading the info stages the copy; a typed array is staged once per call however often it is read.
  const int r = lapis_js_typed_array(to_handle(value), info);
  if (r == 2) throw std::bad_alloc();
  *result = r == 1;
  return napi_ok;
}
napi_status napi_get_typedarray_info(napi_env, napi_value typedarray, napi_typedarray_type* type, size_t* length,
                                     void** data, napi_value* arraybuffer, size_t* byte_offset) {
  uint32_t info[3];
  const int r = lapis_js_typed_array(to_handle(typedarray), info);
  if (r == 2 && g_completing) return napi_generic_failure;
  if (r == 2) throw std::bad_alloc();  // the guard in addon.cpp reports "<op>: out of memory …"
  if (r != 1) return napi_invalid_arg;
  if (type) *type = static_cast<napi_typedarray_type>(info[0]);
  if (length) *length = info[1];
  if (data) *data = reinterpret_cast<void*>(static_cast<uintptr_t>(info[2]));
  if (arraybuffer) *arraybuffer = typedarray;
  if (byte_offset) *byte_offset = 0;
  return napi_ok;
}
// Only asked of the buffer of a typed array: the kernel sees a private heap copy, never
// memory another thread writes, so it is treated as a plain ArrayBuffer.
napi_status napi_is_arraybuffer(napi_env, napi_value, bool* result) {
  *result = true;
  return napi_ok;
}
napi_status napi_is_array(napi_env, napi_value value, bool* result) {
  *result = lapis_js_is_array(to_handle(value)) != 0;
  return napi_ok;
}
napi_status napi_get_array_length(napi_env, napi_value value, uint32_t* result) {
  if (!lapis_js_is_array(to_handle(value))) return napi_array_expected;
  *result = lapis_js_array_length(to_handle(value));
  return napi_ok;
}
napi_status napi_get_element(napi_env, napi_value object, uint32_t index, napi_value* result) {
  if (!lapis_js_is_array(to_handle(object))) return napi_object_expected;
  *result = from_handle(lapis_js_element(to_handle(object), index));
  return napi_ok;
}
napi_status napi_get_undefined(napi_env, napi_value* result) {
  *result = from_handle(kUndefined);
  return napi_ok;
}
napi_status napi_create_string_utf8(napi_env, const char* str, size_t length, napi_value* result) {
  if (length == NAPI_AUTO_LENGTH) length = std::strlen(str);
  *result = from_handle(lapis_js_string(str, static_cast<uint32_t>(length)));
  return napi_ok;
}
napi_status napi_create_error(napi_env, napi_value, napi_value msg, napi_value* result) {
  *result = from_handle(lapis_js_error(0, to_handle(msg)));
  return napi_ok;
}
napi_status napi_create_range_error(napi_env, napi_value, napi_value msg, napi_value* result) {
  *result = from_handle(lapis_js_error(2, to_handle(msg)));
  return napi_ok;
}
napi_status napi_create_promise(napi_env, napi_deferred* deferred, napi_value* promise) {
  uint32_t d = 0;
  *promise = from_handle(lapis_js_promise(&d));
  g_last_deferred = d;
  *deferred = reinterpret_cast<napi_deferred>(static_cast<uintptr_t>(d));
  return napi_ok;
}
napi_status napi_resolve_deferred(napi_env, napi_deferred deferred, napi_value resolution) {
  lapis_js_settle(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(deferred)), 1, to_handle(resolution));
  return napi_ok;
}
napi_status napi_reject_deferred(napi_env, napi_deferred deferred, napi_value rejection) {
  lapis_js_settle(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(deferred)), 0, to_handle(rejection));
  return napi_ok;
}
// Values live until the export returns; a reference lives until deleted (an async call's
// outputs are copied into their arrays when it completes, in a later call into the module).
napi_status napi_create_reference(napi_env, napi_value value, uint32_t, napi_ref* result) {
  *result = reinterpret_cast<napi_ref>(static_cast<uintptr_t>(lapis_js_ref(to_handle(value))));
  return napi_ok;
}
napi_status napi_delete_reference(napi_env, napi_ref ref) {
  lapis_js_unref(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(ref)));
  return napi_ok;
}
napi_status napi_get_reference_value(napi_env, napi_ref ref, napi_value* result) {
  *result = from_handle(lapis_js_deref(static_cast<uint32_t>(reinterpret_cast<uintptr_t>(ref))));
  return napi_ok;
}
napi_status napi_create_async_work(napi_env env, napi_value, napi_value, napi_async_execute_callback execute,
                                   napi_async_complete_callback complete, void* data, napi_async_work* result) {
  auto* w = new (std::nothrow) AsyncWork{env, execute, complete, data};
  if (!w) return napi_generic_failure;
  w->deferred = std::exchange(g_last_deferred, 0);
  *result = reinterpret_cast<napi_async_work>(w);
  return napi_ok;
}
// Threaded build: the work runs on the runner thread and completes later on the JS thread
// (lapis_wasm_async_complete). One thread (or no runner thread): the work runs now, and its
// completion settles the promise before the export returns; either way the JS side copies
// the outputs back before any reaction to the promise runs.
napi_status napi_queue_async_work(napi_env env, napi_async_work work) {
  auto* w = reinterpret_cast<AsyncWork*>(work);
#ifdef __EMSCRIPTEN_PTHREADS__
  if (queue_on_runner(w)) return napi_ok;
#endif
  w->execute(env, w->data);
  w->complete(env, napi_ok, w->data);  // deletes the job, whose completion deletes `work`
  return napi_ok;
}
napi_status napi_delete_async_work(napi_env, napi_async_work work) {
  delete reinterpret_cast<AsyncWork*>(work);
  return napi_ok;
}
napi_status napi_open_handle_scope(napi_env, napi_handle_scope* result) {
  *result = nullptr;
  return napi_ok;
}
napi_status napi_close_handle_scope(napi_env, napi_handle_scope) { return napi_ok; }
napi_status napi_is_exception_pending(napi_env, bool* result) {
  *result = false;
  return napi_ok;
}
napi_status napi_get_and_clear_last_exception(napi_env, napi_value* result) {
  *result = from_handle(kUndefined);
  return napi_ok;
}

#ifdef __EMSCRIPTEN_PTHREADS__
// On the JS thread, when the runner said an item is done: completes every finished item
// (settling its promise, copying its outputs into their arrays); returns how many.
__attribute__((used, export_name("lapis_wasm_async_complete"))) int lapis_wasm_async_complete() {
  WorkList done;
  {
    AsyncQueue& q = async_queue();
    std::lock_guard<std::mutex> lock(q.mu);
    std::swap(done, q.done);
  }
  int n = 0;
  g_completing = true;
  while (!done.empty()) {
    AsyncWork* w = done.pop();
    lapis_js_completing(w->deferred);
    w->complete(w->env, napi_ok, w->data);  // deletes w
    ++n;
  }
  g_completing = false;
  return n;
}
#endif

}  // extern "C"
