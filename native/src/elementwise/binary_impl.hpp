// Binary elementwise ops over a broadcast layout, instantiated per dtype family in
// binary_{real,complex,int}.cpp. The inner run is specialised on which operand is a
// splat (stride 0), so the same-shape, scalar and row-broadcast cases are straight loops
// the compiler vectorises.
#pragma once
#include "elementwise_common.hpp"

namespace lapis::ew {

using B = BinaryOp;

constexpr bool is_compare(int op) { return op >= int(B::eq) && op <= int(B::logicalOr); }

// The output type of op on T, or -1 when not taken (the public layer promotes first).
template <class T>
constexpr int binary_out(int op, ElemType t) {
  const int self = static_cast<int>(t);
  if (op < 0 || op >= int(B::count)) return -1;
  if constexpr (is_complex_v<T>) {
    if (op == int(B::minimum) || op == int(B::maximum)) return -1;
    if (op >= int(B::lt) && op <= int(B::ge)) return -1;
    return is_compare(op) ? int(ElemType::b8) : self;
  } else if constexpr (is_float_v<T>) {
    return is_compare(op) ? int(ElemType::b8) : self;
  } else if constexpr (std::is_same_v<T, uint8_t>) {
    // bool: comparisons, logical ops and minimum/maximum (and/or); arithmetic arrives as int32.
    if (is_compare(op)) return int(ElemType::b8);
    return op == int(B::minimum) || op == int(B::maximum) ? self : -1;
  } else {
    if (op == int(B::div)) return -1;  // true division arrives as float32
    return is_compare(op) ? int(ElemType::b8) : self;
  }
}

// Integer power by squaring in the unsigned type (wraps). A negative exponent gives the
// truncated true value: 1 for base 1, ±1 for base −1, else 0 (base 0 included).
template <class T>
inline T ipow(T a, T b) {
  if constexpr (std::is_signed_v<T>) {
    if (b < 0) {
      if (a == 1) return 1;
      if (a == -1) return (b & 1) ? -1 : 1;
      return 0;
    }
  }
  uns<T> r = 1, x = static_cast<uns<T>>(a);
  uns<T> e = static_cast<uns<T>>(b);
  while (e) {
    if (e & 1) r *= x;
    x *= x;
    e >>= 1;
  }
  return static_cast<T>(r);
}

// numpy's complex division (Smith's algorithm; x/0 gives the componentwise quotients).
template <class R>
inline std::complex<R> cdiv(std::complex<R> a, std::complex<R> b) {
  const R ar = a.real(), ai = a.imag(), br = b.real(), bi = b.imag();
  const R abr = std::abs(br), abi = std::abs(bi);
  if (abr >= abi) {
    if (abr == 0 && abi == 0) return {ar / abr, ai / abi};
    const R rat = bi / br, scl = R(1) / (br + bi * rat);
    return {(ar + ai * rat) * scl, (ai - ar * rat) * scl};
  }
  const R rat = br / bi, scl = R(1) / (bi + br * rat);
  return {(ar * rat + ai) * scl, (ai * rat - ar) * scl};
}

template <class R>
inline std::complex<R> cmul(std::complex<R> a, std::complex<R> b) {
  // The plain formula (numpy's): no C99 Annex G recovery of infinities from NaN.
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// numpy's complex power: z^0 = 1, 0^w = 0 for real w > 0 (else NaN), small integer
// exponents by repeated multiplication, the rest exp(w·log z).
template <class R>
inline std::complex<R> cpow(std::complex<R> a, std::complex<R> b) {
  using C = std::complex<R>;
  const R br = b.real(), bi = b.imag();
  if (br == 0 && bi == 0) return C(1, 0);
  if (a.real() == 0 && a.imag() == 0) {
    if (br > 0 && bi == 0) return C(0, 0);
    const R nan = std::numeric_limits<R>::quiet_NaN();
    return C(nan, nan);
  }
  if (bi == 0 && br == std::trunc(br) && std::abs(br) < 100) {
    long n = static_cast<long>(br);
    const bool neg = n < 0;
    if (neg) n = -n;
    C r(1, 0), x = a;
    while (n) {
      if (n & 1) r = cmul(r, x);
      x = cmul(x, x);
      n >>= 1;
    }
    return neg ? cdiv(C(1, 0), r) : r;
  }
  return std::exp(b * std::log(a));
}

template <int OP, class T>
inline auto bapply(T a, T b) {
  if constexpr (OP == int(B::eq)) return static_cast<uint8_t>(a == b);
  else if constexpr (OP == int(B::ne)) return static_cast<uint8_t>(a != b);
  else if constexpr (OP == int(B::logicalAnd)) return static_cast<uint8_t>(nonzero(a) & nonzero(b));
  else if constexpr (OP == int(B::logicalOr)) return static_cast<uint8_t>(nonzero(a) | nonzero(b));
  else if constexpr (is_complex_v<T>) {
    if constexpr (OP == int(B::add)) return a + b;
    else if constexpr (OP == int(B::sub)) return a - b;
    else if constexpr (OP == int(B::mul)) return cmul(a, b);
    else if constexpr (OP == int(B::div)) return cdiv(a, b);
    else return cpow(a, b);
  } else if constexpr (OP == int(B::lt)) return static_cast<uint8_t>(a < b);
  else if constexpr (OP == int(B::le)) return static_cast<uint8_t>(a <= b);
  else if constexpr (OP == int(B::gt)) return static_cast<uint8_t>(a > b);
  else if constexpr (OP == int(B::ge)) return static_cast<uint8_t>(a >= b);
  // numpy's minimum/maximum: NaN in either operand propagates; ties (−0, +0) give b.
  else if constexpr (OP == int(B::minimum)) return (a < b || a != a) ? a : b;
  else if constexpr (OP == int(B::maximum)) return (a > b || a != a) ? a : b;
  else if constexpr (is_int_v<T>) {
    using V = uns<T>;
    if constexpr (OP == int(B::add)) return static_cast<T>(static_cast<V>(a) + static_cast<V>(b));
    else if constexpr (OP == int(B::sub)) return static_cast<T>(static_cast<V>(a) - static_cast<V>(b));
    else if constexpr (OP == int(B::mul)) return static_cast<T>(static_cast<V>(a) * static_cast<V>(b));
    else return ipow(a, b);
  } else {
    if constexpr (OP == int(B::add)) return a + b;
    else if constexpr (OP == int(B::sub)) return a - b;
    else if constexpr (OP == int(B::mul)) return a * b;
    else if constexpr (OP == int(B::div)) return a / b;
    else return std::pow(a, b);
  }
}

template <int OP, class T, class O>
inline void run_vv(index n, const T* __restrict a, const T* __restrict b, O* __restrict o) {
  for (index i = 0; i < n; ++i) o[i] = bapply<OP>(a[i], b[i]);
}
template <int OP, class T, class O>
inline void run_vs(index n, const T* __restrict a, const T b, O* __restrict o) {
  for (index i = 0; i < n; ++i) o[i] = bapply<OP>(a[i], b);
}
template <int OP, class T, class O>
inline void run_sv(index n, const T a, const T* __restrict b, O* __restrict o) {
  for (index i = 0; i < n; ++i) o[i] = bapply<OP>(a, b[i]);
}

template <int OP, class T>
void run_binary(const Layout3& L, const T* a, const T* b, void* out) {
  using O = decltype(bapply<OP>(T{}, T{}));
  O* o = static_cast<O*>(out);
  const int nd = L.ndim;
  const index sa = L.s[0][nd - 1], sb = L.s[1][nd - 1];
  const bool heavy = OP == int(B::pow) || (is_complex_v<T> && OP == int(B::div));
  walk<2>(L, heavy ? kGrainHeavy : kGrain, [&](const index* off, index oo, index len) {
    if (sa && sb) run_vv<OP>(len, a + off[0], b + off[1], o + oo);
    else if (sa) run_vs<OP>(len, a + off[0], b[off[1]], o + oo);
    else if (sb) run_sv<OP>(len, a[off[0]], b + off[1], o + oo);
    else std::fill(o + oo, o + oo + len, bapply<OP>(a[off[0]], b[off[1]]));
  });
}

template <class T, int OP = 0>
void binary_dispatch(int op, ElemType t, const Layout3& L, const T* a, const T* b, void* out) {
  if constexpr (OP < int(B::count)) {
    if (op == OP) {
      constexpr bool cplx_bad = is_complex_v<T> && (OP == int(B::minimum) || OP == int(B::maximum) ||
                                                    (OP >= int(B::lt) && OP <= int(B::ge)));
      constexpr bool int_bad = is_int_v<T> && OP == int(B::div);
      constexpr bool bool_bad = std::is_same_v<T, uint8_t> && OP <= int(B::pow);
      if constexpr (!cplx_bad && !int_bad && !bool_bad) run_binary<OP>(L, a, b, out);
      return;
    }
    binary_dispatch<T, OP + 1>(op, t, L, a, b, out);
  }
}

}  // namespace lapis::ew

namespace lapis::ew {
// One per translation unit (compile time): f32/f64, c64/c128, i32/u32/bool.
void binary_real(int op, ElemType t, const Layout3& L, const void* a, const void* b, void* out);
void binary_complex(int op, ElemType t, const Layout3& L, const void* a, const void* b, void* out);
void binary_int(int op, ElemType t, const Layout3& L, const void* a, const void* b, void* out);

template <class T>
inline void binary_typed(int op, ElemType t, const Layout3& L, const void* a, const void* b, void* out) {
  binary_dispatch<T>(op, t, L, static_cast<const T*>(a), static_cast<const T*>(b), out);
}
}  // namespace lapis::ew
