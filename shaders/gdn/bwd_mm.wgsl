// One output tile (RT rows × NT columns) of a per-(chunk, value head) product of the Gated
// DeltaNet backward: acc = Σ_s A_s·B_s over segments s (their K lengths may differ), then the
// epilogue. The TypeScript side generates the element loaders a<s>(row, k), b<s>(k, col) and
// epi(row, col, value) (FUNCS) and the segment loops (SEGMENTS): one template for the dozen
// products of docs/gdn.md "Backward". 256 threads as 16×16, each a 4×4 block of the 64×64 tile
// (rows 4·(lid / 16) + r, columns 4·(lid % 16) + s) in four vec4 accumulators; A and B go
// through workgroup tiles of KT along K (row stride RT + 4, NT + 4).
// Grid (linear, folded): ((which·nrt + row tile)·nct + column tile)·(count·HV) + chunk·HV + hv.
#include "common/linear_id.wgsl"
#include "gdn/bwd_common.wgsl"

var<workgroup> As: array<vec4f, ${ASZ}>;
var<workgroup> Bs: array<vec4f, ${BSZ}>;
var<workgroup> gam: array<f32, 64>;
var<workgroup> bet: array<f32, 64>;
#if DOT
var<workgroup> red: array<vec4f, 256>;
#endif
var<private> which: u32;
var<private> row0: u32;
var<private> col0: u32;

${FUNCS}

@compute @workgroup_size(256)
fn ${ENTRY}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u, @builtin(local_invocation_index) lid: u32) {
  let lin = linear_workgroup_id(wid, nwg);
  if (lin >= p.nwork) { return; }
  let cx = lin % p.nlin;
  var rest = lin / p.nlin;
  col0 = (rest % p.nct) * ${NT}u;
  rest = rest / p.nct;
  row0 = (rest % p.nrt) * ${RT}u;
  which = rest / p.nrt;
  set_chunk(cx / p.hvn, cx % p.hvn);
  if (lid < 64u) {
    var gv = 0.0;
    var bv = 0.0;
    if (lid < p.cs) {
      gv = gcum[cb * p.cs + lid];
      bv = ldb(lid);
    }
    gam[lid] = gv;
    bet[lid] = bv;
  }
  workgroupBarrier();
  let r4 = 4u * (lid / 16u);
  let c4 = 4u * (lid % 16u);
  var acc0 = vec4f(0.0);
  var acc1 = vec4f(0.0);
  var acc2 = vec4f(0.0);
  var acc3 = vec4f(0.0);
${SEGMENTS}
  let accs = array<vec4f, 4>(acc0, acc1, acc2, acc3);
  for (var r = 0u; r < 4u; r++) {
    let i = row0 + r4 + r;
    for (var s = 0u; s < 4u; s++) {
      let j = col0 + c4 + s;
      if (i < ${NROWS} && j < ${NCOLS}) { epi(i, j, accs[r][s]); }
    }
  }
}
