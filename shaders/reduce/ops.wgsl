// The reduction classes of shaders/reduce/reduce.wgsl: one per (op, storage kind), chosen
// by the define CLS (src/backend/gpu/reduce.ts reduceClass). Each gives the accumulator
// type A and its 16-byte-word form V (4 scalars, or 2 complex numbers), the identity, the
// conversion of a storage word (WORD: u32, or vec2u for complex) to A, the combine, the
// horizontal fold of V, and `emit` (A → the output's storage word).
// Float NaN/Inf tests are on the bits: a backend may assume finite floats in comparisons.
// int32, uint32 and bool share the u32 classes where the bits agree (wrapping add/mul,
// truth of any/all); p.mask selects the bits that make a word true (floats drop the sign).

// ±Inf as runtime values (a constant bitcast to Inf is a shader-creation error in WGSL)
var<private> INF_BITS: u32 = 0x7f800000u;
fn pinf() -> f32 { return bitcast<f32>(INF_BITS); }
fn ninf() -> f32 { return bitcast<f32>(INF_BITS | 0x80000000u); }

fn nan1(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
fn nan4(x: vec4f) -> vec4<bool> { return (bitcast<vec4u>(x) & vec4u(0x7fffffffu)) > vec4u(0x7f800000u); }
fn fin1(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u; }
fn fin2(x: vec2f) -> vec2<bool> { return (bitcast<vec2u>(x) & vec2u(0x7f800000u)) != vec2u(0x7f800000u); }
fn fin4(x: vec4f) -> vec4<bool> { return (bitcast<vec4u>(x) & vec4u(0x7f800000u)) != vec4u(0x7f800000u); }
fn truth1(w: u32) -> u32 { return select(0u, 1u, (w & p.mask) != 0u); }
fn truth4(w: vec4u) -> vec4u { return select(vec4u(0u), vec4u(1u), (w & vec4u(p.mask)) != vec4u(0u)); }

#if C_FSUM
alias A = f32;
alias V = vec4f;
fn ident() -> A { return 0.0; }
fn identv() -> V { return V(0.0); }
fn lift(w: u32) -> A { return bitcast<f32>(w); }
fn liftv(w: vec4u) -> V { return bitcast<vec4f>(w); }
fn comb(a: A, b: A) -> A { return a + b; }
fn combv(a: V, b: V) -> V { return a + b; }
fn hred(v: V) -> A { return (v.x + v.y) + (v.z + v.w); }
fn emit(a: A) -> u32 { return bitcast<u32>(a); }
fn finA(x: A) -> bool { return fin1(x); }
fn finV(x: V) -> vec4<bool> { return fin4(x); }
#endif

#if C_CSUM
alias A = vec2f;
alias V = vec4f;
fn ident() -> A { return A(0.0); }
fn identv() -> V { return V(0.0); }
fn lift(w: vec2u) -> A { return bitcast<vec2f>(w); }
fn liftv(w: vec4u) -> V { return bitcast<vec4f>(w); }
fn comb(a: A, b: A) -> A { return a + b; }
fn combv(a: V, b: V) -> V { return a + b; }
fn hred(v: V) -> A { return v.xy + v.zw; }
fn emit(a: A) -> vec2u { return bitcast<vec2u>(a); }
fn finA(x: A) -> vec2<bool> { return fin2(x); }
fn finV(x: V) -> vec4<bool> { return fin4(x); }
#endif

#if C_FPROD
alias A = f32;
alias V = vec4f;
fn ident() -> A { return 1.0; }
fn identv() -> V { return V(1.0); }
fn lift(w: u32) -> A { return bitcast<f32>(w); }
fn liftv(w: vec4u) -> V { return bitcast<vec4f>(w); }
fn comb(a: A, b: A) -> A { return a * b; }
fn combv(a: V, b: V) -> V { return a * b; }
fn hred(v: V) -> A { return (v.x * v.y) * (v.z * v.w); }
fn emit(a: A) -> u32 { return bitcast<u32>(a); }
#endif

#if C_CPROD
alias A = vec2f;
alias V = vec4f;
fn cmul(a: vec2f, b: vec2f) -> vec2f { return vec2f(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
fn ident() -> A { return A(1.0, 0.0); }
fn identv() -> V { return V(1.0, 0.0, 1.0, 0.0); }
fn lift(w: vec2u) -> A { return bitcast<vec2f>(w); }
fn liftv(w: vec4u) -> V { return bitcast<vec4f>(w); }
fn comb(a: A, b: A) -> A { return cmul(a, b); }
fn combv(a: V, b: V) -> V { return V(cmul(a.xy, b.xy), cmul(a.zw, b.zw)); }
fn hred(v: V) -> A { return cmul(v.xy, v.zw); }
fn emit(a: A) -> vec2u { return bitcast<vec2u>(a); }
#endif

#if C_FMAX
alias A = f32;
alias V = vec4f;
fn ident() -> A { return ninf(); }
fn identv() -> V { return V(ident()); }
fn lift(w: u32) -> A { return bitcast<f32>(w); }
fn liftv(w: vec4u) -> V { return bitcast<vec4f>(w); }
fn comb(a: A, b: A) -> A { return select(select(select(b, a, a > b), b, nan1(b)), a, nan1(a)); }
fn combv(a: V, b: V) -> V { return select(select(select(b, a, a > b), b, nan4(b)), a, nan4(a)); }
fn hred(v: V) -> A { return comb(comb(v.x, v.y), comb(v.z, v.w)); }
fn emit(a: A) -> u32 { return bitcast<u32>(a); }
#endif

#if C_FMIN
alias A = f32;
alias V = vec4f;
fn ident() -> A { return pinf(); }
fn identv() -> V { return V(ident()); }
fn lift(w: u32) -> A { return bitcast<f32>(w); }
fn liftv(w: vec4u) -> V { return bitcast<vec4f>(w); }
fn comb(a: A, b: A) -> A { return select(select(select(b, a, a < b), b, nan1(b)), a, nan1(a)); }
fn combv(a: V, b: V) -> V { return select(select(select(b, a, a < b), b, nan4(b)), a, nan4(a)); }
fn hred(v: V) -> A { return comb(comb(v.x, v.y), comb(v.z, v.w)); }
fn emit(a: A) -> u32 { return bitcast<u32>(a); }
#endif

#if C_ISUM
alias A = u32;
alias V = vec4u;
fn ident() -> A { return 0u; }
fn identv() -> V { return V(0u); }
fn lift(w: u32) -> A { return w; }
fn liftv(w: vec4u) -> V { return w; }
fn comb(a: A, b: A) -> A { return a + b; }
fn combv(a: V, b: V) -> V { return a + b; }
fn hred(v: V) -> A { return (v.x + v.y) + (v.z + v.w); }
fn emit(a: A) -> u32 { return a; }
#endif

#if C_IPROD
alias A = u32;
alias V = vec4u;
fn ident() -> A { return 1u; }
fn identv() -> V { return V(1u); }
fn lift(w: u32) -> A { return w; }
fn liftv(w: vec4u) -> V { return w; }
fn comb(a: A, b: A) -> A { return a * b; }
fn combv(a: V, b: V) -> V { return a * b; }
fn hred(v: V) -> A { return (v.x * v.y) * (v.z * v.w); }
fn emit(a: A) -> u32 { return a; }
#endif

#if C_IMAX
alias A = i32;
alias V = vec4i;
fn ident() -> A { return bitcast<i32>(0x80000000u); }
fn identv() -> V { return V(ident()); }
fn lift(w: u32) -> A { return bitcast<i32>(w); }
fn liftv(w: vec4u) -> V { return bitcast<vec4i>(w); }
fn comb(a: A, b: A) -> A { return max(a, b); }
fn combv(a: V, b: V) -> V { return max(a, b); }
fn hred(v: V) -> A { return max(max(v.x, v.y), max(v.z, v.w)); }
fn emit(a: A) -> u32 { return bitcast<u32>(a); }
#endif

#if C_IMIN
alias A = i32;
alias V = vec4i;
fn ident() -> A { return 0x7fffffffi; }
fn identv() -> V { return V(ident()); }
fn lift(w: u32) -> A { return bitcast<i32>(w); }
fn liftv(w: vec4u) -> V { return bitcast<vec4i>(w); }
fn comb(a: A, b: A) -> A { return min(a, b); }
fn combv(a: V, b: V) -> V { return min(a, b); }
fn hred(v: V) -> A { return min(min(v.x, v.y), min(v.z, v.w)); }
fn emit(a: A) -> u32 { return bitcast<u32>(a); }
#endif

#if C_UMAX
alias A = u32;
alias V = vec4u;
fn ident() -> A { return 0u; }
fn identv() -> V { return V(0u); }
fn lift(w: u32) -> A { return w; }
fn liftv(w: vec4u) -> V { return w; }
fn comb(a: A, b: A) -> A { return max(a, b); }
fn combv(a: V, b: V) -> V { return max(a, b); }
fn hred(v: V) -> A { return max(max(v.x, v.y), max(v.z, v.w)); }
fn emit(a: A) -> u32 { return a; }
#endif

#if C_UMIN
alias A = u32;
alias V = vec4u;
fn ident() -> A { return 0xffffffffu; }
fn identv() -> V { return V(0xffffffffu); }
fn lift(w: u32) -> A { return w; }
fn liftv(w: vec4u) -> V { return w; }
fn comb(a: A, b: A) -> A { return min(a, b); }
fn combv(a: V, b: V) -> V { return min(a, b); }
fn hred(v: V) -> A { return min(min(v.x, v.y), min(v.z, v.w)); }
fn emit(a: A) -> u32 { return a; }
#endif

#if C_ANY
alias A = u32;
alias V = vec4u;
fn ident() -> A { return 0u; }
fn identv() -> V { return V(0u); }
fn lift(w: u32) -> A { return truth1(w); }
fn liftv(w: vec4u) -> V { return truth4(w); }
fn comb(a: A, b: A) -> A { return a | b; }
fn combv(a: V, b: V) -> V { return a | b; }
fn hred(v: V) -> A { return (v.x | v.y) | (v.z | v.w); }
fn emit(a: A) -> u32 { return a; }
#endif

#if C_ALL
alias A = u32;
alias V = vec4u;
fn ident() -> A { return 1u; }
fn identv() -> V { return V(1u); }
fn lift(w: u32) -> A { return truth1(w); }
fn liftv(w: vec4u) -> V { return truth4(w); }
fn comb(a: A, b: A) -> A { return a & b; }
fn combv(a: V, b: V) -> V { return a & b; }
fn hred(v: V) -> A { return (v.x & v.y) & (v.z & v.w); }
fn emit(a: A) -> u32 { return a; }
#endif

#if C_CANY
alias A = u32;
alias V = vec2u;
fn ident() -> A { return 0u; }
fn identv() -> V { return V(0u); }
fn lift(w: vec2u) -> A { return truth1(w.x | w.y); }
fn liftv(w: vec4u) -> V { return V(truth1(w.x | w.y), truth1(w.z | w.w)); }
fn comb(a: A, b: A) -> A { return a | b; }
fn combv(a: V, b: V) -> V { return a | b; }
fn hred(v: V) -> A { return v.x | v.y; }
fn emit(a: A) -> u32 { return a; }
#endif

#if C_CALL
alias A = u32;
alias V = vec2u;
fn ident() -> A { return 1u; }
fn identv() -> V { return V(1u); }
fn lift(w: vec2u) -> A { return truth1(w.x | w.y); }
fn liftv(w: vec4u) -> V { return V(truth1(w.x | w.y), truth1(w.z | w.w)); }
fn comb(a: A, b: A) -> A { return a & b; }
fn combv(a: V, b: V) -> V { return a & b; }
fn hred(v: V) -> A { return v.x & v.y; }
fn emit(a: A) -> u32 { return a; }
#endif

// Accumulation into s: Kahan-compensated for float sums (c holds the lost low part, so
// a long per-thread chain — a column walk of 10⁴ rows — errs like a short one); the
// compensation is dropped once the sum is ±Inf or NaN, which then propagates as in a plain sum.
// The new sum passes through opq (an xor with p.zero, always 0): compilers that treat float
// adds as associative (Mesa's NIR does) would otherwise fold (s + y) − s − y to 0.
#if KAHAN
fn opq(x: A) -> A { return bitcast<A>(bitcast<${WORD}>(x) ^ ${WORD}(p.zero)); }
fn opqv(x: V) -> V { return bitcast<V>(bitcast<vec4u>(x) ^ vec4u(p.zero)); }
#endif

fn push(s: ptr<function, A>, c: ptr<function, A>, x: A) {
#if KAHAN
  let y = x - *c;
  let t = opq(*s + y);
  *c = select(A(0.0), (t - *s) - y, finA(t));
  *s = t;
#else
  *s = comb(*s, x);
#endif
}

fn pushv(s: ptr<function, V>, c: ptr<function, V>, x: V) {
#if KAHAN
  let y = x - *c;
  let t = opqv(*s + y);
  *c = select(V(0.0), (t - *s) - y, finV(t));
  *s = t;
#else
  *s = combv(*s, x);
#endif
}

fn finish(s: A, c: A) -> A {
#if KAHAN
  return s - c;
#else
  return s;
#endif
}

fn finishv(s: V, c: V) -> A {
#if KAHAN
  return hred(s - c);
#else
  return hred(s);
#endif
}
