// qkL2norm of the Gated DeltaNet forward (src/backend/gpu/gdn_wy.ts): qn = q / sqrt(Σq² + 1e-6),
// kn likewise (flash-linear-attention's l2norm), float32 copies in q's shape and layout, and
// status 1 for a non-finite q or k, to every value head of the key head: status[n·HV + h·group + j].
// One (chunk, key head) per workgroup, RPW = WG / TPR rows at a time, TPR threads per row.
//
// Bindings: Q, K (u32 words: f32 or two f16), table (vec4u) → qn, kn (f32), status (atomic<i32>).
#include "common/linear_id.wgsl"
#include "gdn/gdn_wy_common.wgsl"

const C: u32 = ${C}u;
const TPR: u32 = ${TPR}u;        // threads per row (a power of two ≤ 32)
const WG: u32 = ${WG}u;
const RPW: u32 = WG / TPR;       // rows per pass

var<workgroup> part: array<f32, WG>;
var<workgroup> bad: atomic<i32>;

${LOADERS}

@compute @workgroup_size(${WG})
fn gdn_wy_rows(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
               @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.chunks * p.heads) { return; }
  let c = w / p.heads;
  let h = w % p.heads;
  let row = table[c];
  let b = row.y;
  let t0 = row.z;
  let len = row.w;
  if (lid == 0u) { atomicStore(&bad, 0); }
  workgroupBarrier();
  let lane = lid % TPR;
  let r = lid / TPR;
  var nf = false;
  for (var i0 = 0u; i0 < C; i0 += RPW) {
    let i = i0 + r;
    let e0 = b * p.sB + (t0 + i) * p.sT + h * p.sH;
    var sq = 0.0;
    var sk = 0.0;
    if (i < len) {
      for (var d = lane; d < p.dk; d += TPR) {
        let x = ld_q(e0 + d);
        nf = nf || !is_finite(x);
        sq += x * x;
        let y = ld_k(e0 + d);
        nf = nf || !is_finite(y);
        sk += y * y;
      }
    }
    // the row's TPR partial sums of squares, combined in the same order by each of its threads
    part[lid] = sq;
    workgroupBarrier();
    var tq = 0.0;
    for (var j = 0u; j < TPR; j++) { tq += part[r * TPR + j]; }
    workgroupBarrier();
    part[lid] = sk;
    workgroupBarrier();
    var tk = 0.0;
    for (var j = 0u; j < TPR; j++) { tk += part[r * TPR + j]; }
    workgroupBarrier();
    if (i < len) {
      let iq = 1.0 / sqrt(tq + 1e-6);
      let ik = 1.0 / sqrt(tk + 1e-6);
      for (var d = lane; d < p.dk; d += TPR) {
        qn[e0 + d] = ld_q(e0 + d) * iq;
        kn[e0 + d] = ld_k(e0 + d) * ik;
      }
    }
  }
  if (nf) { atomicMax(&bad, 1); }
  workgroupBarrier();
  if (lid == 0u) {
    let s = atomicLoad(&bad);
    if (s != 0) {
      for (var j = 0u; j < p.group; j++) { atomicMax(&status[row.x * p.hv_count + h * p.group + j], s); }
    }
  }
}
