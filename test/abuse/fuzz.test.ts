// Random-argument fuzzing of every public function (fuzz.mjs), CPU only, in child
// processes: each call must return or throw a typed error. Fixed seed (LAPIS_FC_SEED,
// default 424242) and a fixed number of cases per function (LAPIS_FUZZ_RUNS, default 1000):
// the same calls every run. A failure prints the call and the command that replays it.
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { describe, expect, inject, test } from 'vitest';
import { JOBS, limiter, processProblem, runNode } from './harness.js';

const GROUPS = ['create', 'products', 'factor', 'solve', 'special', 'laguerre'];
const RUNS = Number(process.env.LAPIS_FUZZ_RUNS ?? 1000);
const slot = limiter(JOBS);
const dir = mkdtempSync(join(tmpdir(), 'lapis-fuzz-'));

interface Failure { fn: string; index: number; problem: string; call: string; count: number }

describe.concurrent('fuzz: every public function with random arguments (CPU)', () => {
  for (const group of GROUPS) {
    test(`group ${group}`, async () => {
      const seed = inject('fcSeed');
      const progress = join(dir, `${group}.progress`);
      const r = await slot(() => runNode(['fuzz.mjs', group, '--seed', String(seed), '--runs', String(RUNS), '--progress', progress],
        { timeoutMs: 180_000 }));
      const problem = processProblem(r, `fuzz group ${group} (seed ${seed})`, progress);
      if (problem) expect.fail(problem);
      const line = r.stdout.split('\n').find((l) => l.startsWith('FUZZ-RESULT '));
      if (!line) expect.fail(`fuzz group ${group}: no result line\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
      const res = JSON.parse(line.slice('FUZZ-RESULT '.length)) as { calls: number; failures: Failure[]; slowest: { ms: number; call: string } };
      if (res.failures.length) {
        const lines = res.failures.map((f) => `- ${f.fn}: ${f.problem} (${f.count}×), e.g. case ${f.index}: ${f.call}\n` +
          `  replay: LAPIS_ABUSE_DIST=dist LAPIS_ADDON=build/Release/lapis.node node test/abuse/fuzz.mjs '${f.fn}' --seed ${seed} --only ${f.index}`);
        expect.fail(`fuzz group ${group}: ${res.failures.length} kinds of bad outcome in ${res.calls} calls (seed ${seed})\n${lines.join('\n')}`);
      }
      console.log(`fuzz group ${group}: ${res.calls} calls, all returned or threw typed errors (${r.ms} ms; slowest call ${res.slowest.ms} ms)`);
    }, 15 * 60_000);
  }
});
