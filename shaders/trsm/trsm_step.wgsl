// One step of the look-ahead blocked triangular solve op(A)·X = B, in place in B
// (src/backend/gpu/trsm.ts trsmBlockedGpu, path 'lookahead'). M = op(A) is read through strides
// (rs, cs) and a conjugation flag, as in trsm_blocked.wgsl; `lower` says which triangle M has.
//
// Step s of a call (blocks in solve order b_0, b_1, …) does, for every batch member and
// BC-column tile of B:
//  - update tiles (rt < nrt): B_r -= M_r,u · X_u for NB-row tiles r of the rows past block
//    sblk (u = ublk = b_{s-1}, whose X the previous step wrote);
//  - one solver tile (rt = nrt, when sblk is set): B_s -= M_s,u · X_u (the look-ahead part of
//    the update, skipped when ublk is NONE), then B_s ← M_s,s⁻¹ · B_s by blocked substitution
//    in workgroup memory: per SB-column sub-block, its NB × SB panel of M staged, the SB rows
//    solved column per thread, then the block's remaining rows updated by all threads.
// So no workgroup solves a block another one also solves (no redundant serial work), a step is
// one dispatch, and a call is n/NB dispatches. Substitution, not an inverse: backward stable
// for ill-conditioned diagonal blocks. Reads of B rows of u and writes of other rows are
// disjoint within a dispatch; the GEMM path runs solver tiles alone (nrt = 0, ublk = NONE).
//
// Bindings: A (unless SAME_BUF: A lives in B's buffer and is read from it), B (read_write).
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

const NB: u32 = ${NB}u;   // block size (and rows per update tile)
const BC: u32 = ${BC}u;   // columns of B per workgroup
const KC: u32 = ${KC}u;   // depth of the staged M / X chunks of an update
const SB: u32 = ${SB}u;   // sub-block of the diagonal solve
const WG: u32 = ${WG}u;
const TR: u32 = WG / BC;  // thread rows
const TM: u32 = ${TM}u;   // rows per thread: ceil(NB / TR)
const NONE: u32 = 0xffffffffu;

var<workgroup> zs: array<${T}, ${NBBC}>;  // the solver's block (NB × BC)
var<workgroup> ms: array<${T}, ${NBKC}>;  // an NB × KC chunk of M; in the solve an NB × SB panel
var<workgroup> xc: array<${T}, ${KCBC}>;  // the matching KC × BC chunk of X_u

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

// acc[q] += M(rb + tr + TR·q, kb + k) · X(kb + k, c0 + tc) for k < kn, rows < rl; X read from
// B (final rows of block u). M and X go through workgroup memory in KC-deep chunks, M loaded
// along A's contiguous direction (alongK: cs = 1).
fn gemm_tile(ab: u32, bb: u32, rb: u32, rl: u32, kb: u32, kn: u32, c0: u32, lid: u32, acc: ptr<function, array<${T}, ${TM}>>) {
  let alongK = p.acs == 1u;
  let tc = lid % BC;
  let tr = lid / BC;
  for (var kc = 0u; kc < kn; kc += KC) {
    for (var t = lid; t < NB * KC; t += WG) {
      let lr = select(t % NB, t / KC, alongK);
      let kk = select(t / NB, t % KC, alongK);
      var v = ${ZERO};
      if (rb + lr < rl && kc + kk < kn) { v = mel(ab, rb + lr, kb + kc + kk); }
      ms[lr * KC + kk] = v;
    }
    for (var t = lid; t < KC * BC; t += WG) {
      let kk = t / BC;
      let c = c0 + t % BC;
      var v = ${ZERO};
      if (kc + kk < kn && c < p.nrhs) { v = B[bb + (kb + kc + kk) * p.bld + c]; }
      xc[t] = v;
    }
    workgroupBarrier();
    for (var kk = 0u; kk < KC; kk++) {
      let x = xc[kk * BC + tc];
      for (var q = 0u; q < TM; q++) {
        let lr = tr + TR * q;
        if (lr < NB) { (*acc)[q] = tfma(ms[lr * KC + kk], x, (*acc)[q]); }
      }
    }
    workgroupBarrier();
  }
}

@compute @workgroup_size(${WG})
fn trsm_step_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                      @builtin(local_invocation_index) lid: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.count * p.per) { return; }
  let m = w / p.per;
  let rem = w % p.per;
  let ct = rem % p.nct;
  let rt = rem / p.nct;
  let solver = rt >= p.nrt;
  let n = p.n;
  let ab = p.aoff + m * p.astr;
  let bb = p.boff + m * p.bstr;
  let tc = lid % BC;
  let tr = lid / BC;
  let c0 = ct * BC;
  let col = c0 + tc;
  let colOk = col < p.nrhs;
  let lower = p.lower != 0u;
  let hasU = p.ublk != NONE;
  let ku = select(0u, p.ublk * NB, hasU);
  let nku = select(0u, min(NB, n - ku), hasU);

  var acc: array<${T}, ${TM}>;
  for (var q = 0u; q < TM; q++) { acc[q] = ${ZERO}; }

  if (!solver) {
    // update tile: rows rb .. rb + NB of the rows past the solver's block
    let rb = p.r0 + rt * NB;
    gemm_tile(ab, bb, rb, p.r1, ku, nku, c0, lid, &acc);
    if (colOk) {
      for (var q = 0u; q < TM; q++) {
        let lr = tr + TR * q;
        let r = rb + lr;
        if (lr < NB && r < p.r1) {
          let e = bb + r * p.bld + col;
          B[e] = B[e] - acc[q];
        }
      }
    }
    return;
  }

  let k0 = p.sblk * NB;
  let nbk = min(NB, n - k0);
  for (var k = tr; k < NB; k += TR) {
    var v = ${ZERO};
    if (k < nbk && colOk) { v = B[bb + (k0 + k) * p.bld + col]; }
    zs[k * BC + tc] = v;
  }
  if (hasU) {
    // the look-ahead update of this block by X_u (each thread's rows are its own zs entries)
    gemm_tile(ab, bb, k0, k0 + nbk, ku, nku, c0, lid, &acc);
    for (var q = 0u; q < TM; q++) {
      let lr = tr + TR * q;
      if (lr < nbk) { zs[lr * BC + tc] = zs[lr * BC + tc] - acc[q]; }
    }
  }
  workgroupBarrier();

  let unit = p.unit != 0u;
  let nsb = (nbk + SB - 1u) / SB;
  for (var i = 0u; i < nsb; i++) {
    let j0 = select(nsb - 1u - i, i, lower) * SB;
    let jn = min(SB, nbk - j0);
    // the sub-block's columns of the diagonal block (ms as an NB × SB panel): its triangle and
    // the rows it updates, zero outside the named triangle (and the diagonal when unit)
    for (var t = lid; t < NB * SB; t += WG) {
      let r = t / SB;
      let c = t % SB;
      let gc = j0 + c;
      var v = ${ZERO};
      if (r < nbk && c < jn && select((r <= gc), (r >= gc), lower) && !(unit && r == gc)) { v = mel(ab, k0 + r, k0 + gc); }
      ms[t] = v;
    }
    workgroupBarrier();
    if (tr == 0u) {
      // the sub-block for this thread's column, serially (ms reads broadcast; constant trip
      // counts, so the loads of a row issue together)
      for (var s = 0u; s < SB; s++) {
        let r = select(SB - 1u - s, s, lower);
        if (r < jn) {
          var z = zs[(j0 + r) * BC + tc];
          for (var j = 0u; j < SB; j++) {
            let d = tmul(ms[(j0 + r) * SB + j], zs[(j0 + min(j, jn - 1u)) * BC + tc]);
            z = select(z, z - d, select((j > r && j < jn), (j < r), lower));
          }
          if (!unit) { z = tdiv(z, ms[(j0 + r) * SB + r]); }
          zs[(j0 + r) * BC + tc] = z;
        }
      }
    }
    workgroupBarrier();
    // the block's rows still open (below the sub-block for lower M, above it for upper)
    for (var q = 0u; q < TM; q++) {
      let lr = tr + TR * q;
      if (lr < nbk && select((lr < j0), (lr >= j0 + jn), lower)) {
        var v = zs[lr * BC + tc];
        for (var j = 0u; j < SB; j++) {
          let d = tmul(ms[lr * SB + j], zs[(j0 + min(j, jn - 1u)) * BC + tc]);
          v = select(v, v - d, j < jn);
        }
        zs[lr * BC + tc] = v;
      }
    }
    workgroupBarrier();
  }
  if (colOk) {
    for (var k = tr; k < nbk; k += TR) { B[bb + (k0 + k) * p.bld + col] = zs[k * BC + tc]; }
  }
}
