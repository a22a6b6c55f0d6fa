// One round of the blocked one-sided Jacobi (src/backend/gpu/svd_jacobi.ts): one workgroup
// per (block pair, matrix). The pair's 2b columns of Yc (column-major: a matrix's column j
// is Yc[(mat·c + j)·r ..][r]) are scaled by their power-of-two exponents E (max|ỹ| ≈ 1), their
// Gram H = ỸᴴỸ is formed in workgroup memory, an inner cyclic two-sided Jacobi runs on H
// with the relative test |h_pq| > tol·√(h_pp·h_qq) (scale-invariant, so it is the test on
// the true columns), its rotations being those of the TRUE columns expressed in the scaled
// ones (ρ = 2^(e_q − e_p) folded in exactly), and Q̃ accumulates them; then the columns of
// Yc (and of Wc) are replaced by Ỹ·Q̃ rescaled, and E by the new columns' exponents.
// A pair that rotates anything adds one to ctrl[2·mat]; ctrl[2·mat + 1] ≠ 0 (converged)
// makes the whole workgroup return at once.
// Bindings (generated): Yc (T, rw), Wc (T, rw), E (i32, rw), ctrl (atomic<u32>, rw);
// uniforms r, c, nbe (blocks, even), npairs, count, round, wrows (c when W is wanted, else 0),
// inner (inner sweep cap), tol.
// Defines: T, IS_COMPLEX, B (block width), B2 = 2B, WG, NT = (B2/4)² (threads per Gram group),
// NG = WG/NT (groups), LPT = TR·B2/WG (tile loads per thread), QV (entries of M per vec4),
// TR (rows per Gram tile), LD = B2 + 1, SH (floats of the shared tile / Gram), CMR (replicas
// of the column-max atomics).
#include "common/complex.wgsl"
#include "common/linear_id.wgsl"

var<workgroup> sh: array<${T}, ${SH}>;          // Gram tile (rows × LD), then H (B2 × B2, row-major)
var<workgroup> qm: array<vec4f, ${B2} * ${B2} / ${QV}>;  // M = Q̃ − I row-major, QV entries per vec4 (qget/qset)
var<workgroup> ex: array<i32, ${B2}>;
var<workgroup> scl: array<f32, ${B2}>;          // 2^-e
var<workgroup> iscl: array<f32, ${B2}>;         // 2^e
// rotation data of the inner solve, double-buffered: slot par·B + k for the current step,
// (1 − par)·B + k' for the next step's rotations, computed in the same phase
var<workgroup> rc: array<f32, 2 * ${B}>;
var<workgroup> rcm: array<f32, 2 * ${B}>;       // c − 1, without cancellation
var<workgroup> ra: array<${T}, 2 * ${B}>;
var<workgroup> rb: array<${T}, 2 * ${B}>;
var<workgroup> rdp: array<f32, 2 * ${B}>;
var<workgroup> rdq: array<f32, 2 * ${B}>;
var<workgroup> rf: array<u32, 2 * ${B}>;
// the new columns' max bits: CMR replicas at stride B2 + 1 (thread t uses replica t % CMR),
// so a warp's atomicMax on one column hits CMR distinct banks instead of one address 32 times
var<workgroup> cmax: array<atomic<u32>, ${CMR} * (${B2} + 1)>;
var<workgroup> rot_any: atomic<u32>;
var<workgroup> wu: u32;

#if IS_COMPLEX
fn qget(k: u32) -> vec2f {
  let v = qm[k / 2u];
  return select(v.xy, v.zw, (k & 1u) == 1u);
}
fn qset(k: u32, x: vec2f) {
  if ((k & 1u) == 0u) {
    qm[k / 2u].x = x.x;
    qm[k / 2u].y = x.y;
  } else {
    qm[k / 2u].z = x.x;
    qm[k / 2u].w = x.y;
  }
}
// acc + y·(the two complex entries packed in q)
fn qfma(y: vec2f, q: vec4f, acc: vec4f) -> vec4f {
  return fma(vec4f(y.y), vec4f(-q.y, q.x, -q.w, q.z), fma(vec4f(y.x), q, acc));
}
fn qpart(v: vec4f, x: u32) -> vec2f { return select(v.xy, v.zw, x == 1u); }
fn re(x: ${T}) -> f32 { return x.x; }
fn maxabs(x: ${T}) -> f32 { return max(abs(x.x), abs(x.y)); }
fn scale(x: ${T}, s: f32) -> ${T} { return x * s; }
fn unit(h: ${T}, g: f32) -> ${T} { return h / g; }
fn realt(x: f32) -> ${T} { return vec2f(x, 0.0); }
#else
fn qget(k: u32) -> f32 { return qm[k / 4u][k % 4u]; }
fn qset(k: u32, x: f32) { qm[k / 4u][k % 4u] = x; }
fn qfma(y: f32, q: vec4f, acc: vec4f) -> vec4f { return fma(vec4f(y), q, acc); }
fn qpart(v: vec4f, x: u32) -> f32 { return v[x]; }
fn re(x: ${T}) -> f32 { return x; }
fn maxabs(x: ${T}) -> f32 { return abs(x); }
fn scale(x: ${T}, s: f32) -> ${T} { return x * s; }
fn unit(h: ${T}, g: f32) -> ${T} { return select(-1.0, 1.0, h >= 0.0); }
fn realt(x: f32) -> ${T} { return x; }
#endif

// 2^k exactly for k in [-126, 127] (built from the bits: no exp2 rounding, no flush).
fn pow2(k: i32) -> f32 { return bitcast<f32>(u32(clamp(k, -126, 127) + 127) << 23u); }
// x·2^k in two exact steps, so |k| up to 252 neither overflows nor underflows on the way.
fn ldx(x: f32, k: i32) -> f32 {
  let k1 = clamp(k / 2, -126, 127);
  return x * pow2(k1) * pow2(k - k1);
}

// Block of pair k in round s of the circle-method tournament on n (even) items.
fn circle(s: u32, k: u32, n: u32) -> vec2u {
  if (k == 0u) { return vec2u(n - 1u, s); }
  return vec2u((s + k) % (n - 1u), (s + n - 1u - k) % (n - 1u));
}

// Slot (k, side) of index i in step s of the circle tournament on n items: the inverse of
// circle (side 0: i = circle(s, k, n).x, side 1: .y).
fn slot_of(s: u32, i: u32, n: u32) -> vec2u {
  if (i == n - 1u) { return vec2u(0u, 0u); }
  if (i == s) { return vec2u(0u, 1u); }
  let k0 = (i + n - 1u - s) % (n - 1u);
  if (k0 < n / 2u) { return vec2u(k0, 0u); }
  return vec2u(n - 1u - k0, 1u);
}

// Column of the pair's local index i (i < B from block P, else from block Q); c when padding.
fn col_of(i: u32, bp: u32, bq: u32) -> u32 {
  let j = select(bq * ${B}u + (i - ${B}u), bp * ${B}u + i, i < ${B}u);
  return select(p.c, j, j < p.c);
}

// Element e of the Gram tile at row k0 (e % TR: row in the tile, e / TR: local column), scaled.
fn tile_load(e: u32, k0: u32, bp: u32, bq: u32, mat: u32) -> ${T} {
  let i = e / ${TR}u;
  let j = col_of(i, bp, bq);
  let row = k0 + e % ${TR}u;
  if (row < p.r && j < p.c) { return scale(Yc[(mat * p.c + j) * p.r + row], scl[i]); }
  return ${ZERO};
}

// The rotation of slot k for indices a, b of H (diagonals hp, hq, entry h = H[a][b]): the
// true columns' Jacobi rotation in the scaled representation (see the file header). Stores
// c, the coefficients and new diagonals.
fn rotation(k: u32, ia: u32, ib: u32, hp: f32, hq: f32, h: ${T}) {
  rf[k] = 0u;
  let g = tabs(h);
  if (!(g > p.tol * sqrt(hp) * sqrt(hq)) || !(g > 0.0)) { return; }
  let d = ex[ib] - ex[ia];
  var tr: f32;   // t·ρ, ρ = 2^d
  var tir: f32;  // t/ρ
  if (abs(d) <= 40) {
    let zeta = (ldx(hq, d) - ldx(hp, -d)) / (2.0 * g);
    let az = abs(zeta);
    var t = select(0.5 / az, 1.0 / (az + sqrt(1.0 + az * az)), az < 1.0e15);
    t = select(-t, t, zeta >= 0.0);
    tr = ldx(t, d);
    tir = ldx(t, -d);
  } else if (d > 0) {
    // |ζ| ≥ 2^40: t = 1/(2ζ) = 2^-d · g/(h_qq − 2^-2d·h_pp)
    let v = g / (hq - ldx(hp, -2 * d));
    tr = v;
    tir = ldx(v, -2 * d);
  } else {
    let v = g / (ldx(hq, 2 * d) - hp);
    tr = ldx(v, 2 * d);
    tir = v;
  }
  let t = ldx(tr, -d);
  let sq = sqrt(1.0 + t * t);
  let cs = 1.0 / sq;
  if (!(tr != 0.0 || tir != 0.0)) { return; }
  let u = unit(h, g);
  rc[k] = cs;
  rcm[k] = -(t * t) / (sq * (1.0 + sq));
  ra[k] = tconj(u) * (tr * cs);
  rb[k] = u * (tir * cs);
  rdp[k] = hp - tr * g;
  rdq[k] = hq + tir * g;
  rf[k] = 1u;
  atomicOr(&rot_any, 1u);
}

@compute @workgroup_size(${WG})
fn jacobi_pair_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                        @builtin(local_invocation_index) t: u32) {
  let w = linear_workgroup_id(wid, nwg);
  if (w >= p.count) { return; }
  let mat = w / p.npairs;
  if (t == 0u) { wu = atomicLoad(&ctrl[2u * mat + 1u]); }
  if (workgroupUniformLoad(&wu) != 0u) { return; }
  let blocks = circle(p.round, w % p.npairs, p.nbe);
  let bp = blocks.x;
  let bq = blocks.y;
  let r = p.r;

  if (t < ${B2}u) {
    let j = col_of(t, bp, bq);
    let e = select(0, clamp(E[mat * p.c + j], -120, 120), j < p.c);
    ex[t] = e;
    scl[t] = pow2(-e);
    iscl[t] = pow2(e);
  }
  for (var e = t; e < ${CMR}u * (${B2}u + 1u); e += ${WG}u) {
    atomicStore(&cmax[e], 0u);
  }
  for (var e = t; e < ${B2}u * ${B2}u / ${QV}u; e += ${WG}u) {
    qm[e] = vec4f(0.0);
  }
  if (t == 0u) { atomicStore(&rot_any, 0u); }

  // ---- the Gram of the scaled columns, tiles of TR rows staged in sh (stride LD). A thread
  // owns a 4×4 block of H (2 loads of 4 per 16 products); NG groups of threads take every
  // NG-th row of a tile, and their partial Grams are added at the end.
  let grp = t / ${NT}u;
  let bi = (t % ${NT}u) / (${B2}u / 4u) * 4u;
  let bj = (t % ${NT}u) % (${B2}u / 4u) * 4u;
  // per-tile partial sums added with compensation: the rounding noise of an off-diagonal
  // entry stays well under tol·√(h_pp·h_qq) (a plain running sum over r rows reaches about
  // √r·eps = tol, and pairs at that level would keep rotating sweep after sweep)
  var acc: array<${T}, 16>;
  var cmp: array<${T}, 16>;
  for (var x = 0u; x < 16u; x++) { acc[x] = ${ZERO}; cmp[x] = ${ZERO}; }
  // the next tile's loads are issued before the current tile's products (LPT per thread),
  // so their latency overlaps the arithmetic instead of stalling every tile
  var pre: array<${T}, ${LPT}>;
  workgroupBarrier();  // scl is written above
  for (var l = 0u; l < ${LPT}u; l++) { pre[l] = tile_load(t + l * ${WG}u, 0u, bp, bq, mat); }
  for (var k0 = 0u; k0 < r; k0 += ${TR}u) {
    workgroupBarrier();
    for (var l = 0u; l < ${LPT}u; l++) {
      let e = t + l * ${WG}u;
      sh[(e % ${TR}u) * ${LD}u + e / ${TR}u] = pre[l];
    }
    workgroupBarrier();
    if (k0 + ${TR}u < r) {
      for (var l = 0u; l < ${LPT}u; l++) { pre[l] = tile_load(t + l * ${WG}u, k0 + ${TR}u, bp, bq, mat); }
    }
    var part: array<${T}, 16>;
    for (var x = 0u; x < 16u; x++) { part[x] = ${ZERO}; }
    for (var kk = grp; kk < ${TR}u; kk += ${NG}u) {
      var av: array<${T}, 4>;
      var bv: array<${T}, 4>;
      for (var x = 0u; x < 4u; x++) {
        av[x] = tconj(sh[kk * ${LD}u + bi + x]);
        bv[x] = sh[kk * ${LD}u + bj + x];
      }
      for (var x = 0u; x < 4u; x++) {
        for (var y = 0u; y < 4u; y++) { part[4u * x + y] = tfma(av[x], bv[y], part[4u * x + y]); }
      }
    }
    for (var x = 0u; x < 16u; x++) {
      // Neumaier's two-sum, componentwise for complex
      let s = acc[x] + part[x];
      let big = select(part[x], acc[x], abs(acc[x]) >= abs(part[x]));
      let small = select(acc[x], part[x], abs(acc[x]) >= abs(part[x]));
      cmp[x] += (big - s) + small;
      acc[x] = s;
    }
  }
  for (var g = 0u; g < ${NG}u; g++) {
    workgroupBarrier();
    if (grp == g) {
      for (var x = 0u; x < 4u; x++) {
        for (var y = 0u; y < 4u; y++) {
          let idx = (bi + x) * ${B2}u + bj + y;
          let v = acc[4u * x + y] + cmp[4u * x + y];
          sh[idx] = select(sh[idx] + v, v, g == 0u);
        }
      }
    }
  }
  workgroupBarrier();
  // exactly Hermitian: the lower triangle from the upper, a real diagonal
  for (var e = t; e < ${B2}u * ${B2}u; e += ${WG}u) {
    let i = e / ${B2}u;
    let j = e % ${B2}u;
    if (i > j) { sh[e] = tconj(sh[j * ${B2}u + i]); }
    if (i == j) { sh[e] = realt(re(sh[e])); }
  }
  workgroupBarrier();

  // ---- inner cyclic Jacobi on H (circle order: B disjoint pairs per step). One phase and
  // one barrier per step: thread (k1, k2) owns the 2×2 blocks H[pair k1][pair k2] (both
  // rotations applied) and M[pair k1 rows][pair k2 columns], and the thread whose H block
  // holds a pair of the next step computes that pair's rotation right away (its new
  // diagonals are rdp/rdq of this step's rotations, or unchanged and unwritten).
  var rotated = false;
  var par = 0u;
  for (var sweep = 0u; sweep < p.inner; sweep++) {
    if (t < ${B}u) {
      let ij = circle(0u, t, ${B2}u);
      rotation(par * ${B}u + t, ij.x, ij.y, re(sh[ij.x * ${B2}u + ij.x]), re(sh[ij.y * ${B2}u + ij.y]), sh[ij.x * ${B2}u + ij.y]);
    }
    workgroupBarrier();
    for (var s = 0u; s < ${B2}u - 1u; s++) {
      let nxt = s + 1u < ${B2}u - 1u;
      for (var e = t; e < ${B}u * ${B}u; e += ${WG}u) {
        let k1 = e / ${B}u;
        let k2 = e % ${B}u;
        let r1 = circle(s, k1, ${B2}u);
        let r2 = circle(s, k2, ${B2}u);
        let o1 = par * ${B}u + k1;
        let o2 = par * ${B}u + k2;
        let f1 = rf[o1] != 0u;
        let f2 = rf[o2] != 0u;
        var h00 = sh[r1.x * ${B2}u + r2.x];
        var h01 = sh[r1.x * ${B2}u + r2.y];
        var h10 = sh[r1.y * ${B2}u + r2.x];
        var h11 = sh[r1.y * ${B2}u + r2.y];
        if (f1) {
          // rows a, b ← J̃ᴴ·H
          let n00 = h00 * rc[o1] - tmul(tconj(ra[o1]), h10);
          let n01 = h01 * rc[o1] - tmul(tconj(ra[o1]), h11);
          h10 = tmul(tconj(rb[o1]), h00) + h10 * rc[o1];
          h11 = tmul(tconj(rb[o1]), h01) + h11 * rc[o1];
          h00 = n00;
          h01 = n01;
        }
        if (f2) {
          // columns a, b ← H·J̃
          let n00 = h00 * rc[o2] - tmul(ra[o2], h01);
          let n10 = h10 * rc[o2] - tmul(ra[o2], h11);
          h01 = tmul(rb[o2], h00) + h01 * rc[o2];
          h11 = tmul(rb[o2], h10) + h11 * rc[o2];
          h00 = n00;
          h10 = n10;
        }
        if (k1 == k2 && f1) {
          // the pair's own 2×2 block set exactly
          h00 = realt(rdp[o1]);
          h01 = ${ZERO};
          h10 = ${ZERO};
          h11 = realt(rdq[o1]);
        }
        if (f1 || f2) {
          sh[r1.x * ${B2}u + r2.x] = h00;
          sh[r1.x * ${B2}u + r2.y] = h01;
          sh[r1.y * ${B2}u + r2.x] = h10;
          sh[r1.y * ${B2}u + r2.y] = h11;
        }
        if (f2) {
          // M = Q̃ − I: M ← M·J̃ + (J̃ − I), so near-identity rotations round only their change
          for (var x = 0u; x < 2u; x++) {
            let row = select(r1.x, r1.y, x == 1u);
            let qp = qget(row * ${B2}u + r2.x);
            let qq = qget(row * ${B2}u + r2.y);
            var np = qp * rc[o2] - tmul(ra[o2], qq);
            var nq = tmul(rb[o2], qp) + qq * rc[o2];
            if (row == r2.x) {
              np += realt(rcm[o2]);
              nq += rb[o2];
            }
            if (row == r2.y) {
              np -= ra[o2];
              nq += realt(rcm[o2]);
            }
            qset(row * ${B2}u + r2.x, np);
            qset(row * ${B2}u + r2.y, nq);
          }
        }
        if (nxt) {
          // the next step's pair (ia, ib) with ia in pair k1 and ib in pair k2: its entry is here
          for (var x = 0u; x < 2u; x++) {
            let ia = select(r1.x, r1.y, x == 1u);
            let sl = slot_of(s + 1u, ia, ${B2}u);
            if (sl.y != 0u) { continue; }
            let ib = circle(s + 1u, sl.x, ${B2}u).y;
            if (ib != r2.x && ib != r2.y) { continue; }
            let y = select(0u, 1u, ib == r2.y);
            let hab = select(select(h00, h01, y == 1u), select(h10, h11, y == 1u), x == 1u);
            // a rotating pair's diagonal block is being rewritten: take its new diagonal
            // from rdp/rdq; an idle pair's block is not written, so reading it is safe
            var hp: f32;
            var hq: f32;
            if (f1) { hp = select(rdp[o1], rdq[o1], x == 1u); } else { hp = re(sh[ia * ${B2}u + ia]); }
            if (f2) { hq = select(rdp[o2], rdq[o2], y == 1u); } else { hq = re(sh[ib * ${B2}u + ib]); }
            rotation((1u - par) * ${B}u + sl.x, ia, ib, hp, hq, hab);
          }
        }
      }
      workgroupBarrier();
      par = 1u - par;
    }
    if (t == 0u) {
      wu = atomicLoad(&rot_any);
      atomicStore(&rot_any, 0u);
    }
    if (workgroupUniformLoad(&wu) == 0u) { break; }
    rotated = true;
  }
  if (!rotated) { return; }  // uniform: set from a workgroupUniformLoad
  if (t == 0u) { atomicAdd(&ctrl[2u * mat], 1u); }

  // ---- Yc (and Wc) columns ← (scaled columns)·(I + M), rescaled; the new columns' max for E
  var lmax: array<f32, ${B2}>;
  for (var j = 0u; j < ${B2}u; j++) { lmax[j] = 0.0; }
  let rows = r + p.wrows;
  // two rows per thread and iteration: twice the loads in flight per round trip
  for (var k0 = t; k0 < rows; k0 += 2u * ${WG}u) {
    var y: array<array<${T}, ${B2}>, 2>;
    for (var h = 0u; h < 2u; h++) {
      let k = k0 + h * ${WG}u;
      let isy = k < r;
      for (var i = 0u; i < ${B2}u; i++) {
        let j = col_of(i, bp, bq);
        var v = ${ZERO};
        if (j < p.c && k < rows) {
          if (isy) { v = Yc[(mat * p.c + j) * r + k]; } else { v = Wc[(mat * p.c + j) * p.c + (k - r)]; }
        }
        y[h][i] = scale(v, scl[i]);
      }
    }
    // QV output columns at once: independent accumulators, one vec4 load of M per QV products
    for (var j0 = 0u; j0 < ${B2}u; j0 += ${QV}u) {
      var o4: array<vec4f, 2>;
      o4[0] = vec4f(0.0);
      o4[1] = vec4f(0.0);
      for (var i = 0u; i < ${B2}u; i++) {
        let q = qm[(i * ${B2}u + j0) / ${QV}u];
        o4[0] = qfma(y[0][i], q, o4[0]);
        o4[1] = qfma(y[1][i], q, o4[1]);
      }
      // no `continue` here: constant-trip loops that compilers unroll keep y and lmax in registers
      for (var h = 0u; h < 2u; h++) {
        let k = k0 + h * ${WG}u;
        let isy = k < r;
        for (var x = 0u; x < ${QV}u; x++) {
          let jj = j0 + x;
          let j = col_of(jj, bp, bq);
          let o = qpart(o4[h], x) + y[h][jj];
          if (isy) { lmax[jj] = max(lmax[jj], maxabs(o)); }
          if (j < p.c && k < rows) {
            if (isy) {
              Yc[(mat * p.c + j) * r + k] = scale(o, iscl[jj]);
            } else {
              Wc[(mat * p.c + j) * p.c + (k - r)] = scale(o, iscl[jj]);
            }
          }
        }
      }
    }
  }
  let rep = (t % ${CMR}u) * (${B2}u + 1u);
  for (var j = 0u; j < ${B2}u; j++) {
    if (lmax[j] > 0.0) { atomicMax(&cmax[rep + j], bitcast<u32>(lmax[j])); }
  }
  workgroupBarrier();
  if (t < ${B2}u) {
    let j = col_of(t, bp, bq);
    var mb = 0u;  // max of non-negative floats = max of their bit patterns
    for (var x = 0u; x < ${CMR}u; x++) { mb = max(mb, atomicLoad(&cmax[x * (${B2}u + 1u) + t])); }
    let m = bitcast<f32>(mb);
    if (j < p.c && m > 0.0) { E[mat * p.c + j] = clamp(ex[t] + frexp(m).exp, -120, 120); }
  }
}
