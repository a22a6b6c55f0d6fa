// put: out (a copy of x, made before this dispatch) gets out.flat[index[e]] = values[e], or
// += with ACCUMULATE; negative indices wrap, out-of-range ones are skipped and recorded in
// status (see bounds.wgsl). Raw bits: one kernel per element width.
// Without ACCUMULATE, two dispatches make a repeated index keep its last value (the CPU's
// rule): phase 0 leaves in winner[j] (zeroed) the largest e + 1 aimed at j, phase 1 lets
// only that e store its value, a whole E (u32 or vec2u).
// ACCUMULATE: out is atomic<u32> words, WORDS per element (complex64: 2, each half on its
// own); mode 1 atomicAdd (int32 and uint32: two's complement wraps alike), 2 atomicOr
// (bool: logical or), 3 float add by a compare-exchange loop on the f32 bits (WebGPU has
// no float atomics; the order of the additions, so the rounding, varies from run to run).
// Uniforms: total (index's elements), size (x's), unsigned (a uint32 index tensor), then
// phase (store) or mode (accumulate).
#include "common/linear_id.wgsl"
#include "indexing/bounds.wgsl"

#if ACCUMULATE
fn add_f32(w: u32, v: u32) {
  var old = atomicLoad(&out[w]);
  loop {
    let r = atomicCompareExchangeWeak(&out[w], old, bitcast<u32>(bitcast<f32>(old) + bitcast<f32>(v)));
    if (r.exchanged) { break; }
    old = r.old_value;
  }
}

fn scatter(j: u32, e: u32) {
  for (var h = 0u; h < ${WORDS}u; h++) {
    let w = j * ${WORDS}u + h;
    let v = vals[e * ${WORDS}u + h];
    switch (p.mode) {
      case 1u: { atomicAdd(&out[w], v); }
      case 2u: { atomicOr(&out[w], v); }
      default: { add_f32(w, v); }
    }
  }
}
#else
fn scatter(j: u32, e: u32) {
  if (p.phase == 0u) {
    atomicMax(&winner[j], e + 1u);
  } else if (atomicLoad(&winner[j]) == e + 1u) {
    out[j] = vals[e];
  }
}
#endif

@compute @workgroup_size(${WG})
fn put_${VARIANT}_${W}(@builtin(workgroup_id) wid: vec3u, @builtin(num_workgroups) nwg: vec3u,
                       @builtin(local_invocation_index) lid: u32) {
  let base = linear_workgroup_id(wid, nwg) * ${TILE}u + lid;
  for (var k = 0u; k < ${PER}u; k++) {
    let e = base + k * ${WG}u;
    if (e >= p.total) { return; }
    let f = flat_index(index[e], p.size, p.unsigned);
    if (f.ok) {
      scatter(f.j, e);
#if ACCUMULATE
    } else {
#else
    } else if (p.phase == 0u) {
#endif
      atomicMax(&status[0], ~e);
    }
  }
}
