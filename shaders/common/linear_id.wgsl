// Workgroup counts above maxComputeWorkgroupsPerDimension (65,535) are folded by the
// runner into a 2-D/3-D grid (src/backend/gpu/program.ts foldWorkgroups). Kernels take
// @builtin(workgroup_id) and @builtin(num_workgroups), rebuild the linear workgroup index
// here, and skip workgroups at or past the true count (a uniform), since the folded grid
// can be slightly larger than asked.
fn linear_workgroup_id(wid: vec3u, nwg: vec3u) -> u32 {
  return wid.x + nwg.x * (wid.y + nwg.y * wid.z);
}
