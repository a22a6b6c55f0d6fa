// Batched GEMM C = op(A)·op(B), row-major, with workgroup tiles and register blocking.
// One workgroup computes a BM×BN tile of one batch member; its WGX×WGY threads each hold
// a TM×TN block of C in registers. A and B tiles of depth BK are staged in workgroup
// memory (A transposed, so a thread reads TM rows of one k as vec4s), double-buffered,
// and the next tile is fetched into registers while the current one is multiplied.
// Batch broadcast: aIdx/bIdx map the output batch index to the operand's matrix when
// the operand is broadcast (flags in the uniforms); unmapped operands use the index itself.
//
// Defines: DTYPE, IS_COMPLEX, BM, BN, BK, TM, TN, VEC_A (vec4 loads of A along its rows:
// K % 4 == 0, or M % 4 == 0 under TRANS_A), VEC_B (vec4 loads of B: N % 4 == 0, or K % 4 == 0
// under TRANS_B), VEC_C (N % 4 == 0: vec4 stores of C). TRANS_A / TRANS_B: the operand is
// stored transposed (A as k×m, B as n×k) and read in place, op(A)(i, p) = A[p·M + i]; the
// tile loads walk its contiguous direction and land in the same workgroup layout, so the
// multiply is unchanged. complex64 conjugates a transposed operand on load through the
// uniforms cjA / cjB ((1, -1) for the adjoint, (1, 1) for the transpose). Complex data uses
// the same tiling with one complex number per slot (vec2f), loaded and stored as vec2f.
// Bindings (src/backend/gpu/matmul.ts declares them): A, B, aIdx, bIdx → C; uniforms M, N,
// K, total (workgroups: batch · tilesM · tilesN), tilesN, tilesPerMat, aMapped, bMapped
// (and cjA, cjB for complex64 with TRANS_*).
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

const BM = ${BM}u;
const BN = ${BN}u;
const BK = ${BK}u;
const TM = ${TM}u;
const TN = ${TN}u;
const WGX = BN / TN;
const WGY = BM / TM;
const NT = WGX * WGY;
const GROUP = ${GROUP}u;

// Tile (row, col) of the t-th workgroup of a matrix. Consecutive workgroups sweep GROUP
// tile rows column by column, so the A and B panels they share stay in L2.
fn tile_of(t: u32) -> vec2u {
  let tilesM = p.tilesPerMat / p.tilesN;
  let span = GROUP * p.tilesN;
  let first = (t / span) * GROUP;
  let rows = min(tilesM - first, GROUP);
  let r = t % span;
  return vec2u(first + r % rows, r / rows);
}

#if TRANS_A
#if !VEC_A
// A transposed operand's element, read by scalar (conjugated for the adjoint of complex64).
fn op_a(i: u32) -> ${T} {
#if IS_COMPLEX
  return A[i] * p.cjA;
#else
  return A[i];
#endif
}

#endif
#endif
#if TRANS_B
#if !VEC_B
fn op_b(i: u32) -> ${T} {
#if IS_COMPLEX
  return B[i] * p.cjB;
#else
  return B[i];
#endif
}

#endif
#endif
#if IS_COMPLEX
// ---------------------------------------------------------------- complex64
// Thread (tx, ty) owns rows ty + i·WGY and columns tx + j·WGX of the tile: strided, so
// a warp's stores and workgroup-memory reads are contiguous.
var<workgroup> As: array<vec2f, 2u * BK * BM>;   // [stage][k][m]
var<workgroup> Bs: array<vec2f, 2u * BK * BN>;   // [stage][k][n]

const LA = BM * BK / NT;
const LB = BK * BN / NT;

@compute @workgroup_size(${WGX}, ${WGY}, 1)
fn matmul_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                   @builtin(local_invocation_id) lid3: vec3u, @builtin(local_invocation_index) tid: u32) {
  let lin = linear_workgroup_id(wid, nwg);
  if (lin >= p.total) { return; }
  let batch = lin / p.tilesPerMat;
  let tile = tile_of(lin - batch * p.tilesPerMat);
  let m0 = tile.x * BM;
  let n0 = tile.y * BN;
  let M = p.M; let N = p.N; let K = p.K;
  let aOff = select(batch, aIdx[batch], p.aMapped != 0u) * M * K;
  let bOff = select(batch, bIdx[batch], p.bMapped != 0u) * K * N;
  let cOff = batch * M * N;
  let tx = lid3.x;
  let ty = lid3.y;

  var ra: array<vec2f, LA>;
  var rb: array<vec2f, LB>;
  var acc: array<vec2f, TM * TN>;
  let nt = (K + BK - 1u) / BK;

  // fetch tile kt into registers
  for (var i = 0u; i < LA; i++) {
#if TRANS_A
    let idx = tid + i * NT; let row = idx % BM; let kk = idx / BM;
    let gm = m0 + row; let gk = kk;
    ra[i] = select(vec2f(0), op_a(aOff + min(gk, K - 1u) * M + min(gm, M - 1u)), gm < M && gk < K);
#else
    let idx = tid + i * NT; let row = idx / BK; let kk = idx % BK;
    let gm = m0 + row; let gk = kk;
    ra[i] = select(vec2f(0), A[aOff + min(gm, M - 1u) * K + min(gk, K - 1u)], gm < M && gk < K);
#endif
  }
  for (var i = 0u; i < LB; i++) {
#if TRANS_B
    let idx = tid + i * NT; let kk = idx % BK; let col = idx / BK;
    let gk = kk; let gn = n0 + col;
    rb[i] = select(vec2f(0), op_b(bOff + min(gn, N - 1u) * K + min(gk, K - 1u)), gk < K && gn < N);
#else
    let idx = tid + i * NT; let kk = idx / BN; let col = idx % BN;
    let gk = kk; let gn = n0 + col;
    rb[i] = select(vec2f(0), B[bOff + min(gk, K - 1u) * N + min(gn, N - 1u)], gk < K && gn < N);
#endif
  }
  for (var kt = 0u; kt < nt; kt++) {
    let s = (kt & 1u);
    for (var i = 0u; i < LA; i++) {
      let idx = tid + i * NT;
#if TRANS_A
      As[(s * BK + idx / BM) * BM + idx % BM] = ra[i];
#else
      As[(s * BK + idx % BK) * BM + idx / BK] = ra[i];
#endif
    }
    for (var i = 0u; i < LB; i++) {
      let idx = tid + i * NT;
#if TRANS_B
      Bs[(s * BK + idx % BK) * BN + idx / BK] = rb[i];
#else
      Bs[(s * BK + idx / BN) * BN + idx % BN] = rb[i];
#endif
    }
    workgroupBarrier();
    if (kt + 1u < nt) {
      let k0 = (kt + 1u) * BK;
      for (var i = 0u; i < LA; i++) {
#if TRANS_A
        let idx = tid + i * NT; let row = idx % BM; let kk = idx / BM;
        let gm = m0 + row; let gk = k0 + kk;
        ra[i] = select(vec2f(0), op_a(aOff + min(gk, K - 1u) * M + min(gm, M - 1u)), gm < M && gk < K);
#else
        let idx = tid + i * NT; let row = idx / BK; let kk = idx % BK;
        let gm = m0 + row; let gk = k0 + kk;
        ra[i] = select(vec2f(0), A[aOff + min(gm, M - 1u) * K + min(gk, K - 1u)], gm < M && gk < K);
#endif
      }
      for (var i = 0u; i < LB; i++) {
#if TRANS_B
        let idx = tid + i * NT; let kk = idx % BK; let col = idx / BK;
        let gk = k0 + kk; let gn = n0 + col;
        rb[i] = select(vec2f(0), op_b(bOff + min(gn, N - 1u) * K + min(gk, K - 1u)), gk < K && gn < N);
#else
        let idx = tid + i * NT; let kk = idx / BN; let col = idx % BN;
        let gk = k0 + kk; let gn = n0 + col;
        rb[i] = select(vec2f(0), B[bOff + min(gk, K - 1u) * N + min(gn, N - 1u)], gk < K && gn < N);
#endif
      }
    }
    for (var k = 0u; k < BK; k++) {
      var a: array<vec2f, TM>;
      var b: array<vec2f, TN>;
      for (var i = 0u; i < TM; i++) { a[i] = As[(s * BK + k) * BM + ty + i * WGY]; }
      for (var j = 0u; j < TN; j++) { b[j] = Bs[(s * BK + k) * BN + tx + j * WGX]; }
      for (var i = 0u; i < TM; i++) {
        for (var j = 0u; j < TN; j++) { acc[i * TN + j] = cfma(a[i], b[j], acc[i * TN + j]); }
      }
    }
    // The other stage is rewritten next iteration; this barrier keeps the writers behind
    // the readers of the stage they are about to overwrite two iterations on.
    workgroupBarrier();
  }
  for (var i = 0u; i < TM; i++) {
    let gm = m0 + ty + i * WGY;
    if (gm >= M) { continue; }
    for (var j = 0u; j < TN; j++) {
      let gn = n0 + tx + j * WGX;
      if (gn < N) { C[cOff + gm * N + gn] = acc[i * TN + j]; }
    }
  }
}
#else
// ---------------------------------------------------------------- float32
// Thread (tx, ty) owns rows 4·(ty + g·WGY) + 0..3 and columns 4·(tx + h·WGX) + 0..3 for
// g < TM/4, h < TN/4: its reads of workgroup memory are vec4s, consecutive across tx.
// A, B and C are arrays of vec4f under VEC_A, VEC_B, VEC_C, of f32 otherwise.

const BM4 = BM / 4u;
const BN4 = BN / 4u;
const TM4 = TM / 4u;
const TN4 = TN / 4u;
var<workgroup> As: array<vec4f, 2u * BK * BM4>;   // [stage][k][m/4], 4 rows per vec4
var<workgroup> Bs: array<vec4f, 2u * BK * BN4>;   // [stage][k][n/4]

#if VEC_A
const LA = BM * BK / 4u / NT;       // vec4 loads of A per thread
#else
const LA = BM * BK / NT;            // scalar loads of A per thread
#endif
#if VEC_B
const LB = BK * BN / 4u / NT;
#else
const LB = BK * BN / NT;
#endif

@compute @workgroup_size(${WGX}, ${WGY}, 1)
fn matmul_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                   @builtin(local_invocation_id) lid3: vec3u, @builtin(local_invocation_index) tid: u32) {
  let lin = linear_workgroup_id(wid, nwg);
  if (lin >= p.total) { return; }
  let batch = lin / p.tilesPerMat;
  let tile = tile_of(lin - batch * p.tilesPerMat);
  let m0 = tile.x * BM;
  let n0 = tile.y * BN;
  let M = p.M; let N = p.N; let K = p.K;
  let aOff = select(batch, aIdx[batch], p.aMapped != 0u) * M * K;
  let bOff = select(batch, bIdx[batch], p.bMapped != 0u) * K * N;
  let cOff = batch * M * N;
  let tx = lid3.x;
  let ty = lid3.y;

#if VEC_A
  var ra: array<vec4f, LA>;
#else
  var ra: array<f32, LA>;
#endif
#if VEC_B
  var rb: array<vec4f, LB>;
#else
  var rb: array<f32, LB>;
#endif
  var acc: array<vec4f, TM * TN4>;
  let nt = (K + BK - 1u) / BK;

  for (var kt = 0u; kt <= nt; kt++) {
    // Fetch tile kt (the loads are in flight while tile kt-1 is multiplied below).
    if (kt < nt) {
      let k0 = kt * BK;
      for (var i = 0u; i < LA; i++) {
        let idx = tid + i * NT;
#if TRANS_A
#if VEC_A
        // 4 rows of op(A) at one k (M % 4 == 0: a vec4 is in bounds when its first row is)
        let gm = m0 + (idx % BM4) * 4u; let gk = k0 + idx / BM4;
        ra[i] = select(vec4f(0), A[(aOff + min(gk, K - 1u) * M + min(gm, M - 4u)) / 4u], gm < M && gk < K);
#else
        let row = idx % BM; let gk = k0 + idx / BM; let gm = m0 + row;
        ra[i] = select(0.0, op_a(aOff + min(gk, K - 1u) * M + min(gm, M - 1u)), gm < M && gk < K);
#endif
#elif VEC_A
        let row = idx / (BK / 4u); let gk = k0 + (idx % (BK / 4u)) * 4u; let gm = m0 + row;
        ra[i] = select(vec4f(0), A[(aOff + min(gm, M - 1u) * K + min(gk, K - 4u)) / 4u], gm < M && gk < K);
#else
        let row = idx / BK; let gk = k0 + idx % BK; let gm = m0 + row;
        ra[i] = select(0.0, A[aOff + min(gm, M - 1u) * K + min(gk, K - 1u)], gm < M && gk < K);
#endif
      }
      for (var i = 0u; i < LB; i++) {
        let idx = tid + i * NT;
#if TRANS_B
#if VEC_B
        // 4 ks of op(B) at one column (K % 4 == 0)
        let gk = k0 + (idx % (BK / 4u)) * 4u; let gn = n0 + idx / (BK / 4u);
        rb[i] = select(vec4f(0), B[(bOff + min(gn, N - 1u) * K + min(gk, K - 4u)) / 4u], gk < K && gn < N);
#else
        let gk = k0 + idx % BK; let gn = n0 + idx / BK;
        rb[i] = select(0.0, op_b(bOff + min(gn, N - 1u) * K + min(gk, K - 1u)), gk < K && gn < N);
#endif
#elif VEC_B
        let gk = k0 + idx / BN4; let gn = n0 + (idx % BN4) * 4u;
        rb[i] = select(vec4f(0), B[(bOff + min(gk, K - 1u) * N + min(gn, N - 4u)) / 4u], gk < K && gn < N);
#else
        let gk = k0 + idx / BN; let gn = n0 + idx % BN;
        rb[i] = select(0.0, B[bOff + min(gk, K - 1u) * N + min(gn, N - 1u)], gk < K && gn < N);
#endif
      }
    }
    if (kt > 0u) {
      // Multiply tile kt-1, staged in workgroup memory.
      let s = ((kt - 1u) & 1u) * BK;
      for (var k = 0u; k < BK; k++) {
        var a: array<vec4f, TM4>;
        var b: array<vec4f, TN4>;
        for (var g = 0u; g < TM4; g++) { a[g] = As[(s + k) * BM4 + ty + g * WGY]; }
        for (var h = 0u; h < TN4; h++) { b[h] = Bs[(s + k) * BN4 + tx + h * WGX]; }
        for (var g = 0u; g < TM4; g++) {
          for (var r = 0u; r < 4u; r++) {
            let av = vec4f(a[g][r]);
            for (var h = 0u; h < TN4; h++) {
              acc[(g * 4u + r) * TN4 + h] = fma(av, b[h], acc[(g * 4u + r) * TN4 + h]);
            }
          }
        }
      }
    }
    if (kt < nt) {
      // Stage tile kt. Its buffer was last read while multiplying tile kt-2, which every
      // thread finished before the barrier at the end of the previous iteration.
      let s = (kt & 1u) * BK;
      for (var i = 0u; i < LA; i++) {
        let idx = tid + i * NT;
#if TRANS_A
#if VEC_A
        As[(s + idx / BM4) * BM4 + idx % BM4] = ra[i];
#else
        let row = idx % BM; let kk = idx / BM;
        As[(s + kk) * BM4 + row / 4u][row % 4u] = ra[i];
#endif
#elif VEC_A
        let row = idx / (BK / 4u); let kq = (idx % (BK / 4u)) * 4u;
        let v = ra[i];
        As[(s + kq) * BM4 + row / 4u][row % 4u] = v.x;
        As[(s + kq + 1u) * BM4 + row / 4u][row % 4u] = v.y;
        As[(s + kq + 2u) * BM4 + row / 4u][row % 4u] = v.z;
        As[(s + kq + 3u) * BM4 + row / 4u][row % 4u] = v.w;
#else
        let row = idx / BK; let kk = idx % BK;
        As[(s + kk) * BM4 + row / 4u][row % 4u] = ra[i];
#endif
      }
      for (var i = 0u; i < LB; i++) {
        let idx = tid + i * NT;
#if TRANS_B
#if VEC_B
        let kq = (idx % (BK / 4u)) * 4u; let col = idx / (BK / 4u);
        let v = rb[i];
        Bs[(s + kq) * BN4 + col / 4u][col % 4u] = v.x;
        Bs[(s + kq + 1u) * BN4 + col / 4u][col % 4u] = v.y;
        Bs[(s + kq + 2u) * BN4 + col / 4u][col % 4u] = v.z;
        Bs[(s + kq + 3u) * BN4 + col / 4u][col % 4u] = v.w;
#else
        let kk = idx % BK; let col = idx / BK;
        Bs[(s + kk) * BN4 + col / 4u][col % 4u] = rb[i];
#endif
#elif VEC_B
        Bs[(s + idx / BN4) * BN4 + idx % BN4] = rb[i];
#else
        let kk = idx / BN; let col = idx % BN;
        Bs[(s + kk) * BN4 + col / 4u][col % 4u] = rb[i];
#endif
      }
    }
    workgroupBarrier();
  }

  for (var g = 0u; g < TM4; g++) {
    for (var r = 0u; r < 4u; r++) {
      let gm = m0 + (ty + g * WGY) * 4u + r;
      if (gm >= M) { continue; }
      for (var h = 0u; h < TN4; h++) {
        let gn = n0 + (tx + h * WGX) * 4u;
        let v = acc[(g * 4u + r) * TN4 + h];
#if VEC_C
        if (gn < N) { C[(cOff + gm * N + gn) / 4u] = v; }
#else
        let base = cOff + gm * N + gn;
        if (gn < N) { C[base] = v.x; }
        if (gn + 1u < N) { C[base + 1u] = v.y; }
        if (gn + 2u < N) { C[base + 2u] = v.z; }
        if (gn + 3u < N) { C[base + 3u] = v.w; }
#endif
      }
    }
  }
}
#endif
