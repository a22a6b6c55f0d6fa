// src/backend/wasm/outputs.ts against the bindings: the wasm runtime copies back exactly the
// arrays that table names, so it must list every array a binding passes through `io.out`
// (Call::out, native/binding/async_work.hpp), and nothing else. Read from the C++ sources,
// so a new export or output fails here rather than returning a stale array in wasm.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { WASM_OUTPUTS } from '../../src/backend/wasm/outputs.js';

const dir = fileURLToPath(new URL('../../native/binding/', import.meta.url));

// Every export's declared options and the names its binding function passes through io.out.
function bindingOutputs(): Map<string, { options: string[]; outputs: Set<string> }> {
  const found = new Map<string, { options: string[]; outputs: Set<string> }>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpp'))) {
    const src = readFileSync(dir + file, 'utf8');
    // Helpers before the first binding function that pass a parameter through io.out: only
    // elementwise.cpp's out_array(o, io, code, "name", need), read at its call sites below.
    const heads = [...src.matchAll(/Napi::Value (\w+)\(const Napi::CallbackInfo& info\) \{/g)];
    const preamble = src.slice(0, heads[0]?.index ?? src.length);
    const helperOuts = [...preamble.matchAll(/io\.out\(/g)].length;
    const outArrayHelper = /Raw out_array\(const Opts& o, Call& io, int64_t code, const char\* name, int64_t need\) \{/.test(preamble);
    expect(helperOuts === 0 || (helperOuts === 1 && outArrayHelper), `${file}: an io.out outside a binding function that this test does not know`).toBe(true);
    const bodies = new Map<string, string>();
    heads.forEach((h, i) => bodies.set(h[1]!, src.slice(h.index, heads[i + 1]?.index ?? src.length)));
    for (const e of src.matchAll(/Export \w+\("(\w+)",\s*(\w+)(?:,\s*\{([^}]*)\})?\);/g)) {
      const [, name, fn, list] = e;
      const body = bodies.get(fn!) ?? '';
      const options = [...(list ?? '').matchAll(/"(\w+)"/g)].map((m) => m[1]!);
      const outputs = new Set<string>();
      let forms = 0;
      for (const m of body.matchAll(/io\.out\(o\.array<.*?>\("(\w+)"/g)) (outputs.add(m[1]!), forms++);
      for (const m of body.matchAll(/io\.out\((\w+)\)/g)) {
        const decl = new RegExp(`\\b${m[1]}\\s*=\\s*o\\.array_or_null<.*?>\\("(\\w+)"`).exec(body);
        expect(decl, `${file} ${name}: io.out(${m[1]}) of an array this test cannot name`).not.toBeNull();
        outputs.add(decl![1]!);
        forms++;
      }
      if (outArrayHelper) for (const m of body.matchAll(/out_array\(o, io, \w+, "(\w+)"/g)) (outputs.add(m[1]!), forms++);
      expect(forms, `${file} ${name}: an io.out form this test does not read`).toBe([...body.matchAll(/io\.out\(/g)].length
        + (outArrayHelper ? [...body.matchAll(/out_array\(/g)].length : 0));
      found.set(name!, { options, outputs });
    }
  }
  return found;
}

describe('wasm output table (src/backend/wasm/outputs.ts)', () => {
  const bindings = bindingOutputs();

  it('finds the bindings', () => {
    expect(bindings.size).toBeGreaterThan(25);
    expect([...bindings.get('luFactor')!.outputs].sort()).toEqual(['LU', 'info', 'pivots']);
  });

  it('names exactly the arrays each binding passes through io.out, for every export', () => {
    expect(Object.keys(WASM_OUTPUTS).sort()).toEqual([...bindings.keys()].sort());
    for (const [name, b] of bindings) {
      expect([...WASM_OUTPUTS[name]!].sort(), name).toEqual([...b.outputs].sort());
      for (const o of b.outputs) expect(b.options, `${name}.${o}`).toContain(o);
    }
  });
});
