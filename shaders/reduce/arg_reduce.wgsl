// max/min with the index of the first extremum along the middle dim of (outer, len, inner)
// (src/backend/gpu/reduce.ts): NaN counts as the extremum (numpy's rule), ties go to the
// smaller index. The COLS layout of shaders/reduce/reduce.wgsl (its strides, and swap for
// short rows): a workgroup is cx columns × (WG / cx) lanes along the reduced dim. With splits > 1 it writes (value, index) partials;
// the second pass (has_idx = 1) reduces those, reading each value's index from ix.
// Value classes: f32 (FLOAT), i32 (SIGNED), u32 (uint32 and bool); MAX or min.
#include "common/linear_id.wgsl"

#if FLOAT
alias A = f32;
// ±Inf as runtime values (a constant bitcast to Inf is a shader-creation error in WGSL)
var<private> INF_BITS: u32 = 0x7f800000u;
fn lift(w: u32) -> A { return bitcast<f32>(w); }
fn emit(a: A) -> u32 { return bitcast<u32>(a); }
fn nan1(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
#if MAX
fn ident() -> A { return bitcast<f32>(INF_BITS | 0x80000000u); }
#else
fn ident() -> A { return bitcast<f32>(INF_BITS); }
#endif
#elif SIGNED
alias A = i32;
fn lift(w: u32) -> A { return bitcast<i32>(w); }
fn emit(a: A) -> u32 { return bitcast<u32>(a); }
#if MAX
fn ident() -> A { return bitcast<i32>(0x80000000u); }
#else
fn ident() -> A { return 0x7fffffffi; }
#endif
#else
alias A = u32;
fn lift(w: u32) -> A { return w; }
fn emit(a: A) -> u32 { return a; }
#if MAX
fn ident() -> A { return 0u; }
#else
fn ident() -> A { return 0xffffffffu; }
#endif
#endif

// (a, ia) comes before (b, ib): NaN first, then the larger (MAX) or smaller value, then the smaller index.
fn wins(a: A, ia: u32, b: A, ib: u32) -> bool {
#if FLOAT
  let na = nan1(a);
  let nb = nan1(b);
  if (na || nb) { return na && (!nb || ia < ib); }
#endif
#if MAX
  if (a != b) { return a > b; }
#else
  if (a != b) { return a < b; }
#endif
  return ia < ib;
}

var<workgroup> rv: array<A, ${WG}>;
var<workgroup> ri: array<u32, ${WG}>;

@compute @workgroup_size(${WG})
fn arg_reduce_${CLS}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                     @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.count) { return; }
  let sp = w % p.splits;
  let t = w / p.splits;
  let o = t / p.blocks;
  let lanes = ${WG}u / p.cx;
  var cx = lid % p.cx;
  var cy = lid / p.cx;
  var ls = p.cx;
  if (p.swap != 0u) {
    cx = lid / lanes;
    cy = lid % lanes;
    ls = 1u;
  }
  let j = (t % p.blocks) * p.cx + cx;
  var bv = ident();
  var bi = 0xffffffffu;
  if (j < p.inner) {
    let base = o * p.len * p.inner + j * p.cstride;
    let G = p.splits * lanes;
    var r = sp * lanes + cy;
    // U loads in flight, then U in-order updates (unrolled in reduce.ts: LOADS, UPDATES)
    for (; r + (${U}u - 1u) * G < p.len; r += ${U}u * G) {
      ${LOADS}
      ${UPDATES}
    }
    for (var k = 0u; k < ${U}u; k++) {
      let q = r + k * G;
      if (q < p.len) {
        var iq = q;
        if (p.has_idx != 0u) { iq = ix[base + q * p.rstride]; }
        let v = lift(x[base + q * p.rstride]);
        if (wins(v, iq, bv, bi)) { bv = v; bi = iq; }
      }
    }
  }
  rv[lid] = bv;
  ri[lid] = bi;
  for (var st = lanes / 2u; st > 0u; st >>= 1u) {
    workgroupBarrier();
    if (cy < st) {
      let u = lid + st * ls;
      if (wins(rv[u], ri[u], rv[lid], ri[lid])) { rv[lid] = rv[u]; ri[lid] = ri[u]; }
    }
  }
  if (cy == 0u && j < p.inner) {
    let q = (o * p.splits + sp) * p.inner + j;
    out[q] = emit(rv[lid]);
    oi[q] = ri[lid];
  }
}
