// The CPU budget (issue 17: "thread pools must not oversubscribe when several calls run at
// once"): with numThreads 2, four solveAsync calls on libuv threads beside sync matmuls on
// the JS thread never have more than 2 threads inside lapis kernels at once (the pool's own
// counter, _threadStats), and every answer is right. Runs in a child process, so a deadlock
// is a timeout that fails the test instead of hanging vitest.
import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { _threadStats } from '../../src/backend/cpu/binding.js';
import { numThreads } from '../../src/index.js';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

function runFixture(script: string, env: Record<string, string>, timeoutMs: number) {
  return new Promise<{ code: number | null; out: string; err: string; timedOut: boolean }>((resolve) => {
    const child = spawn(process.execPath, ['--import', fixture('register.mjs'), fixture(script)], {
      env: { ...process.env, ...env },
    });
    let out = '', err = '', timedOut = false;
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    const timer = setTimeout(() => { timedOut = true; child.kill('SIGKILL'); }, timeoutMs);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, out, err, timedOut }); });
  });
}

describe('CPU budget under concurrent calls (issue 17)', () => {
  it('_threadStats reads the budget: numThreads slots, none busy between calls', () => {
    const s = _threadStats();
    expect(s.budget).toBe(numThreads());
    expect(s.busy).toBe(0);
    expect(s.peak).toBeLessThanOrEqual(s.budget);
  });

  it('four solveAsync beside sync matmuls with numThreads 2: peak busy threads ≤ 2, answers right', async () => {
    const r = await runFixture('thread-budget.mjs', { ROUNDS: '3', UV_THREADPOOL_SIZE: '4' }, 120_000);
    expect(r.timedOut, 'no deadlock within 120 s').toBe(false);
    expect(r.code, r.err).toBe(0);
    const s = JSON.parse(r.out.trim().split('\n').pop()!) as Record<string, number>;
    expect(s.budget).toBe(2);
    expect(s.peak).toBeGreaterThanOrEqual(1);
    expect(s.peak).toBeLessThanOrEqual(2);
    expect(s.busy).toBe(0);
    // Six callers wanted the two slots at once: some of them waited.
    expect(s.waits).toBeGreaterThan(0);
    expect(s.syncCalls).toBeGreaterThanOrEqual(3);
    expect(s.worstSolve).toBeLessThan(10);
    expect(s.worstMatmul).toBeLessThan(1e-12);
  }, 130_000);
});
