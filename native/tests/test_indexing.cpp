// C++-only test of lapis/indexing.hpp: strided_copy against a plain odometer walk for
// random shapes (rank 0–5) with positive, negative and zero strides, every element type,
// with and without conj; the tiled transpose path on sizes around its tiles and large
// enough to run threaded; triangle, concat, take and put (accumulate with duplicates:
// integer wrap, bool or) against plain loops. Comparisons are bitwise (copies must not
// change a bit: NaN payloads and −0 survive). Exits non-zero on any failure.
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include "lapis/indexing.hpp"

using ix = lapis::index;  // not `index`: <cstring> declares POSIX index()

namespace {

int g_failures = 0;
long g_checks = 0;
std::mt19937_64 g_rng(20261201);

template <class T> const char* name_of() {
  if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, std::complex<float>>) return "complex<float>";
  else if constexpr (std::is_same_v<T, std::complex<double>>) return "complex<double>";
  else if constexpr (std::is_same_v<T, int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, uint32_t>) return "uint32";
  else return "bool";
}

void check(bool ok, const char* what, const char* type, long detail) {
  ++g_checks;
  if (!ok) {
    ++g_failures;
    if (g_failures < 20) std::printf("FAIL %s (%s) at %ld\n", what, type, detail);
  }
}

template <class T> T random_value() {
  if constexpr (lapis::is_complex_v<T>) {
    using R = typename T::value_type;
    std::uniform_int_distribution<int> d(-1000, 1000);
    return T(static_cast<R>(d(g_rng)) / R(8), static_cast<R>(d(g_rng)) / R(8));
  } else if constexpr (std::is_same_v<T, uint8_t>) {
    return static_cast<uint8_t>(g_rng() & 1);
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(g_rng());
  } else {
    std::uniform_int_distribution<int> d(-1000, 1000);
    return static_cast<T>(d(g_rng)) / T(8);
  }
}

template <class T> std::vector<T> random_vec(ix n) {
  std::vector<T> v(static_cast<size_t>(n));
  for (auto& x : v) x = random_value<T>();
  return v;
}

template <class T> bool same_bits(const T& a, const T& b) { return std::memcmp(&a, &b, sizeof(T)) == 0; }

template <class T> T conj_of(T v) {
  if constexpr (lapis::is_complex_v<T>) return std::conj(v);
  else return v;
}

// The reference: an odometer over shape, offset + Σ i·stride.
template <class T>
std::vector<T> walk(const std::vector<ix>& shape, const std::vector<ix>& strides, ix offset, const std::vector<T>& x,
                    bool conj) {
  ix total = 1;
  for (ix s : shape) total *= s;
  std::vector<T> out;
  if (total == 0) return out;
  std::vector<ix> i(shape.size(), 0);
  for (ix f = 0; f < total; ++f) {
    ix off = offset;
    for (size_t d = 0; d < shape.size(); ++d) off += i[d] * strides[d];
    out.push_back(conj ? conj_of(x[static_cast<size_t>(off)]) : x[static_cast<size_t>(off)]);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++i[d] < shape[d]) break;
      i[d] = 0;
    }
  }
  return out;
}

template <class T>
void expect_copy(const std::vector<ix>& shape, const std::vector<ix>& strides, ix offset, const std::vector<T>& x,
                 bool conj, const char* what) {
  const auto want = walk(shape, strides, offset, x, conj);
  std::vector<T> got(want.size() + 1, T{});
  const T sentinel = random_value<T>();
  got.back() = sentinel;
  lapis::strided_copy<T>(static_cast<int>(shape.size()), shape.data(), strides.data(), offset, x.data(), got.data(), conj);
  bool ok = same_bits(got.back(), sentinel);
  long bad = -1;
  for (size_t k = 0; k < want.size(); ++k) {
    if (!same_bits(got[k], want[k])) {
      ok = false;
      bad = static_cast<long>(k);
      break;
    }
  }
  check(ok, what, name_of<T>(), bad);
}

// Random views: each dim picks a size and a stride of either sign (or 0); the offset puts
// the lowest reachable element at a random place of a buffer just long enough.
template <class T>
void random_views() {
  std::uniform_int_distribution<int> rank(0, 5), size(0, 5), stride(-7, 7), pad(0, 3);
  for (int it = 0; it < 400; ++it) {
    const int nd = rank(g_rng);
    std::vector<ix> shape(nd), strides(nd);
    ix lo = 0, hi = 0;
    for (int d = 0; d < nd; ++d) {
      shape[d] = size(g_rng);
      strides[d] = stride(g_rng);
      if (shape[d] > 0) (strides[d] < 0 ? lo : hi) += (shape[d] - 1) * strides[d];
    }
    const ix offset = -lo + pad(g_rng);
    const auto x = random_vec<T>(offset + hi + 1 + pad(g_rng));
    expect_copy(shape, strides, offset, x, (it & 1) != 0, "strided_copy random view");
  }
}

// Row-major permutations of dense tensors: the transpose tiles, their edges, the threaded path.
template <class T>
void transposes() {
  const ix sizes[][3] = {{1, 1, 1}, {1, 31, 33}, {2, 64, 64}, {3, 65, 17}, {1, 300, 257}, {4, 1, 130}, {2, 129, 3}};
  for (const auto& s : sizes) {
    const ix b = s[0], m = s[1], n = s[2];
    const auto x = random_vec<T>(b * m * n);
    expect_copy<T>({b, n, m}, {m * n, 1, n}, 0, x, false, "strided_copy mT");
    expect_copy<T>({b, n, m}, {m * n, 1, n}, 0, x, true, "strided_copy mH");
    expect_copy<T>({n, b, m}, {1, m * n, n}, 0, x, false, "strided_copy permute (2, 0, 1)");
    expect_copy<T>({m, n}, {-n, -1}, b * m * n - 1 - (b - 1) * m * n, x, false, "strided_copy reversed");
    // mT of a row-reversed view: the register blocks with a negative source stride
    expect_copy<T>({n, m}, {1, -n}, (m - 1) * n, x, true, "strided_copy mH of reversed rows");
  }
  const ix big = 700;
  const auto x = random_vec<T>(big * big);
  expect_copy<T>({big, big}, {1, big}, 0, x, false, "strided_copy large mT");
  expect_copy<T>({big, big}, {1, big}, 0, x, true, "strided_copy large mH");
  // row stride off the column count (a padded or sliced source) and ragged edges on both sides
  expect_copy<T>({big - 9, 301}, {1, big}, 5, x, true, "strided_copy large mH of a slice");
  expect_copy<T>({big, big / 2}, {big, 2}, 0, x, true, "strided_copy large column slice");
  expect_copy<T>({big, big}, {0, 1}, 0, x, false, "strided_copy large broadcast");
}

template <class T>
void triangles() {
  std::uniform_int_distribution<int> dim(0, 9), kd(-12, 12);
  for (int it = 0; it < 60; ++it) {
    const ix count = dim(g_rng) % 3 + 1, m = dim(g_rng), n = dim(g_rng), k = kd(g_rng);
    const bool upper = (it & 1) != 0;
    const auto x = random_vec<T>(count * m * n);
    std::vector<T> got(x.size());
    lapis::triangle<T>(count, m, n, upper, k, x.data(), got.data());
    bool ok = true;
    for (ix b = 0; b < count; ++b)
      for (ix i = 0; i < m; ++i)
        for (ix j = 0; j < n; ++j) {
          const size_t at = static_cast<size_t>((b * m + i) * n + j);
          const bool keep = upper ? j - i >= k : j - i <= k;
          ok = ok && same_bits(got[at], keep ? x[at] : T{});
        }
    check(ok, upper ? "triu" : "tril", name_of<T>(), it);
  }
  // k at the int64 extremes selects everything or nothing, without overflow
  const auto x = random_vec<T>(12);
  std::vector<T> got(12);
  lapis::triangle<T>(1, 3, 4, true, INT64_MIN, x.data(), got.data());
  check(std::memcmp(got.data(), x.data(), 12 * sizeof(T)) == 0, "triu k = -2^63", name_of<T>(), 0);
  lapis::triangle<T>(1, 3, 4, true, INT64_MAX, x.data(), got.data());
  bool zero = true;
  for (const T& v : got) zero = zero && same_bits(v, T{});
  check(zero, "triu k = 2^63 - 1", name_of<T>(), 0);
}

template <class T>
void concats() {
  std::uniform_int_distribution<int> dim(0, 5);
  for (int it = 0; it < 60; ++it) {
    const ix outer = it == 0 ? 1 : dim(g_rng);
    const int parts = 1 + dim(g_rng) % 4;
    std::vector<std::vector<T>> xs;
    std::vector<const T*> ptrs;
    std::vector<ix> sizes;
    ix row = 0;
    for (int p = 0; p < parts; ++p) {
      sizes.push_back(dim(g_rng));
      xs.push_back(random_vec<T>(outer * sizes.back()));
      ptrs.push_back(xs.back().data());
      row += sizes.back();
    }
    std::vector<T> got(static_cast<size_t>(outer * row));
    lapis::concat<T>(outer, parts, ptrs.data(), sizes.data(), got.data());
    bool ok = true;
    size_t at = 0;
    for (ix o = 0; o < outer; ++o)
      for (int p = 0; p < parts; ++p)
        for (ix j = 0; j < sizes[p]; ++j) ok = ok && same_bits(got[at++], xs[p][static_cast<size_t>(o * sizes[p] + j)]);
    check(ok, "concat", name_of<T>(), it);
  }
  // one row of large parts: the split copies
  const auto a = random_vec<T>(300000), b = random_vec<T>(5);
  const T* ptrs[] = {a.data(), b.data()};
  const ix sizes[] = {300000, 5};
  std::vector<T> got(300005);
  lapis::concat<T>(1, 2, ptrs, sizes, got.data());
  check(std::memcmp(got.data(), a.data(), 300000 * sizeof(T)) == 0 && std::memcmp(got.data() + 300000, b.data(), 5 * sizeof(T)) == 0,
        "concat large", name_of<T>(), 0);
}

template <class T> T add(T a, T b) {
  if constexpr (std::is_same_v<T, uint8_t>) return static_cast<uint8_t>(a || b);
  else if constexpr (std::is_same_v<T, int32_t>) return static_cast<int32_t>(static_cast<int64_t>(a) + b);  // wraps mod 2^32
  else return static_cast<T>(a + b);
}

template <class T>
void gathers() {
  for (int it = 0; it < 60; ++it) {
    const ix n = 1 + static_cast<ix>(g_rng() % 9), count = static_cast<ix>(g_rng() % 40);
    const auto x = random_vec<T>(n);
    std::vector<int32_t> idx(static_cast<size_t>(count));
    for (auto& i : idx) i = static_cast<int32_t>(g_rng() % static_cast<uint64_t>(n));
    const auto values = random_vec<T>(count);
    std::vector<T> got(static_cast<size_t>(count));
    lapis::take<T>(count, x.data(), idx.data(), got.data());
    bool ok = true;
    for (ix i = 0; i < count; ++i) ok = ok && same_bits(got[i], x[idx[i]]);
    check(ok, "take", name_of<T>(), it);
    for (bool acc : {false, true}) {
      std::vector<T> want = x, out(x.size());
      for (ix i = 0; i < count; ++i) want[idx[i]] = acc ? add(want[idx[i]], values[i]) : values[i];
      lapis::put<T>(n, x.data(), count, idx.data(), values.data(), out.data(), acc);
      ok = true;
      for (ix i = 0; i < n; ++i) ok = ok && same_bits(out[i], want[i]);
      check(ok, acc ? "put accumulate" : "put", name_of<T>(), it);
    }
  }
}

template <class T>
void all() {
  random_views<T>();
  transposes<T>();
  triangles<T>();
  concats<T>();
  gathers<T>();
}

}  // namespace

int main() {
  all<float>();
  all<double>();
  all<std::complex<float>>();
  all<std::complex<double>>();
  all<int32_t>();
  all<uint32_t>();
  all<uint8_t>();
  // bitwise: NaN payloads and −0 come through a transpose unchanged
  const float nan_bits = [] {
    uint32_t u = 0x7fc01234u;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }();
  expect_copy<float>({2, 2}, {1, 2}, 0, {nan_bits, -0.0f, 1.0f, -nan_bits}, false, "strided_copy NaN payload and -0");
  // the same through whole register blocks (16×16 float, 8×8 complex<float>, 4×4 complex<double>),
  // conjugated: only the imaginary sign bits change
  {
    const ix n = 40;
    std::vector<float> f(n * n);
    std::vector<std::complex<float>> c(n * n);
    std::vector<std::complex<double>> z(n * n);
    for (ix i = 0; i < n * n; ++i) {
      const float v = i % 3 == 0 ? nan_bits : i % 3 == 1 ? -0.0f : float(i);
      const float w = i % 5 == 0 ? -nan_bits : i % 5 == 1 ? 0.0f : -float(i);
      f[i] = v;
      c[i] = {v, w};
      z[i] = {double(w), double(v)};
    }
    expect_copy<float>({n, n}, {1, n}, 0, f, false, "strided_copy NaN payload and -0 (blocks)");
    expect_copy<std::complex<float>>({n, n}, {1, n}, 0, c, true, "strided_copy mH NaN payload and -0 (blocks)");
    expect_copy<std::complex<double>>({n, n}, {1, n}, 0, z, true, "strided_copy mH NaN payload and -0 (blocks)");
  }
  std::printf("test_indexing: %ld checks, %d failures\n", g_checks, g_failures);
  return g_failures == 0 ? 0 : 1;
}
