// The checks of test_simd.cpp, included once per ISA region there (no include guard): each
// inclusion compiles them for that region's target. Expects fail(), g_checks and the
// std headers from the including file.

template <class P> void check_pack(const char* name) {
  using R = typename P::R;
  using V = typename P::V;
  constexpr int L = P::L;
  alignas(64) R a[L], b[L], c[L], out[L], out2[L];
  auto put = [&](V v) { P::store(out, v); };
  auto expect = [&](const char* op, auto ref) {
    for (int l = 0; l < L; ++l) {
      const R want = ref(l);
      ++g_checks;
      if (!(std::memcmp(&out[l], &want, sizeof(R)) == 0 || (want != want && out[l] != out[l])))
        fail(name, op, l, double(out[l]), double(want));
    }
  };
  // Small integers and halves: every sum below is exact, whatever its order.
  for (int l = 0; l < L; ++l) {
    a[l] = R((l * 7) % 11) - R(5) + R(0.5) * R(l % 2);
    b[l] = R((l * 3) % 5) + R(1.5);
    c[l] = R(l) - R(2.25);
  }
  const V va = P::load(a), vb = P::load(b), vc = P::load(c);
  put(P::zero()); expect("zero", [&](int) { return R(0); });
  put(P::set1(R(3.5))); expect("set1", [&](int) { return R(3.5); });
  put(P::bcast(b + 1)); expect("bcast", [&](int) { return b[1]; });
  put(va); expect("load/store", [&](int l) { return a[l]; });
  put(P::add(va, vb)); expect("add", [&](int l) { return a[l] + b[l]; });
  put(P::sub(va, vb)); expect("sub", [&](int l) { return a[l] - b[l]; });
  put(P::mul(va, vb)); expect("mul", [&](int l) { return a[l] * b[l]; });
  put(P::div(va, vb)); expect("div", [&](int l) { return a[l] / b[l]; });
  put(P::sqrt(vb)); expect("sqrt", [&](int l) { return std::sqrt(b[l]); });
  put(P::neg(va)); expect("neg", [&](int l) { return -a[l]; });
  put(P::abs(P::neg(P::zero()))); expect("abs(-0)", [&](int) { return R(0); });
  put(P::abs(va)); expect("abs", [&](int l) { return std::fabs(a[l]); });
  put(P::fma(va, vb, vc)); expect("fma", [&](int l) { return std::fma(a[l], b[l], c[l]); });
  put(P::fnma(va, vb, vc)); expect("fnma", [&](int l) { return std::fma(-a[l], b[l], c[l]); });
  put(P::and_(va, P::set1(R(-0.0)))); expect("and", [&](int l) { return std::signbit(a[l]) ? R(-0.0) : R(0); });
  put(P::or_(P::abs(va), P::set1(R(-0.0)))); expect("or", [&](int l) { return -std::fabs(a[l]); });
  put(P::xor_(va, P::set1(R(-0.0)))); expect("xor", [&](int l) { return -a[l]; });
  put(P::andnot(P::set1(R(-0.0)), va)); expect("andnot", [&](int l) { return std::fabs(a[l]); });
  // Compares, with a NaN lane.
  a[L - 1] = std::numeric_limits<R>::quiet_NaN();
  b[0] = a[0];
  const V na = P::load(a), nb = P::load(b);
  auto bits_of = [&](auto pred) {
    unsigned r = 0;
    for (int l = 0; l < L; ++l) r |= unsigned(pred(l)) << l;
    return r;
  };
  auto expect_bits = [&](const char* op, unsigned got, unsigned want) {
    ++g_checks;
    if (got != want) fail(name, op, -1, double(got), double(want));
  };
  expect_bits("gt", P::mask_bits(P::gt(na, nb)), bits_of([&](int l) { return a[l] > b[l]; }));
  expect_bits("lt", P::mask_bits(P::lt(na, nb)), bits_of([&](int l) { return a[l] < b[l]; }));
  expect_bits("eq", P::mask_bits(P::eq(na, nb)), bits_of([&](int l) { return a[l] == b[l]; }));
  expect_bits("ne", P::mask_bits(P::ne(na, nb)), bits_of([&](int l) { return !(a[l] == b[l]); }));
  expect_bits("mand", P::mask_bits(P::mand(P::gt(na, nb), P::lt(P::zero(), na))),
              bits_of([&](int l) { return a[l] > b[l] && R(0) < a[l]; }));
  expect_bits("mor", P::mask_bits(P::mor(P::gt(na, nb), P::eq(na, nb))),
              bits_of([&](int l) { return a[l] > b[l] || a[l] == b[l]; }));
  expect_bits("any", P::any(P::gt(na, nb)), bits_of([&](int l) { return a[l] > b[l]; }) != 0);
  expect_bits("any (none)", P::any(P::gt(P::zero(), P::set1(R(1)))), 0);
  for (int only = 0; only < L; ++only) {
    alignas(64) R one[L];
    for (int l = 0; l < L; ++l) one[l] = R(l == only);
    expect_bits("any (one lane)", P::any(P::gt(P::load(one), P::zero())), 1);
  }
  put(P::blend(na, nb, P::gt(na, nb))); expect("blend", [&](int l) { return a[l] > b[l] ? b[l] : a[l]; });
  put(P::max(na, nb)); expect("max", [&](int l) { return a[l] > b[l] ? a[l] : b[l]; });
  put(P::max(nb, na)); expect("max (swapped)", [&](int l) { return b[l] > a[l] ? b[l] : a[l]; });
  // Horizontal and complex-pair operations.
  {
    R s = 0;
    for (int l = 0; l < L; ++l) s += c[l];
    out[0] = P::hsum(vc);
    ++g_checks;
    if (out[0] != s) fail(name, "hsum", 0, double(out[0]), double(s));
  }
  put(P::swap_pairs(vc)); expect("swap_pairs", [&](int l) { return c[l ^ 1]; });
  put(P::addsub(vc, nb)); expect("addsub", [&](int l) { return l % 2 ? c[l] + b[l] : c[l] - b[l]; });
  put(P::conj(vc)); expect("conj", [&](int l) { return l % 2 ? -c[l] : c[l]; });
  put(P::alt(R(1.25))); expect("alt", [&](int l) { return l % 2 ? R(-1.25) : R(1.25); });
  // Transpose of an L×L block.
  {
    alignas(64) R m[L][L], t[L][L];
    V r[L];
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j) m[i][j] = R(i * L + j);
    for (int i = 0; i < L; ++i) r[i] = P::load(m[i]);
    P::transpose(r);
    for (int i = 0; i < L; ++i) P::store(t[i], r[i]);
    for (int i = 0; i < L; ++i)
      for (int j = 0; j < L; ++j) {
        ++g_checks;
        if (t[i][j] != m[j][i]) fail(name, "transpose", i * L + j, double(t[i][j]), double(m[j][i]));
      }
  }
  {
    int32_t iv[L];
    P::to_i32(P::load(c), iv);
    for (int l = 0; l < L; ++l) {
      ++g_checks;
      if (iv[l] != int32_t(c[l])) fail(name, "to_i32", l, double(iv[l]), double(int32_t(c[l])));
    }
  }
  // Ragged ends: lanes past n read as 0 and are left alone by the store.
  if constexpr (P::kTail) {
    for (int n = 0; n <= L; ++n) {
      const auto t = P::tail(n);
      put(P::loadt(c, t)); expect("loadt", [&](int l) { return l < n ? c[l] : R(0); });
      for (int l = 0; l < L; ++l) out2[l] = R(-7);
      P::storet(out2, t, vc);
      for (int l = 0; l < L; ++l) out[l] = out2[l];
      expect("storet", [&](int l) { return l < n ? c[l] : R(-7); });
    }
  }
}
