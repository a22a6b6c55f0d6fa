// ---- matmul f32 t128 vecA=true vecB=true: matmul → matmul_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<vec4f>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<vec4f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul f32 t128 vecA=true vecB=false: matmul → matmul_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul f32 t128 vecA=false vecB=true: matmul → matmul_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<vec4f>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<vec4f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul f32 t128 vecA=false vecB=false: matmul → matmul_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul f32 t64 vecA=true vecB=true: matmul → matmul_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<vec4f>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<vec4f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul f32 t64 vecA=true vecB=false: matmul → matmul_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul f32 t64 vecA=false vecB=true: matmul → matmul_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<vec4f>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<vec4f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul f32 t64 vecA=false vecB=false: matmul → matmul_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul f32 t32 vecA=true vecB=true: matmul → matmul_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<vec4f>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<vec4f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul f32 t32 vecA=true vecB=false: matmul → matmul_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul f32 t32 vecA=false vecB=true: matmul → matmul_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<vec4f>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<vec4f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul f32 t32 vecA=false vecB=false: matmul → matmul_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul c64 t64r8: matmul → matmul_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec2f>;
@group(0) @binding(1) var<storage, read> B: array<vec2f>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<vec2f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul c64 t64: matmul → matmul_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec2f>;
@group(0) @binding(1) var<storage, read> B: array<vec2f>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<vec2f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul c64 t32: matmul → matmul_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec2f>;
@group(0) @binding(1) var<storage, read> B: array<vec2f>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<vec2f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul_small float32: matmul → matmul_small_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- matmul_small complex64: matmul → matmul_small_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  aMapped: u32,
  bMapped: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec2f>;
@group(0) @binding(1) var<storage, read> B: array<vec2f>;
@group(0) @binding(2) var<storage, read> aIdx: array<u32>;
@group(0) @binding(3) var<storage, read> bIdx: array<u32>;
@group(0) @binding(4) var<storage, read_write> C: array<vec2f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- gemm f32 t128 vec4: gemm → gemm_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  offA: u32,
  lda: u32,
  sA: u32,
  offB: u32,
  ldb: u32,
  sB: u32,
  offC: u32,
  ldc: u32,
  sC: u32,
  alpha: f32,
  beta: f32,
  cjA: vec2f,
  cjB: vec2f,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> C: array<vec4f>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- gemm f32 t128 scalar, op T/T: gemm → gemm_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  offA: u32,
  lda: u32,
  sA: u32,
  offB: u32,
  ldb: u32,
  sB: u32,
  offC: u32,
  ldc: u32,
  sC: u32,
  alpha: f32,
  beta: f32,
  cjA: vec2f,
  cjB: vec2f,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read_write> C: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- gemm f32 t64 A, B in C (vec4): gemm → gemm_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  offA: u32,
  lda: u32,
  sA: u32,
  offB: u32,
  ldb: u32,
  sB: u32,
  offC: u32,
  ldc: u32,
  sC: u32,
  alpha: f32,
  beta: f32,
  cjA: vec2f,
  cjB: vec2f,
}
@group(0) @binding(0) var<storage, read_write> C: array<vec4f>;
@group(0) @binding(1) var<uniform> p: Params;

// ---- gemm f32 t32 A in C (scalar), maps: gemm → gemm_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  offA: u32,
  lda: u32,
  sA: u32,
  offB: u32,
  ldb: u32,
  sB: u32,
  offC: u32,
  ldc: u32,
  sC: u32,
  alpha: f32,
  beta: f32,
  cjA: vec2f,
  cjB: vec2f,
}
@group(0) @binding(0) var<storage, read> B: array<f32>;
@group(0) @binding(1) var<storage, read> aIdx: array<u32>;
@group(0) @binding(2) var<storage, read> bIdx: array<u32>;
@group(0) @binding(3) var<storage, read_write> C: array<f32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- gemm c64 t64r8: gemm → gemm_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  offA: u32,
  lda: u32,
  sA: u32,
  offB: u32,
  ldb: u32,
  sB: u32,
  offC: u32,
  ldc: u32,
  sC: u32,
  alpha: f32,
  beta: f32,
  cjA: vec2f,
  cjB: vec2f,
}
@group(0) @binding(0) var<storage, read> A: array<vec2f>;
@group(0) @binding(1) var<storage, read> B: array<vec2f>;
@group(0) @binding(2) var<storage, read_write> C: array<vec2f>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- gemm c64 t32 A, B in C: gemm → gemm_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  M: u32,
  N: u32,
  K: u32,
  total: u32,
  tilesN: u32,
  tilesPerMat: u32,
  offA: u32,
  lda: u32,
  sA: u32,
  offB: u32,
  ldb: u32,
  sB: u32,
  offC: u32,
  ldc: u32,
  sC: u32,
  alpha: f32,
  beta: f32,
  cjA: vec2f,
  cjB: vec2f,
}
@group(0) @binding(0) var<storage, read_write> C: array<vec2f>;
@group(0) @binding(1) var<uniform> p: Params;

// ---- inv_small float32 n=1: inv_small → inv_small_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> info: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- inv_small float32 n=2: inv_small → inv_small_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> info: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- inv_small float32 n=2 direct: inv_small → inv_small_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> X: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> info: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- inv_small float32 n=3: inv_small → inv_small_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> info: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- inv_small float32 n=4: inv_small → inv_small_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> info: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- inv_small float32 n=4 direct: inv_small → inv_small_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> X: array<vec4f>;
@group(0) @binding(2) var<storage, read_write> info: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- inv_small complex64 n=1: inv_small → inv_small_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> info: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- inv_small complex64 n=2: inv_small → inv_small_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> info: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- inv_small complex64 n=3: inv_small → inv_small_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> info: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- inv_small complex64 n=4: inv_small → inv_small_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> info: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- lu FACTOR float32 n=9: lu_factor → lu_factor_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> LU: array<f32>;
@group(0) @binding(2) var<storage, read_write> PIV: array<i32>;
@group(0) @binding(3) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu FACTOR float32 n=64 A_GLOBAL: lu_factor → lu_factor_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> LU: array<f32>;
@group(0) @binding(2) var<storage, read_write> PIV: array<i32>;
@group(0) @binding(3) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu FACTOR complex64 n=9: lu_factor → lu_factor_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> LU: array<f32>;
@group(0) @binding(2) var<storage, read_write> PIV: array<i32>;
@group(0) @binding(3) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu FACTOR complex64 n=64 A_GLOBAL: lu_factor → lu_factor_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> LU: array<f32>;
@group(0) @binding(2) var<storage, read_write> PIV: array<i32>;
@group(0) @binding(3) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu SOLVE float32 n=9: lu_solve_fused → lu_solve_fused_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> bmap: array<i32>;
@group(0) @binding(3) var<storage, read_write> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(5) var<storage, read_write> W: array<f32>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- lu SOLVE float32 n=64 A_GLOBAL: lu_solve_fused → lu_solve_fused_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> bmap: array<i32>;
@group(0) @binding(3) var<storage, read_write> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(5) var<storage, read_write> W: array<f32>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- lu SOLVE complex64 n=9: lu_solve_fused → lu_solve_fused_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> bmap: array<i32>;
@group(0) @binding(3) var<storage, read_write> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(5) var<storage, read_write> W: array<f32>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- lu SOLVE complex64 n=64 A_GLOBAL: lu_solve_fused → lu_solve_fused_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> bmap: array<i32>;
@group(0) @binding(3) var<storage, read_write> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(5) var<storage, read_write> W: array<f32>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- lu INV float32 n=9: lu_inv → lu_inv_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(3) var<storage, read_write> W: array<f32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu INV float32 n=64 A_GLOBAL: lu_inv → lu_inv_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(3) var<storage, read_write> W: array<f32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu INV complex64 n=9: lu_inv → lu_inv_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(3) var<storage, read_write> W: array<f32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu INV complex64 n=64 A_GLOBAL: lu_inv → lu_inv_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(3) var<storage, read_write> W: array<f32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu LUSOLVE float32 n=9: lu_solve → lu_solve_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> PIVIN: array<i32>;
@group(0) @binding(2) var<storage, read> B: array<f32>;
@group(0) @binding(3) var<storage, read> amap: array<i32>;
@group(0) @binding(4) var<storage, read> bmap: array<i32>;
@group(0) @binding(5) var<storage, read_write> X: array<f32>;
@group(0) @binding(6) var<storage, read_write> W: array<f32>;
@group(0) @binding(7) var<storage, read_write> STATUS: array<i32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- lu LUSOLVE float32 n=64 A_GLOBAL: lu_solve → lu_solve_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> PIVIN: array<i32>;
@group(0) @binding(2) var<storage, read> B: array<f32>;
@group(0) @binding(3) var<storage, read> amap: array<i32>;
@group(0) @binding(4) var<storage, read> bmap: array<i32>;
@group(0) @binding(5) var<storage, read_write> X: array<f32>;
@group(0) @binding(6) var<storage, read_write> W: array<f32>;
@group(0) @binding(7) var<storage, read_write> STATUS: array<i32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- lu LUSOLVE complex64 n=9: lu_solve → lu_solve_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> PIVIN: array<i32>;
@group(0) @binding(2) var<storage, read> B: array<f32>;
@group(0) @binding(3) var<storage, read> amap: array<i32>;
@group(0) @binding(4) var<storage, read> bmap: array<i32>;
@group(0) @binding(5) var<storage, read_write> X: array<f32>;
@group(0) @binding(6) var<storage, read_write> W: array<f32>;
@group(0) @binding(7) var<storage, read_write> STATUS: array<i32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- lu LUSOLVE complex64 n=64 A_GLOBAL: lu_solve → lu_solve_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  adjoint: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> PIVIN: array<i32>;
@group(0) @binding(2) var<storage, read> B: array<f32>;
@group(0) @binding(3) var<storage, read> amap: array<i32>;
@group(0) @binding(4) var<storage, read> bmap: array<i32>;
@group(0) @binding(5) var<storage, read_write> X: array<f32>;
@group(0) @binding(6) var<storage, read_write> W: array<f32>;
@group(0) @binding(7) var<storage, read_write> STATUS: array<i32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- lu_reg FACTOR n=5: lu_reg_factor → lu_reg_factor_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  use_b: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> LU: array<f32>;
@group(0) @binding(2) var<storage, read_write> PIV: array<i32>;
@group(0) @binding(3) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu_reg FACTOR n=16: lu_reg_factor → lu_reg_factor_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  use_b: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> LU: array<f32>;
@group(0) @binding(2) var<storage, read_write> PIV: array<i32>;
@group(0) @binding(3) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu_reg FACTOR n=32: lu_reg_factor → lu_reg_factor_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  use_b: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> LU: array<f32>;
@group(0) @binding(2) var<storage, read_write> PIV: array<i32>;
@group(0) @binding(3) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu_reg SOLVE n=5: lu_reg_solve → lu_reg_solve_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  use_b: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> bmap: array<i32>;
@group(0) @binding(3) var<storage, read_write> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- lu_reg SOLVE n=16: lu_reg_solve → lu_reg_solve_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  use_b: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> bmap: array<i32>;
@group(0) @binding(3) var<storage, read_write> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- lu_reg SOLVE n=32: lu_reg_solve → lu_reg_solve_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  use_b: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> bmap: array<i32>;
@group(0) @binding(3) var<storage, read_write> X: array<f32>;
@group(0) @binding(4) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- lu_reg INV n=5: lu_reg_inv → lu_reg_inv_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  use_b: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- lu_reg INV n=16: lu_reg_inv → lu_reg_inv_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  use_b: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- lu_reg INV n=32: lu_reg_inv → lu_reg_inv_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  use_b: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> X: array<f32>;
@group(0) @binding(2) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- gather i32: gather_i32 → gather_i32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> src: array<i32>;
@group(0) @binding(1) var<storage, read> map: array<i32>;
@group(0) @binding(2) var<storage, read_write> dst: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- lu_panel float32 leaf in A: lu_panel → lu_panel_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  batch: u32,
  m: u32,
  n: u32,
  mn: u32,
  c: u32,
  w: u32,
  pc0: u32,
  pw: u32,
  first: u32,
  rw: u32,
}
@group(0) @binding(0) var<storage, read_write> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> PIV: array<i32>;
@group(0) @binding(2) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(3) var<storage, read_write> ROWID: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu_panel float32 leaf in registers: lu_panel → lu_panel_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  batch: u32,
  m: u32,
  n: u32,
  mn: u32,
  c: u32,
  w: u32,
  pc0: u32,
  pw: u32,
  first: u32,
  rw: u32,
}
@group(0) @binding(0) var<storage, read_write> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> PIV: array<i32>;
@group(0) @binding(2) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(3) var<storage, read_write> ROWID: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu_panel float32 left-looking, leaf in registers: lu_panel → lu_panel_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  batch: u32,
  m: u32,
  n: u32,
  mn: u32,
  c: u32,
  w: u32,
  pc0: u32,
  pw: u32,
  first: u32,
  rw: u32,
}
@group(0) @binding(0) var<storage, read_write> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> PIV: array<i32>;
@group(0) @binding(2) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(3) var<storage, read_write> ROWID: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu_panel float32 left-looking, leaf in A: lu_panel → lu_panel_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  batch: u32,
  m: u32,
  n: u32,
  mn: u32,
  c: u32,
  w: u32,
  pc0: u32,
  pw: u32,
  first: u32,
  rw: u32,
}
@group(0) @binding(0) var<storage, read_write> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> PIV: array<i32>;
@group(0) @binding(2) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(3) var<storage, read_write> ROWID: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- laswp gather float32: laswp → laswp_gather_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  batch: u32,
  m: u32,
  n: u32,
  mn: u32,
  j: u32,
  jb: u32,
  ncols: u32,
  split: u32,
  gap: u32,
  tiles: u32,
  solve: u32,
}
@group(0) @binding(0) var<storage, read> PIV: array<i32>;
@group(0) @binding(1) var<storage, read> ROWID: array<i32>;
@group(0) @binding(2) var<storage, read_write> A: array<f32>;
@group(0) @binding(3) var<storage, read_write> S: array<f32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- laswp seq float32: laswp → laswp_seq_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  batch: u32,
  ld: u32,
  offset: u32,
  stride: u32,
  ncols: u32,
  piv_stride: u32,
  k0: u32,
  k1: u32,
  reverse: u32,
  tiles: u32,
}
@group(0) @binding(0) var<storage, read> PIV: array<i32>;
@group(0) @binding(1) var<storage, read_write> B: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- lu_trsm float32: lu_trsm → lu_trsm_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  batch: u32,
  m: u32,
  n: u32,
  r: u32,
  nl: u32,
  cb: u32,
  ncols: u32,
  tiles: u32,
}
@group(0) @binding(0) var<storage, read_write> A: array<f32>;
@group(0) @binding(1) var<uniform> p: Params;

// ---- lu_panel complex64 leaf in A: lu_panel → lu_panel_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  batch: u32,
  m: u32,
  n: u32,
  mn: u32,
  c: u32,
  w: u32,
  pc0: u32,
  pw: u32,
  first: u32,
  rw: u32,
}
@group(0) @binding(0) var<storage, read_write> A: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> PIV: array<i32>;
@group(0) @binding(2) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(3) var<storage, read_write> ROWID: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu_panel complex64 leaf in registers: lu_panel → lu_panel_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  batch: u32,
  m: u32,
  n: u32,
  mn: u32,
  c: u32,
  w: u32,
  pc0: u32,
  pw: u32,
  first: u32,
  rw: u32,
}
@group(0) @binding(0) var<storage, read_write> A: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> PIV: array<i32>;
@group(0) @binding(2) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(3) var<storage, read_write> ROWID: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu_panel complex64 left-looking, leaf in registers: lu_panel → lu_panel_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  batch: u32,
  m: u32,
  n: u32,
  mn: u32,
  c: u32,
  w: u32,
  pc0: u32,
  pw: u32,
  first: u32,
  rw: u32,
}
@group(0) @binding(0) var<storage, read_write> A: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> PIV: array<i32>;
@group(0) @binding(2) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(3) var<storage, read_write> ROWID: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu_panel complex64 left-looking, leaf in A: lu_panel → lu_panel_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  batch: u32,
  m: u32,
  n: u32,
  mn: u32,
  c: u32,
  w: u32,
  pc0: u32,
  pw: u32,
  first: u32,
  rw: u32,
}
@group(0) @binding(0) var<storage, read_write> A: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> PIV: array<i32>;
@group(0) @binding(2) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(3) var<storage, read_write> ROWID: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- laswp gather complex64: laswp → laswp_gather_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  batch: u32,
  m: u32,
  n: u32,
  mn: u32,
  j: u32,
  jb: u32,
  ncols: u32,
  split: u32,
  gap: u32,
  tiles: u32,
  solve: u32,
}
@group(0) @binding(0) var<storage, read> PIV: array<i32>;
@group(0) @binding(1) var<storage, read> ROWID: array<i32>;
@group(0) @binding(2) var<storage, read_write> A: array<vec2f>;
@group(0) @binding(3) var<storage, read_write> S: array<vec2f>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- laswp seq complex64: laswp → laswp_seq_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  batch: u32,
  ld: u32,
  offset: u32,
  stride: u32,
  ncols: u32,
  piv_stride: u32,
  k0: u32,
  k1: u32,
  reverse: u32,
  tiles: u32,
}
@group(0) @binding(0) var<storage, read> PIV: array<i32>;
@group(0) @binding(1) var<storage, read_write> B: array<vec2f>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- lu_trsm complex64: lu_trsm → lu_trsm_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  batch: u32,
  m: u32,
  n: u32,
  r: u32,
  nl: u32,
  cb: u32,
  ncols: u32,
  tiles: u32,
}
@group(0) @binding(0) var<storage, read_write> A: array<vec2f>;
@group(0) @binding(1) var<uniform> p: Params;

// ---- lu_status INIT: lu_status → lu_status_init
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  per: u32,
}
@group(0) @binding(0) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(1) var<uniform> p: Params;

// ---- lu_status FLAG: lu_status → lu_status_flag
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  per: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> INFO: array<i32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- lu_status FINISH: lu_status → lu_status_finish
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  per: u32,
}
@group(0) @binding(0) var<storage, read> INFO: array<i32>;
@group(0) @binding(1) var<storage, read_write> A: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- trsm float32: trsm → trsm_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  n: u32,
  upper: u32,
  unit: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> amap: array<i32>;
@group(0) @binding(3) var<storage, read> bmap: array<i32>;
@group(0) @binding(4) var<storage, read_write> X: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- trsm_diag float32: trsm_diag → trsm_diag_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  n: u32,
  nrhs: u32,
  use_a: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> amap: array<i32>;
@group(0) @binding(2) var<storage, read_write> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> info: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- trsm_blocked float32: trsm_blocked → trsm_blocked_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  per: u32,
  nct: u32,
  nrt: u32,
  blk: u32,
  fin: u32,
  n: u32,
  nrhs: u32,
  r0: u32,
  r1: u32,
  aoff: u32,
  ars: u32,
  acs: u32,
  astr: u32,
  boff: u32,
  bld: u32,
  bstr: u32,
  conj: u32,
  unit: u32,
  lower: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> B: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- trsm_blocked float32 A in B's buffer: trsm_blocked → trsm_blocked_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  per: u32,
  nct: u32,
  nrt: u32,
  blk: u32,
  fin: u32,
  n: u32,
  nrhs: u32,
  r0: u32,
  r1: u32,
  aoff: u32,
  ars: u32,
  acs: u32,
  astr: u32,
  boff: u32,
  bld: u32,
  bstr: u32,
  conj: u32,
  unit: u32,
  lower: u32,
}
@group(0) @binding(0) var<storage, read_write> B: array<f32>;
@group(0) @binding(1) var<uniform> p: Params;

// ---- trsm_step float32: trsm_step → trsm_step_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  per: u32,
  nct: u32,
  nrt: u32,
  sblk: u32,
  ublk: u32,
  n: u32,
  nrhs: u32,
  r0: u32,
  r1: u32,
  aoff: u32,
  ars: u32,
  acs: u32,
  astr: u32,
  boff: u32,
  bld: u32,
  bstr: u32,
  conj: u32,
  unit: u32,
  lower: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> B: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- trsm_step float32 A in B's buffer: trsm_step → trsm_step_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  per: u32,
  nct: u32,
  nrt: u32,
  sblk: u32,
  ublk: u32,
  n: u32,
  nrhs: u32,
  r0: u32,
  r1: u32,
  aoff: u32,
  ars: u32,
  acs: u32,
  astr: u32,
  boff: u32,
  bld: u32,
  bstr: u32,
  conj: u32,
  unit: u32,
  lower: u32,
}
@group(0) @binding(0) var<storage, read_write> B: array<f32>;
@group(0) @binding(1) var<uniform> p: Params;

// ---- trsm complex64: trsm → trsm_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  n: u32,
  upper: u32,
  unit: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> amap: array<i32>;
@group(0) @binding(3) var<storage, read> bmap: array<i32>;
@group(0) @binding(4) var<storage, read_write> X: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- trsm_diag complex64: trsm_diag → trsm_diag_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  n: u32,
  nrhs: u32,
  use_a: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> amap: array<i32>;
@group(0) @binding(2) var<storage, read_write> X: array<f32>;
@group(0) @binding(3) var<storage, read_write> info: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- trsm_blocked complex64: trsm_blocked → trsm_blocked_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  per: u32,
  nct: u32,
  nrt: u32,
  blk: u32,
  fin: u32,
  n: u32,
  nrhs: u32,
  r0: u32,
  r1: u32,
  aoff: u32,
  ars: u32,
  acs: u32,
  astr: u32,
  boff: u32,
  bld: u32,
  bstr: u32,
  conj: u32,
  unit: u32,
  lower: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> B: array<vec2f>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- trsm_blocked complex64 A in B's buffer: trsm_blocked → trsm_blocked_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  per: u32,
  nct: u32,
  nrt: u32,
  blk: u32,
  fin: u32,
  n: u32,
  nrhs: u32,
  r0: u32,
  r1: u32,
  aoff: u32,
  ars: u32,
  acs: u32,
  astr: u32,
  boff: u32,
  bld: u32,
  bstr: u32,
  conj: u32,
  unit: u32,
  lower: u32,
}
@group(0) @binding(0) var<storage, read_write> B: array<vec2f>;
@group(0) @binding(1) var<uniform> p: Params;

// ---- trsm_step complex64: trsm_step → trsm_step_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  per: u32,
  nct: u32,
  nrt: u32,
  sblk: u32,
  ublk: u32,
  n: u32,
  nrhs: u32,
  r0: u32,
  r1: u32,
  aoff: u32,
  ars: u32,
  acs: u32,
  astr: u32,
  boff: u32,
  bld: u32,
  bstr: u32,
  conj: u32,
  unit: u32,
  lower: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> B: array<vec2f>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- trsm_step complex64 A in B's buffer: trsm_step → trsm_step_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  per: u32,
  nct: u32,
  nrt: u32,
  sblk: u32,
  ublk: u32,
  n: u32,
  nrhs: u32,
  r0: u32,
  r1: u32,
  aoff: u32,
  ars: u32,
  acs: u32,
  astr: u32,
  boff: u32,
  bld: u32,
  bstr: u32,
  conj: u32,
  unit: u32,
  lower: u32,
}
@group(0) @binding(0) var<storage, read_write> B: array<vec2f>;
@group(0) @binding(1) var<uniform> p: Params;

// ---- trsm_copy: trsm_copy → trsm_copy_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  len: u32,
}
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read> map: array<i32>;
@group(0) @binding(2) var<storage, read_write> dst: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- trsm_unit_lower n=16: trsm_unit_lower → trsm_unit_lower_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  cblocks: u32,
  tasks: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> amap: array<i32>;
@group(0) @binding(3) var<storage, read> bmap: array<i32>;
@group(0) @binding(4) var<storage, read_write> X: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- trsm_unit_lower_v4 n=16: trsm_unit_lower_v4 → trsm_unit_lower_v4_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  cv: u32,
  tasks: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<vec4f>;
@group(0) @binding(2) var<storage, read> amap: array<i32>;
@group(0) @binding(3) var<storage, read> bmap: array<i32>;
@group(0) @binding(4) var<storage, read_write> X: array<vec4f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- trsm_unit_lower n=32: trsm_unit_lower → trsm_unit_lower_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  cblocks: u32,
  tasks: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> amap: array<i32>;
@group(0) @binding(3) var<storage, read> bmap: array<i32>;
@group(0) @binding(4) var<storage, read_write> X: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- trsm_unit_lower_v4 n=32: trsm_unit_lower_v4 → trsm_unit_lower_v4_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  cv: u32,
  tasks: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<vec4f>;
@group(0) @binding(2) var<storage, read> amap: array<i32>;
@group(0) @binding(3) var<storage, read> bmap: array<i32>;
@group(0) @binding(4) var<storage, read_write> X: array<vec4f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- trsm_unit_lower n=64: trsm_unit_lower → trsm_unit_lower_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  cblocks: u32,
  tasks: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> amap: array<i32>;
@group(0) @binding(3) var<storage, read> bmap: array<i32>;
@group(0) @binding(4) var<storage, read_write> X: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- trsm_unit_lower_v4 n=64: trsm_unit_lower_v4 → trsm_unit_lower_v4_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nrhs: u32,
  use_a: u32,
  use_b: u32,
  cv: u32,
  tasks: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read> B: array<vec4f>;
@group(0) @binding(2) var<storage, read> amap: array<i32>;
@group(0) @binding(3) var<storage, read> bmap: array<i32>;
@group(0) @binding(4) var<storage, read_write> X: array<vec4f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- special frexp: special.frexp → frexp_bits_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read_write> mant: array<u32>;
@group(0) @binding(2) var<storage, read_write> expo: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- special heaviside same: special.heaviside → heaviside_same_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  ndim: u32,
  dims0: vec4u,
  dims1: vec4u,
  sa0: vec4u,
  sa1: vec4u,
  sb0: vec4u,
  sb1: vec4u,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read> v: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- special laguerre same: special.laguerre → laguerre_same_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  ndim: u32,
  dims0: vec4u,
  dims1: vec4u,
  sa0: vec4u,
  sa1: vec4u,
  sb0: vec4u,
  sb1: vec4u,
}
@group(0) @binding(0) var<storage, read> xs: array<f32>;
@group(0) @binding(1) var<storage, read> ns: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- special heaviside splat_a: special.heaviside → heaviside_splat_a_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  ndim: u32,
  dims0: vec4u,
  dims1: vec4u,
  sa0: vec4u,
  sa1: vec4u,
  sb0: vec4u,
  sb1: vec4u,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read> v: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- special laguerre splat_a: special.laguerre → laguerre_splat_a_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  ndim: u32,
  dims0: vec4u,
  dims1: vec4u,
  sa0: vec4u,
  sa1: vec4u,
  sb0: vec4u,
  sb1: vec4u,
}
@group(0) @binding(0) var<storage, read> xs: array<f32>;
@group(0) @binding(1) var<storage, read> ns: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- special heaviside splat_b: special.heaviside → heaviside_splat_b_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  ndim: u32,
  dims0: vec4u,
  dims1: vec4u,
  sa0: vec4u,
  sa1: vec4u,
  sb0: vec4u,
  sb1: vec4u,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read> v: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- special laguerre splat_b: special.laguerre → laguerre_splat_b_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  ndim: u32,
  dims0: vec4u,
  dims1: vec4u,
  sa0: vec4u,
  sa1: vec4u,
  sb0: vec4u,
  sb1: vec4u,
}
@group(0) @binding(0) var<storage, read> xs: array<f32>;
@group(0) @binding(1) var<storage, read> ns: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- special heaviside strided: special.heaviside → heaviside_strided_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  ndim: u32,
  dims0: vec4u,
  dims1: vec4u,
  sa0: vec4u,
  sa1: vec4u,
  sb0: vec4u,
  sb1: vec4u,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read> v: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- special laguerre strided: special.laguerre → laguerre_strided_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  ndim: u32,
  dims0: vec4u,
  dims1: vec4u,
  sa0: vec4u,
  sa1: vec4u,
  sb0: vec4u,
  sb1: vec4u,
}
@group(0) @binding(0) var<storage, read> xs: array<f32>;
@group(0) @binding(1) var<storage, read> ns: array<f32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- special logspace: special.logspace → logspace_torch_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  half: u32,
  first: u32,
  last: u32,
  start: f32,
  end: f32,
  step: f32,
  l1: f32,
  l2: f32,
  l3: f32,
}
@group(0) @binding(0) var<storage, read_write> out: array<u32>;
@group(0) @binding(1) var<uniform> p: Params;

// ---- qr_panel float32 nc=32 wg=1024: qr_panel → qr_panel_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  m: u32,
  ld: u32,
  fstride: u32,
  j0: u32,
  kb: u32,
  vbase: u32,
  vstride: u32,
  tbase: u32,
  tstride: u32,
  tld: u32,
}
@group(0) @binding(0) var<storage, read_write> F: array<f32>;
@group(0) @binding(1) var<storage, read_write> V: array<f32>;
@group(0) @binding(2) var<storage, read_write> Tm: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- qr_copy float32: qr_copy → qr_copy_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  m: u32,
  n: u32,
  ld: u32,
  fstride: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> F: array<f32>;
@group(0) @binding(2) var<storage, read_write> flag: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- qr_finish float32 F in Q: qr_finish → qr_finish_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  m: u32,
  n: u32,
  cols: u32,
  rr: u32,
  k: u32,
  qc: u32,
  ld: u32,
  fstride: u32,
  want_q: u32,
}
@group(0) @binding(0) var<storage, read> flag: array<u32>;
@group(0) @binding(1) var<storage, read_write> R: array<f32>;
@group(0) @binding(2) var<storage, read_write> Q: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- qr_finish float32 F apart: qr_finish → qr_finish_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  m: u32,
  n: u32,
  cols: u32,
  rr: u32,
  k: u32,
  qc: u32,
  ld: u32,
  fstride: u32,
  want_q: u32,
}
@group(0) @binding(0) var<storage, read> F: array<f32>;
@group(0) @binding(1) var<storage, read> flag: array<u32>;
@group(0) @binding(2) var<storage, read_write> R: array<f32>;
@group(0) @binding(3) var<storage, read_write> Q: array<f32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- qr_tw float32 nb=32: qr_tw → qr_tw_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  tiles: u32,
  cols: u32,
  kb: u32,
  chunks: u32,
  pld: u32,
  pchunk: u32,
  pmember: u32,
  row0: u32,
  rem: u32,
  voff: u32,
  vstride: u32,
  coff: u32,
  cld: u32,
  cstride: u32,
  toff: u32,
  tld: u32,
  tstride: u32,
  adjoint: u32,
  wld: u32,
  wstride: u32,
}
@group(0) @binding(0) var<storage, read> P: array<f32>;
@group(0) @binding(1) var<storage, read> V: array<f32>;
@group(0) @binding(2) var<storage, read> C: array<f32>;
@group(0) @binding(3) var<storage, read> Tm: array<f32>;
@group(0) @binding(4) var<storage, read_write> W: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- qr_panel complex64 nc=32 wg=1024: qr_panel → qr_panel_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  m: u32,
  ld: u32,
  fstride: u32,
  j0: u32,
  kb: u32,
  vbase: u32,
  vstride: u32,
  tbase: u32,
  tstride: u32,
  tld: u32,
}
@group(0) @binding(0) var<storage, read_write> F: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> V: array<vec2f>;
@group(0) @binding(2) var<storage, read_write> Tm: array<vec2f>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- qr_copy complex64: qr_copy → qr_copy_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  m: u32,
  n: u32,
  ld: u32,
  fstride: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> F: array<vec2f>;
@group(0) @binding(2) var<storage, read_write> flag: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- qr_finish complex64 F in Q: qr_finish → qr_finish_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  m: u32,
  n: u32,
  cols: u32,
  rr: u32,
  k: u32,
  qc: u32,
  ld: u32,
  fstride: u32,
  want_q: u32,
}
@group(0) @binding(0) var<storage, read> flag: array<u32>;
@group(0) @binding(1) var<storage, read_write> R: array<vec2f>;
@group(0) @binding(2) var<storage, read_write> Q: array<vec2f>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- qr_finish complex64 F apart: qr_finish → qr_finish_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  m: u32,
  n: u32,
  cols: u32,
  rr: u32,
  k: u32,
  qc: u32,
  ld: u32,
  fstride: u32,
  want_q: u32,
}
@group(0) @binding(0) var<storage, read> F: array<vec2f>;
@group(0) @binding(1) var<storage, read> flag: array<u32>;
@group(0) @binding(2) var<storage, read_write> R: array<vec2f>;
@group(0) @binding(3) var<storage, read_write> Q: array<vec2f>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- qr_tw complex64 nb=32: qr_tw → qr_tw_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  tiles: u32,
  cols: u32,
  kb: u32,
  chunks: u32,
  pld: u32,
  pchunk: u32,
  pmember: u32,
  row0: u32,
  rem: u32,
  voff: u32,
  vstride: u32,
  coff: u32,
  cld: u32,
  cstride: u32,
  toff: u32,
  tld: u32,
  tstride: u32,
  adjoint: u32,
  wld: u32,
  wstride: u32,
}
@group(0) @binding(0) var<storage, read> P: array<vec2f>;
@group(0) @binding(1) var<storage, read> V: array<vec2f>;
@group(0) @binding(2) var<storage, read> C: array<vec2f>;
@group(0) @binding(3) var<storage, read> Tm: array<vec2f>;
@group(0) @binding(4) var<storage, read_write> W: array<vec2f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- svd scale svd.scale.max: svd.scale.max → scale_max_u32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  words: u32,
  chunks: u32,
}
@group(0) @binding(0) var<storage, read> A: array<u32>;
@group(0) @binding(1) var<storage, read_write> part: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- svd scale svd.scale.apply: svd.scale.apply → scale_apply_u32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  words: u32,
  chunks: u32,
}
@group(0) @binding(0) var<storage, read> A: array<u32>;
@group(0) @binding(1) var<storage, read> part: array<u32>;
@group(0) @binding(2) var<storage, read_write> t: array<u32>;
@group(0) @binding(3) var<storage, read_write> exps: array<i32>;
@group(0) @binding(4) var<storage, read_write> info: array<i32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- svd scale svd.scale.ldexp: svd.scale.ldexp → ldexp_u32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  group: u32,
  sign: i32,
  has_info: u32,
}
@group(0) @binding(0) var<storage, read> X: array<u32>;
@group(0) @binding(1) var<storage, read> exps: array<i32>;
@group(0) @binding(2) var<storage, read> info: array<i32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- svd_small float32 8×8: svd_small → svd_small_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  m: u32,
  n: u32,
  ncols: u32,
  np: u32,
  tol: f32,
  uv: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> S: array<f32>;
@group(0) @binding(2) var<storage, read_write> U: array<f32>;
@group(0) @binding(3) var<storage, read_write> Vh: array<f32>;
@group(0) @binding(4) var<storage, read_write> info: array<i32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- svd_small complex64 16×16: svd_small → svd_small_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  m: u32,
  n: u32,
  ncols: u32,
  np: u32,
  tol: f32,
  uv: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> S: array<f32>;
@group(0) @binding(2) var<storage, read_write> U: array<vec2f>;
@group(0) @binding(3) var<storage, read_write> Vh: array<vec2f>;
@group(0) @binding(4) var<storage, read_write> info: array<i32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- svd_small float32 32×32: svd_small → svd_small_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  m: u32,
  n: u32,
  ncols: u32,
  np: u32,
  tol: f32,
  uv: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> S: array<f32>;
@group(0) @binding(2) var<storage, read_write> U: array<f32>;
@group(0) @binding(3) var<storage, read_write> Vh: array<f32>;
@group(0) @binding(4) var<storage, read_write> info: array<i32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- svd finalize svd.norms float32|wg64: svd.norms → svd_norms_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  n: u32,
  rows: u32,
  tiles: u32,
}
@group(0) @binding(0) var<storage, read> Y: array<f32>;
@group(0) @binding(1) var<storage, read_write> col: array<vec2u>;
@group(0) @binding(2) var<storage, read_write> sig: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- svd finalize svd.vh float32|wg256: svd.vh → svd_vh_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  n: u32,
  tiles: u32,
  has_w: u32,
  mstride: u32,
  coff: u32,
}
@group(0) @binding(0) var<storage, read> Y: array<f32>;
@group(0) @binding(1) var<storage, read> W: array<f32>;
@group(0) @binding(2) var<storage, read> col: array<vec2u>;
@group(0) @binding(3) var<storage, read> perm: array<i32>;
@group(0) @binding(4) var<storage, read> info: array<i32>;
@group(0) @binding(5) var<storage, read> cinv: array<i32>;
@group(0) @binding(6) var<storage, read_write> Vh: array<f32>;
@group(0) @binding(7) var<storage, read_write> Wp: array<f32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- svd finalize svd.complete float32|wg256: svd.complete → svd_complete_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  n: u32,
}
@group(0) @binding(0) var<storage, read> sig: array<f32>;
@group(0) @binding(1) var<storage, read> info: array<i32>;
@group(0) @binding(2) var<storage, read_write> Vh: array<f32>;
@group(0) @binding(3) var<storage, read_write> rn: array<f32>;
@group(0) @binding(4) var<storage, read_write> h: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- svd finalize svd.gather float32|wg64: svd.gather → svd_gather_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  rows: u32,
  cols: u32,
  ld: u32,
  sstride: u32,
  ld2: u32,
  s2stride: u32,
  c0: u32,
  mstride: u32,
  rmap_off: u32,
  cmap_off: u32,
  has_rmap: u32,
  has_cmap: u32,
  trans: u32,
  conj: u32,
  use_info: u32,
}
@group(0) @binding(0) var<storage, read> src: array<f32>;
@group(0) @binding(1) var<storage, read> src2: array<f32>;
@group(0) @binding(2) var<storage, read> rmap: array<i32>;
@group(0) @binding(3) var<storage, read> cmap: array<i32>;
@group(0) @binding(4) var<storage, read> info: array<i32>;
@group(0) @binding(5) var<storage, read_write> out: array<f32>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- svd finalize svd.norms complex64|wg64: svd.norms → svd_norms_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  n: u32,
  rows: u32,
  tiles: u32,
}
@group(0) @binding(0) var<storage, read> Y: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> col: array<vec2u>;
@group(0) @binding(2) var<storage, read_write> sig: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- svd finalize svd.vh complex64|wg256: svd.vh → svd_vh_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  n: u32,
  tiles: u32,
  has_w: u32,
  mstride: u32,
  coff: u32,
}
@group(0) @binding(0) var<storage, read> Y: array<vec2f>;
@group(0) @binding(1) var<storage, read> W: array<vec2f>;
@group(0) @binding(2) var<storage, read> col: array<vec2u>;
@group(0) @binding(3) var<storage, read> perm: array<i32>;
@group(0) @binding(4) var<storage, read> info: array<i32>;
@group(0) @binding(5) var<storage, read> cinv: array<i32>;
@group(0) @binding(6) var<storage, read_write> Vh: array<vec2f>;
@group(0) @binding(7) var<storage, read_write> Wp: array<vec2f>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- svd finalize svd.complete complex64|wg256: svd.complete → svd_complete_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  n: u32,
}
@group(0) @binding(0) var<storage, read> sig: array<f32>;
@group(0) @binding(1) var<storage, read> info: array<i32>;
@group(0) @binding(2) var<storage, read_write> Vh: array<vec2f>;
@group(0) @binding(3) var<storage, read_write> rn: array<f32>;
@group(0) @binding(4) var<storage, read_write> h: array<vec2f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- svd finalize svd.gather complex64|wg64: svd.gather → svd_gather_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  rows: u32,
  cols: u32,
  ld: u32,
  sstride: u32,
  ld2: u32,
  s2stride: u32,
  c0: u32,
  mstride: u32,
  rmap_off: u32,
  cmap_off: u32,
  has_rmap: u32,
  has_cmap: u32,
  trans: u32,
  conj: u32,
  use_info: u32,
}
@group(0) @binding(0) var<storage, read> src: array<vec2f>;
@group(0) @binding(1) var<storage, read> src2: array<vec2f>;
@group(0) @binding(2) var<storage, read> rmap: array<i32>;
@group(0) @binding(3) var<storage, read> cmap: array<i32>;
@group(0) @binding(4) var<storage, read> info: array<i32>;
@group(0) @binding(5) var<storage, read_write> out: array<vec2f>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- svd finalize svd.sort wg64: svd.sort → svd_sort_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  n: u32,
  tiles: u32,
  has_jinfo: u32,
}
@group(0) @binding(0) var<storage, read> sig: array<f32>;
@group(0) @binding(1) var<storage, read> col: array<vec2u>;
@group(0) @binding(2) var<storage, read> exps: array<i32>;
@group(0) @binding(3) var<storage, read> sinfo: array<i32>;
@group(0) @binding(4) var<storage, read> jinfo: array<i32>;
@group(0) @binding(5) var<storage, read_write> perm: array<i32>;
@group(0) @binding(6) var<storage, read_write> S: array<f32>;
@group(0) @binding(7) var<storage, read_write> info: array<i32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- svd finalize svd.keys wg64: svd.keys → svd_keys_u32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  m: u32,
  n: u32,
  fp: u32,
  tiles: u32,
}
@group(0) @binding(0) var<storage, read> t: array<u32>;
@group(0) @binding(1) var<storage, read_write> key: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- svd finalize svd.ranks wg64: svd.ranks → svd_ranks_u32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  m: u32,
  n: u32,
  tiles: u32,
}
@group(0) @binding(0) var<storage, read> key: array<u32>;
@group(0) @binding(1) var<storage, read_write> inv: array<i32>;
@group(0) @binding(2) var<storage, read_write> rnk: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- svd finalize svd.merge wg64: svd.merge → svd_merge_i32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> sinfo: array<i32>;
@group(0) @binding(1) var<storage, read> jinfo: array<i32>;
@group(0) @binding(2) var<storage, read_write> info: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- svd jacobi_pair float32 b=8: svd.jacobi_pair → jacobi_pair_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  r: u32,
  c: u32,
  nbe: u32,
  npairs: u32,
  count: u32,
  round: u32,
  wrows: u32,
  inner: u32,
  tol: f32,
}
@group(0) @binding(0) var<storage, read_write> Yc: array<f32>;
@group(0) @binding(1) var<storage, read_write> Wc: array<f32>;
@group(0) @binding(2) var<storage, read_write> E: array<i32>;
@group(0) @binding(3) var<storage, read_write> ctrl: array<atomic<u32>>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- svd jacobi_pair float32 b=16: svd.jacobi_pair → jacobi_pair_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  r: u32,
  c: u32,
  nbe: u32,
  npairs: u32,
  count: u32,
  round: u32,
  wrows: u32,
  inner: u32,
  tol: f32,
}
@group(0) @binding(0) var<storage, read_write> Yc: array<f32>;
@group(0) @binding(1) var<storage, read_write> Wc: array<f32>;
@group(0) @binding(2) var<storage, read_write> E: array<i32>;
@group(0) @binding(3) var<storage, read_write> ctrl: array<atomic<u32>>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- svd jacobi_init float32: svd.jacobi_init → jacobi_init_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  r: u32,
  c: u32,
  count: u32,
  wrows: u32,
}
@group(0) @binding(0) var<storage, read> Yc: array<f32>;
@group(0) @binding(1) var<storage, read_write> Wc: array<f32>;
@group(0) @binding(2) var<storage, read_write> E: array<i32>;
@group(0) @binding(3) var<storage, read_write> ctrl: array<u32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- svd jacobi_pair complex64 b=8: svd.jacobi_pair → jacobi_pair_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  r: u32,
  c: u32,
  nbe: u32,
  npairs: u32,
  count: u32,
  round: u32,
  wrows: u32,
  inner: u32,
  tol: f32,
}
@group(0) @binding(0) var<storage, read_write> Yc: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> Wc: array<vec2f>;
@group(0) @binding(2) var<storage, read_write> E: array<i32>;
@group(0) @binding(3) var<storage, read_write> ctrl: array<atomic<u32>>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- svd jacobi_pair complex64 b=16: svd.jacobi_pair → jacobi_pair_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  r: u32,
  c: u32,
  nbe: u32,
  npairs: u32,
  count: u32,
  round: u32,
  wrows: u32,
  inner: u32,
  tol: f32,
}
@group(0) @binding(0) var<storage, read_write> Yc: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> Wc: array<vec2f>;
@group(0) @binding(2) var<storage, read_write> E: array<i32>;
@group(0) @binding(3) var<storage, read_write> ctrl: array<atomic<u32>>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- svd jacobi_init complex64: svd.jacobi_init → jacobi_init_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  r: u32,
  c: u32,
  count: u32,
  wrows: u32,
}
@group(0) @binding(0) var<storage, read> Yc: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> Wc: array<vec2f>;
@group(0) @binding(2) var<storage, read_write> E: array<i32>;
@group(0) @binding(3) var<storage, read_write> ctrl: array<u32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- svd jacobi_sweep: svd.jacobi_sweep → jacobi_sweep
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  last: u32,
  cap: i32,
}
@group(0) @binding(0) var<storage, read_write> ctrl: array<u32>;
@group(0) @binding(1) var<storage, read_write> info: array<i32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- norm vector_norm float32: vector_norm → vector_norm_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  rows: u32,
  len: u32,
  mode: u32,
  pw: f32,
  chunks: u32,
  clen: u32,
}
@group(0) @binding(0) var<storage, read> X: array<f32>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- norm vector_norm_part float32: vector_norm_part → vector_norm_part_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  rows: u32,
  len: u32,
  mode: u32,
  pw: f32,
  chunks: u32,
  clen: u32,
}
@group(0) @binding(0) var<storage, read> X: array<f32>;
@group(0) @binding(1) var<storage, read_write> part: array<vec4f>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- norm vector_norm complex64: vector_norm → vector_norm_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  rows: u32,
  len: u32,
  mode: u32,
  pw: f32,
  chunks: u32,
  clen: u32,
}
@group(0) @binding(0) var<storage, read> X: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- norm vector_norm_part complex64: vector_norm_part → vector_norm_part_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  rows: u32,
  len: u32,
  mode: u32,
  pw: f32,
  chunks: u32,
  clen: u32,
}
@group(0) @binding(0) var<storage, read> X: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> part: array<vec4f>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- norm vector_norm_combine: vector_norm_combine → vector_norm_combine_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  rows: u32,
  len: u32,
  mode: u32,
  pw: f32,
  chunks: u32,
  clen: u32,
}
@group(0) @binding(0) var<storage, read> part: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> out: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- norm norm_post: norm_post → norm_post_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  k: u32,
  mode: u32,
}
@group(0) @binding(0) var<storage, read> S: array<f32>;
@group(0) @binding(1) var<storage, read> info: array<i32>;
@group(0) @binding(2) var<storage, read> aux: array<f32>;
@group(0) @binding(3) var<storage, read> aux2: array<f32>;
@group(0) @binding(4) var<storage, read_write> out: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- pinv weights: pinv.weights → weights_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  c2: u32,
  m: u32,
  k: u32,
  nan_bits: u32,
  atol_m: f32,
  atol_e: i32,
  rtol: f32,
}
@group(0) @binding(0) var<storage, read> S: array<f32>;
@group(0) @binding(1) var<storage, read> exps: array<i32>;
@group(0) @binding(2) var<storage, read> sinfo: array<i32>;
@group(0) @binding(3) var<storage, read> vinfo: array<i32>;
@group(0) @binding(4) var<storage, read_write> U: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- pinv rank: pinv.rank → rank_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  k: u32,
  zero_bad: u32,
  atol_m: f32,
  atol_e: i32,
  rtol: f32,
}
@group(0) @binding(0) var<storage, read> S: array<f32>;
@group(0) @binding(1) var<storage, read> exps: array<i32>;
@group(0) @binding(2) var<storage, read> sinfo: array<i32>;
@group(0) @binding(3) var<storage, read> vinfo: array<i32>;
@group(0) @binding(4) var<storage, read_write> rank: array<i32>;
@group(0) @binding(5) var<storage, read_write> info: array<i32>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- pinv hermitian: pinv.hermitian → hermitian_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  c2: u32,
  n: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> H: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- lstsq augment: lstsq.augment → augment_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  c2: u32,
  m: u32,
  n: u32,
  nrhs: u32,
  has_a: u32,
  has_b: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> B: array<f32>;
@group(0) @binding(2) var<storage, read> aIdx: array<i32>;
@group(0) @binding(3) var<storage, read> bIdx: array<i32>;
@group(0) @binding(4) var<storage, read_write> F: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- lstsq gels_check: lstsq.gels_check → gels_check_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  c2: u32,
  n: u32,
  rld: u32,
  rstride: u32,
  rtol: f32,
  has_a: u32,
}
@group(0) @binding(0) var<storage, read> R: array<f32>;
@group(0) @binding(1) var<storage, read> aIdx: array<i32>;
@group(0) @binding(2) var<storage, read> sinfo: array<i32>;
@group(0) @binding(3) var<storage, read_write> info: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lstsq exps: lstsq.exps → exps_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  has_a: u32,
  has_b: u32,
}
@group(0) @binding(0) var<storage, read> ea: array<i32>;
@group(0) @binding(1) var<storage, read> eb: array<i32>;
@group(0) @binding(2) var<storage, read> info: array<i32>;
@group(0) @binding(3) var<storage, read> binfo: array<i32>;
@group(0) @binding(4) var<storage, read> aIdx: array<i32>;
@group(0) @binding(5) var<storage, read> bIdx: array<i32>;
@group(0) @binding(6) var<storage, read_write> ef: array<i32>;
@group(0) @binding(7) var<storage, read_write> inff: array<i32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- lstsq resid: lstsq.resid → resid_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  c2: u32,
  nrhs: u32,
  rows: u32,
  n: u32,
  o1: u32,
  s1: u32,
  ld1: u32,
  x1_b: u32,
  has_x2: u32,
  o2: u32,
  s2: u32,
  ld2: u32,
  has_rank: u32,
  has_a: u32,
  has_b: u32,
  nan_bits: u32,
}
@group(0) @binding(0) var<storage, read> X1: array<f32>;
@group(0) @binding(1) var<storage, read> X2: array<f32>;
@group(0) @binding(2) var<storage, read> eb: array<i32>;
@group(0) @binding(3) var<storage, read> aIdx: array<i32>;
@group(0) @binding(4) var<storage, read> bIdx: array<i32>;
@group(0) @binding(5) var<storage, read> inff: array<i32>;
@group(0) @binding(6) var<storage, read> rank: array<i32>;
@group(0) @binding(7) var<storage, read_write> res: array<f32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- lu_ops DET float32: det → det_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  n: u32,
  scan_a: u32,
  chunks: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> FLAGS: array<u32>;
@group(0) @binding(2) var<storage, read> LU: array<f32>;
@group(0) @binding(3) var<storage, read> PIV: array<i32>;
@group(0) @binding(4) var<storage, read> INFO: array<i32>;
@group(0) @binding(5) var<storage, read_write> DET: array<f32>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- lu_ops SLOGDET float32: slogdet → slogdet_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  n: u32,
  scan_a: u32,
  chunks: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read> FLAGS: array<u32>;
@group(0) @binding(2) var<storage, read> LU: array<f32>;
@group(0) @binding(3) var<storage, read> PIV: array<i32>;
@group(0) @binding(4) var<storage, read> INFO: array<i32>;
@group(0) @binding(5) var<storage, read_write> SIGN: array<f32>;
@group(0) @binding(6) var<storage, read_write> LOGABS: array<f32>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- lu_ops SCAN float32: det_scan → det_scan_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  chunks: u32,
  nn: u32,
}
@group(0) @binding(0) var<storage, read> A: array<f32>;
@group(0) @binding(1) var<storage, read_write> FLAGS: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- lu_ops mark float32: lu_mark → lu_mark_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  per: u32,
  use_pmap: u32,
  use_status: u32,
  use_info: u32,
}
@group(0) @binding(0) var<storage, read> PMAP: array<i32>;
@group(0) @binding(1) var<storage, read> STATUS: array<i32>;
@group(0) @binding(2) var<storage, read> INFO: array<i32>;
@group(0) @binding(3) var<storage, read_write> DST: array<f32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu_ops unpack float32: lu_unpack → lu_unpack_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  count: u32,
  m: u32,
  n: u32,
  k: u32,
}
@group(0) @binding(0) var<storage, read> LU: array<f32>;
@group(0) @binding(1) var<storage, read> PERM: array<i32>;
@group(0) @binding(2) var<storage, read_write> P: array<f32>;
@group(0) @binding(3) var<storage, read_write> L: array<f32>;
@group(0) @binding(4) var<storage, read_write> U: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- lu_ops DET complex64: det → det_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  n: u32,
  scan_a: u32,
  chunks: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec2f>;
@group(0) @binding(1) var<storage, read> FLAGS: array<u32>;
@group(0) @binding(2) var<storage, read> LU: array<vec2f>;
@group(0) @binding(3) var<storage, read> PIV: array<i32>;
@group(0) @binding(4) var<storage, read> INFO: array<i32>;
@group(0) @binding(5) var<storage, read_write> DET: array<vec2f>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- lu_ops SLOGDET complex64: slogdet → slogdet_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  n: u32,
  scan_a: u32,
  chunks: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec2f>;
@group(0) @binding(1) var<storage, read> FLAGS: array<u32>;
@group(0) @binding(2) var<storage, read> LU: array<vec2f>;
@group(0) @binding(3) var<storage, read> PIV: array<i32>;
@group(0) @binding(4) var<storage, read> INFO: array<i32>;
@group(0) @binding(5) var<storage, read_write> SIGN: array<vec2f>;
@group(0) @binding(6) var<storage, read_write> LOGABS: array<f32>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- lu_ops SCAN complex64: det_scan → det_scan_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  chunks: u32,
  nn: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec2f>;
@group(0) @binding(1) var<storage, read_write> FLAGS: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- lu_ops mark complex64: lu_mark → lu_mark_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  per: u32,
  use_pmap: u32,
  use_status: u32,
  use_info: u32,
}
@group(0) @binding(0) var<storage, read> PMAP: array<i32>;
@group(0) @binding(1) var<storage, read> STATUS: array<i32>;
@group(0) @binding(2) var<storage, read> INFO: array<i32>;
@group(0) @binding(3) var<storage, read_write> DST: array<vec2f>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- lu_ops unpack complex64: lu_unpack → lu_unpack_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  count: u32,
  m: u32,
  n: u32,
  k: u32,
}
@group(0) @binding(0) var<storage, read> LU: array<vec2f>;
@group(0) @binding(1) var<storage, read> PERM: array<i32>;
@group(0) @binding(2) var<storage, read_write> P: array<vec2f>;
@group(0) @binding(3) var<storage, read_write> L: array<vec2f>;
@group(0) @binding(4) var<storage, read_write> U: array<vec2f>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- lu_ops permute float32: lu_permute → lu_permute_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  rows: u32,
  cols: u32,
  use_perm: u32,
  use_smap: u32,
  use_pmap: u32,
  use_status: u32,
  use_info: u32,
  ident: u32,
}
@group(0) @binding(0) var<storage, read> SRC: array<f32>;
@group(0) @binding(1) var<storage, read> PERM: array<i32>;
@group(0) @binding(2) var<storage, read> SMAP: array<i32>;
@group(0) @binding(3) var<storage, read> PMAP: array<i32>;
@group(0) @binding(4) var<storage, read> STATUS: array<i32>;
@group(0) @binding(5) var<storage, read> INFO: array<i32>;
@group(0) @binding(6) var<storage, read_write> DST: array<f32>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- lu_ops permute complex64: lu_permute → lu_permute_c64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  rows: u32,
  cols: u32,
  use_perm: u32,
  use_smap: u32,
  use_pmap: u32,
  use_status: u32,
  use_info: u32,
  ident: u32,
}
@group(0) @binding(0) var<storage, read> SRC: array<vec2f>;
@group(0) @binding(1) var<storage, read> PERM: array<i32>;
@group(0) @binding(2) var<storage, read> SMAP: array<i32>;
@group(0) @binding(3) var<storage, read> PMAP: array<i32>;
@group(0) @binding(4) var<storage, read> STATUS: array<i32>;
@group(0) @binding(5) var<storage, read> INFO: array<i32>;
@group(0) @binding(6) var<storage, read_write> DST: array<vec2f>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- lu_ops permute int32: lu_permute → lu_permute_i32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  rows: u32,
  cols: u32,
  use_perm: u32,
  use_smap: u32,
  use_pmap: u32,
  use_status: u32,
  use_info: u32,
  ident: u32,
}
@group(0) @binding(0) var<storage, read> SRC: array<i32>;
@group(0) @binding(1) var<storage, read> PERM: array<i32>;
@group(0) @binding(2) var<storage, read> SMAP: array<i32>;
@group(0) @binding(3) var<storage, read> PMAP: array<i32>;
@group(0) @binding(4) var<storage, read> STATUS: array<i32>;
@group(0) @binding(5) var<storage, read> INFO: array<i32>;
@group(0) @binding(6) var<storage, read_write> DST: array<i32>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- lu_ops perm: lu_perm → lu_perm_i32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  chunks: u32,
  m: u32,
  k: u32,
}
@group(0) @binding(0) var<storage, read> PIV: array<i32>;
@group(0) @binding(1) var<storage, read_write> PERM: array<i32>;
@group(0) @binding(2) var<storage, read_write> IPERM: array<i32>;
@group(0) @binding(3) var<storage, read_write> STATUS: array<i32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- reduce rows fsum: reduce.rows → reduce_rows_fsum
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols fsum: reduce.cols → reduce_cols_fsum
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce rows fprod: reduce.rows → reduce_rows_fprod
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols fprod: reduce.cols → reduce_cols_fprod
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce rows fmax: reduce.rows → reduce_rows_fmax
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols fmax: reduce.cols → reduce_cols_fmax
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce rows fmin: reduce.rows → reduce_rows_fmin
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols fmin: reduce.cols → reduce_cols_fmin
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce rows csum: reduce.rows → reduce_rows_csum
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<vec2u>;
@group(0) @binding(2) var<storage, read_write> out: array<vec2u>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols csum: reduce.cols → reduce_cols_csum
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<vec2u>;
@group(0) @binding(1) var<storage, read_write> out: array<vec2u>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce rows cprod: reduce.rows → reduce_rows_cprod
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<vec2u>;
@group(0) @binding(2) var<storage, read_write> out: array<vec2u>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols cprod: reduce.cols → reduce_cols_cprod
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<vec2u>;
@group(0) @binding(1) var<storage, read_write> out: array<vec2u>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce rows isum: reduce.rows → reduce_rows_isum
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols isum: reduce.cols → reduce_cols_isum
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce rows iprod: reduce.rows → reduce_rows_iprod
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols iprod: reduce.cols → reduce_cols_iprod
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce rows imax: reduce.rows → reduce_rows_imax
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols imax: reduce.cols → reduce_cols_imax
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce rows imin: reduce.rows → reduce_rows_imin
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols imin: reduce.cols → reduce_cols_imin
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce rows umax: reduce.rows → reduce_rows_umax
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols umax: reduce.cols → reduce_cols_umax
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce rows umin: reduce.rows → reduce_rows_umin
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols umin: reduce.cols → reduce_cols_umin
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce rows any: reduce.rows → reduce_rows_any
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols any: reduce.cols → reduce_cols_any
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce rows all: reduce.rows → reduce_rows_all
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols all: reduce.cols → reduce_cols_all
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce rows cany: reduce.rows → reduce_rows_cany
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<vec2u>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols cany: reduce.cols → reduce_cols_cany
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<vec2u>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce rows call: reduce.rows → reduce_rows_call
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  splits: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xv: array<vec4u>;
@group(0) @binding(1) var<storage, read> xs: array<vec2u>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- reduce cols call: reduce.cols → reduce_cols_call
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  mask: u32,
  zero: u32,
}
@group(0) @binding(0) var<storage, read> xs: array<vec2u>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- reduce arg fmax: reduce.arg → arg_reduce_fmax
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  has_idx: u32,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read> ix: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> oi: array<u32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- reduce arg fmin: reduce.arg → arg_reduce_fmin
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  has_idx: u32,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read> ix: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> oi: array<u32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- reduce arg imax: reduce.arg → arg_reduce_imax
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  has_idx: u32,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read> ix: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> oi: array<u32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- reduce arg imin: reduce.arg → arg_reduce_imin
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  has_idx: u32,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read> ix: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> oi: array<u32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- reduce arg umax: reduce.arg → arg_reduce_umax
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  has_idx: u32,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read> ix: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> oi: array<u32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- reduce arg umin: reduce.arg → arg_reduce_umin
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  len: u32,
  inner: u32,
  splits: u32,
  blocks: u32,
  cx: u32,
  rstride: u32,
  cstride: u32,
  swap: u32,
  has_idx: u32,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read> ix: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> oi: array<u32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- indexing stridedCopy b32: indexing.strided_copy → strided_copy_general_b32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  ndim: u32,
  offset: u32,
  out_base: u32,
  conj: u32,
  dims0: vec4u,
  dims1: vec4u,
  dims2: vec4u,
  dims3: vec4u,
  strides0: vec4u,
  strides1: vec4u,
  strides2: vec4u,
  strides3: vec4u,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- indexing stridedCopy b32 tiled: indexing.strided_copy → strided_copy_tiled_b32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  ndim: u32,
  offset: u32,
  conj: u32,
  rows: u32,
  cols: u32,
  ld: u32,
  tiles_c: u32,
  tiles_per_mat: u32,
  dims0: vec4u,
  dims1: vec4u,
  dims2: vec4u,
  dims3: vec4u,
  strides0: vec4u,
  strides1: vec4u,
  strides2: vec4u,
  strides3: vec4u,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- indexing triangle b32: indexing.triangle → triangle_b32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  m: u32,
  n: u32,
  k: i32,
  upper: u32,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- indexing concat b32: indexing.concat → concat_b32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  cols: u32,
  ld: u32,
  dst_off: u32,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- indexing take b32: indexing.take → take_b32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  size: u32,
  unsigned: u32,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read> index: array<i32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- indexing put b32 store: indexing.put → put_store_b32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  size: u32,
  unsigned: u32,
  phase: u32,
}
@group(0) @binding(0) var<storage, read> index: array<i32>;
@group(0) @binding(1) var<storage, read> vals: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<u32>;
@group(0) @binding(3) var<storage, read_write> winner: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- indexing put b32 accumulate: indexing.put → put_accumulate_b32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  size: u32,
  unsigned: u32,
  mode: u32,
}
@group(0) @binding(0) var<storage, read> index: array<i32>;
@group(0) @binding(1) var<storage, read> vals: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- indexing stridedCopy b64: indexing.strided_copy → strided_copy_general_b64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  ndim: u32,
  offset: u32,
  out_base: u32,
  conj: u32,
  dims0: vec4u,
  dims1: vec4u,
  dims2: vec4u,
  dims3: vec4u,
  strides0: vec4u,
  strides1: vec4u,
  strides2: vec4u,
  strides3: vec4u,
}
@group(0) @binding(0) var<storage, read> x: array<vec2u>;
@group(0) @binding(1) var<storage, read_write> out: array<vec2u>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- indexing stridedCopy b64 tiled: indexing.strided_copy → strided_copy_tiled_b64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  ndim: u32,
  offset: u32,
  conj: u32,
  rows: u32,
  cols: u32,
  ld: u32,
  tiles_c: u32,
  tiles_per_mat: u32,
  dims0: vec4u,
  dims1: vec4u,
  dims2: vec4u,
  dims3: vec4u,
  strides0: vec4u,
  strides1: vec4u,
  strides2: vec4u,
  strides3: vec4u,
}
@group(0) @binding(0) var<storage, read> x: array<vec2u>;
@group(0) @binding(1) var<storage, read_write> out: array<vec2u>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- indexing triangle b64: indexing.triangle → triangle_b64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  m: u32,
  n: u32,
  k: i32,
  upper: u32,
}
@group(0) @binding(0) var<storage, read> x: array<vec2u>;
@group(0) @binding(1) var<storage, read_write> out: array<vec2u>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- indexing concat b64: indexing.concat → concat_b64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  cols: u32,
  ld: u32,
  dst_off: u32,
}
@group(0) @binding(0) var<storage, read> x: array<vec2u>;
@group(0) @binding(1) var<storage, read_write> out: array<vec2u>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- indexing take b64: indexing.take → take_b64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  size: u32,
  unsigned: u32,
}
@group(0) @binding(0) var<storage, read> x: array<vec2u>;
@group(0) @binding(1) var<storage, read> index: array<i32>;
@group(0) @binding(2) var<storage, read_write> out: array<vec2u>;
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- indexing put b64 store: indexing.put → put_store_b64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  size: u32,
  unsigned: u32,
  phase: u32,
}
@group(0) @binding(0) var<storage, read> index: array<i32>;
@group(0) @binding(1) var<storage, read> vals: array<vec2u>;
@group(0) @binding(2) var<storage, read_write> out: array<vec2u>;
@group(0) @binding(3) var<storage, read_write> winner: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- indexing put b64 accumulate: indexing.put → put_accumulate_b64
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  total: u32,
  size: u32,
  unsigned: u32,
  mode: u32,
}
@group(0) @binding(0) var<storage, read> index: array<i32>;
@group(0) @binding(1) var<storage, read> vals: array<u32>;
@group(0) @binding(2) var<storage, read_write> out: array<atomic<u32>>;
@group(0) @binding(3) var<storage, read_write> status: array<atomic<u32>>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- indexing copy_words u32: indexing.copy_words → copy_words_b32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  n: u32,
  src_off: u32,
  dst_off: u32,
}
@group(0) @binding(0) var<storage, read> src: array<u32>;
@group(0) @binding(1) var<storage, read_write> dst: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- indexing copy_words vec4: indexing.copy_words → copy_words_b32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  n: u32,
  src_off: u32,
  dst_off: u32,
}
@group(0) @binding(0) var<storage, read> src: array<vec4u>;
@group(0) @binding(1) var<storage, read_write> dst: array<vec4u>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- elementwise binary add f32 vec same: elementwise.binary → binary_add_f32_vec_ff
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nd: u32,
  zero: u32,
  op: u32,
}
@group(0) @binding(0) var<storage, read> a: array<vec4u>;
@group(0) @binding(1) var<storage, read> b: array<vec4u>;
@group(0) @binding(2) var<storage, read_write> out: array<vec4u>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- elementwise binary add f32 vec scalar b: elementwise.binary → binary_add_f32_vec_fs
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nd: u32,
  zero: u32,
  op: u32,
}
@group(0) @binding(0) var<storage, read> a: array<vec4u>;
@group(0) @binding(1) var<storage, read> b: array<vec4u>;
@group(0) @binding(2) var<storage, read_write> out: array<vec4u>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- elementwise binary add f32 strided: elementwise.binary → binary_add_f32_strided
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nd: u32,
  zero: u32,
  op: u32,
}
@group(0) @binding(0) var<storage, read> a: array<u32>;
@group(0) @binding(1) var<storage, read> b: array<u32>;
@group(0) @binding(2) var<storage, read> lay: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- elementwise binary eq c64 strided (bool out): elementwise.binary → binary_eq_c64_strided
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nd: u32,
  zero: u32,
  op: u32,
}
@group(0) @binding(0) var<storage, read> a: array<vec2u>;
@group(0) @binding(1) var<storage, read> b: array<vec2u>;
@group(0) @binding(2) var<storage, read> lay: array<u32>;
@group(0) @binding(3) var<storage, read_write> out: array<u32>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- elementwise binary c64 ops by uniform: elementwise.binary → binary_any_c64_c64_vec_ff_p1
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nd: u32,
  zero: u32,
  op: u32,
}
@group(0) @binding(0) var<storage, read> a: array<vec4u>;
@group(0) @binding(1) var<storage, read> b: array<vec4u>;
@group(0) @binding(2) var<storage, read_write> out: array<vec4u>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- elementwise unary abs c64 vec: elementwise.unary → unary_abs_c64_vec_f
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nd: u32,
  zero: u32,
  op: u32,
}
@group(0) @binding(0) var<storage, read> x: array<vec4u>;
@group(0) @binding(1) var<storage, read_write> out: array<vec4u>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- elementwise unary exp c64 flat: elementwise.unary → unary_exp_c64_flat_p1
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nd: u32,
  zero: u32,
  op: u32,
}
@group(0) @binding(0) var<storage, read> x: array<vec2u>;
@group(0) @binding(1) var<storage, read_write> out: array<vec2u>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- elementwise cast f32 to c64 vec: elementwise.cast → cast_c64_f32_vec_f
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nd: u32,
  zero: u32,
  op: u32,
}
@group(0) @binding(0) var<storage, read> x: array<vec4u>;
@group(0) @binding(1) var<storage, read_write> out: array<vec4u>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- elementwise cast c64 to bool flat: elementwise.cast → cast_b_c64_flat
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nd: u32,
  zero: u32,
  op: u32,
}
@group(0) @binding(0) var<storage, read> x: array<vec2u>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- elementwise cast f32 to f16 (packed words): elementwise.cast → cast_f16_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  words: u32,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- elementwise cast f16 to f32 (packed words): elementwise.cast → cast_f32_f16
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  words: u32,
}
@group(0) @binding(0) var<storage, read> x: array<u32>;
@group(0) @binding(1) var<storage, read_write> out: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- elementwise where f32 vec cond splat: elementwise.where → where_f32_vec_sff
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nd: u32,
  zero: u32,
  op: u32,
}
@group(0) @binding(0) var<storage, read> c: array<vec4u>;
@group(0) @binding(1) var<storage, read> a: array<vec4u>;
@group(0) @binding(2) var<storage, read> b: array<vec4u>;
@group(0) @binding(3) var<storage, read_write> out: array<vec4u>;
@group(0) @binding(4) var<uniform> p: Params;

// ---- elementwise where c64 strided: elementwise.where → where_c64_strided
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  nd: u32,
  zero: u32,
  op: u32,
}
@group(0) @binding(0) var<storage, read> c: array<u32>;
@group(0) @binding(1) var<storage, read> a: array<vec2u>;
@group(0) @binding(2) var<storage, read> b: array<vec2u>;
@group(0) @binding(3) var<storage, read> lay: array<u32>;
@group(0) @binding(4) var<storage, read_write> out: array<vec2u>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- gdn step float32 dk=dv=128: gdn.step → gdn_step_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  H: u32,
  HV: u32,
  dk: u32,
  dv: u32,
  scale: f32,
  l2: u32,
}
@group(0) @binding(0) var<storage, read> S: array<f32>;
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> k: array<f32>;
@group(0) @binding(3) var<storage, read> v: array<f32>;
@group(0) @binding(4) var<storage, read> beta: array<f32>;
@group(0) @binding(5) var<storage, read> g: array<f32>;
@group(0) @binding(6) var<storage, read_write> o: array<f32>;
@group(0) @binding(7) var<storage, read_write> Snew: array<f32>;
@group(0) @binding(8) var<storage, read_write> status: array<i32>;
@group(0) @binding(9) var<uniform> p: Params;

// ---- gdn step float32 dk=dv=128, beta and g in one buffer: gdn.step → gdn_step_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  H: u32,
  HV: u32,
  dk: u32,
  dv: u32,
  scale: f32,
  l2: u32,
  goff: u32,
}
@group(0) @binding(0) var<storage, read> S: array<f32>;
@group(0) @binding(1) var<storage, read> q: array<f32>;
@group(0) @binding(2) var<storage, read> k: array<f32>;
@group(0) @binding(3) var<storage, read> v: array<f32>;
@group(0) @binding(4) var<storage, read> bg: array<f32>;
@group(0) @binding(5) var<storage, read_write> o: array<f32>;
@group(0) @binding(6) var<storage, read_write> Snew: array<f32>;
@group(0) @binding(7) var<storage, read_write> status: array<i32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn step float16 dk=dv=128: gdn.step → gdn_step_f16
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  H: u32,
  HV: u32,
  dk: u32,
  dv: u32,
  scale: f32,
  l2: u32,
}
@group(0) @binding(0) var<storage, read> S: array<f32>;
@group(0) @binding(1) var<storage, read> q: array<u32>;
@group(0) @binding(2) var<storage, read> k: array<u32>;
@group(0) @binding(3) var<storage, read> v: array<u32>;
@group(0) @binding(4) var<storage, read> beta: array<u32>;
@group(0) @binding(5) var<storage, read> g: array<u32>;
@group(0) @binding(6) var<storage, read_write> o: array<u32>;
@group(0) @binding(7) var<storage, read_write> Snew: array<f32>;
@group(0) @binding(8) var<storage, read_write> status: array<i32>;
@group(0) @binding(9) var<uniform> p: Params;

// ---- gdn step float16 dk=dv=128, beta and g in one buffer: gdn.step → gdn_step_f16
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  H: u32,
  HV: u32,
  dk: u32,
  dv: u32,
  scale: f32,
  l2: u32,
  goff: u32,
}
@group(0) @binding(0) var<storage, read> S: array<f32>;
@group(0) @binding(1) var<storage, read> q: array<u32>;
@group(0) @binding(2) var<storage, read> k: array<u32>;
@group(0) @binding(3) var<storage, read> v: array<u32>;
@group(0) @binding(4) var<storage, read> bg: array<u32>;
@group(0) @binding(5) var<storage, read_write> o: array<u32>;
@group(0) @binding(6) var<storage, read_write> Snew: array<f32>;
@group(0) @binding(7) var<storage, read_write> status: array<i32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn wy kkt C=64 float32: gdn_wy_kkt → gdn_wy_kkt
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  pairs: u32,
  hv_count: u32,
  group: u32,
  dk: u32,
  k_sB: u32,
  k_sT: u32,
  k_sH: u32,
  b_sB: u32,
  b_sT: u32,
  b_sH: u32,
}
@group(0) @binding(0) var<storage, read> K: array<u32>;
@group(0) @binding(1) var<storage, read> beta: array<u32>;
@group(0) @binding(2) var<storage, read> g: array<u32>;
@group(0) @binding(3) var<storage, read> Q: array<u32>;
@group(0) @binding(4) var<storage, read> table: array<vec4u>;
@group(0) @binding(5) var<storage, read_write> gcum: array<f32>;
@group(0) @binding(6) var<storage, read_write> A: array<vec4f>;
@group(0) @binding(7) var<storage, read_write> status: array<atomic<i32>>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn wy kkt C=16 float16: gdn_wy_kkt → gdn_wy_kkt
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  pairs: u32,
  hv_count: u32,
  group: u32,
  dk: u32,
  k_sB: u32,
  k_sT: u32,
  k_sH: u32,
  b_sB: u32,
  b_sT: u32,
  b_sH: u32,
}
@group(0) @binding(0) var<storage, read> K: array<u32>;
@group(0) @binding(1) var<storage, read> beta: array<u32>;
@group(0) @binding(2) var<storage, read> g: array<u32>;
@group(0) @binding(3) var<storage, read> Q: array<u32>;
@group(0) @binding(4) var<storage, read> table: array<vec4u>;
@group(0) @binding(5) var<storage, read_write> gcum: array<f32>;
@group(0) @binding(6) var<storage, read_write> A: array<vec4f>;
@group(0) @binding(7) var<storage, read_write> status: array<atomic<i32>>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn inv_unit_lower C=16: inv_unit_lower → inv_unit_lower_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> T: array<vec4f>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- gdn inv_unit_lower C=32: inv_unit_lower → inv_unit_lower_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> T: array<vec4f>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- gdn inv_unit_lower C=64: inv_unit_lower → inv_unit_lower_f32
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> T: array<vec4f>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- gdn inv_unit_lower_col C=64: inv_unit_lower_col → inv_unit_lower_col
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
}
@group(0) @binding(0) var<storage, read> A: array<vec4f>;
@group(0) @binding(1) var<storage, read_write> T: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- gdn wy W C=64 float32: gdn_wy_wu → gdn_wy_wu
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  pairs: u32,
  ntiles: u32,
  ncols: u32,
  hv_count: u32,
  group: u32,
  x_sB: u32,
  x_sT: u32,
  x_sH: u32,
  b_sB: u32,
  b_sT: u32,
  b_sH: u32,
}
@group(0) @binding(0) var<storage, read> X: array<u32>;
@group(0) @binding(1) var<storage, read> beta: array<u32>;
@group(0) @binding(2) var<storage, read> gcum: array<f32>;
@group(0) @binding(3) var<storage, read> T: array<vec4f>;
@group(0) @binding(4) var<storage, read> table: array<vec4u>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;
@group(0) @binding(6) var<storage, read_write> status: array<atomic<i32>>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- gdn wy U C=64 float32, rt 8 in mirrored blocks, two column quads: gdn_wy_wu → gdn_wy_wu
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  pairs: u32,
  ntiles: u32,
  ncols: u32,
  hv_count: u32,
  group: u32,
  x_sB: u32,
  x_sT: u32,
  x_sH: u32,
  b_sB: u32,
  b_sT: u32,
  b_sH: u32,
}
@group(0) @binding(0) var<storage, read> X: array<u32>;
@group(0) @binding(1) var<storage, read> beta: array<u32>;
@group(0) @binding(2) var<storage, read> gcum: array<f32>;
@group(0) @binding(3) var<storage, read> T: array<vec4f>;
@group(0) @binding(4) var<storage, read> table: array<vec4u>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;
@group(0) @binding(6) var<storage, read_write> status: array<atomic<i32>>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- gdn wy U C=32 float16, rt 8, T staged: gdn_wy_wu → gdn_wy_wu
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  pairs: u32,
  ntiles: u32,
  ncols: u32,
  hv_count: u32,
  group: u32,
  x_sB: u32,
  x_sT: u32,
  x_sH: u32,
  b_sB: u32,
  b_sT: u32,
  b_sH: u32,
}
@group(0) @binding(0) var<storage, read> X: array<u32>;
@group(0) @binding(1) var<storage, read> beta: array<u32>;
@group(0) @binding(2) var<storage, read> gcum: array<f32>;
@group(0) @binding(3) var<storage, read> T: array<vec4f>;
@group(0) @binding(4) var<storage, read> table: array<vec4u>;
@group(0) @binding(5) var<storage, read_write> O: array<f32>;
@group(0) @binding(6) var<storage, read_write> status: array<atomic<i32>>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- gdn wy rows qkL2norm float16: gdn_wy_rows → gdn_wy_rows
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  chunks: u32,
  heads: u32,
  hv_count: u32,
  group: u32,
  dk: u32,
  sB: u32,
  sT: u32,
  sH: u32,
}
@group(0) @binding(0) var<storage, read> Q: array<u32>;
@group(0) @binding(1) var<storage, read> K: array<u32>;
@group(0) @binding(2) var<storage, read> table: array<vec4u>;
@group(0) @binding(3) var<storage, read_write> qn: array<f32>;
@group(0) @binding(4) var<storage, read_write> kn: array<f32>;
@group(0) @binding(5) var<storage, read_write> status: array<atomic<i32>>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- gdn s0 check: gdn_s0_check → gdn_s0_check
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  size: u32,
}
@group(0) @binding(0) var<storage, read> S0: array<f32>;
@group(0) @binding(1) var<storage, read_write> status: array<atomic<i32>>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_qk qk=f32,x=f32,KT=16: gdn_bwd_qk → gdn_bwd_qk
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read> Qs: array<f32>;
@group(0) @binding(4) var<storage, read> Ks: array<f32>;
@group(0) @binding(5) var<storage, read_write> CC: array<f32>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_dvl x=f32,KT=16: gdn_bwd_dvl → gdn_bwd_dvl
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read> CC: array<f32>;
@group(0) @binding(4) var<storage, read> dO: array<f32>;
@group(0) @binding(5) var<storage, read_write> CD1: array<f32>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_dhq qk=f32,x=f32,KT=16: gdn_bwd_dhq → gdn_bwd_dhq
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read> Qs: array<f32>;
@group(0) @binding(4) var<storage, read> dO: array<f32>;
@group(0) @binding(5) var<storage, read_write> DHE: array<f32>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_x x=f32,KT=16: gdn_bwd_x → gdn_bwd_x
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read> Tm: array<f32>;
@group(0) @binding(4) var<storage, read> status: array<i32>;
@group(0) @binding(5) var<storage, read_write> CD2: array<f32>;
@group(0) @binding(6) var<storage, read_write> DV: array<f32>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_pda x=f32,KT=16: gdn_bwd_pda → gdn_bwd_pda
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read> dO: array<f32>;
@group(0) @binding(4) var<storage, read> CD2: array<f32>;
@group(0) @binding(5) var<storage, read> vn: array<f32>;
@group(0) @binding(6) var<storage, read_write> CC2: array<f32>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_dqh qk=f32,x=f32,KT=16: gdn_bwd_dqh → gdn_bwd_dqh
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> dO: array<f32>;
@group(0) @binding(3) var<storage, read> hs: array<f32>;
@group(0) @binding(4) var<storage, read> Qs: array<f32>;
@group(0) @binding(5) var<storage, read_write> DQS: array<f32>;
@group(0) @binding(6) var<storage, read_write> RWP: array<f32>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_dq2 qk=f32,x=f32,KT=16: gdn_bwd_dq2 → gdn_bwd_dq2
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> PMBS: array<f32>;
@group(0) @binding(3) var<storage, read> Ks: array<f32>;
@group(0) @binding(4) var<storage, read_write> DQS: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_dk1a qk=f32,x=f32,KT=16: gdn_bwd_dk1a → gdn_bwd_dk1a
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> vn: array<f32>;
@group(0) @binding(3) var<storage, read> DHE: array<f32>;
@group(0) @binding(4) var<storage, read> Ks: array<f32>;
@group(0) @binding(5) var<storage, read_write> DKS: array<f32>;
@group(0) @binding(6) var<storage, read_write> RWP: array<f32>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_dk1b qk=f32,x=f32,KT=16: gdn_bwd_dk1b → gdn_bwd_dk1b
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read> CD2: array<f32>;
@group(0) @binding(4) var<storage, read> hs: array<f32>;
@group(0) @binding(5) var<storage, read> Ks: array<f32>;
@group(0) @binding(6) var<storage, read_write> DKS: array<f32>;
@group(0) @binding(7) var<storage, read_write> RWP: array<f32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_dk2 qk=f32,x=f32,KT=16: gdn_bwd_dk2 → gdn_bwd_dk2
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read> PMBS: array<f32>;
@group(0) @binding(4) var<storage, read> Qs: array<f32>;
@group(0) @binding(5) var<storage, read> Ks: array<f32>;
@group(0) @binding(6) var<storage, read_write> DKS: array<f32>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_state qk=f32,MR=1,DKP=128,BV=8,KW=128,WPF=true: gdn_bwd_state → gdn_bwd_state
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> Ks: array<f32>;
@group(0) @binding(3) var<storage, read> Wm: array<f32>;
@group(0) @binding(4) var<storage, read> hs: array<f32>;
@group(0) @binding(5) var<storage, read> CD1: array<f32>;
@group(0) @binding(6) var<storage, read_write> CD2: array<f32>;
@group(0) @binding(7) var<storage, read_write> DHE: array<f32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_rows x=f32: gdn_bwd_rows → gdn_bwd_rows
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> CD2: array<f32>;
@group(0) @binding(2) var<storage, read> Vs: array<f32>;
@group(0) @binding(3) var<storage, read> RWP: array<f32>;
@group(0) @binding(4) var<storage, read_write> RW: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_ccfin x=f32: gdn_bwd_ccfin → gdn_bwd_ccfin
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read> CC: array<f32>;
@group(0) @binding(4) var<storage, read> CC2: array<f32>;
@group(0) @binding(5) var<storage, read> DHE: array<f32>;
@group(0) @binding(6) var<storage, read_write> RW: array<f32>;
@group(0) @binding(7) var<storage, read_write> PMBS: array<f32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_gate : gdn_bwd_gate → gdn_bwd_gate
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> status: array<i32>;
@group(0) @binding(2) var<storage, read> RW: array<f32>;
@group(0) @binding(3) var<storage, read_write> DB: array<f32>;
@group(0) @binding(4) var<storage, read_write> DG: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_qkout x=f32: gdn_bwd_qkout → gdn_bwd_qkout
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> status: array<i32>;
@group(0) @binding(2) var<storage, read> Qr: array<f32>;
@group(0) @binding(3) var<storage, read> Kr: array<f32>;
@group(0) @binding(4) var<storage, read> DQS: array<f32>;
@group(0) @binding(5) var<storage, read> DKS: array<f32>;
@group(0) @binding(6) var<storage, read_write> DQ: array<f32>;
@group(0) @binding(7) var<storage, read_write> DK: array<f32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_dfin : gdn_bwd_dfin → gdn_bwd_dfin
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> dF: array<f32>;
@group(0) @binding(1) var<storage, read_write> DHE: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_s0 : gdn_bwd_s0 → gdn_bwd_s0
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> status: array<i32>;
@group(0) @binding(1) var<storage, read> DHE: array<f32>;
@group(0) @binding(2) var<storage, read_write> dS0: array<f32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_pack : gdn_bwd_pack → gdn_bwd_pack
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> F: array<f32>;
@group(0) @binding(1) var<storage, read_write> H: array<u32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_unpack : gdn_bwd_unpack → gdn_bwd_unpack
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> H: array<u32>;
@group(0) @binding(1) var<storage, read_write> F: array<f32>;
@group(0) @binding(2) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_qk qk=f32,x=f32,KT=32: gdn_bwd_qk → gdn_bwd_qk
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read> Qs: array<f32>;
@group(0) @binding(4) var<storage, read> Ks: array<f32>;
@group(0) @binding(5) var<storage, read_write> CC: array<f32>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_dvl x=f32,KT=32: gdn_bwd_dvl → gdn_bwd_dvl
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read> CC: array<f32>;
@group(0) @binding(4) var<storage, read> dO: array<f32>;
@group(0) @binding(5) var<storage, read_write> CD1: array<f32>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_dhq qk=f32,x=f32,KT=32: gdn_bwd_dhq → gdn_bwd_dhq
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read> Qs: array<f32>;
@group(0) @binding(4) var<storage, read> dO: array<f32>;
@group(0) @binding(5) var<storage, read_write> DHE: array<f32>;
@group(0) @binding(6) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_x x=f32,KT=32: gdn_bwd_x → gdn_bwd_x
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read> Tm: array<f32>;
@group(0) @binding(4) var<storage, read> status: array<i32>;
@group(0) @binding(5) var<storage, read_write> CD2: array<f32>;
@group(0) @binding(6) var<storage, read_write> DV: array<f32>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_pda x=f32,KT=32: gdn_bwd_pda → gdn_bwd_pda
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read> dO: array<f32>;
@group(0) @binding(4) var<storage, read> CD2: array<f32>;
@group(0) @binding(5) var<storage, read> vn: array<f32>;
@group(0) @binding(6) var<storage, read_write> CC2: array<f32>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_dqh qk=f32,x=f32,KT=32: gdn_bwd_dqh → gdn_bwd_dqh
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> dO: array<f32>;
@group(0) @binding(3) var<storage, read> hs: array<f32>;
@group(0) @binding(4) var<storage, read> Qs: array<f32>;
@group(0) @binding(5) var<storage, read_write> DQS: array<f32>;
@group(0) @binding(6) var<storage, read_write> RWP: array<f32>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_dq2 qk=f32,x=f32,KT=32: gdn_bwd_dq2 → gdn_bwd_dq2
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> PMBS: array<f32>;
@group(0) @binding(3) var<storage, read> Ks: array<f32>;
@group(0) @binding(4) var<storage, read_write> DQS: array<f32>;
@group(0) @binding(5) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_dk1a qk=f32,x=f32,KT=32: gdn_bwd_dk1a → gdn_bwd_dk1a
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> vn: array<f32>;
@group(0) @binding(3) var<storage, read> DHE: array<f32>;
@group(0) @binding(4) var<storage, read> Ks: array<f32>;
@group(0) @binding(5) var<storage, read_write> DKS: array<f32>;
@group(0) @binding(6) var<storage, read_write> RWP: array<f32>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_dk1b qk=f32,x=f32,KT=32: gdn_bwd_dk1b → gdn_bwd_dk1b
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read> CD2: array<f32>;
@group(0) @binding(4) var<storage, read> hs: array<f32>;
@group(0) @binding(5) var<storage, read> Ks: array<f32>;
@group(0) @binding(6) var<storage, read_write> DKS: array<f32>;
@group(0) @binding(7) var<storage, read_write> RWP: array<f32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_dk2 qk=f32,x=f32,KT=32: gdn_bwd_dk2 → gdn_bwd_dk2
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> beta: array<f32>;
@group(0) @binding(3) var<storage, read> PMBS: array<f32>;
@group(0) @binding(4) var<storage, read> Qs: array<f32>;
@group(0) @binding(5) var<storage, read> Ks: array<f32>;
@group(0) @binding(6) var<storage, read_write> DKS: array<f32>;
@group(0) @binding(7) var<uniform> p: Params;

// ---- gdn backward gdn_bwd_state qk=f32,MR=2,DKP=128,BV=16,KW=32,WPF=false: gdn_bwd_state → gdn_bwd_state
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  nwork: u32,
  nlin: u32,
  nct: u32,
  nrt: u32,
  hvn: u32,
  grp: u32,
  dk: u32,
  dv: u32,
  cs: u32,
  tab0: u32,
  qsb: u32,
  qst: u32,
  qsh: u32,
  vsb: u32,
  vst: u32,
  vsh: u32,
  gsb: u32,
  gst: u32,
  gsh: u32,
  scale: f32,
  nanbits: u32,
  nvt: u32,
  count: u32,
  slot: u32,
  hoff: u32,
  flag: u32,
}
@group(0) @binding(0) var<storage, read> ctab: array<u32>;
@group(0) @binding(1) var<storage, read> gcum: array<f32>;
@group(0) @binding(2) var<storage, read> Ks: array<f32>;
@group(0) @binding(3) var<storage, read> Wm: array<f32>;
@group(0) @binding(4) var<storage, read> hs: array<f32>;
@group(0) @binding(5) var<storage, read> CD1: array<f32>;
@group(0) @binding(6) var<storage, read_write> CD2: array<f32>;
@group(0) @binding(7) var<storage, read_write> DHE: array<f32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn state staged C=64 dk=dv=128 float32: gdn_state_staged → gdn_state_staged
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  tiles: u32,
  vtiles: u32,
  HV: u32,
  hpk: u32,
  varlen: u32,
  has_s0: u32,
  sB: u32,
  sT: u32,
  sH: u32,
}
@group(0) @binding(0) var<storage, read> seq: array<vec4u>;
@group(0) @binding(1) var<storage, read> W: array<vec4f>;
@group(0) @binding(2) var<storage, read> U: array<vec4f>;
@group(0) @binding(3) var<storage, read> gcum: array<f32>;
@group(0) @binding(4) var<storage, read> K: array<vec4f>;
@group(0) @binding(5) var<storage, read_write> h: array<vec4f>;
@group(0) @binding(6) var<storage, read_write> vn: array<vec4f>;
@group(0) @binding(7) var<storage, read_write> fin: array<vec4f>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn state staged C=64 dk=dv=128 float16 keys, default limits: gdn_state_staged → gdn_state_staged
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  tiles: u32,
  vtiles: u32,
  HV: u32,
  hpk: u32,
  varlen: u32,
  has_s0: u32,
  sB: u32,
  sT: u32,
  sH: u32,
}
@group(0) @binding(0) var<storage, read> seq: array<vec4u>;
@group(0) @binding(1) var<storage, read> W: array<vec4f>;
@group(0) @binding(2) var<storage, read> U: array<vec4f>;
@group(0) @binding(3) var<storage, read> gcum: array<f32>;
@group(0) @binding(4) var<storage, read> K: array<vec2u>;
@group(0) @binding(5) var<storage, read_write> h: array<vec4f>;
@group(0) @binding(6) var<storage, read_write> vn: array<vec4f>;
@group(0) @binding(7) var<storage, read_write> fin: array<vec4f>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn state staged C=32 dk=6 dv=10 float32 (partial tile): gdn_state_staged → gdn_state_staged
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  tiles: u32,
  vtiles: u32,
  HV: u32,
  hpk: u32,
  varlen: u32,
  has_s0: u32,
  sB: u32,
  sT: u32,
  sH: u32,
}
@group(0) @binding(0) var<storage, read> seq: array<vec4u>;
@group(0) @binding(1) var<storage, read> W: array<f32>;
@group(0) @binding(2) var<storage, read> U: array<f32>;
@group(0) @binding(3) var<storage, read> gcum: array<f32>;
@group(0) @binding(4) var<storage, read> K: array<f32>;
@group(0) @binding(5) var<storage, read_write> h: array<f32>;
@group(0) @binding(6) var<storage, read_write> vn: array<f32>;
@group(0) @binding(7) var<storage, read_write> fin: array<f32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn state staged C=16 dk=6 dv=10 float16 keys: gdn_state_staged → gdn_state_staged
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  tiles: u32,
  vtiles: u32,
  HV: u32,
  hpk: u32,
  varlen: u32,
  has_s0: u32,
  sB: u32,
  sT: u32,
  sH: u32,
}
@group(0) @binding(0) var<storage, read> seq: array<vec4u>;
@group(0) @binding(1) var<storage, read> W: array<f32>;
@group(0) @binding(2) var<storage, read> U: array<f32>;
@group(0) @binding(3) var<storage, read> gcum: array<f32>;
@group(0) @binding(4) var<storage, read> K: array<u32>;
@group(0) @binding(5) var<storage, read_write> h: array<f32>;
@group(0) @binding(6) var<storage, read_write> vn: array<f32>;
@group(0) @binding(7) var<storage, read_write> fin: array<f32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn finalize: gdn_finalize → gdn_finalize
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  count: u32,
  size: u32,
  has_s0: u32,
}
@group(0) @binding(0) var<storage, read> S0: array<f32>;
@group(0) @binding(1) var<storage, read_write> fin: array<f32>;
@group(0) @binding(2) var<storage, read_write> status: array<i32>;
@group(0) @binding(3) var<uniform> p: Params;

// ---- gdn output C=64 dk=dv=128 float32: gdn_output → gdn_output
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  tiles: u32,
  nrb: u32,
  vtiles: u32,
  HV: u32,
  hpk: u32,
  sB: u32,
  sT: u32,
  sH: u32,
  oB: u32,
  oT: u32,
  oH: u32,
  scale: f32,
}
@group(0) @binding(0) var<storage, read> tab: array<vec4u>;
@group(0) @binding(1) var<storage, read> Q: array<vec4f>;
@group(0) @binding(2) var<storage, read> K: array<vec4f>;
@group(0) @binding(3) var<storage, read> gcum: array<f32>;
@group(0) @binding(4) var<storage, read> h: array<vec4f>;
@group(0) @binding(5) var<storage, read> vn: array<vec4f>;
@group(0) @binding(6) var<storage, read> status: array<i32>;
@group(0) @binding(7) var<storage, read_write> o: array<vec4f>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn output C=64 dk=dv=128 float16: gdn_output → gdn_output
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  tiles: u32,
  nrb: u32,
  vtiles: u32,
  HV: u32,
  hpk: u32,
  sB: u32,
  sT: u32,
  sH: u32,
  oB: u32,
  oT: u32,
  oH: u32,
  scale: f32,
}
@group(0) @binding(0) var<storage, read> tab: array<vec4u>;
@group(0) @binding(1) var<storage, read> Q: array<vec2u>;
@group(0) @binding(2) var<storage, read> K: array<vec2u>;
@group(0) @binding(3) var<storage, read> gcum: array<f32>;
@group(0) @binding(4) var<storage, read> h: array<vec4f>;
@group(0) @binding(5) var<storage, read> vn: array<vec4f>;
@group(0) @binding(6) var<storage, read> status: array<i32>;
@group(0) @binding(7) var<storage, read_write> o: array<vec2u>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn output C=32 dk=6 dv=10 float32, row blocks: gdn_output → gdn_output
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  tiles: u32,
  nrb: u32,
  vtiles: u32,
  HV: u32,
  hpk: u32,
  sB: u32,
  sT: u32,
  sH: u32,
  oB: u32,
  oT: u32,
  oH: u32,
  scale: f32,
}
@group(0) @binding(0) var<storage, read> tab: array<vec4u>;
@group(0) @binding(1) var<storage, read> Q: array<f32>;
@group(0) @binding(2) var<storage, read> K: array<f32>;
@group(0) @binding(3) var<storage, read> gcum: array<f32>;
@group(0) @binding(4) var<storage, read> h: array<f32>;
@group(0) @binding(5) var<storage, read> vn: array<f32>;
@group(0) @binding(6) var<storage, read> status: array<i32>;
@group(0) @binding(7) var<storage, read_write> o: array<f32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- gdn output C=16 dk=6 dv=10 normalised float32 q/k, float16 o: gdn_output → gdn_output
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
struct Params {
  tiles: u32,
  nrb: u32,
  vtiles: u32,
  HV: u32,
  hpk: u32,
  sB: u32,
  sT: u32,
  sH: u32,
  oB: u32,
  oT: u32,
  oH: u32,
  scale: f32,
}
@group(0) @binding(0) var<storage, read> tab: array<vec4u>;
@group(0) @binding(1) var<storage, read> Q: array<f32>;
@group(0) @binding(2) var<storage, read> K: array<f32>;
@group(0) @binding(3) var<storage, read> gcum: array<f32>;
@group(0) @binding(4) var<storage, read> h: array<f32>;
@group(0) @binding(5) var<storage, read> vn: array<f32>;
@group(0) @binding(6) var<storage, read> status: array<i32>;
@group(0) @binding(7) var<storage, read_write> o: array<u32>;
@group(0) @binding(8) var<uniform> p: Params;

// ---- device probe (device.ts)
// Bindings generated from the program declaration (src/backend/gpu/program.ts).
@group(0) @binding(0) var<storage, read_write> io: array<f32>;
