// Shared by the Gated DeltaNet backward kernels (src/backend/gpu/gdn_backward.ts): the chunk
// being worked on and the element offsets of the inputs and of the chunk-level scratch.
// Needs the binding ctab (u32: N + 1 first-chunk offsets, then count rows of (sequence, batch
// row, t0, length) from p.tab0) and the common uniforms.

var<private> cid: u32;   // chunk
var<private> hv: u32;    // value head
var<private> kh: u32;    // its key head
var<private> ch: vec4u;  // (sequence, batch row, first time index, length)
var<private> cb: u32;    // cid·HV + hv: the (chunk, value head) slot of the scratch arrays
var<private> qb: u32;    // offsets of the chunk's row 0 in q/k, v/o and beta/g
var<private> vb: u32;
var<private> gb: u32;

fn set_chunk(c: u32, head: u32) {
  cid = c;
  hv = head;
  kh = head / p.grp;
  let o = p.tab0 + 4u * c;
  ch = vec4u(ctab[o], ctab[o + 1u], ctab[o + 2u], ctab[o + 3u]);
  cb = c * p.hvn + head;
  qb = ch.y * p.qsb + ch.z * p.qst + kh * p.qsh;
  vb = ch.y * p.vsb + ch.z * p.vst + head * p.vsh;
  gb = ch.y * p.gsb + ch.z * p.gst + head * p.gsh;
}

// q/k element (row i of the chunk, d), v/o element (i, e), beta/g element i, in the inputs' layouts.
fn qk_at(i: u32, d: u32) -> u32 { return qb + i * p.qst + d; }
fn v_at(i: u32, e: u32) -> u32 { return vb + i * p.vst + e; }
fn g_at(i: u32) -> u32 { return gb + i * p.gst; }
// (count, HV, C, w) chunk-row arrays, (count, HV, C, C) and (count, HV, dk, dv) ones.
fn rc(i: u32, d: u32, w: u32) -> u32 { return (cb * p.cs + i) * w + d; }
fn ccx(i: u32, j: u32) -> u32 { return (cb * p.cs + i) * p.cs + j; }
fn sx(d: u32, e: u32) -> u32 { return cb * p.dk * p.dv + d * p.dv + e; }
// NaN from a uniform: a NaN constant expression is a shader-creation error.
fn nanf() -> f32 { return bitcast<f32>(p.nanbits); }
