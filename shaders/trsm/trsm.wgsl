// General batched triangular solve op(A)·X = B, left side, A upper or lower, unit or
// not, any n (n ≤ 1024 here; the TS entry bounds it), float32 or complex64; one workgroup
// per system. The right-hand sides go through workgroup memory RC columns at a time;
// threads take (row, column) pairs, and each substitution step is one barrier: row i is
// final when step i begins, the step subtracts its multiple from the rows still open,
// and the row that becomes final divides by its diagonal in the same pass. A is read
// from global memory (each element once per RC-column pass; the caches keep the
// current column). Only the referenced triangle is read; with UNIT the diagonal too is
// never read.
//
// Bindings (src/backend/gpu/trsm.ts): A, B, amap, bmap → X (f32 arrays, two per complex
// element). Uniforms: count, nrhs, use_a, use_b, n, upper, unit.
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

const RC: u32 = ${RC}u;
const WG: u32 = ${WG}u;
const MAXN: u32 = ${MAXN}u;

var<workgroup> b_s: array<${T}, ${NRC}>;

#if IS_COMPLEX
fn ldA(e: u32) -> vec2f { return vec2f(A[2u * e], A[2u * e + 1u]); }
fn ldB(e: u32) -> vec2f { return vec2f(B[2u * e], B[2u * e + 1u]); }
fn stX(e: u32, v: vec2f) { X[2u * e] = v.x; X[2u * e + 1u] = v.y; }
#else
fn ldA(e: u32) -> f32 { return A[e]; }
fn ldB(e: u32) -> f32 { return B[e]; }
fn stX(e: u32, v: f32) { X[e] = v; }
#endif

@compute @workgroup_size(${WG})
fn trsm_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                 @builtin(local_invocation_index) lid: u32) {
  let m = linear_workgroup_id(wid, nwg);
  if (m >= p.count) { return; }
  let n = p.n;
  let nrhs = p.nrhs;
  let unit = p.unit != 0u;
  let upper = p.upper != 0u;
  var am = m;
  if (p.use_a != 0u) { am = u32(amap[m]); }
  var bm = m;
  if (p.use_b != 0u) { bm = u32(bmap[m]); }
  let abase = am * n * n;
  for (var c0 = 0u; c0 < nrhs; c0 += RC) {
    for (var t = lid; t < n * RC; t += WG) {
      let j = t / RC;
      let c = t % RC;
      var v = ${ZERO};
      if (c0 + c < nrhs) { v = ldB((bm * n + j) * nrhs + c0 + c); }
      b_s[t] = v;
    }
    workgroupBarrier();
    // The first row to finish (row 0 for lower, n-1 for upper) is divided up front.
    if (!unit) {
      let f = select(0u, n - 1u, upper);
      for (var t = lid; t < RC; t += WG) { b_s[f * RC + t] = tdiv(b_s[f * RC + t], ldA(abase + f * n + f)); }
    }
    workgroupBarrier();
    for (var s = 0u; s + 1u < n; s++) {
      let i = select(s, n - 1u - s, upper);        // the row that is final now
      let next = select(i + 1u, i - 1u, upper);    // the row that becomes final in this step
      for (var t = lid; t < n * RC; t += WG) {
        let j = t / RC;
        let c = t % RC;
        let open = select(j > i, j < i, upper);
        if (open) {
          var v = b_s[t] - tmul(ldA(abase + j * n + i), b_s[i * RC + c]);
          if (j == next && !unit) { v = tdiv(v, ldA(abase + j * n + j)); }
          b_s[t] = v;
        }
      }
      workgroupBarrier();
    }
    for (var t = lid; t < n * RC; t += WG) {
      let j = t / RC;
      let c = t % RC;
      if (c0 + c < nrhs) { stX((m * n + j) * nrhs + c0 + c, b_s[t]); }
    }
    workgroupBarrier();
  }
}
