// The in-process JavaScript peers, imported only by the cases that time them (BenchCase.peers):
// mathjs's module alone is ~32 MB of heap once loaded, which every later V8 collection of
// lapis's fresh results would pay for.

/** A mathjs instance with exact comparisons (the suites' configuration) and the ml-matrix module. */
export async function jsPeerLibs() {
  const { create, all } = await import('mathjs');
  const ml = await import('ml-matrix');
  return { math: create(all, { absTol: 0, relTol: 1e-12 }), ml };
}
