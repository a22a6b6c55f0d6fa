// One step of the blocked triangular solve op(A)·X = B, in place in B (src/backend/gpu/trsm.ts
// trsmBlockedGpu). M = op(A) is read through strides (rs, cs) and a conjugation flag, so one
// source serves A, Aᵀ and Aᴴ of either triangle; `lower` says which triangle M has.
//
// A dispatch does, for every batch member and BC-column tile of B:
//  - update tiles (rt < nrt): B_r -= M_r,blk · Z with Z = M_blk,blk⁻¹ · B_blk, for the BM-row
//    tiles r of the rows still unsolved (rows ≥ (blk+1)·NB for lower M, < blk·NB for upper);
//  - one finalize tile (rt = nrt, when fin is set): B_fin ← M_fin,fin⁻¹ · B_fin.
// Z is solved by every update workgroup itself (substitution in workgroup memory: backward
// stable even for ill-conditioned diagonal blocks, where an explicit inverse is not), so a step
// is one dispatch; with DIAG_SMEM the diagonal block is staged in workgroup memory first, with
// MS_FULL the update tile's whole M_r,blk too (else it goes through in KC-deep chunks).
// B_blk is only read in this dispatch: its solved values are written by the next dispatch's
// finalize tile (fin = the previous step's blk), which reads nothing another workgroup of
// that dispatch writes. The GEMM path runs finalize tiles alone (nrt = 0, fin = blk).
//
// Bindings: A (unless SAME_BUF: A lives in B's buffer and is read from it), B (read_write).
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

const NB: u32 = ${NB}u;   // block size
const NBP: u32 = ${NBP}u; // NB rounded up to a multiple of KC (rows of zs)
const BC: u32 = ${BC}u;   // columns of B per workgroup
const BM: u32 = ${BM}u;   // rows per update tile
const KC: u32 = ${KC}u;   // depth of the staged M chunk (NB with MS_FULL: the whole tile)
const WG: u32 = ${WG}u;
const TR: u32 = WG / BC;  // thread rows
const TM: u32 = BM / TR;  // update rows per thread
const NONE: u32 = 0xffffffffu;

var<workgroup> zs: array<${T}, ${NBPBC}>;  // Z (NBP × BC; rows past the block are zero)
var<workgroup> ms: array<${T}, ${BMKC}>;   // a BM × KC chunk of M (MS_FULL: the BM × NB tile)
#if DIAG_SMEM
var<workgroup> ds: array<${T}, ${NBNB}>;   // the diagonal block of M (its triangle; zero elsewhere)
#endif

fn ldA(e: u32) -> ${T} {
#if SAME_BUF
  let v = B[e];
#else
  let v = A[e];
#endif
#if IS_COMPLEX
  if (p.conj != 0u) { return cconj(v); }
#endif
  return v;
}

// M(r, c) of the member whose A starts at `ab`.
fn mel(ab: u32, r: u32, c: u32) -> ${T} { return ldA(ab + r * p.ars + c * p.acs); }

// M(k0 + r, k0 + c) of the diagonal block: from workgroup memory when it is staged there.
fn dget(ab: u32, k0: u32, r: u32, c: u32) -> ${T} {
#if DIAG_SMEM
  return ds[r * NB + c];
#else
  return mel(ab, k0 + r, k0 + c);
#endif
}

// Rows r0t.. (BM of them, those < r1) × columns kc.. (KC) of M_·,blk into ms, loaded along the
// contiguous direction of A (alongK: cs = 1, consecutive threads take consecutive k).
fn load_m(ab: u32, r0t: u32, k0: u32, kc: u32, nbk: u32, lid: u32, alongK: bool) {
  for (var t = lid; t < BM * KC; t += WG) {
    let lr = select(t % BM, t / KC, alongK);
    let kk = select(t / BM, t % KC, alongK);
    var v = ${ZERO};
    if (r0t + lr < p.r1 && kc + kk < nbk) { v = mel(ab, r0t + lr, k0 + kc + kk); }
    ms[lr * KC + kk] = v;
  }
}

@compute @workgroup_size(${WG})
fn trsm_blocked_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                         @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.count * p.per) { return; }
  let m = w / p.per;
  let rem = w % p.per;
  let ct = rem % p.nct;
  let rt = rem / p.nct;
  let fin = rt >= p.nrt;
  let blk = select(p.blk, p.fin, fin);
  let n = p.n;
  let k0 = blk * NB;
  let nbk = min(NB, n - k0);
  let ab = p.aoff + m * p.astr;
  let bb = p.boff + m * p.bstr;
  let tc = lid % BC;
  let tr = lid / BC;
  let col = ct * BC + tc;
  let colOk = col < p.nrhs;
  let unit = p.unit != 0u;
  let lower = p.lower != 0u;

  for (var k = tr; k < NBP; k += TR) {
    var v = ${ZERO};
    if (k < nbk && colOk) { v = B[bb + (k0 + k) * p.bld + col]; }
    zs[k * BC + tc] = v;
  }
  let alongK = p.acs == 1u;
  let r0t = p.r0 + rt * BM;  // the update tile's first row
#if MS_FULL
  // the whole M tile (KC = NB), loaded with the block: its latency overlaps theirs
  if (!fin) { load_m(ab, r0t, k0, 0u, nbk, lid, alongK); }
#endif
#if DIAG_SMEM
  for (var t = lid; t < NB * NB; t += WG) {
    let r = select(t % NB, t / NB, alongK);
    let c = select(t / NB, t % NB, alongK);
    var v = ${ZERO};
    if (r < nbk && c < nbk && select((c >= r), (c <= r), lower) && !(unit && r == c)) { v = mel(ab, k0 + r, k0 + c); }
    ds[r * NB + c] = v;
  }
#endif
  workgroupBarrier();
  // Substitution, one barrier per step: row i is final when step s begins; the step removes
  // its multiple from the open rows, and the row that becomes final divides by its diagonal.
  if (!unit) {
    let f = select(nbk - 1u, 0u, lower);
    if (tr == 0u) { zs[f * BC + tc] = tdiv(zs[f * BC + tc], dget(ab, k0, f, f)); }
  }
  workgroupBarrier();
  for (var s = 0u; s + 1u < nbk; s++) {
    let i = select(nbk - 1u - s, s, lower);
    let next = select(i - 1u, i + 1u, lower);
    let zi = zs[i * BC + tc];
    for (var k = tr; k < nbk; k += TR) {
      if (select((k < i), (k > i), lower)) {
        var v = zs[k * BC + tc] - tmul(dget(ab, k0, k, i), zi);
        if (k == next && !unit) { v = tdiv(v, dget(ab, k0, k, k)); }
        zs[k * BC + tc] = v;
      }
    }
    workgroupBarrier();
  }

  if (fin) {
    if (colOk) {
      for (var k = tr; k < nbk; k += TR) { B[bb + (k0 + k) * p.bld + col] = zs[k * BC + tc]; }
    }
    return;
  }

  // Update tile: rows r0t .. r0t + BM of the unsolved range [p.r0, p.r1).
  var acc: array<${T}, ${TM}>;
  for (var q = 0u; q < TM; q++) { acc[q] = ${ZERO}; }
#if MS_FULL
  for (var kk = 0u; kk < nbk; kk++) {
    let z = zs[kk * BC + tc];
    for (var q = 0u; q < TM; q++) { acc[q] = tfma(ms[(tr + TR * q) * KC + kk], z, acc[q]); }
  }
#else
  for (var kc = 0u; kc < nbk; kc += KC) {
    load_m(ab, r0t, k0, kc, nbk, lid, alongK);
    workgroupBarrier();
    for (var kk = 0u; kk < KC; kk++) {
      let z = zs[(kc + kk) * BC + tc];
      for (var q = 0u; q < TM; q++) { acc[q] = tfma(ms[(tr + TR * q) * KC + kk], z, acc[q]); }
    }
    workgroupBarrier();
  }
#endif
  if (colOk) {
    for (var q = 0u; q < TM; q++) {
      let r = r0t + tr + TR * q;
      if (r < p.r1) {
        let e = bb + r * p.bld + col;
        B[e] = B[e] - acc[q];
      }
    }
  }
}
