// Reads a vitest JSON report and fails unless every test passed: no failure, no skipped,
// pending or todo test, at least one test, and (with "gpu") at least one passed test in
// a file under test/gpu/ — so a missing adapter or a silently skipped GPU suite fails CI.
//   node .ci/check-vitest.mjs <report.json> [gpu]
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [file, needGpu] = process.argv.slice(2);
if (!file || !existsSync(file)) {
  console.error(`check-vitest: no report at ${file} (vitest did not finish?)`);
  process.exit(1);
}
const r = JSON.parse(readFileSync(file, 'utf8'));
const problems = [];
const counts = {};
let gpuPassed = 0;
for (const f of r.testResults ?? []) {
  const path = relative(process.cwd(), f.name ?? '');
  if (f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed')) {
    problems.push(`${path}: the file failed to run: ${(f.message ?? '').split('\n')[0]}`);
  }
  for (const a of f.assertionResults ?? []) {
    counts[a.status] = (counts[a.status] ?? 0) + 1;
    if (a.status !== 'passed') problems.push(`${path}: ${a.status}: ${a.fullName ?? a.title}`);
    else if (/(^|\/)test\/gpu\//.test(path)) gpuPassed++;
  }
}
const total = Object.values(counts).reduce((s, n) => s + n, 0);
console.log(`check-vitest: ${total} tests (${Object.entries(counts).map(([k, n]) => `${n} ${k}`).join(', ') || 'none'}); ${gpuPassed} passed under test/gpu/`);
if (total === 0) problems.push('no tests ran');
if (needGpu === 'gpu' && gpuPassed === 0) problems.push('no test under test/gpu/ passed: the GPU suite did not run');
if (r.success === false && !problems.length) problems.push('vitest reported failure');
if (problems.length) {
  console.error('check-vitest: FAIL\n  ' + problems.slice(0, 50).join('\n  ') + (problems.length > 50 ? `\n  … ${problems.length - 50} more` : ''));
  process.exit(1);
}
