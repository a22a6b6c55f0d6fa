// Shared vocabulary of the kernels: index type, strided matrix views, scalar traits.
// Kernels take raw pointers with (rows, cols, row stride, col stride) so the same code
// serves row-major tensors, transposed views and sub-blocks without copies.
#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace lapis {

using index = std::ptrdiff_t;

template <class T> struct is_complex : std::false_type {};
template <class R> struct is_complex<std::complex<R>> : std::true_type {};
template <class T> inline constexpr bool is_complex_v = is_complex<T>::value;

template <class T> struct real_of { using type = T; };
template <class R> struct real_of<std::complex<R>> { using type = R; };
template <class T> using real_t = typename real_of<T>::type;

template <class T> inline T conj_if(T x, bool c) {
  if constexpr (is_complex_v<T>) return c ? std::conj(x) : x;
  else { (void)c; return x; }
}
template <class T> inline T conj(T x) { return conj_if(x, true); }
template <class T> inline real_t<T> abs1(T x) {  // |re| + |im|: LAPACK's cheap pivot measure
  if constexpr (is_complex_v<T>) return std::abs(x.real()) + std::abs(x.imag());
  else return std::abs(x);
}
template <class T> inline real_t<T> real_part(T x) {
  if constexpr (is_complex_v<T>) return x.real(); else return x;
}
template <class T> inline bool is_finite(T x) {
  if constexpr (is_complex_v<T>) return std::isfinite(x.real()) && std::isfinite(x.imag());
  else return std::isfinite(x);
}
template <class T> constexpr real_t<T> eps() { return std::numeric_limits<real_t<T>>::epsilon(); }
template <class T> constexpr real_t<T> smallest_normal() { return std::numeric_limits<real_t<T>>::min(); }

// Read-only strided matrix view. `conj` asks the consumer to conjugate each element;
// transposition is a stride swap, so op(A) ∈ {A, Aᵀ, Aᴴ} costs nothing to express.
template <class T> struct MatRef {
  const T* p;
  index rows, cols, rs, cs;
  bool conj = false;
  const T& operator()(index i, index j) const { return p[i * rs + j * cs]; }
  T at(index i, index j) const { return conj_if(p[i * rs + j * cs], conj); }
  MatRef t() const { return {p, cols, rows, cs, rs, conj}; }
  MatRef h() const { return {p, cols, rows, cs, rs, !conj}; }
  MatRef block(index i, index j, index r, index c) const { return {p + i * rs + j * cs, r, c, rs, cs, conj}; }
};

template <class T> struct MatMut {
  T* p;
  index rows, cols, rs, cs;
  T& operator()(index i, index j) const { return p[i * rs + j * cs]; }
  MatMut t() const { return {p, cols, rows, cs, rs}; }
  MatMut block(index i, index j, index r, index c) const { return {p + i * rs + j * cs, r, c, rs, cs}; }
  MatRef<T> ref() const { return {p, rows, cols, rs, cs, false}; }
  operator MatRef<T>() const { return ref(); }
};

template <class T> inline MatMut<T> row_major(T* p, index m, index n) { return {p, m, n, n, 1}; }
template <class T> inline MatRef<T> row_major(const T* p, index m, index n) { return {p, m, n, n, 1, false}; }

}  // namespace lapis
