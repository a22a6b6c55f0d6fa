// `npm run build:wasm [-- --no-simd | --threads] [--jobs=N] [--force] [--out=DIR] [--profile]`
//
// Builds the WebAssembly CPU backend (docs/wasm.md): the same native/src kernels and the
// same native/binding files as the addon, compiled by Emscripten's em++ with the Node-API
// shim of native/binding/wasm, into build/wasm/lapis.wasm (SIMD128), with --no-simd
// build/wasm/lapis-nosimd.wasm, or with --threads build/wasm/lapis-mt.wasm (SIMD128,
// pthreads over a shared memory). No Emscripten JS glue is used: the module's imports are
// provided by src/backend/wasm/instantiate.ts (and its pool threads by
// src/backend/wasm/threads.ts). Objects are cached per variant and rebuilt when a source or
// header is newer.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const threads = args.includes('--threads');
const simd = !args.includes('--no-simd');
if (threads && !simd) {
  console.error('build-wasm: --threads builds the SIMD128 variant only');
  process.exit(2);
}
const force = args.includes('--force');
const jobsArg = args.find((a) => a.startsWith('--jobs='));
const jobs = Math.max(1, Number(jobsArg ? jobsArg.slice(7) : 2));
// --out=DIR: the module, its objects and its notes go to DIR instead of build/wasm (a build
// to try before it replaces the one others test against).
const outArg = args.find((a) => a.startsWith('--out='));
// --profile: keep the function names (a name section) so node --cpu-prof names wasm frames.
const profile = args.includes('--profile');
for (const a of args) {
  if (a !== '--no-simd' && a !== '--threads' && a !== '--force' && a !== '--profile' && !a.startsWith('--jobs=') && !a.startsWith('--out=')) {
    console.error(`build-wasm: unknown option ${a}`);
    process.exit(2);
  }
}

// Debian's emscripten runs its optimizer (acorn) from the system node modules.
const env = { ...process.env };
if (existsSync('/usr/share/nodejs')) env.NODE_PATH = [env.NODE_PATH, '/usr/share/nodejs'].filter(Boolean).join(':');
const emxx = process.env.EMXX ?? 'em++';
if (spawnSync(emxx, ['--version'], { env, stdio: 'ignore' }).status !== 0) {
  console.error(`build-wasm: ${emxx} not found; install Emscripten (Debian: apt-get install emscripten node-acorn)`);
  process.exit(1);
}

function walk(dir) {
  const out = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else out.push(p);
  }
  return out;
}

// ISA-specific files (x86, arm) are left out: the portable kernels (and Pack<Wasm128> in
// simd.hpp when SIMD is on) are what wasm runs.
const sources = [
  ...walk(join(root, 'native/src')).filter((p) => p.endsWith('.cpp') && !/_(avx2|avx512|neon)\.cpp$/.test(p)),
  // native/binding/*.cpp and the shim in native/binding/wasm/
  ...walk(join(root, 'native/binding')).filter((p) => p.endsWith('.cpp')),
];
// An object is stale when its source or a header its depfile (-MMD) lists is newer.
function stale(src, obj) {
  if (!existsSync(obj) || !existsSync(`${obj}.d`)) return true;
  const built = statSync(obj).mtimeMs;
  const deps = readFileSync(`${obj}.d`, 'utf8').replace(/\\\n/g, ' ').split(':').slice(1).join(':').trim().split(/\s+/);
  return [src, ...deps].some((d) => !existsSync(d) || statSync(d).mtimeMs > built);
}

const variant = threads ? 'mt' : simd ? 'simd' : 'nosimd';
const base = threads ? 'lapis-mt' : simd ? 'lapis' : 'lapis-nosimd';
const outDir = outArg ? resolve(outArg.slice(6)) : join(root, 'build/wasm');
const objDir = join(outDir, `obj-${variant}`);
mkdirSync(objDir, { recursive: true });

// -fwasm-exceptions: the bindings report errors by C++ exceptions (node-addon-api style),
// and the kernels' std::bad_alloc must reach the guard in addon.cpp.
const cflags = [
  '-std=c++17', '-O3', '-fno-math-errno', '-ffp-contract=off', '-fwasm-exceptions',
  `-I${join(root, 'native/binding/wasm')}`, `-I${join(root, 'native/include')}`,
  ...(simd ? ['-msimd128'] : []),
  // -pthread: atomics and bulk memory, the thread-safe libc and malloc, and std::thread.
  ...(threads ? ['-pthread'] : []),
];

function run(cmd, argv) {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, argv, { env, stdio: ['ignore', 'inherit', 'inherit'] });
    p.on('error', reject);
    p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} exited with ${code}`))));
  });
}

// Objects compiled with other flags are rebuilt.
const flagsFile = join(objDir, 'flags.json');
const flagsText = JSON.stringify(cflags.map((f) => f.replace(root, '.')));
const sameFlags = existsSync(flagsFile) && readFileSync(flagsFile, 'utf8') === flagsText;

const objects = [];
const todo = [];
for (const src of sources) {
  const obj = join(objDir, relative(root, src).replace(/[\\/]/g, '_').replace(/\.cpp$/, '.o'));
  objects.push(obj);
  if (force || !sameFlags || stale(src, obj)) todo.push({ src, obj });
}

let failed = false;
async function worker() {
  while (todo.length > 0 && !failed) {
    const { src, obj } = todo.shift();
    console.log(`em++ ${relative(root, src)}`);
    try {
      await run(emxx, [...cflags, '-MMD', '-MF', `${obj}.d`, '-c', src, '-o', obj]);
    } catch (e) {
      failed = true;
      console.error(`build-wasm: ${relative(root, src)}: ${e.message}`);
    }
  }
}
await Promise.all(Array.from({ length: jobs }, worker));
if (failed) process.exit(1);
writeFileSync(flagsFile, flagsText);

const wasm = join(outDir, `${base}.wasm`);
// STANDALONE_WASM: no JS glue; the few imports (WASI clock/environ/fd_write, the shim's
// `lapis` module, the memory) are provided by instantiate.ts. The memory is imported so
// that its ceiling (at most 4 GiB) is the loader's choice; it grows on demand.
// Undefined symbols become imports quietly: the shim's are meant, and instantiate.ts refuses
// to load a module importing anything it does not provide (test/wasm loads it).
// em++ 3.1.6 refuses STANDALONE_WASM with pthreads, so the threaded module is linked with
// Emscripten's runtime imports (env.__pthread_create_js, …); instantiate.ts and threads.ts
// provide those too, and the JS glue em++ writes beside it is only checked, then deleted.
const ldflags = [
  '-O3', '-fwasm-exceptions', ...(threads ? ['-pthread'] : ['-sSTANDALONE_WASM=1']), '--no-entry', '-sALLOW_MEMORY_GROWTH=1', '-sIMPORTED_MEMORY=1',
  '-sINITIAL_MEMORY=16777216', '-sMAXIMUM_MEMORY=4294967296', '-sTOTAL_STACK=1048576', '-sERROR_ON_UNDEFINED_SYMBOLS=0', '-sWARN_ON_UNDEFINED_SYMBOLS=0',
  `-sEXPORTED_FUNCTIONS=${[
    '_malloc', '_free', '_lapis_wasm_count', '_lapis_wasm_name', '_lapis_wasm_options', '_lapis_wasm_call',
    ...(threads ? ['_emscripten_tls_init', '_emscripten_stack_set_limits', '_emscripten_main_thread_process_queued_calls', '_pthread_self'] : []),
  ].join(',')}`,
  ...(simd ? ['-msimd128'] : []),
  ...(profile ? ['--profiling-funcs'] : []),
  // DECLARE_ASM_MODULE_EXPORTS=0 keeps the module's import and export names (at -O3 em++ would
  // shorten them to a.b for its own glue, which is not used).
  ...(threads ? ['-Wno-pthreads-mem-growth', '-sDECLARE_ASM_MODULE_EXPORTS=0'] : []),
];
// Relinking (mostly wasm-opt) is skipped when the module is newer than every object and was
// linked with these flags: `npm pack`'s prepack would otherwise redo what a build just did.
const linkFile = join(objDir, 'link.json');
const linkText = JSON.stringify({ ldflags, objects: objects.map((o) => relative(root, o)) });
if (!force && existsSync(wasm) && existsSync(linkFile) && readFileSync(linkFile, 'utf8') === linkText &&
    objects.every((o) => statSync(o).mtimeMs < statSync(wasm).mtimeMs)) {
  console.log(`build-wasm: ${relative(root, wasm)} is up to date`);
  process.exit(0);
}
const linkOut = threads ? join(outDir, 'tmp-mt', `${base}.js`) : wasm;
if (threads) mkdirSync(dirname(linkOut), { recursive: true });
console.log(`link ${relative(root, wasm)}`);
await run(emxx, [...ldflags, ...objects, '-o', linkOut]);
if (threads) {
  // threads.ts reads a new thread's stack from its pthread struct at the offsets this
  // Emscripten's glue uses (establishStackSpace); a release that moves them must fail here.
  const glue = readFileSync(linkOut, 'utf8');
  if (!/pthread_ptr ?\+ ?44 ?>>> ?2\]/.test(glue) || !/pthread_ptr ?\+ ?48 ?>>> ?2\]/.test(glue)) {
    console.error('build-wasm: this Emscripten keeps a thread\'s stack elsewhere in struct pthread than src/backend/wasm/threads.ts reads it (offsets 44, 48)');
    process.exit(1);
  }
  renameSync(join(dirname(linkOut), `${base}.wasm`), wasm);
  rmSync(dirname(linkOut), { recursive: true, force: true });
}
writeFileSync(join(outDir, `${base}.json`), `${JSON.stringify({ simd, threads, built: new Date().toISOString() }, null, 2)}\n`);
writeFileSync(linkFile, linkText);
console.log(`build-wasm: wrote ${relative(root, wasm)} (${(statSync(wasm).size / 1024).toFixed(0)} KiB)`);
