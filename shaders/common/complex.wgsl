// Complex arithmetic on vec2f = (re, im), and dtype-generic helpers (t*) so one kernel
// source serves f32 and complex64: with IS_COMPLEX the t* helpers are the complex ones.
// Needs the dtype defines T and IS_COMPLEX (src/backend/gpu/preprocess.ts dtypeDefines).

fn cmul(a: vec2f, b: vec2f) -> vec2f {
  return vec2f(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

fn cconj(a: vec2f) -> vec2f {
  return vec2f(a.x, -a.y);
}

// |a| without overflow or underflow of the squares.
fn cabs(a: vec2f) -> f32 {
  let s = max(abs(a.x), abs(a.y));
  if (s == 0.0 || s > 3.4028234e38) { return s; }
  let x = a.x / s;
  let y = a.y / s;
  return s * sqrt(x * x + y * y);
}

// a / b by Smith's algorithm: no overflow of |b|^2 for large b.
fn cdiv(a: vec2f, b: vec2f) -> vec2f {
  if (abs(b.x) >= abs(b.y)) {
    let r = b.y / b.x;
    let d = b.x + b.y * r;
    return vec2f((a.x + a.y * r) / d, (a.y - a.x * r) / d);
  }
  let r = b.x / b.y;
  let d = b.x * r + b.y;
  return vec2f((a.x * r + a.y) / d, (a.y * r - a.x) / d);
}

// acc + a*b
fn cfma(a: vec2f, b: vec2f, acc: vec2f) -> vec2f {
  return vec2f(fma(a.x, b.x, fma(-a.y, b.y, acc.x)), fma(a.x, b.y, fma(a.y, b.x, acc.y)));
}

#if IS_COMPLEX
fn tmul(a: ${T}, b: ${T}) -> ${T} { return cmul(a, b); }
fn tdiv(a: ${T}, b: ${T}) -> ${T} { return cdiv(a, b); }
fn tfma(a: ${T}, b: ${T}, acc: ${T}) -> ${T} { return cfma(a, b, acc); }
fn tconj(a: ${T}) -> ${T} { return cconj(a); }
fn tabs(a: ${T}) -> f32 { return cabs(a); }
#elif IS_INT
fn tmul(a: ${T}, b: ${T}) -> ${T} { return a * b; }
fn tdiv(a: ${T}, b: ${T}) -> ${T} { return a / b; }
fn tfma(a: ${T}, b: ${T}, acc: ${T}) -> ${T} { return a * b + acc; }
fn tconj(a: ${T}) -> ${T} { return a; }
fn tabs(a: ${T}) -> ${T} { return abs(a); }
#else
fn tmul(a: ${T}, b: ${T}) -> ${T} { return a * b; }
fn tdiv(a: ${T}, b: ${T}) -> ${T} { return a / b; }
fn tfma(a: ${T}, b: ${T}, acc: ${T}) -> ${T} { return fma(a, b, acc); }
fn tconj(a: ${T}) -> ${T} { return a; }
fn tabs(a: ${T}) -> ${T} { return abs(a); }
#endif
