// Parent side of the abuse suite: finds the built package, runs a Node child with a
// timeout (and optionally `ulimit -v`), and turns signals, hangs and bad exits into text.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
export const HERE = fileURLToPath(new URL('.', import.meta.url));

/**
 * The built package the children import: $LAPIS_ABUSE_DIST (a tsc outDir) or dist/.
 * Throws with what to do when it is missing or older than src/ (a stale build would test
 * old code); LAPIS_ABUSE_STALE_OK=1 skips the age check.
 */
export function distDir(): string {
  const dist = process.env.LAPIS_ABUSE_DIST ?? join(REPO, 'dist');
  const index = join(dist, 'src', 'index.js');
  if (!existsSync(index)) {
    throw new Error(`abuse suite: ${index} is missing. The scenarios run the built package in child processes: ` +
      'run `npm run build` first (or point LAPIS_ABUSE_DIST at a tsc outDir).');
  }
  if (process.env.LAPIS_ABUSE_STALE_OK !== '1') {
    const stale = staleFile(join(REPO, 'src'), join(dist, 'src'));
    if (stale) {
      throw new Error(`abuse suite: the build in ${dist} is older than ${stale}: run \`npm run build\` ` +
        '(or set LAPIS_ABUSE_STALE_OK=1 to test the old build on purpose).');
    }
  }
  return dist;
}

function staleFile(srcDir: string, outDir: string): string | null {
  for (const e of readdirSync(srcDir, { withFileTypes: true })) {
    const p = join(srcDir, e.name);
    if (e.isDirectory()) {
      const s = staleFile(p, join(outDir, e.name));
      if (s) return s;
    } else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) {
      const out = join(outDir, e.name.replace(/\.ts$/, '.js'));
      if (!existsSync(out) || statSync(out).mtimeMs < statSync(p).mtimeMs) return relative(REPO, p);
    }
  }
  return null;
}

/** The addon the children load: $LAPIS_ADDON, else build/Release/lapis.node of this checkout. */
export function addonPath(): string {
  const p = process.env.LAPIS_ADDON ?? join(REPO, 'build', 'Release', 'lapis.node');
  if (!existsSync(p)) throw new Error(`abuse suite: native addon ${p} is missing: run \`npm run build:native\``);
  return p;
}

export interface ChildRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface ChildOptions {
  timeoutMs: number;
  /** `ulimit -v` in KiB for the child (allocation-failure scenarios). */
  ulimitKb?: number;
  env?: Record<string, string>;
}

/** Runs `node <args>` in test/abuse/ with the package and addon located for it. */
export function runNode(args: string[], opts: ChildOptions): Promise<ChildRun> {
  args = ['--expose-gc', ...args];
  const env = { ...process.env, LAPIS_ABUSE_DIST: distDir(), LAPIS_ADDON: addonPath(), ...opts.env };
  const cmd = opts.ulimitKb
    ? spawn('bash', ['-c', `ulimit -v ${opts.ulimitKb} && exec "$0" "$@"`, process.execPath, ...args], { cwd: HERE, env, detached: true })
    : spawn(process.execPath, args, { cwd: HERE, env, detached: true });
  const t0 = Date.now();
  let stdout = '', stderr = '', timedOut = false;
  cmd.stdout.on('data', (b: Buffer) => { stdout += b.toString(); });
  cmd.stderr.on('data', (b: Buffer) => { stderr += b.toString(); });
  // detached: the child leads its own process group, so the kill takes any grandchildren too
  const timer = setTimeout(() => {
    timedOut = true;
    try { process.kill(-cmd.pid!, 'SIGKILL'); } catch { cmd.kill('SIGKILL'); }
  }, opts.timeoutMs);
  return new Promise((resolve, reject) => {
    cmd.once('error', reject);
    cmd.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

/** What went wrong with a child that should have exited 0 on its own, or null. */
export function processProblem(r: ChildRun, what: string, progressFile?: string): string | null {
  const last = progressFile && existsSync(progressFile) ? `\nlast call started: ${readFileSync(progressFile, 'utf8').trim()}` : '';
  const tail = `\n--- stderr (tail) ---\n${r.stderr.slice(-3000)}\n--- stdout (tail) ---\n${r.stdout.slice(-1500)}`;
  if (r.timedOut) return `${what}: hung (killed after ${r.ms} ms)${last}${tail}`;
  if (r.signal) return `${what}: killed by ${r.signal}${last}${tail}`;
  if (r.code !== 0) return `${what}: exit code ${r.code}${last}${tail}`;
  return null;
}

/** At most `n` children at a time (the suite runs on 2 CI cores). */
export function limiter(n: number): <T>(f: () => Promise<T>) => Promise<T> {
  let active = 0;
  const queue: (() => void)[] = [];
  return async <T>(f: () => Promise<T>): Promise<T> => {
    if (active >= n) await new Promise<void>((r) => queue.push(r));
    active++;
    try {
      return await f();
    } finally {
      active--;
      queue.shift()?.();
    }
  };
}

export const JOBS = Math.max(1, Number(process.env.LAPIS_ABUSE_JOBS ?? 2));
