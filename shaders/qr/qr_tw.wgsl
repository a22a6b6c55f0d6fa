// W2 = op(T)·W1 for a block step, W1 = Vᴴ·C summed here: the split-K chunks' partial
// products P_s (one per chunk; a single one without split-K) plus the rows past the last
// whole chunk (rem < chunks rows, V and C read directly). A workgroup takes JC columns of
// one batch member: thread (l, jj) forms W1(l, j) into workgroup memory, then W2(l, j) =
// Σ op(T)(l, l')·W1(l', j) (Tᴴ when adjoint: the trailing update applies Qᴴ; T when
// forming Q). T is upper triangular. Threads are NB rows (≥ kb) × JC columns.
// Bindings: P, V, C, Tm (T) read; W (T) read_write; uniforms total, tiles, cols, kb,
// chunks, pld, pchunk, pmember, row0, rem, voff, vstride, coff, cld, cstride, toff, tld,
// tstride, adjoint, wld, wstride.
#include "common/complex.wgsl"
#include "common/linear_id.wgsl"

const JC = ${JC}u;

var<workgroup> w1: array<${T}, ${WG}>;

@compute @workgroup_size(${WG})
fn qr_tw_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                  @builtin(local_invocation_index) lid: u32) {
  let g = linear_workgroup_id(wid, nwg);
  if (g >= p.total) { return; }
  let b = g / p.tiles;
  let jj = lid % JC;
  let l = lid / JC;
  let j = (g - b * p.tiles) * JC + jj;
  let kb = p.kb;
  let live = l < kb && j < p.cols;
  var s = ${ZERO};
  if (live) {
    let pb = b * p.pmember + l * p.pld + j;
    s = P[pb];
    for (var c = 1u; c < p.chunks; c++) { s += P[pb + c * p.pchunk]; }
    let vb = p.voff + b * p.vstride + l;
    let cb = p.coff + b * p.cstride + j;
    for (var r = p.row0; r < p.row0 + p.rem; r++) { s = tfma(tconj(V[vb + r * kb]), C[cb + r * p.cld], s); }
  }
  w1[lid] = s;
  workgroupBarrier();
  if (live) {
    let tb = p.toff + b * p.tstride;
    var o = ${ZERO};
    if (p.adjoint != 0u) {
      for (var q = 0u; q <= l; q++) { o = tfma(tconj(Tm[tb + q * p.tld + l]), w1[q * JC + jj], o); }
    } else {
      for (var q = l; q < kb; q++) { o = tfma(Tm[tb + l * p.tld + q], w1[q * JC + jj], o); }
    }
    W[b * p.wstride + l * p.wld + j] = o;
  }
}
