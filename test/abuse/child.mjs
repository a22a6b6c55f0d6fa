// One abuse scenario in this process: `node child.mjs <name>` (LAPIS_ABUSE_DIST set), or
// `node child.mjs --list` for the names and options. Prints one "ABUSE-OK <note>" or
// "ABUSE-FAIL <why>" line; the parent also watches for signals and hangs.
import { scenarios } from './scenarios.mjs';
import { loadLib, Verdict, describeError } from './util.mjs';

const name = process.argv[2];
if (name === '--list') {
  const list = Object.entries(scenarios).map(([n, s]) => ({ name: n, timeoutMs: s.timeoutMs ?? 60_000, ulimitKb: s.ulimitKb ?? 0 }));
  process.stdout.write(JSON.stringify(list));
} else {
  const s = scenarios[name];
  if (!s) throw new Error(`no abuse scenario named ${JSON.stringify(name)}`);
  const lib = await loadLib();
  try {
    const note = await s.run(lib);
    console.log(`ABUSE-OK ${note ?? ''}`);
  } catch (e) {
    console.log(`ABUSE-FAIL ${e instanceof Verdict ? e.message : `unexpected ${describeError(e)}\n${e?.stack ?? ''}`}`);
    process.exitCode = 1;
  }
}
