// WY stage of the Gated DeltaNet forward, part 2 (src/backend/gpu/gdn_wy.ts):
// IS_W: W = T·diag(β·Γ)·K (C × dk), else U = T·diag(β)·V (C × dv), for one (chunk, value
// head) and one tile of NT output columns per workgroup (two dispatches: W and U in one would
// bind 9 storage buffers, WebGPU's default limit is 8), with
// T = (I + A)⁻¹ from inv_unit_lower.wgsl and Γ_i = exp(γ_i) from gcum. Rows past the
// chunk's length come out 0 (their β and so their X rows are 0, their T rows e_i).
// Status 1 for a non-finite v (U tiles), atomicMax into status[n·HV + hv].
//
// X = diag(s)·K or V (C × NT) is staged in workgroup memory as vec4 rows; thread
// (row group rg, column quad cq) accumulates RT rows × 4·CW columns (quads cq + j·NQC): per
// step of 4 k it reads 4·CW X vec4s (consecutive cq: conflict-free) and RT T vec4s (the
// threads of a row group read the same address: a broadcast) for 16·RT·CW multiply-adds. T is
// lower triangular with exact zeros above the diagonal, so k stops at each row block's last row.
// BAL: the RT rows are two blocks of RT/2, rows rg·RT/2 … and the mirrored C − (rg+1)·RT/2 …,
// so every row group does the same number of k steps (no warp waits on the triangle's long rows).
//
// Bindings: X (K or V), beta (u32 words: f32 or two f16), gcum (f32), T (vec4f), table (vec4u)
// → O (W or U, f32), status (atomic<i32>).
#include "common/linear_id.wgsl"
#include "gdn/gdn_wy_common.wgsl"

const C: u32 = ${C}u;
const NT: u32 = ${NT}u;          // output columns per workgroup (a multiple of 4)
const NQ: u32 = NT / 4u;         // column quads
const RT: u32 = ${RT}u;          // rows per thread (4 or 8)
const CW: u32 = ${CW}u;          // column quads per thread (1 or 2)
const NQC: u32 = NQ / CW;        // threads per row group
const WG: u32 = ${WG}u;          // (C / RT) · NQC

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
  var nf = false;
#if IS_W
  let xh = h;
#else
  let xh = hv;
#endif
  let base = b * p.x_sB + t0 * p.x_sT + xh * p.x_sH + col0;
  // RT·CW vec4s of X per thread (C·NQ = WG·RT·CW), all loaded before the first workgroup
  // store: their latencies overlap each other and the row scales' loads
${STAGE_LOAD}
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
${STAGE_STORE}
#if STAGE_T
  for (var idx = lid; idx < C * C / 4u; idx += WG) { ts[idx] = T[pair * C * C / 4u + idx]; }
#endif
#if IS_W
  // k's status comes from the Gram kernel (or the qkL2norm pass)
  nf = false;
#endif
  if (nf) { atomicMax(&bad, 1); }
  workgroupBarrier();

${COMPUTE}
  workgroupBarrier();
  if (lid == 0u) {
    let s = atomicLoad(&bad);
    if (s != 0) { atomicMax(&status[row.x * p.hv_count + hv], s); }
  }
}
