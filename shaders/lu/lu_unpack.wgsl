// P, L, U of A = P·L·U from packed LU factors (…, m, n) and the permutation PERM (…, m)
// built from the pivots (shaders/lu/permute.wgsl, MODE_PERM: L·U = rows PERM of A), one
// thread per output element across the batch: P (m×m) has P[PERM[i], i] = 1; L (m×k) is
// the strict lower part of LU with a unit diagonal; U (k×n) its upper part; k = min(m, n).
// Thread t < count·m² fills P, the next count·m·k L, the rest U.
//
// Bindings (src/backend/gpu/lu_ops.ts): LU (T), PERM (i32) → P, L, U (T). Uniforms: total
// (threads), count, m, n, k.
#include "common/linear_id.wgsl"

const WG: u32 = ${WG}u;

@compute @workgroup_size(${WG})
fn ${ENTRY}_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                     @builtin(local_invocation_index) lid: u32) {
  var t = linear_workgroup_id(wid, nwg) * WG + lid;
  if (t >= p.total) { return; }
  let m = p.m;
  let n = p.n;
  let k = p.k;
  let np = p.count * m * m;
  let nl = p.count * m * k;
  if (t < np) {
    let b = t / (m * m);
    let r = (t / m) % m;
    let c = t % m;
    P[t] = select(${ZERO}, ${ONE}, u32(PERM[b * m + c]) == r);
    return;
  }
  t -= np;
  if (t < nl) {
    let b = t / (m * k);
    let i = (t / k) % m;
    let j = t % k;
    var v = ${ZERO};
    if (j < i) { v = LU[(b * m + i) * n + j]; } else if (j == i) { v = ${ONE}; }
    L[t] = v;
    return;
  }
  t -= nl;
  let b = t / (k * n);
  let i = (t / n) % k;
  let j = t % n;
  U[t] = select(${ZERO}, LU[(b * m + i) * n + j], j >= i);
}
