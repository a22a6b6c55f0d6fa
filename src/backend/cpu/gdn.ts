// CPU entries of the Gated DeltaNet ops (docs/gdn.md): the native kernels in native/src/gdn/.
export function registerGdnCpu(): void {
  // filled by the native GDN kernels (issue 15, in progress)
}
