// N-API glue of the elementwise kernels (lapis/elementwise.hpp): cast, unary, binary,
// where, and the op-code tables for the contract test. Every array is checked against its
// dtype code and every broadcast layout against the arrays it indexes.
#include <string>
#include <vector>

#include "async_work.hpp"
#include "common.hpp"
#include "lapis/elementwise.hpp"

namespace lapis::binding {
namespace {

// A typed array of any dtype, type-erased for the kernels (count in elements).
struct Raw {
  void* data;
  int64_t count;
};

Raw in_array(const Opts& o, Call& io, int64_t code, const char* name, int64_t need = -1) {
  return dispatch_all(o.env(), code, o.who(), [&](auto tag) -> Raw {
    using T = decltype(tag);
    auto s = io.in(o.array<T>(name, need));
    return {static_cast<void*>(s.data), s.count};
  });
}

// An output the kernel overwrites completely (Call::out gives it huge-page advice).
Raw out_array(const Opts& o, Call& io, int64_t code, const char* name, int64_t need) {
  return dispatch_all(o.env(), code, o.who(), [&](auto tag) -> Raw {
    using T = decltype(tag);
    auto s = io.out(o.array<T>(name, need));
    return {static_cast<void*>(s.data), s.count};
  });
}

int64_t dtype_code(const Opts& o, const char* name) {
  const int64_t c = o.int_(name);
  if (c < 0 || c > 6) type_error(o.env(), std::string(o.who()) + ": unsupported dtype code " + std::to_string(c));
  return c;
}

// A broadcast layout from Float64Arrays (shape, then one stride array per operand),
// checked: non-negative integers, inner strides 0 or 1, every reachable offset inside its
// operand, the output long enough.
struct Layout {
  std::vector<index> shape;
  std::vector<index> s[3];
  int n = 0;
  Layout3 view() const {
    Layout3 L{static_cast<int>(shape.size()), shape.data(), {nullptr, nullptr, nullptr}};
    for (int k = 0; k < n; ++k) L.s[k] = s[k].data();
    return L;
  }
};

bool is_count(double v) { return v >= 0 && v < 9.0e15 && v == static_cast<double>(static_cast<int64_t>(v)); }

Layout read_layout(const Opts& o, Call& io, std::initializer_list<const char*> names, std::initializer_list<int64_t> sizes,
                   int64_t nout) {
  Napi::Env env = o.env();
  const std::string who = o.who();
  Layout L;
  L.n = static_cast<int>(names.size());
  auto shape = io.in(o.array<double>("shape"));
  const int64_t nd = shape.count;
  if (nd < 1 || nd > 64) range_error(env, who + ": bad broadcast layout rank");
  for (int64_t d = 0; d < nd; ++d) {
    if (!is_count(shape.data[d])) range_error(env, who + ": broadcast layout entries must be non-negative integers");
    L.shape.push_back(static_cast<index>(shape.data[d]));
  }
  int64_t total = 1;
  bool empty = false;
  for (int64_t d = 0; d < nd; ++d) {
    if (L.shape[d] == 0) empty = true;
    total *= L.shape[d] == 0 ? 1 : L.shape[d];
    if (total > (int64_t(1) << 50)) range_error(env, who + ": output too large");
  }
  int k = 0;
  auto size_it = sizes.begin();
  for (const char* name : names) {
    auto st = io.in(o.array<double>(name));
    if (st.count != nd) range_error(env, who + ": bad broadcast layout rank");
    int64_t reach = 0;
    for (int64_t d = 0; d < nd; ++d) {
      const double v = st.data[d];
      if (!is_count(v)) range_error(env, who + ": broadcast layout entries must be non-negative integers");
      L.s[k].push_back(static_cast<index>(v));
      if (L.shape[d] > 0) reach += (L.shape[d] - 1) * static_cast<int64_t>(v);
    }
    if (L.s[k].back() > 1) range_error(env, who + ": inner strides must be 0 or 1");
    if (!empty && reach >= *size_it) range_error(env, who + ": broadcast layout reaches past an operand");
    ++k;
    ++size_it;
  }
  if (!empty && total > nout) range_error(env, who + ": output array too short");
  if (empty) L.shape.assign(1, 0);
  return L;
}

// cast({ from, to, x, out })
Napi::Value Cast(const Napi::CallbackInfo& info) {
  const Opts o(info, "cast");
  const int64_t from = dtype_code(o, "from"), to = dtype_code(o, "to");
  const bool fc = from == C64 || from == C128, tc = to == C64 || to == C128;
  if (fc && !tc && to != BOOL) type_error(o.env(), "cast: complex to real would drop the imaginary part");
  Call io(o, false);
  Raw x = in_array(o, io, from, "x");
  Raw out = out_array(o, io, to, "out", x.count);
  return io.run([&] { cast(ElemType(from), ElemType(to), x.count, x.data, out.data); });
}
Export e_cast("cast", Cast, {"from", "to", "x", "out"});

// unary({ dtype, op, x, out }): out has unary_out_type's dtype.
Napi::Value Unary(const Napi::CallbackInfo& info) {
  const Opts o(info, "unary");
  const int64_t code = dtype_code(o, "dtype");
  const int64_t op = o.int_("op");
  const char* name = op >= 0 && op < 1000 ? unary_op_name(static_cast<int>(op)) : nullptr;
  if (!name) range_error(o.env(), "unary: unknown op code " + std::to_string(op));
  const int oc = unary_out_type(static_cast<int>(op), ElemType(code));
  if (oc < 0) type_error(o.env(), std::string("unary: ") + name + " does not take this dtype");
  Call io(o, false);
  Raw x = in_array(o, io, code, "x");
  Raw out = out_array(o, io, oc, "out", x.count);
  return io.run([&] { unary(static_cast<int>(op), ElemType(code), x.count, x.data, out.data); });
}
Export e_unary("unary", Unary, {"dtype", "op", "x", "out"});

// binary({ dtype, op, a, b, out, shape, aStrides, bStrides }): out has binary_out_type's dtype.
Napi::Value Binary(const Napi::CallbackInfo& info) {
  const Opts o(info, "binary");
  const int64_t code = dtype_code(o, "dtype");
  const int64_t op = o.int_("op");
  const char* name = op >= 0 && op < 1000 ? binary_op_name(static_cast<int>(op)) : nullptr;
  if (!name) range_error(o.env(), "binary: unknown op code " + std::to_string(op));
  const int oc = binary_out_type(static_cast<int>(op), ElemType(code));
  if (oc < 0) type_error(o.env(), std::string("binary: ") + name + " does not take this dtype");
  Call io(o, false);
  Raw a = in_array(o, io, code, "a");
  Raw b = in_array(o, io, code, "b");
  Raw out = out_array(o, io, oc, "out", -1);
  Layout L = read_layout(o, io, {"aStrides", "bStrides"}, {a.count, b.count}, out.count);
  if (L.shape[0] == 0) return o.env().Undefined();
  return io.run([&] { binary(static_cast<int>(op), ElemType(code), L.view(), a.data, b.data, out.data); });
}
Export e_binary("binary", Binary, {"dtype", "op", "a", "b", "out", "shape", "aStrides", "bStrides"});

// where({ dtype, cond, a, b, out, shape, condStrides, aStrides, bStrides }): cond is bool.
Napi::Value Where(const Napi::CallbackInfo& info) {
  const Opts o(info, "where");
  const int64_t code = dtype_code(o, "dtype");
  Call io(o, false);
  auto cond = io.in(o.array<uint8_t>("cond"));
  Raw a = in_array(o, io, code, "a");
  Raw b = in_array(o, io, code, "b");
  Raw out = out_array(o, io, code, "out", -1);
  Layout L = read_layout(o, io, {"condStrides", "aStrides", "bStrides"}, {cond.count, a.count, b.count}, out.count);
  if (L.shape[0] == 0) return o.env().Undefined();
  return io.run([&] { where(ElemType(code), L.view(), cond.data, a.data, b.data, out.data); });
}
Export e_where("where", Where, {"dtype", "cond", "a", "b", "out", "shape", "condStrides", "aStrides", "bStrides"});

// elementwiseOpNames({ table }): the op names in code order, table 0 unary, 1 binary.
Napi::Value OpNames(const Napi::CallbackInfo& info) {
  const Opts o(info, "elementwiseOpNames");
  const int64_t table = o.int_("table");
  if (table != 0 && table != 1) range_error(o.env(), "elementwiseOpNames: table must be 0 (unary) or 1 (binary)");
  Napi::Array out = Napi::Array::New(o.env());
  for (int i = 0;; ++i) {
    const char* n = table == 0 ? unary_op_name(i) : binary_op_name(i);
    if (!n) break;
    out.Set(static_cast<uint32_t>(i), Napi::String::New(o.env(), n));
  }
  return out;
}
Export e_op_names("elementwiseOpNames", OpNames, {"table"});

}  // namespace
}  // namespace lapis::binding
