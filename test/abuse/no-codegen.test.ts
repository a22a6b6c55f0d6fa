// The CPU backend under a Content-Security-Policy without 'unsafe-eval' (issue 18): Node's
// --disallow-code-generation-from-strings makes `new Function` throw EvalError as such a
// page does; the addon's option wrappers must then fall back to plain closures with the
// same contract. The built package in a child process, since the flag is per process.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { addonPath, distDir } from './harness.js';

const script = fileURLToPath(new URL('./no-codegen.mjs', import.meta.url));

function run(flags: string[]) {
  const r = spawnSync(process.execPath, [...flags, script], {
    encoding: 'utf8', timeout: 60_000, env: { ...process.env, LAPIS_ABUSE_DIST: distDir(), LAPIS_ADDON: addonPath() },
  });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as { evalOff: boolean; residual: number; pivots: number; badCall: string };
}

describe('CPU backend without code generation from strings', () => {
  it('solves and validates the options object with eval off, as with it on', () => {
    const off = run(['--disallow-code-generation-from-strings']);
    const on = run([]);
    expect(off.evalOff).toBe(true);
    expect(on.evalOff).toBe(false);
    for (const r of [off, on]) {
      expect(r.residual).toBeLessThan(30);
      expect(r.pivots).toBe(40);
      expect(r.badCall).toBe('TypeError: luFactor: expects one options object');
    }
  });
});
