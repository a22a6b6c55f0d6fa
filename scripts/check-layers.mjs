#!/usr/bin/env node
// The checks of `npm run lint:layers` that dependency-cruiser (.dependency-cruiser.cjs, the
// TypeScript layers) cannot make:
//   1. native layer: no file under native/src, native/include or native/tests includes a
//      Node-API header (napi.h, node_api.h, js_native_api.h, uv.h, node.h) or a header of
//      native/binding; native/binding is the only Node-API code.
//   2. docs stay true: every file or folder path that README.md and docs/*.md name exists,
//      every LAPIS_* environment variable they name is still read by some code, and every
//      code name they put in backticks (`luVariant`, `solve_batched`) still occurs in it.
//      A path counts as named when it ends in a source extension (foo/bar.ts, lu.wgsl,
//      native/binding/lu.cpp, linalg/{lu,solve}.ts) or starts with a top-level folder of the
//      repository (native/src/gemm/); relative ones (gpu/lu.ts) must be the tail of a real
//      path. Files a walk-through tells the reader to create are listed in the doc itself:
//      <!-- paths-to-create: src/linalg/cholesky.ts native/src/cholesky/ -->, and so are
//      the names it introduces: <!-- names-to-create: choleskyEx registerCholeskyCpu -->
// Exit status 1 with one line per problem; 0 and a one-line summary otherwise.
// Usage: node scripts/check-layers.mjs [root] (default: this repository; test/lint gives a
// fixture tree).
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = process.argv[2] ? resolve(process.argv[2]) : join(dirname(fileURLToPath(import.meta.url)), '..');
const problems = [];

// ---- 1. native layer -------------------------------------------------------------------

const NODE_HEADERS = /^(napi\.h|napi-inl\.h|node_api\.h|node_api_types\.h|js_native_api\.h|js_native_api_types\.h|uv\.h|node\.h|v8\.h)$/;
const SOURCE = /\.(c|cc|cpp|cxx|h|hh|hpp|hxx|inl|ipp)$/;

function walk(dir, keep = SOURCE) {
  const out = [];
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p, keep));
    else if (keep.test(e.name)) out.push(p);
  }
  return out;
}

function includes(file) {
  const out = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const m = /^\s*#\s*include\s*[<"]([^>"]+)[>"]/.exec(line);
      if (m) out.push({ header: m[1], line: i + 1 });
    });
  return out;
}

let kernelFiles = 0;
for (const dir of ['native/src', 'native/include', 'native/tests']) {
  for (const file of walk(join(root, dir))) {
    kernelFiles++;
    const rel = relative(root, file);
    for (const { header, line } of includes(file)) {
      const base = header.split('/').pop();
      if (NODE_HEADERS.test(base)) {
        problems.push(`${rel}:${line}: includes <${header}>: only native/binding may use Node-API (kernels know nothing of JS)`);
      } else if (/(^|\/)binding\//.test(header)) {
        problems.push(`${rel}:${line}: includes "${header}": kernels do not include the binding layer`);
      }
    }
  }
}
// The scan must see the binding's own napi.h includes, or the pattern above is broken.
const bindingUsesNapi = walk(join(root, 'native/binding')).some((f) =>
  includes(f).some(({ header }) => NODE_HEADERS.test(header.split('/').pop())),
);
if (!bindingUsesNapi) problems.push('native/binding: no Node-API include found (is the include scan broken?)');

// ---- 2. paths named in the docs --------------------------------------------------------

let tracked;
try {
  // the files of the checkout (not build outputs or other ignored files)
  tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
    .split('\n')
    .filter((p) => p && existsSync(join(root, p)));
} catch {
  // not a git checkout (an unpacked tarball, a test fixture): every file but node_modules
  tracked = walk(root, /./)
    .map((f) => relative(root, f).split('\\').join('/'))
    .filter((p) => !/^(node_modules|\.git)\//.test(p));
}
const dirs = new Set();
for (const p of tracked) {
  const parts = p.split('/');
  for (let i = 1; i < parts.length; i++) dirs.add(parts.slice(0, i).join('/'));
}
const TOP = new Set([...dirs].filter((d) => !d.includes('/')));
const BUILD_OUTPUT = /^(dist|build|build-[^/]*|node_modules)\//;

const EXT = 'ts|mts|cts|mjs|cjs|js|cpp|hpp|h|cc|wgsl|json|sh|md|cmake|py|txt|svg';
// A path token: not glued to other path characters on the left (so `*_avx2.cpp` and the
// tail of a URL are not read as paths), segments of word characters, dots, dashes, braces.
const FILE_RE = new RegExp(String.raw`(?<![\w./*<>{}$-])((?:[\w.{},-]+/)*[\w{},-][\w.{},-]*\.(?:${EXT}))(?![\w/*-])`, 'g');
const DIR_RE = new RegExp(String.raw`(?<![\w./*<>{}$-])((?:${[...TOP].map((t) => t.replace(/\./g, '\\.')).join('|')})/(?:[\w.-]+/)*)(?![\w*<{-])`, 'g');

function expandBraces(s) {
  const m = /\{([^{}]*)\}/.exec(s);
  if (!m) return [s];
  return m[1].split(',').flatMap((alt) => expandBraces(s.slice(0, m.index) + alt + s.slice(m.index + m[0].length)));
}

// Outside the repository (../x), or a path git ignores (build outputs, local tool folders).
function unchecked(p) {
  if (p.startsWith('../') || BUILD_OUTPUT.test(p)) return true;
  try {
    execFileSync('git', ['check-ignore', '-q', '--no-index', p], { cwd: root, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// Headers of the toolchain and of node-addon-api, named in prose.
const EXTERNAL_HEADER = /^(napi\.h|napi-inl\.h|node_api\.h|js_native_api\.h|uv\.h|node\.h|\w*intrin\.h|arm_neon\.h|cpuid\.h)$/;

function fileExists(p) {
  const clean = p.replace(/^\.\//, '');
  if (EXTERNAL_HEADER.test(clean)) return true;
  // a suffix named on its own (`_avx512.cpp`: the ISA twin of each kernel file)
  if (/^[_-]/.test(clean)) return tracked.some((t) => t.endsWith(clean));
  const candidates = [clean];
  if (/\.js$/.test(clean)) candidates.push(clean.replace(/\.js$/, '.ts')); // an import specifier
  for (const c of candidates) {
    const top = c.split('/')[0];
    if (c.includes('/') && TOP.has(top)) {
      if (tracked.includes(c)) return true;
      continue; // anchored at the root: must be exact
    }
    if (tracked.some((t) => t === c || t.endsWith('/' + c))) return true;
  }
  return false;
}

// A path the doc lists as one to create, named in full or by its tail (`./cholesky.js` in
// an import line, `cholesky/cholesky.wgsl` relative to shaders/).
function listedToCreate(toCreate, p) {
  const clean = p.replace(/^\.\//, '');
  const forms = [clean, clean.replace(/\.js$/, '.ts')];
  return [...toCreate].some((c) => forms.some((f) => c === f || c.endsWith('/' + f)));
}

function dirExists(p) {
  const clean = p.replace(/\/$/, '');
  return dirs.has(clean) || tracked.includes(clean);
}

// docs/decisions.md is the record of what was tried and removed: it names old paths on purpose.
const HISTORY = new Set(['docs/decisions.md']);
const docs = [
  'README.md',
  ...(existsSync(join(root, 'docs')) ? readdirSync(join(root, 'docs')) : [])
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`)
    .filter((d) => !HISTORY.has(d)),
];

// Environment variables (LAPIS_*) the docs name must still be read somewhere in the code.
const CODE = /^(src|native|scripts|test|bench|examples|shaders|\.ci)\/|^(CMakeLists\.txt|package\.json|vitest\.config\.ts)$/;
const CODE_TEXT = /\.(ts|mts|mjs|cjs|js|cpp|hpp|h|cc|wgsl|json|sh|cmake|py|txt)$|^\.ci\/run$/;
// this checker and its test name example variables and names: they do not keep a doc true
const SELF = new Set(['scripts/check-layers.mjs', 'test/lint/layers.test.ts']);
let codeText = null;
function inCode(name) {
  if (codeText === null) {
    codeText = tracked
      .filter((p) => CODE.test(p) && CODE_TEXT.test(p) && !SELF.has(p) && !p.startsWith('bench/results/'))
      .map((p) => readFileSync(join(root, p), 'utf8'))
      .join('\n');
  }
  return new RegExp(`\\b${name}\\b`).test(codeText);
}
let named = 0;
for (const doc of docs) {
  const abs = join(root, doc);
  if (!existsSync(abs) || !statSync(abs).isFile()) continue;
  const text = readFileSync(abs, 'utf8');
  const toCreate = new Set();
  for (const m of text.matchAll(/<!--\s*paths-to-create:([^>]*)-->/g)) {
    for (const p of m[1].trim().split(/\s+/)) toCreate.add(p.replace(/\/$/, ''));
  }
  const namesToCreate = new Set();
  for (const m of text.matchAll(/<!--\s*names-to-create:([^>]*)-->/g)) {
    for (const n of m[1].trim().split(/\s+/)) namesToCreate.add(n);
  }
  const lines = text.split('\n');
  lines.forEach((raw, i) => {
    if (/<!--\s*(paths|names)-to-create:/.test(raw)) return;
    const line = raw.replace(/\bhttps?:\/\/\S+/g, ' ');
    const seen = new Set();
    for (const m of line.matchAll(FILE_RE)) {
      for (const p of expandBraces(m[1])) {
        if (seen.has(p)) continue;
        seen.add(p);
        named++;
        if (listedToCreate(toCreate, p)) continue;
        if (!fileExists(p) && !unchecked(p)) problems.push(`${doc}:${i + 1}: names ${p}, which does not exist`);
      }
    }
    for (const m of line.matchAll(/\bLAPIS_[A-Z0-9_]*[A-Z0-9]\b/g)) {
      if (seen.has(m[0])) continue;
      seen.add(m[0]);
      named++;
      if (!inCode(m[0])) problems.push(`${doc}:${i + 1}: names ${m[0]}, which no code reads any more`);
    }
    // a code name in backticks (camelCase or snake_case: `luVariant`, `solve_batched()`)
    for (const m of line.matchAll(/`([a-z][a-z0-9]*(?:[A-Z_][A-Za-z0-9_]*)+)(?:\(\))?`/g)) {
      if (seen.has(m[1]) || namesToCreate.has(m[1])) continue;
      seen.add(m[1]);
      named++;
      if (!inCode(m[1])) problems.push(`${doc}:${i + 1}: names \`${m[1]}\`, which no code contains`);
    }
    for (const m of line.matchAll(DIR_RE)) {
      for (const p of expandBraces(m[1])) {
        if (seen.has(p)) continue;
        seen.add(p);
        named++;
        if (listedToCreate(toCreate, p.replace(/\/$/, ''))) continue;
        if (!dirExists(p) && !unchecked(p)) problems.push(`${doc}:${i + 1}: names the folder ${p}, which does not exist`);
      }
    }
  });
}

if (problems.length) {
  for (const p of problems) console.error(p);
  console.error(`check-layers: ${problems.length} problem(s)`);
  process.exit(1);
}
console.log(`check-layers: ok (${kernelFiles} native kernel files free of Node-API; ${named} paths and names in ${docs.length} docs exist)`);
