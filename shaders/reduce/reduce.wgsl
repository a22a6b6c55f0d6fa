// Reductions of a (outer, len, inner) view of a contiguous tensor (src/backend/gpu/reduce.ts
// plans every dims pattern into passes of this shape). The class (shaders/reduce/ops.wgsl)
// gives the op; ${WG} threads per workgroup, ${U} independent loads in flight per thread.
//
// ROWS (inner = 1): workgroup w reduces split w % splits of row w / splits; the row's
// threads (splits·WG of them) walk its 16-byte words grid-stride (xv, vec4 loads), the
// unaligned head and tail elements through xs (the same buffer), then a tree in workgroup
// memory. out[w]: one value per (row, split) — the partials of a second pass when splits > 1.
// COLS (inner > 1): a workgroup is cx columns × (WG / cx) lanes along the reduced dim;
// each thread walks its column (adjacent threads read adjacent columns: coalesced), the
// lanes fold in a tree. out[(o·splits + s)·inner + j]. Element r of column j is at
// o·len·inner + j·cstride + r·rstride: (1, inner) for columns; short rows (inner = 1, many
// rows) are given as columns with strides (len, 1) and swap = 1, which makes adjacent
// threads lanes of one row (coalesced along it) and packs WG / lanes rows in a workgroup.
#include "common/linear_id.wgsl"
#include "reduce/ops.wgsl"

var<workgroup> red: array<A, ${WG}>;

#if ROWS
@compute @workgroup_size(${WG})
fn reduce_rows_${CLS}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                      @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.count) { return; }
  let o = w / p.splits;
  let g = (w % p.splits) * ${WG}u + lid;
  let G = p.splits * ${WG}u;
  let a = o * p.len;
  let b = a + p.len;
  // words [w0, w1) are whole and aligned; elements [a, h1) and [t0, b) go one by one
  let w0 = (a + ${VW}u - 1u) / ${VW}u;
  var w1 = b / ${VW}u;
  var h1 = b;
  var t0 = b;
  if (w1 > w0) {
    h1 = w0 * ${VW}u;
    t0 = w1 * ${VW}u;
  } else {
    w1 = w0;
  }
  var sv = identv();
  var cv = V();
  var i = w0 + g;
  // U words per thread per trip, all loads issued before any is used (LOADS, PUSHES: the
  // unrolled statements w0 = xv[i], w1 = xv[i + G], …, generated in reduce.ts so the words
  // stay in registers whatever the compiler does with loops over a local array)
  for (; i + (${U}u - 1u) * G < w1; i += ${U}u * G) {
    ${LOADS}
    ${PUSHES}
  }
  for (var k = 0u; k < ${U}u; k++) {
    let q = i + k * G;
    if (q < w1) { pushv(&sv, &cv, liftv(xv[q])); }
  }
  var s1 = ident();
  var c1 = A();
  for (var e = a + g; e < h1; e += G) { push(&s1, &c1, lift(xs[e])); }
  for (var e = t0 + g; e < b; e += G) { push(&s1, &c1, lift(xs[e])); }
  red[lid] = comb(finishv(sv, cv), finish(s1, c1));
  for (var st = ${WG}u / 2u; st > 0u; st >>= 1u) {
    workgroupBarrier();
    if (lid < st) { red[lid] = comb(red[lid], red[lid + st]); }
  }
  if (lid == 0u) { out[w] = emit(red[0]); }
}
#else
@compute @workgroup_size(${WG})
fn reduce_cols_${CLS}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                      @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.count) { return; }
  let sp = w % p.splits;
  let t = w / p.splits;
  let o = t / p.blocks;
  let lanes = ${WG}u / p.cx;
  // the thread's column and lane, and the thread-index distance between lanes
  var cx = lid % p.cx;
  var cy = lid / p.cx;
  var ls = p.cx;
  if (p.swap != 0u) {
    cx = lid / lanes;
    cy = lid % lanes;
    ls = 1u;
  }
  let j = (t % p.blocks) * p.cx + cx;
  var s1 = ident();
  var c1 = A();
  if (j < p.inner) {
    let base = o * p.len * p.inner + j * p.cstride;
    let G = p.splits * lanes;
    var r = sp * lanes + cy;
    for (; r + (${U}u - 1u) * G < p.len; r += ${U}u * G) {
      ${LOADS}
      ${PUSHES}
    }
    for (var k = 0u; k < ${U}u; k++) {
      let q = r + k * G;
      if (q < p.len) { push(&s1, &c1, lift(xs[base + q * p.rstride])); }
    }
  }
  red[lid] = finish(s1, c1);
  for (var st = lanes / 2u; st > 0u; st >>= 1u) {
    workgroupBarrier();
    if (cy < st) { red[lid] = comb(red[lid], red[lid + st * ls]); }
  }
  if (cy == 0u && j < p.inner) { out[(o * p.splits + sp) * p.inner + j] = emit(red[lid]); }
}
#endif
