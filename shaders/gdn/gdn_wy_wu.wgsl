// WY stage of the Gated DeltaNet forward, part 2 (src/backend/gpu/gdn_wy.ts):
// IS_W: W = T·diag(β·Γ)·K (C × dk), else U = T·diag(β)·V (C × dv), for one (chunk, value
// head) and one tile of NT output columns per workgroup (two dispatches: W and U in one would
// bind 9 storage buffers, WebGPU's default limit is 8), with
// T = (I + A)⁻¹ from inv_unit_lower.wgsl and Γ_i = exp(γ_i) from gcum. Rows past the
// chunk's length come out 0 (their β and so their X rows are 0, their T rows e_i).
// Status 1 for a non-finite v (U tiles), atomicMax into status[n·HV + hv].
//
// X = diag(s)·K or V (C × NT) is staged in workgroup memory as vec4 rows; thread
// (row group rg, column quad cq) accumulates RT rows × 4 columns: per step of 4 k it reads
// 4 X vec4s (consecutive cq: conflict-free) and RT T vec4s (the threads of a row group read
// the same address: an L1 broadcast) for 16·RT multiply-adds. T is lower triangular with
// exact zeros above the diagonal, so k stops at the group's last row.
//
// Bindings: X (K or V), beta (u32 words: f32 or two f16), gcum (f32), T (vec4f), table (vec4u)
// → O (W or U, f32), status (atomic<i32>).
#include "common/linear_id.wgsl"
#include "gdn/gdn_wy_common.wgsl"

const C: u32 = ${C}u;
const NT: u32 = ${NT}u;          // output columns per workgroup (a multiple of 4)
const NQ: u32 = NT / 4u;         // column quads
const RT: u32 = ${RT}u;          // rows per thread (4 or 8)
const WG: u32 = ${WG}u;          // (C / RT) · NQ

var<workgroup> xs: array<vec4f, C * NQ>;
#if STAGE_T
// STAGE_T: T staged too (its reads are then workgroup loads, not bounds-clamped global ones)
var<workgroup> ts: array<vec4f, C * C / 4u>;
#endif
var<workgroup> sc: array<f32, C>;
var<workgroup> bad: atomic<i32>;

${LOADERS}

@compute @workgroup_size(${WG})
fn gdn_wy_wu(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.pairs * p.ntiles) { return; }
  let pair = w / p.ntiles;
  let tile = w % p.ntiles;
  let c = pair / p.hv_count;
  let hv = pair % p.hv_count;
  let h = hv / p.group;
  let row = table[c];
  let b = row.y;
  let t0 = row.z;
  let len = row.w;
  let col0 = tile * NT;
  let ncols = p.ncols;
  if (lid == 0u) { atomicStore(&bad, 0); }
  for (var i = lid; i < C; i += WG) {
    var s = 0.0;
    if (i < len) {
      s = ld_beta(b * p.b_sB + (t0 + i) * p.b_sT + hv * p.b_sH);
#if IS_W
      s *= exp(gcum[pair * C + i]);
#endif
    }
    sc[i] = s;
  }
  workgroupBarrier();
  var nf = false;
#if IS_W
  let xh = h;
#else
  let xh = hv;
#endif
  let base = b * p.x_sB + t0 * p.x_sT + xh * p.x_sH + col0;
  for (var idx = lid; idx < C * NQ; idx += WG) {
    let i = idx / NQ;
    let d = (idx % NQ) * 4u;
    var v = vec4f(0.0);
    if (i < len) {
      let e = base + i * p.x_sT + d;
      if (col0 + d < ncols) { v.x = ld_x(e); }
      if (col0 + d + 1u < ncols) { v.y = ld_x(e + 1u); }
      if (col0 + d + 2u < ncols) { v.z = ld_x(e + 2u); }
      if (col0 + d + 3u < ncols) { v.w = ld_x(e + 3u); }
      nf = nf || !(is_finite(v.x) && is_finite(v.y) && is_finite(v.z) && is_finite(v.w));
    }
    xs[idx] = sc[i] * v;
  }
#if STAGE_T
  for (var idx = lid; idx < C * C / 4u; idx += WG) { ts[idx] = T[pair * C * C / 4u + idx]; }
#endif
#if IS_W
  // k's status comes from the Gram kernel (or the qkL2norm pass)
  nf = false;
#endif
  if (nf) { atomicMax(&bad, 1); }
  workgroupBarrier();

  let cq = lid % NQ;
  let rg = lid / NQ;
  let r0 = rg * RT;
#if STAGE_T
  let tb = r0 * (C / 4u);
#else
  let tb = (pair * C + r0) * (C / 4u);
#endif
${ACC}
  for (var k4 = 0u; k4 < (r0 + RT) / 4u; k4++) {
    let xb = k4 * 4u * NQ + cq;
    let x0 = xs[xb];
    let x1 = xs[xb + NQ];
    let x2 = xs[xb + 2u * NQ];
    let x3 = xs[xb + 3u * NQ];
${STEP}
  }
  let col = col0 + cq * 4u;
  let ob = (pair * C + r0) * ncols + col;
${STORE}
  workgroupBarrier();
  if (lid == 0u) {
    let s = atomicLoad(&bad);
    if (s != 0) { atomicMax(&status[row.x * p.hv_count + hv], s); }
  }
}
