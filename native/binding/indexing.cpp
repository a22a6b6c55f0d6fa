// Bindings of the indexing kernels (lapis/indexing.hpp): stridedCopy, triangle, concat,
// take, put, for every dtype. Every offset a kernel can reach is checked here against the
// typed array it reads or writes (strided views, concat parts, flat indices).
#include <cmath>
#include <string>
#include <vector>

#include <algorithm>

#include "async_work.hpp"
#include "common.hpp"
#include "lapis/indexing.hpp"

namespace lapis::binding {
namespace {

constexpr double kMaxExact = 9007199254740992.0;  // 2^53: doubles are exact integers below it


bool exact_int(double v) { return std::isfinite(v) && std::fabs(v) < kMaxExact && v == std::trunc(v); }

// An integer option in [lo, 2^53).
int64_t read_count(const Opts& o, const char* name, int64_t lo = 0) {
  const double v = o.number(name);
  if (!exact_int(v) || v < static_cast<double>(lo)) {
    range_error(o.env(), std::string(o.who()) + ": " + name + " must be an integer ≥ " + std::to_string(lo));
  }
  return static_cast<int64_t>(v);
}

// stridedCopy({ dtype, x, out, shape, strides, offset, conj }): out = x[offset + Σ i·strides].
Napi::Value StridedCopy(const Napi::CallbackInfo& info) {
  const Opts o(info, "stridedCopy");
  return dispatch_all(o.env(), o.int_("dtype"), o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Napi::Env env = o.env();
    const std::string who = o.who();
    Call io(o, false);
    auto x = io.in(o.array<T>("x"));
    auto out = io.out(o.array<T>("out"));
    auto shape = io.in(o.array<double>("shape"));
    auto strides = io.in(o.array<double>("strides"));
    const double off = o.number("offset");
    const bool conj = o.boolean("conj");
    const int64_t nd = shape.count;
    if (nd > 64 || strides.count != nd) range_error(env, who + ": shape and strides must have one entry per dim (at most 64)");
    if (!exact_int(off)) range_error(env, who + ": offset must be an integer");
    std::vector<index> sh(static_cast<size_t>(nd)), st(static_cast<size_t>(nd));
    int64_t total = 1;
    bool empty = false;
    for (int64_t d = 0; d < nd; ++d) {
      const double s = shape.data[d], t = strides.data[d];
      if (!exact_int(s) || s < 0 || !exact_int(t)) range_error(env, who + ": shape and strides must hold integers (shape ≥ 0)");
      sh[d] = static_cast<index>(s);
      st[d] = static_cast<index>(t);
      if (sh[d] == 0) empty = true;
    }
    for (int64_t d = 0; d < nd && !empty; ++d) {
      if (total > (int64_t(1) << 50) / sh[d]) range_error(env, who + ": output too large");
      total *= sh[d];
    }
    if (empty) total = 0;
    if (total > out.count) range_error(env, who + ": out holds " + std::to_string(out.count) + " elements, needs " + std::to_string(total));
    const index offset = static_cast<index>(off);
    if (total > 0) {
      // Each dim's reach is below x's length (so the sums cannot overflow), then the
      // lowest and highest offsets of the walk must lie inside x.
      index lo = offset, hi = offset;
      for (int64_t d = 0; d < nd; ++d) {
        const index a = st[d] < 0 ? -st[d] : st[d];
        if (sh[d] > 1 && a > 0 && sh[d] - 1 > (x.count - 1) / a) range_error(env, who + ": the view reaches outside x");
        (st[d] < 0 ? lo : hi) += (sh[d] - 1) * st[d];
      }
      if (lo < 0 || hi >= x.count) range_error(env, who + ": the view reaches outside x");
    }
    return io.run([&] { strided_copy<T>(static_cast<int>(nd), sh.data(), st.data(), offset, x.data, out.data, conj); });
  });
}
Export e_strided_copy("stridedCopy", StridedCopy, {"dtype", "x", "out", "shape", "strides", "offset", "conj"});

// triangle({ dtype, x, out, count, m, n, upper, k }): triu/tril of count m×n matrices.
Napi::Value Triangle(const Napi::CallbackInfo& info) {
  const Opts o(info, "triangle");
  return dispatch_all(o.env(), o.int_("dtype"), o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Napi::Env env = o.env();
    Call io(o, false);
    auto x = io.in(o.array<T>("x"));
    auto out = io.out(o.array<T>("out"));
    const int64_t count = read_count(o, "count"), m = read_count(o, "m"), n = read_count(o, "n");
    const bool upper = o.boolean("upper");
    const double kd = o.number("k");
    if (!exact_int(kd)) range_error(env, "triangle: k must be an integer");
    const double size = static_cast<double>(count) * static_cast<double>(m) * static_cast<double>(n);
    if (size > static_cast<double>(x.count) || size > static_cast<double>(out.count)) {
      range_error(env, "triangle: x and out must hold count·m·n elements");
    }
    note_size(o.int_("dtype"), count, m, n);
    // Every k ≥ n (or ≤ −m) gives the same result: clamped, it fits a 32-bit index (wasm32).
    const index k = static_cast<index>(std::min(std::max(kd, -static_cast<double>(m)), static_cast<double>(n)));
    return io.run([&] { triangle<T>(count, m, n, upper, k, x.data, out.data); });
  });
}
Export e_triangle("triangle", Triangle, {"dtype", "x", "out", "count", "m", "n", "upper", "k"});

// concat({ dtype, xs, out, outer, sizes }): out's `outer` rows are the parts' rows
// (sizes[p] elements of xs[p] each) one after the other.
Napi::Value Concat(const Napi::CallbackInfo& info) {
  const Opts o(info, "concat");
  return dispatch_all(o.env(), o.int_("dtype"), o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Napi::Env env = o.env();
    const std::string who = o.who();
    Call io(o, false);
    napi_value list = o.get("xs");
    bool is_array = false;
    napi_is_array(env, list, &is_array);
    if (!is_array) type_error(env, who + ": xs must be an array of typed arrays");
    uint32_t parts = 0;
    napi_get_array_length(env, list, &parts);
    if (parts > (1u << 20)) range_error(env, who + ": too many parts");
    std::vector<Span<T>> xs;
    for (uint32_t p = 0; p < parts; ++p) {
      napi_value el = nullptr;
      if (napi_get_element(env, list, p, &el) != napi_ok) type_error(env, who + ": xs could not be read");
      xs.push_back(io.in(typed_span<T>(env, el, o.who(), "xs[]")));
    }
    auto out = io.out(o.array<T>("out"));
    const int64_t outer = read_count(o, "outer");
    auto sizes = io.in(o.array<double>("sizes"));
    if (sizes.count != static_cast<int64_t>(parts)) range_error(env, who + ": sizes must have one entry per part");
    std::vector<index> sz(parts);
    std::vector<const T*> ptrs(parts);
    double row = 0;
    for (uint32_t p = 0; p < parts; ++p) {
      const double s = sizes.data[p];
      if (!exact_int(s) || s < 0) range_error(env, who + ": sizes must be non-negative integers");
      if (static_cast<double>(outer) * s > static_cast<double>(xs[p].count)) {
        range_error(env, who + ": xs[" + std::to_string(p) + "] holds " + std::to_string(xs[p].count) + " elements, needs outer·sizes[p]");
      }
      sz[p] = static_cast<index>(s);
      ptrs[p] = xs[p].data;
      row += s;
    }
    if (static_cast<double>(outer) * row > static_cast<double>(out.count)) range_error(env, who + ": out is too short");
    return io.run([&] { concat<T>(outer, static_cast<int>(parts), ptrs.data(), sz.data(), out.data); });
  });
}
Export e_concat("concat", Concat, {"dtype", "xs", "out", "outer", "sizes"});

// Int32 indices, checked on the copy the kernel reads: every one in [0, bound).
Span<int32_t> checked_index(const Opts& o, Call& io, int64_t bound) {
  auto idx = io.in(o.array<int32_t>("index"));
  for (int64_t i = 0; i < idx.count; ++i) {
    if (idx.data[i] < 0 || idx.data[i] >= bound) {
      range_error(o.env(), std::string(o.who()) + ": index " + std::to_string(idx.data[i]) + " at position " + std::to_string(i) +
                               " is out of range for " + std::to_string(bound) + " elements");
    }
  }
  return idx;
}

// take({ dtype, x, index, out }): out[i] = x[index[i]].
Napi::Value Take(const Napi::CallbackInfo& info) {
  const Opts o(info, "take");
  return dispatch_all(o.env(), o.int_("dtype"), o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, false);
    auto x = io.in(o.array<T>("x"));
    auto idx = checked_index(o, io, x.count);
    auto out = io.out(o.array<T>("out", idx.count));
    return io.run([&] { take<T>(idx.count, x.data, idx.data, out.data); });
  });
}
Export e_take("take", Take, {"dtype", "x", "index", "out"});

// put({ dtype, x, index, values, out, accumulate }): out = x, then out[index[i]] = (or +=) values[i].
Napi::Value Put(const Napi::CallbackInfo& info) {
  const Opts o(info, "put");
  return dispatch_all(o.env(), o.int_("dtype"), o.who(), [&](auto tag) -> Napi::Value {
    using T = decltype(tag);
    Call io(o, false);
    auto x = io.in(o.array<T>("x"));
    auto idx = checked_index(o, io, x.count);
    auto values = io.in(o.array<T>("values", idx.count));
    auto out = io.out(o.array<T>("out", x.count));
    const bool accumulate = o.boolean("accumulate");
    return io.run([&] { put<T>(x.count, x.data, idx.count, idx.data, values.data, out.data, accumulate); });
  });
}
Export e_put("put", Put, {"dtype", "x", "index", "values", "out", "accumulate"});

}  // namespace
}  // namespace lapis::binding
