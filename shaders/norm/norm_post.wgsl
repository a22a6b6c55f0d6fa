// norm_post: one value per matrix from its singular values S (count × k, descending) and
// statuses, one thread per matrix. mode 0: ‖A‖₂, 1: σ_min, 2: nuclear, 3: cond₂ = σ_max/σ_min,
// 4: cond₋₂ = σ_min/σ_max, 5: cond = aux·aux2 (‖A‖·‖A⁻¹‖; Infinity where inv's info > 0).
// info −1 (NaN/Inf in A): orders 2 and nuc give Infinity unless aux (max |a|) is NaN, the rest NaN.
#include "common/linear_id.wgsl"

// Runtime values: a constant Inf or NaN is a shader-creation error in WGSL.
var<private> INF_BITS: u32 = 0x7f800000u;
var<private> NAN_BITS: u32 = 0x7fc00000u;
fn inf_f() -> f32 { return bitcast<f32>(INF_BITS); }
fn nan_f() -> f32 { return bitcast<f32>(NAN_BITS); }

fn is_nan_bits(x: f32) -> bool { return (bitcast<u32>(x) & 0x7fffffffu) > 0x7f800000u; }

fn ratio(a: f32, b: f32) -> f32 {
  if (b == 0.0) { return select(inf_f(), nan_f(), a == 0.0); }
  if (bitcast<u32>(b) >= 0x7f800000u) { return a / b; }
  // Through b's binade: a fast division's 1/b is flushed to 0 for b above 2^126.
  let fb = frexp(b);
  return ldexp(a, -fb.exp) / fb.fract;
}

@compute @workgroup_size(${WG})
fn norm_post_${DTYPE}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
             @builtin(local_invocation_index) lid: u32) {
  let b = linear_workgroup_id(wid, nwg) * ${WG}u + lid;
  if (b >= p.count) { return; }
  let k = p.k;
  let st = info[b];
  var res = 0.0;
  if (p.mode == 5u) {
    res = select(aux[b] * aux2[b], inf_f(), st > 0);
  } else if (st == -1) {
    res = select(nan_f(), inf_f(), (p.mode == 0u || p.mode == 2u) && !is_nan_bits(aux[b]));
  } else if (k == 0u) {
    res = select(0.0, inf_f(), p.mode == 1u || p.mode == 4u);
  } else {
    let hi = S[b * k];
    let lo = S[b * k + k - 1u];
    switch p.mode {
      case 0u: { res = hi; }
      case 1u: { res = lo; }
      case 2u: {
        var acc = 0.0;
        for (var i = 0u; i < k; i++) { acc += S[b * k + i]; }
        res = acc;
      }
      case 3u: { res = ratio(hi, lo); }
      default: { res = ratio(lo, hi); }
    }
  }
  out[b] = res;
}
