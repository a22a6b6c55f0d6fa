// The landing-pad side of WebAssembly C++ exceptions for the threaded build (docs/wasm.md,
// "Exceptions on worker threads"): replaces the sysroot's Unwind-wasm.o, which the linker
// then leaves out (every symbol it defines is defined here).
//
// Each typed `catch` compiled by clang 14 (Debian's Emscripten 3.1.6) stores its landing
// pad's index and LSDA into `__wasm_lpad_context` as a plain global, calls
// _Unwind_CallPersonality, and reads the selector back from that global. The sysroot's
// libunwind declares the global `thread_local`, so only the main thread (whose TLS block is
// the static image at the global's address) saw what the pad wrote: on a pool or async
// runner thread the personality read another copy, and every typed catch missed, or
// matched the clause the main thread last selected.
//
// Here the global is plain, as the compiler addresses it, and the personality runs on a
// per-thread copy taken at entry, so threads share it only between the pad's stores and
// this function's first loads, and between the selector's store and the pad's load.
#if defined(__EMSCRIPTEN_PTHREADS__) && defined(__clang_major__) && __clang_major__ < 15
// clang 15 and later make the pad's accesses thread-local themselves, as the sysroot expects.

#include <stdint.h>
#include <unwind.h>  // clang's: the signatures below are its (all i32 on wasm32, as libc++abi calls them)

// Field order is the compiler's: it stores at offsets 0 and 4 and loads at 8.
struct LandingPadContext {
  uintptr_t lpad_index;  // in: which landing pad of the function
  uintptr_t lsda;        // in: the function's exception table
  uintptr_t selector;    // out: the catch clause that matches (0: none)
};
static_assert(sizeof(LandingPadContext) == 12, "wasm32 landing-pad context layout");

namespace {
thread_local LandingPadContext t_context;
}  // namespace

extern "C" {

_Unwind_Reason_Code __gxx_personality_wasm0(int version, _Unwind_Action actions, uint64_t exception_class,
                                            _Unwind_Exception* exception, _Unwind_Context* context);

// Written by every typed catch pad (any thread), read back after the personality call.
__attribute__((used)) LandingPadContext __wasm_lpad_context;

_Unwind_Reason_Code _Unwind_CallPersonality(void* exception_ptr) {
  auto* exception = static_cast<_Unwind_Exception*>(exception_ptr);
  LandingPadContext& mine = t_context;
  mine.lpad_index = __wasm_lpad_context.lpad_index;
  mine.lsda = __wasm_lpad_context.lsda;
  mine.selector = 0;
  // WebAssembly unwinds in one phase; the personality is asked as in the cleanup phase.
  const _Unwind_Reason_Code r = __gxx_personality_wasm0(1, _UA_CLEANUP_PHASE, exception->exception_class, exception,
                                                        reinterpret_cast<_Unwind_Context*>(&mine));
  __wasm_lpad_context.selector = mine.selector;
  return r;
}

// __cxa_throw's last step: the engine unwinds to the nearest catch pad (tag 0: C++).
_Unwind_Reason_Code _Unwind_RaiseException(_Unwind_Exception* exception) {
  __builtin_wasm_throw(0, exception);
}

void _Unwind_DeleteException(_Unwind_Exception* exception) {
  if (exception->exception_cleanup != nullptr) exception->exception_cleanup(_URC_FOREIGN_EXCEPTION_CAUGHT, exception);
}

// The personality reports the matching clause through register 1; nothing else is a register here.
void _Unwind_SetGR(_Unwind_Context* context, int index, _Unwind_Word value) {
  if (index == 1) reinterpret_cast<LandingPadContext*>(context)->selector = value;
}

// The personality looks the pad up as a 1-based call-site index after subtracting one.
_Unwind_Word _Unwind_GetIP(_Unwind_Context* context) {
  return reinterpret_cast<LandingPadContext*>(context)->lpad_index + 2;
}

void _Unwind_SetIP(_Unwind_Context*, _Unwind_Word) {}

void* _Unwind_GetLanguageSpecificData(_Unwind_Context* context) {
  return reinterpret_cast<void*>(reinterpret_cast<LandingPadContext*>(context)->lsda);
}

_Unwind_Ptr _Unwind_GetRegionStart(_Unwind_Context*) { return 0; }

}  // extern "C"

#endif
