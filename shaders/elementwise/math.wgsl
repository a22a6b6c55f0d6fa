// NaN-safe f32 and complex64 functions for the elementwise kernels. Written on the bits
// and with cephes-style polynomials instead of WGSL's builtins: WGSL lets an
// implementation assume no NaN/Inf and gives sin/cos/atan2/exp/log/pow only loose
// accuracy (Vulkan: sin/cos 2^-11 absolute, atan2 4096 ulp), so each function here
// handles NaN, ±Inf and ±0 explicitly and stays within a few ulp of numpy's float32.

// x through an xor with the zero uniform: Mesa's NIR reassociates float arithmetic (it folds
// (1 + x) − 1 to x), and a value it cannot see through keeps the rounding these tricks need.
fn opaque(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) ^ p.zero); }

fn f_nan() -> f32 { var b = 0x7fc00000u; return bitcast<f32>(b); }  // a var: a NaN constant does not compile
fn f_inf() -> f32 { var b = 0x7f800000u; return bitcast<f32>(b); }
fn is_nan(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }
fn is_inf(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) == 0x7f800000u; }
fn is_finite(x: f32) -> bool { return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u; }
// zero on the bits: subnormals count as nonzero whatever the GPU flushes
fn is_zero(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) == 0u; }
fn sign_bit(x: f32) -> bool { return (bitcast<u32>(x) >> 31u) != 0u; }
fn f_abs(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) & 0x7fffffffu); }
fn f_neg(x: f32) -> f32 { return bitcast<f32>(bitcast<u32>(x) ^ 0x80000000u); }
fn copysign_f(m: f32, s: f32) -> f32 {
  return bitcast<f32>((bitcast<u32>(m) & 0x7fffffffu) | (bitcast<u32>(s) & 0x80000000u));
}

// An unsigned key ordering non-NaN floats (±0 equal): comparisons on it ignore the
// device's NaN assumptions and subnormal flushing.
fn okey(x: f32) -> u32 {
  var b = bitcast<u32>(x);
  if ((b & 0x7fffffffu) == 0u) { b = 0u; }
  return select(b | 0x80000000u, ~b, (b >> 31u) != 0u);
}
fn f_lt(a: f32, b: f32) -> bool { return !is_nan(a) && !is_nan(b) && okey(a) < okey(b); }
fn f_le(a: f32, b: f32) -> bool { return !is_nan(a) && !is_nan(b) && okey(a) <= okey(b); }
fn f_eq(a: f32, b: f32) -> bool { return !is_nan(a) && !is_nan(b) && okey(a) == okey(b); }
// numpy: NaN in either propagates; on a tie b is returned (so minimum(0, -0) = -0)
fn f_min(a: f32, b: f32) -> f32 { return select(b, a, is_nan(a) || f_lt(a, b)); }
fn f_max(a: f32, b: f32) -> f32 { return select(b, a, is_nan(a) || f_lt(b, a)); }

// a / b with one Newton correction: WGSL's division may be 2.5 ulp off.
fn div_f(a: f32, b: f32) -> f32 {
  let q = a / b;
  if (!is_finite(q) || is_zero(q) || !is_finite(b) || f_abs(b) < 1.1754944e-38 || f_abs(q) < 1.1754944e-38) { return q; }
  let r = fma(-q, b, a);
  return fma(r, 1.0 / b, q);
}

fn sqrt_f(x: f32) -> f32 {
  if (is_nan(x) || is_zero(x)) { return x; }
  if (sign_bit(x)) { return f_nan(); }
  if (is_inf(x)) { return x; }
  // Subnormal x from its bits (x = b·2^-149): GPUs that flush subnormals would make sqrt(x) 0 and the correction NaN.
  let b = bitcast<u32>(x) & 0x7fffffffu;
  var y = x;
  var k = 0;
  if (b < 0x00800000u) { y = 2.0 * f32(b); k = -75; }
  let s = sqrt(y);
  let r = fma(-s, s, y);
  return ldexp(fma(r, 0.5 / s, s), k);
}

fn ldexp2(y: f32, n: i32) -> f32 {
  let h = n / 2;
  return ldexp(ldexp(y, h), n - h);
}

// cephes expf: x = n·ln2 + r, |r| ≤ ln2/2, degree-6 polynomial.
fn exp_f(x: f32) -> f32 {
  if (is_nan(x)) { return x; }
  if (x > 88.72283935546875) { return f_inf(); }
  if (x < -103.97208404541015625) { return 0.0; }
  let n = floor(fma(x, 1.44269504088896341, 0.5));
  var r = fma(-n, 0.693359375, x);
  r = fma(n, 2.12194440e-4, r);
  let z = r * r;
  var y = 1.9875691500e-4;
  y = fma(y, r, 1.3981999507e-3);
  y = fma(y, r, 8.3334519073e-3);
  y = fma(y, r, 4.1665795894e-2);
  y = fma(y, r, 1.6666665459e-1);
  y = fma(y, r, 5.0000001201e-1);
  y = fma(y, z, r) + 1.0;
  return ldexp2(y, i32(n));
}

// cephes logf on a mantissa in [√½, √2) split from the bits (subnormals included).
fn log_f(x: f32) -> f32 {
  let b = bitcast<u32>(x);
  if (is_nan(x)) { return x; }
  if ((b & 0x7fffffffu) == 0u) { return -f_inf(); }
  if ((b >> 31u) != 0u) { return f_nan(); }
  if (b == 0x7f800000u) { return x; }
  var e = i32(b >> 23u);
  var mb = b & 0x7fffffu;
  if (e == 0) {
    let s = countLeadingZeros(mb) - 8u;
    mb = (mb << s) & 0x7fffffu;
    e = 1 - i32(s);
  }
  var m = bitcast<f32>(mb | 0x3f800000u);
  var ex = f32(e - 127);
  if (m > 1.41421356) { m = m * 0.5; ex += 1.0; }
  let t = m - 1.0;
  let z = t * t;
  var y = 7.0376836292e-2;
  y = fma(y, t, -1.1514610310e-1);
  y = fma(y, t, 1.1676998740e-1);
  y = fma(y, t, -1.2420140846e-1);
  y = fma(y, t, 1.4249322787e-1);
  y = fma(y, t, -1.6668057665e-1);
  y = fma(y, t, 2.0000714765e-1);
  y = fma(y, t, -2.4999993993e-1);
  y = fma(y, t, 3.3333331174e-1);
  y = y * t * z;
  y = fma(ex, -2.12194440e-4, y);
  y = fma(z, -0.5, y);
  let r = t + y;
  return fma(ex, 0.693359375, r);
}

fn log1p_f(x: f32) -> f32 {
  if (is_nan(x) || is_zero(x)) { return x; }
  if (x == -1.0) { return -f_inf(); }
  if (x < -1.0) { return f_nan(); }
  if (is_inf(x)) { return x; }
  let u = opaque(1.0 + x);
  if (u == 1.0) { return x; }
  return log_f(u) * (x / (u - 1.0));
}

// Kahan's expm1 from exp: (u − 1)·x / log u.
fn expm1_f(x: f32) -> f32 {
  if (is_nan(x) || is_zero(x)) { return x; }
  if (x > 17.5) { return exp_f(x); }  // e^x − 1 rounds to e^x (and (u − 1)·x would overflow)
  if (x < -17.5) { return -1.0; }
  let u = exp_f(x);
  if (u == 1.0) { return x; }
  let um1 = u - 1.0;
  if (um1 == -1.0) { return -1.0; }
  return um1 * x / log_f(u);
}

// (sin x, cos x), cephes sinf/cosf: octant reduction by π/4 in three parts (accurate
// to |x| ≈ 5e4; beyond, the reduction loses bits as cephes does).
fn sincos_f(x: f32) -> vec2f {
  if (!is_finite(x)) { return vec2f(f_nan(), f_nan()); }
  let ax = f_abs(x);
  var j = u32(ax * 1.27323954473516);
  var y = f32(j);
  if ((j & 1u) == 1u) { j += 1u; y += 1.0; }
  j = j & 7u;
  var z = fma(-y, 0.78515625, ax);
  z = fma(-y, 2.4187564849853515625e-4, z);
  z = fma(-y, 3.77489497744594108e-8, z);
  let zz = z * z;
  let sp = fma(z * zz, fma(fma(-1.9515295891e-4, zz, 8.3321608736e-3), zz, -1.6666654611e-1), z);
  let cp = fma(zz * zz, fma(fma(2.443315711809948e-5, zz, -1.388731625493765e-3), zz, 4.166664568298827e-2), fma(-0.5, zz, 1.0));
  var js = j;
  var ss = 1.0;
  if (js > 3u) { ss = -1.0; js -= 4u; }
  var s = select(sp, cp, js == 1u || js == 2u) * ss;
  if (sign_bit(x)) { s = -s; }
  var jc = j;
  var cs = 1.0;
  if (jc > 3u) { jc -= 4u; cs = -cs; }
  if (jc > 1u) { cs = -cs; }
  let c = select(cp, sp, jc == 1u || jc == 2u) * cs;
  return vec2f(s, c);
}

fn tanh_f(x: f32) -> f32 {
  if (is_nan(x) || is_zero(x)) { return x; }
  let ax = f_abs(x);
  if (ax < 0.625) {
    let z = x * x;
    let y = fma(fma(fma(fma(-5.70498872745e-3, z, 2.06390887954e-2), z, -5.37397155531e-2), z, 1.33314422036e-1), z, -3.33332819422e-1);
    return fma(y * z, x, x);
  }
  if (ax > 9.02) { return copysign_f(1.0, x); }
  let e = exp_f(2.0 * ax);
  return copysign_f(1.0 - div_f(2.0, e + 1.0), x);
}

fn sigmoid_f(x: f32) -> f32 {
  if (is_nan(x)) { return x; }
  if (!sign_bit(x)) { return div_f(1.0, 1.0 + exp_f(-x)); }
  let e = exp_f(x);
  return div_f(e, 1.0 + e);
}

// cephes atanf for x ≥ 0 (Inf included).
fn atan_pos(x: f32) -> f32 {
  var y0 = 0.0;
  var t = x;
  if (x > 2.414213562373095) { y0 = 1.5707963267948966; t = -1.0 / x; }
  else if (x > 0.4142135623730950) { y0 = 0.7853981633974483; t = (x - 1.0) / (x + 1.0); }
  let z = t * t;
  let p = fma(fma(fma(fma(8.05374449538e-2, z, -1.38776856032e-1), z, 1.99777106478e-1), z, -3.33329491539e-1) * z, t, t);
  return y0 + p;
}

// C99's atan2, special cases spelled out.
fn atan2_f(y: f32, x: f32) -> f32 {
  if (is_nan(x) || is_nan(y)) { return f_nan(); }
  let ax = f_abs(x);
  let ay = f_abs(y);
  let neg = sign_bit(x);
  var r: f32;
  if (is_zero(ay)) { r = select(0.0, 3.14159265358979, neg); }
  else if (is_zero(ax)) { r = 1.5707963267948966; }
  else if (is_inf(ax) && is_inf(ay)) { r = select(0.7853981633974483, 2.356194490192345, neg); }
  else if (is_inf(ax)) { r = select(0.0, 3.14159265358979, neg); }
  else if (is_inf(ay)) { r = 1.5707963267948966; }
  else {
    var t: f32;
    if (ay > ax) { t = 1.5707963267948966 - atan_pos(ax / ay); } else { t = atan_pos(ay / ax); }
    r = select(t, 3.14159265358979 - t, neg);
  }
  return copysign_f(r, y);
}

// (sinh y, cosh y)
fn sinhcosh_f(y: f32) -> vec2f {
  let a = f_abs(y);
  if (is_nan(y)) { return vec2f(y, y); }
  if (a < 1.0) {
    let m = expm1_f(a);
    let s = 0.5 * (m + m / (m + 1.0));
    let c = 1.0 + 0.5 * m * m / (m + 1.0);
    return vec2f(copysign_f(s, y), c);
  }
  if (a > 88.0) {
    let h = exp_f(0.5 * a);
    let v = (0.5 * h) * h;
    return vec2f(copysign_f(v, y), v);
  }
  let e = exp_f(a);
  let ie = 1.0 / e;
  return vec2f(copysign_f(0.5 * (e - ie), y), 0.5 * (e + ie));
}

// x^y with C99's special cases; small integer exponents by repeated squaring.
fn pow_f(x: f32, y: f32) -> f32 {
  if (is_zero(y) || x == 1.0) { return 1.0; }
  if (is_nan(x) || is_nan(y)) { return f_nan(); }
  let ay = f_abs(y);
  let ax = f_abs(x);
  let yint = is_inf(y) || floor(y) == y;
  let yodd = !is_inf(y) && ay < 16777216.0 && (u32(ay) & 1u) == 1u;
  if (is_inf(y)) {
    if (ax == 1.0) { return 1.0; }
    if ((ax < 1.0) != sign_bit(y)) { return 0.0; }
    return f_inf();
  }
  if (is_zero(x)) {
    if (sign_bit(y)) { return select(f_inf(), copysign_f(f_inf(), x), yodd); }
    return select(0.0, x, yodd);
  }
  if (is_inf(x)) {
    let m = select(f_inf(), 0.0, sign_bit(y));
    return select(m, copysign_f(m, x), yodd);
  }
  if (sign_bit(x) && !yint) { return f_nan(); }
  var r: f32;
  if (ay <= 64.0) {
    // exact-ish for x², x³, …: at most ~log2(y) roundings
    var e = u32(ay);
    if (f32(e) == ay) {
      var acc = 1.0;
      var b = ax;
      loop {
        if ((e & 1u) == 1u) { acc *= b; }
        e = e >> 1u;
        if (e == 0u) { break; }
        b *= b;
      }
      r = select(acc, div_f(1.0, acc), sign_bit(y));
      return select(r, -r, sign_bit(x) && yodd);
    }
  }
  r = exp_f(y * log_f(ax));
  return select(r, -r, sign_bit(x) && yodd);
}

// ---- complex64 (vec2f = (re, im))

fn c_mul(a: vec2f, b: vec2f) -> vec2f { return vec2f(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }

// numpy's complex division (Smith's algorithm; a zero divisor gives Inf/NaN as numpy).
fn c_div(a: vec2f, b: vec2f) -> vec2f {
  let abr = f_abs(b.x);
  let abi = f_abs(b.y);
  if (abr >= abi) {
    if (is_zero(abr) && is_zero(abi)) { return vec2f(a.x / abr, a.y / abr); }
    let rat = b.y / b.x;
    let scl = 1.0 / (b.x + b.y * rat);
    return vec2f((a.x + a.y * rat) * scl, (a.y - a.x * rat) * scl);
  }
  if (is_nan(abr) || is_nan(abi)) { return vec2f(f_nan(), f_nan()); }
  let rat = b.x / b.y;
  let scl = 1.0 / (b.y + b.x * rat);
  return vec2f((a.x * rat + a.y) * scl, (a.y * rat - a.x) * scl);
}

// |z| scaled (no overflow of the squares); Inf beats NaN as in C99's hypot.
fn c_abs(z: vec2f) -> f32 {
  let ax = f_abs(z.x);
  let ay = f_abs(z.y);
  if (is_inf(ax) || is_inf(ay)) { return f_inf(); }
  if (is_nan(ax) || is_nan(ay)) { return f_nan(); }
  let m = max(ax, ay);
  let n = min(ax, ay);
  if (is_zero(m)) { return 0.0; }
  let r = n / m;
  return m * sqrt_f(1.0 + r * r);
}

fn c_exp(z: vec2f) -> vec2f {
  if (is_zero(z.y)) { return vec2f(exp_f(z.x), z.y); }
  if (is_inf(z.x) && !is_finite(z.y)) {
    if (sign_bit(z.x)) { return vec2f(0.0, 0.0); }
    return vec2f(z.x, f_nan());
  }
  let sc = sincos_f(z.y);
  if (z.x > 88.0) {
    let h = exp_f(0.5 * z.x);
    return vec2f((h * sc.y) * h, (h * sc.x) * h);
  }
  let e = exp_f(z.x);
  return vec2f(e * sc.y, e * sc.x);
}

fn c_log(z: vec2f) -> vec2f {
  let ax = f_abs(z.x);
  let ay = f_abs(z.y);
  var re: f32;
  if (is_inf(ax) || is_inf(ay)) { re = f_inf(); }
  else if (is_nan(ax) || is_nan(ay)) { re = f_nan(); }
  else {
    let m = max(ax, ay);
    let n = min(ax, ay);
    if (is_zero(m)) { re = -f_inf(); }
    else if (m > 0.5 && m < 2.0) { re = 0.5 * log1p_f((m - 1.0) * (m + 1.0) + n * n); }
    else { re = log_f(c_abs(z)); }
  }
  return vec2f(re, atan2_f(z.y, z.x));
}

fn c_sqrt(z: vec2f) -> vec2f {
  let x = z.x;
  let y = z.y;
  if (is_inf(y)) { return vec2f(f_inf(), y); }
  if (is_nan(x)) { return vec2f(x, f_nan()); }
  if (is_inf(x)) {
    if (!sign_bit(x)) { return vec2f(x, select(copysign_f(0.0, y), y, is_nan(y))); }
    return vec2f(select(0.0, y, is_nan(y)), copysign_f(f_inf(), y));
  }
  if (is_nan(y)) { return vec2f(f_nan(), f_nan()); }
  if (is_zero(x) && is_zero(y)) { return vec2f(0.0, y); }
  let a = f_abs(x);
  let r = c_abs(z);
  var t: f32;
  if (r < 1e38) { t = sqrt_f(0.5 * (a + r)); } else { t = sqrt_f(0.5 * a + 0.5 * r); }
  if (!sign_bit(x)) { return vec2f(t, y / (2.0 * t)); }
  return vec2f(f_abs(y) / (2.0 * t), copysign_f(t, y));
}

fn c_sin(z: vec2f) -> vec2f {
  let sc = sincos_f(z.x);
  let h = sinhcosh_f(z.y);
  return vec2f(sc.x * h.y, sc.y * h.x);
}

fn c_cos(z: vec2f) -> vec2f {
  let sc = sincos_f(z.x);
  let h = sinhcosh_f(z.y);
  return vec2f(sc.y * h.y, -(sc.x * h.x));
}

// Kahan's tanh: t = tan y, β = 1 + t², s = sinh x, ρ = √(1 + s²).
fn c_tanh(z: vec2f) -> vec2f {
  let x = z.x;
  let y = z.y;
  if (is_nan(x)) { return vec2f(x, select(f_nan(), y, is_zero(y))); }
  if (f_abs(x) > 10.0) {
    let sc = sincos_f(y);
    let e = exp_f(-2.0 * f_abs(x));
    return vec2f(copysign_f(1.0, x), select(4.0 * sc.x * sc.y * e, copysign_f(0.0, y), is_zero(y) || !is_finite(y)));
  }
  let sc = sincos_f(y);
  let t = sc.x / sc.y;
  let beta = 1.0 + t * t;
  let s = sinhcosh_f(x).x;
  let rho = sqrt_f(1.0 + s * s);
  let den = 1.0 + beta * s * s;
  return vec2f(beta * rho * s / den, t / den);
}

fn c_sigmoid(z: vec2f) -> vec2f {
  let e = c_exp(vec2f(f_neg(z.x), f_neg(z.y)));
  return c_div(vec2f(1.0, 0.0), vec2f(1.0 + e.x, e.y));
}

fn c_expm1(z: vec2f) -> vec2f {
  if (is_zero(z.y)) { return vec2f(expm1_f(z.x), z.y); }
  let sc = sincos_f(z.y);
  let h = sincos_f(0.5 * z.y).x;
  return vec2f(fma(expm1_f(z.x), sc.y, -2.0 * h * h), exp_f(z.x) * sc.x);
}

fn c_log1p(z: vec2f) -> vec2f {
  let m = max(f_abs(z.x), f_abs(z.y));
  if (!is_finite(z.x) || !is_finite(z.y) || m > 1e18) { return c_log(vec2f(1.0 + z.x, z.y)); }
  if (is_zero(z.y)) {
    if (z.x >= -1.0) { return vec2f(log1p_f(z.x), z.y); }
  }
  return vec2f(0.5 * log1p_f(fma(z.x, 2.0 + z.x, z.y * z.y)), atan2_f(z.y, 1.0 + z.x));
}

fn c_sign(z: vec2f) -> vec2f {
  if (is_zero(z.x) && is_zero(z.y)) { return vec2f(0.0, 0.0); }
  if (is_nan(z.x) || is_nan(z.y)) { return vec2f(f_nan(), f_nan()); }
  var u = z;
  if (is_inf(z.x) || is_inf(z.y)) {
    u = vec2f(select(copysign_f(0.0, z.x), copysign_f(1.0, z.x), is_inf(z.x)),
              select(copysign_f(0.0, z.y), copysign_f(1.0, z.y), is_inf(z.y)));
  }
  let r = c_abs(u);
  return vec2f(div_f(u.x, r), div_f(u.y, r));
}

// numpy's complex power: a^0 = 1, 0^b = 0 for real b > 0 (else NaN), integer real b with
// |b| < 100 by repeated squaring, otherwise exp(b·log a).
fn c_pow(a: vec2f, b: vec2f) -> vec2f {
  if (is_zero(b.x) && is_zero(b.y)) { return vec2f(1.0, 0.0); }
  if (is_zero(a.x) && is_zero(a.y)) {
    if (b.x > 0.0 && is_zero(b.y)) { return vec2f(0.0, 0.0); }
    return vec2f(f_nan(), f_nan());
  }
  if (is_zero(b.y) && is_finite(b.x) && floor(b.x) == b.x && f_abs(b.x) < 100.0) {
    let n = i32(b.x);
    var e = u32(abs(n));
    var acc = vec2f(1.0, 0.0);
    var base = a;
    loop {
      if ((e & 1u) == 1u) { acc = c_mul(acc, base); }
      e = e >> 1u;
      if (e == 0u) { break; }
      base = c_mul(base, base);
    }
    if (n < 0) { return c_div(vec2f(1.0, 0.0), acc); }
    return acc;
  }
  return c_exp(c_mul(b, c_log(a)));
}
