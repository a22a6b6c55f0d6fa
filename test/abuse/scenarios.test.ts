// The abuse scenarios of issue 10 (scenarios.mjs), each in its own child process: a
// scenario fails on a signal (SIGSEGV/SIGABRT), a hang, a non-zero exit or a wrong
// outcome it reports itself (a success status with a wrong answer, an untyped error).
// Runs the built package: `npm run build` first (docs/testing.md).
import { execFileSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { HERE, JOBS, limiter, processProblem, runNode } from './harness.js';

interface Scenario { name: string; timeoutMs: number; ulimitKb: number }

const list = JSON.parse(execFileSync(process.execPath, ['child.mjs', '--list'], { cwd: HERE, encoding: 'utf8' })) as Scenario[];
const slot = limiter(JOBS);

describe.concurrent('abuse scenarios (one child process each)', () => {
  for (const s of list) {
    test(s.name, async () => {
      const r = await slot(() => runNode(['child.mjs', s.name], { timeoutMs: s.timeoutMs, ulimitKb: s.ulimitKb }));
      const problem = processProblem(r, s.name);
      const verdict = r.stdout.split('\n').find((l) => l.startsWith('ABUSE-'));
      if (problem || !verdict?.startsWith('ABUSE-OK')) {
        expect.fail(`${verdict?.startsWith('ABUSE-FAIL') ? verdict.slice('ABUSE-FAIL '.length) : 'no verdict'}` +
          `${problem ? `\n${problem}` : ''}`);
      }
      console.log(`${s.name}: ${verdict.slice('ABUSE-OK '.length)} (${r.ms} ms)`);
    }, 15 * 60_000);
  }
});
