// Strided batched GEMM: C ← alpha·op(A)·op(B) + beta·C (src/backend/gpu/gemm.ts).
// Row-major operands at an element offset, with a row stride (ld) and a batch stride
// (0: the same matrix for every member). op is N, T or C (conjugate transpose).
// One workgroup computes a BM×BN tile of one batch member; its WGX×WGY threads each hold
// a TM×TN block of C in registers. op(A) and op(B) tiles of depth BK are staged in
// workgroup memory ([k][m] and [k][n]), double-buffered; the next tile is fetched into
// registers while the current one is multiplied.
//
// Defines: DTYPE, IS_COMPLEX, BM, BN, BK, TM, TN, WGX, WGY, GROUP, SW (float32: thread
// (tx, ty) from 32-lane blocks of SW × 32/SW; 0: tx, ty of the invocation id), DS (float32:
// stage the fetched tile before the multiply instead of after it: shorter register lifetimes);
// TRANS_A / TRANS_B (op T or C); op C conjugates on load through the uniforms cjA, cjB
// ((1, -1); (1, 1) otherwise), so T and C share a pipeline;
// VEC_A / VEC_B (float32: the operand is read as vec4f along its contiguous direction:
// offset, ld and batch stride are multiples of 4); WIDE_A / WIDE_B / VEC_C (the binding
// holding the operand is array<vec4f>; C is then stored as vec4s); ALIAS_A / ALIAS_B (the
// operand lives in C's buffer: read through the read_write binding C, since WebGPU forbids
// binding one buffer read-only and read-write in the same dispatch).
// MAP_A / MAP_B: batch member b reads the operand's matrix aIdx[b] / bIdx[b] (linalg.matmul's
// broadcast batch dimensions) instead of b.
// Bindings: A (unless ALIAS_A), B (unless ALIAS_B), aIdx (MAP_A), bIdx (MAP_B) → C; uniforms M, N, K, total
// (workgroups: batch · tilesPerMat), tilesN, tilesPerMat, offA, lda, sA, offB, ldb, sB,
// offC, ldc, sC, alpha, beta, cjA, cjB. beta = 0: C is not read (it may hold NaN).
#include "common/linear_id.wgsl"
#include "common/complex.wgsl"

const BM = ${BM}u;
const BN = ${BN}u;
const BK = ${BK}u;
const TM = ${TM}u;
const TN = ${TN}u;
const WGX = ${WGX}u;
const WGY = ${WGY}u;
const NT = WGX * WGY;
const GROUP = ${GROUP}u;
const SW = ${SW}u;

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

// Element index of op(A)(i, kk) / op(B)(kk, j) from a batch member's base.
fn addr_a(base: u32, i: u32, kk: u32) -> u32 {
#if TRANS_A
  return base + kk * p.lda + i;
#else
  return base + i * p.lda + kk;
#endif
}

fn addr_b(base: u32, kk: u32, j: u32) -> u32 {
#if TRANS_B
  return base + j * p.ldb + kk;
#else
  return base + kk * p.ldb + j;
#endif
}

// The bindings that hold A and B: their own, or C's when they live in C's buffer. WIDE_X:
// that binding is an array<vec4f> (a float32 view aligned to 4 elements, checked to end
// inside the binding), read by component where the operand itself is not aligned.
fn ld_a(i: u32) -> ${T} {
#if ALIAS_A
#if WIDE_A
  return C[i / 4u][i % 4u];
#elif IS_COMPLEX
  return C[i] * p.cjA;
#else
  return C[i];
#endif
#elif WIDE_A
  return A[i / 4u][i % 4u];
#elif IS_COMPLEX
  return A[i] * p.cjA;
#else
  return A[i];
#endif
}

#if WIDE_A
fn ld_a4(i: u32) -> vec4f {
#if ALIAS_A
  return C[i];
#else
  return A[i];
#endif
}
#endif

fn ld_b(i: u32) -> ${T} {
#if ALIAS_B
#if WIDE_B
  return C[i / 4u][i % 4u];
#elif IS_COMPLEX
  return C[i] * p.cjB;
#else
  return C[i];
#endif
#elif WIDE_B
  return B[i / 4u][i % 4u];
#elif IS_COMPLEX
  return B[i] * p.cjB;
#else
  return B[i];
#endif
}

#if WIDE_B
fn ld_b4(i: u32) -> vec4f {
#if ALIAS_B
  return C[i];
#else
  return B[i];
#endif
}
#endif

#if IS_COMPLEX
// ---------------------------------------------------------------- complex64
// Thread (tx, ty) owns rows ty + i·WGY and columns tx + j·WGX of the tile: strided, so
// a warp's stores and workgroup-memory reads are contiguous.
var<workgroup> As: array<vec2f, 2u * BK * BM>;   // [stage][k][m]
var<workgroup> Bs: array<vec2f, 2u * BK * BN>;   // [stage][k][n]

const LA = BM * BK / NT;
const LB = BK * BN / NT;

// (row, k) of the idx-th element of an A tile / (k, col) of a B tile: consecutive threads
// take consecutive addresses of the operand's contiguous direction.
fn pos_a(idx: u32) -> vec2u {
#if TRANS_A
  return vec2u(idx % BM, idx / BM);
#else
  return vec2u(idx / BK, idx % BK);
#endif
}

fn pos_b(idx: u32) -> vec2u {
#if TRANS_B
  return vec2u(idx % BK, idx / BK);
#else
  return vec2u(idx / BN, idx % BN);
#endif
}

@compute @workgroup_size(${WGX}, ${WGY}, 1)
fn gemm_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                 @builtin(local_invocation_id) lid3: vec3u, @builtin(local_invocation_index) tid: u32) {
  let lin = linear_workgroup_id(wid, nwg);
  if (lin >= p.total) { return; }
  let batch = lin / p.tilesPerMat;
  let tile = tile_of(lin - batch * p.tilesPerMat);
  let m0 = tile.x * BM;
  let n0 = tile.y * BN;
  let M = p.M; let N = p.N; let K = p.K;
#if MAP_A
  let aOff = p.offA + aIdx[batch] * p.sA;
#else
  let aOff = p.offA + batch * p.sA;
#endif
#if MAP_B
  let bOff = p.offB + bIdx[batch] * p.sB;
#else
  let bOff = p.offB + batch * p.sB;
#endif
  let cOff = p.offC + batch * p.sC;
  let tx = lid3.x;
  let ty = lid3.y;

  var ra: array<vec2f, LA>;
  var rb: array<vec2f, LB>;
  var acc: array<vec2f, TM * TN>;
  let nt = (K + BK - 1u) / BK;

  // fetch tile 0 into registers
  if (nt > 0u) {
    for (var i = 0u; i < LA; i++) {
      let q = pos_a(tid + i * NT); let gm = m0 + q.x; let gk = q.y;
      ra[i] = select(vec2f(0), ld_a(addr_a(aOff, min(gm, M - 1u), min(gk, K - 1u))), gm < M && gk < K);
    }
    for (var i = 0u; i < LB; i++) {
      let q = pos_b(tid + i * NT); let gk = q.x; let gn = n0 + q.y;
      rb[i] = select(vec2f(0), ld_b(addr_b(bOff, min(gk, K - 1u), min(gn, N - 1u))), gk < K && gn < N);
    }
  }
  for (var kt = 0u; kt < nt; kt++) {
    let s = (kt & 1u) * BK;
    for (var i = 0u; i < LA; i++) {
      let q = pos_a(tid + i * NT);
      As[(s + q.y) * BM + q.x] = ra[i];
    }
    for (var i = 0u; i < LB; i++) {
      let q = pos_b(tid + i * NT);
      Bs[(s + q.x) * BN + q.y] = rb[i];
    }
    workgroupBarrier();
    // fetch tile kt+1 while tile kt is multiplied
    if (kt + 1u < nt) {
      let k0 = (kt + 1u) * BK;
      for (var i = 0u; i < LA; i++) {
        let q = pos_a(tid + i * NT); let gm = m0 + q.x; let gk = k0 + q.y;
        ra[i] = select(vec2f(0), ld_a(addr_a(aOff, min(gm, M - 1u), min(gk, K - 1u))), gm < M && gk < K);
      }
      for (var i = 0u; i < LB; i++) {
        let q = pos_b(tid + i * NT); let gk = k0 + q.x; let gn = n0 + q.y;
        rb[i] = select(vec2f(0), ld_b(addr_b(bOff, min(gk, K - 1u), min(gn, N - 1u))), gk < K && gn < N);
      }
    }
    for (var k = 0u; k < BK; k++) {
      var a: array<vec2f, TM>;
      var b: array<vec2f, TN>;
      for (var i = 0u; i < TM; i++) { a[i] = As[(s + k) * BM + ty + i * WGY]; }
      for (var j = 0u; j < TN; j++) { b[j] = Bs[(s + k) * BN + tx + j * WGX]; }
      for (var i = 0u; i < TM; i++) {
        for (var j = 0u; j < TN; j++) { acc[i * TN + j] = cfma(a[i], b[j], acc[i * TN + j]); }
      }
    }
    // The other stage is rewritten next iteration; this barrier keeps the writers behind
    // the readers of the stage they are about to overwrite two iterations on.
    workgroupBarrier();
  }
  let alpha = p.alpha;
  let beta = p.beta;
  for (var i = 0u; i < TM; i++) {
    let gm = m0 + ty + i * WGY;
    if (gm >= M) { continue; }
    for (var j = 0u; j < TN; j++) {
      let gn = n0 + tx + j * WGX;
      if (gn < N) {
        let idx = cOff + gm * p.ldc + gn;
        var v = alpha * acc[i * TN + j];
        if (beta != 0.0) { v = fma(vec2f(beta), C[idx], v); }
        C[idx] = v;
      }
    }
  }
}
#else
// ---------------------------------------------------------------- float32
// Thread (tx, ty) owns rows 4·(ty + g·WGY) + 0..3 and columns 4·(tx + h·WGX) + 0..3 for
// g < TM/4, h < TN/4: its reads of workgroup memory are vec4s, consecutive across tx.

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

// Where the idx-th load of a tile lands: (row, k) for A, (k, col) for B. Consecutive
// threads take consecutive addresses along the operand's contiguous direction; a vec4
// load covers 4 rows (A transposed), 4 ks or 4 cols (B not transposed) from there.
fn pos_a(idx: u32) -> vec2u {
#if VEC_A
#if TRANS_A
  return vec2u((idx % BM4) * 4u, idx / BM4);
#else
  return vec2u(idx / (BK / 4u), (idx % (BK / 4u)) * 4u);
#endif
#elif TRANS_A
  return vec2u(idx % BM, idx / BM);
#else
  return vec2u(idx / BK, idx % BK);
#endif
}

fn pos_b(idx: u32) -> vec2u {
#if VEC_B
#if TRANS_B
  return vec2u((idx % (BK / 4u)) * 4u, idx / (BK / 4u));
#else
  return vec2u(idx / BN4, (idx % BN4) * 4u);
#endif
#elif TRANS_B
  return vec2u(idx % BK, idx / BK);
#else
  return vec2u(idx / BN, idx % BN);
#endif
}

const I4 = vec4u(0u, 1u, 2u, 3u);

@compute @workgroup_size(${WGX}, ${WGY}, 1)
fn gemm_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                 @builtin(local_invocation_id) lid3: vec3u, @builtin(local_invocation_index) tid: u32) {
  let lin = linear_workgroup_id(wid, nwg);
  if (lin >= p.total) { return; }
  let batch = lin / p.tilesPerMat;
  let tile = tile_of(lin - batch * p.tilesPerMat);
  let m0 = tile.x * BM;
  let n0 = tile.y * BN;
  let M = p.M; let N = p.N; let K = p.K;
#if MAP_A
  let aOff = p.offA + aIdx[batch] * p.sA;
#else
  let aOff = p.offA + batch * p.sA;
#endif
#if MAP_B
  let bOff = p.offB + bIdx[batch] * p.sB;
#else
  let bOff = p.offB + batch * p.sB;
#endif
  let cOff = p.offC + batch * p.sC;
#if SW
  // 32-lane blocks of SW × 32/SW threads: a warp reads fewer distinct A and B vec4s.
  let lane = tid % 32u;
  let w = tid / 32u;
  let tx = (w % (WGX / SW)) * SW + lane % SW;
  let ty = (w / (WGX / SW)) * (32u / SW) + lane / SW;
#else
  let tx = lid3.x;
  let ty = lid3.y;
#endif

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
        let q = pos_a(tid + i * NT); let gm = m0 + q.x; let gk = k0 + q.y;
#if VEC_A
#if TRANS_A
        let v = ld_a4(addr_a(aOff, min(gm, (M - 1u) & ~3u), min(gk, K - 1u)) / 4u);
        ra[i] = select(vec4f(0), v, (vec4u(gm) + I4 < vec4u(M)) & vec4<bool>(gk < K));
#else
        let v = ld_a4(addr_a(aOff, min(gm, M - 1u), min(gk, (K - 1u) & ~3u)) / 4u);
        ra[i] = select(vec4f(0), v, (vec4u(gk) + I4 < vec4u(K)) & vec4<bool>(gm < M));
#endif
#else
        ra[i] = select(0.0, ld_a(addr_a(aOff, min(gm, M - 1u), min(gk, K - 1u))), gm < M && gk < K);
#endif
      }
      for (var i = 0u; i < LB; i++) {
        let q = pos_b(tid + i * NT); let gk = k0 + q.x; let gn = n0 + q.y;
#if VEC_B
#if TRANS_B
        let v = ld_b4(addr_b(bOff, min(gk, (K - 1u) & ~3u), min(gn, N - 1u)) / 4u);
        rb[i] = select(vec4f(0), v, (vec4u(gk) + I4 < vec4u(K)) & vec4<bool>(gn < N));
#else
        let v = ld_b4(addr_b(bOff, min(gk, K - 1u), min(gn, (N - 1u) & ~3u)) / 4u);
        rb[i] = select(vec4f(0), v, (vec4u(gn) + I4 < vec4u(N)) & vec4<bool>(gk < K));
#endif
#else
        rb[i] = select(0.0, ld_b(addr_b(bOff, min(gk, K - 1u), min(gn, N - 1u))), gk < K && gn < N);
#endif
      }
    }
#if !DS
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
#endif
    if (kt < nt) {
      // Stage tile kt. Its buffer was last read while multiplying tile kt-2, which every
      // thread finished before the barrier at the end of the previous iteration.
      let s = (kt & 1u) * BK;
      for (var i = 0u; i < LA; i++) {
        let q = pos_a(tid + i * NT);
#if VEC_A
#if TRANS_A
        As[(s + q.y) * BM4 + q.x / 4u] = ra[i];
#else
        let v = ra[i];
        let r4 = q.x / 4u; let rr = q.x % 4u;
        As[(s + q.y) * BM4 + r4][rr] = v.x;
        As[(s + q.y + 1u) * BM4 + r4][rr] = v.y;
        As[(s + q.y + 2u) * BM4 + r4][rr] = v.z;
        As[(s + q.y + 3u) * BM4 + r4][rr] = v.w;
#endif
#else
        As[(s + q.y) * BM4 + q.x / 4u][q.x % 4u] = ra[i];
#endif
      }
      for (var i = 0u; i < LB; i++) {
        let q = pos_b(tid + i * NT);
#if VEC_B
#if TRANS_B
        let v = rb[i];
        let c4 = q.y / 4u; let cc = q.y % 4u;
        Bs[(s + q.x) * BN4 + c4][cc] = v.x;
        Bs[(s + q.x + 1u) * BN4 + c4][cc] = v.y;
        Bs[(s + q.x + 2u) * BN4 + c4][cc] = v.z;
        Bs[(s + q.x + 3u) * BN4 + c4][cc] = v.w;
#else
        Bs[(s + q.x) * BN4 + q.y / 4u] = rb[i];
#endif
#else
        Bs[(s + q.x) * BN4 + q.y / 4u][q.y % 4u] = rb[i];
#endif
      }
    }
#if DS
    // DS: tile kt was staged first, so its registers are free during the multiply.
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
#endif
    workgroupBarrier();
  }

  let alpha = p.alpha;
  let beta = p.beta;
  for (var g = 0u; g < TM4; g++) {
    for (var r = 0u; r < 4u; r++) {
      let gm = m0 + (ty + g * WGY) * 4u + r;
      if (gm >= M) { continue; }
      for (var h = 0u; h < TN4; h++) {
        let gn = n0 + (tx + h * WGX) * 4u;
        let v = alpha * acc[(g * 4u + r) * TN4 + h];
        let base = cOff + gm * p.ldc + gn;
#if VEC_C
        if (gn + 3u < N) {
          var o = v;
          if (beta != 0.0) { o = fma(vec4f(beta), C[base / 4u], o); }
          C[base / 4u] = o;
          continue;
        }
        for (var c = 0u; c < 4u; c++) {
          if (gn + c < N) {
            var o = v[c];
            if (beta != 0.0) { o = fma(beta, C[base / 4u][c], o); }
            C[base / 4u][c] = o;
          }
        }
#else
        for (var c = 0u; c < 4u; c++) {
          if (gn + c < N) {
            var o = v[c];
            if (beta != 0.0) { o = fma(beta, C[base + c], o); }
            C[base + c] = o;
          }
        }
#endif
      }
    }
  }
}
#endif
