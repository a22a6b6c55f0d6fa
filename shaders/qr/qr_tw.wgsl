// W2 = op(T)·W1 for a block step, W1 = Vᴴ·C summed here: the split-K chunks' partial
// products P_s (one per chunk; a single one without split-K) plus the rows past the last
// whole chunk (rem < chunks rows, V and C read directly). One thread per column j of one
// batch member keeps W1(:, j) in a private array (kb ≤ NB) and multiplies by op(T) (Tᴴ
// when adjoint: the trailing update applies Qᴴ; T when forming Q). T is upper triangular.
// Bindings: P, V, C, Tm (T) read; W (T) read_write; uniforms total, cols, kb, chunks,
// pld, pchunk, pmember, row0, rem, voff, vstride, coff, cld, cstride, toff, tld, tstride,
// adjoint, wld, wstride.
#include "common/complex.wgsl"
#include "common/linear_id.wgsl"

const NB = ${NB}u;

@compute @workgroup_size(${WG})
fn qr_tw_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                  @builtin(local_invocation_index) lid: u32) {
  let e = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (e >= p.total) { return; }
  let b = e / p.cols;
  let j = e - b * p.cols;
  let kb = p.kb;
  var w: array<${T}, NB>;
  let pb = b * p.pmember + j;
  for (var l = 0u; l < kb; l++) {
    var s = P[pb + l * p.pld];
    for (var c = 1u; c < p.chunks; c++) { s += P[pb + c * p.pchunk + l * p.pld]; }
    w[l] = s;
  }
  if (p.rem > 0u) {
    let vb = p.voff + b * p.vstride;
    let cb = p.coff + b * p.cstride + j;
    for (var r = p.row0; r < p.row0 + p.rem; r++) {
      let x = C[cb + r * p.cld];
      for (var l = 0u; l < kb; l++) { w[l] = tfma(tconj(V[vb + r * kb + l]), x, w[l]); }
    }
  }
  let tb = p.toff + b * p.tstride;
  let ob = b * p.wstride + j;
  for (var i = 0u; i < kb; i++) {
    var s = ${ZERO};
    if (p.adjoint != 0u) {
      for (var l = 0u; l <= i; l++) { s = tfma(tconj(Tm[tb + l * p.tld + i]), w[l], s); }
    } else {
      for (var l = i; l < kb; l++) { s = tfma(Tm[tb + i * p.tld + l], w[l], s); }
    }
    W[ob + i * p.wld] = s;
  }
}
