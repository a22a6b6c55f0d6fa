// Reverse-mode recording. `grad`/`valueAndGrad`/`vjp` (src/autodiff) open a tape; every
// differentiable public function starts with `if (taping()) return gradCall(name, fn, args)`,
// which runs the function with recording paused and, when an argument is tracked on an open
// tape, appends one node. Nothing is recorded, and nothing but one branch is paid, when no
// tape is open. The backward pass and the rules live in src/autodiff (they call public ops).
import { Tensor } from './tensor.js';
import { ArgumentError } from './errors.js';
import { isFloating, type DType } from './dtype.js';

/** What a rule sees of the recorded call. */
export interface GradContext {
  /** The public function's name ('solve', 'gdn.chunkedForward'). */
  readonly name: string;
  /** The arguments exactly as the function received them (after its defaults). */
  readonly args: readonly unknown[];
  /** What the function returned. */
  readonly output: unknown;
  /** What the function stored with `claimSaveSlot()` while it ran (its factorization, …). */
  readonly saved: unknown;
  /** Whether argument i holds a tensor the running backward differentiates (torch's needs_input_grad). */
  needsGrad(i: number): boolean;
}

/**
 * A backward rule. `cot` mirrors the output: the cotangent Tensor itself for a Tensor
 * output (never null: the rule only runs when it has one); for an array or plain-object
 * output, the same structure with a Tensor or null at each tensor leaf (null: no gradient
 * reached that leaf). The result mirrors `args`: at each position a cotangent Tensor, null,
 * or for array / plain-object arguments the same structure with Tensor | null leaves;
 * non-tensor positions are ignored. A cotangent may have a broadcast shape or a wider
 * dtype than its argument: the engine sums it over the broadcast dims and casts it (the
 * real part for a real argument).
 */
export interface GradRule {
  backward(ctx: GradContext, cot: any): readonly unknown[]; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Its backward calls kernels that are not differentiable themselves: no second derivatives. */
  readonly firstOrderOnly?: boolean;
}

/** One recorded call. */
export interface GradNode {
  readonly name: string;
  readonly rule: GradRule;
  readonly args: readonly unknown[];
  readonly output: unknown;
  readonly saved: unknown;
  /** The output leaves this node tracks (differentiable dtypes, not tracked before). */
  readonly outputs: readonly Tensor[];
}

/** The record of one grad / valueAndGrad / vjp call. */
export class Tape {
  readonly nodes: GradNode[] = [];
  private readonly tracked = new WeakSet<Tensor>();
  /** Closed tapes record nothing (after the function returned, during their own backward). */
  open = true;

  track(t: Tensor): void { this.tracked.add(t); }
  tracks(t: Tensor): boolean { return this.tracked.has(t); }
}

const rules = new Map<string, GradRule>();
let pendingSlot: { name: string; saved?: unknown } | null = null;
const tapes: Tape[] = [];
let paused = 0;

/** Registers the backward rule of a public function (src/autodiff/rules/*). */
export function defineRule(name: string, rule: GradRule): void {
  if (rules.has(name)) throw new Error(`defineRule: ${name} already has a rule`);
  rules.set(name, rule);
}

/** @internal The registered rule of `name`, if any. */
export function ruleOf(name: string): GradRule | undefined { return rules.get(name); }

/** @internal Names with a rule (tests check every public function is covered). */
export function ruleNames(): string[] { return [...rules.keys()]; }

/** True when a call may need recording: some tape is open and no recorded op is running. */
export function taping(): boolean {
  if (paused !== 0) return false;
  for (const t of tapes) if (t.open) return true;
  return false;
}

/** @internal Opens a tape (src/autodiff); `popTape` removes it. */
export function pushTape(t: Tape): void { tapes.push(t); }
export function popTape(t: Tape): void {
  const i = tapes.lastIndexOf(t);
  if (i >= 0) tapes.splice(i, 1);
  t.open = false;
}

/** @internal The open tapes other than `t` that track any of `ts` (second-order checks). */
export function otherTapesTracking(t: Tape, ts: readonly Tensor[]): boolean {
  return tapes.some((o) => o !== t && o.open && ts.some((x) => o.tracks(x)));
}

/** The dtypes a tape tracks: float16 is storage only, integers and bool have no gradient. */
export function differentiableDtype(d: DType): boolean {
  return isFloating(d);
}

/** Tensor leaves of a value: the value itself, array elements, plain-object fields (nested). */
export function tensorLeaves(v: unknown, out: Tensor[] = [], depth = 0): Tensor[] {
  if (v instanceof Tensor) out.push(v);
  else if (depth < 4 && Array.isArray(v)) for (const e of v) tensorLeaves(e, out, depth + 1);
  else if (depth < 4 && isPlainObject(v)) for (const e of Object.values(v)) tensorLeaves(e, out, depth + 1);
  return out;
}

/** The same structure with each tensor leaf replaced by fn(leaf); other leaves become null. */
export function mapTensorLeaves(v: unknown, fn: (t: Tensor) => unknown, depth = 0): unknown {
  if (v instanceof Tensor) return fn(v);
  if (depth < 4 && Array.isArray(v)) return v.map((e) => mapTensorLeaves(e, fn, depth + 1));
  if (depth < 4 && isPlainObject(v)) {
    const o: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v)) o[k] = mapTensorLeaves(e, fn, depth + 1);
    return o;
  }
  return null;
}

/** Arrays and `{}`-literals are walked; class instances (Tensor, Complex, typed arrays) are not. */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const p = Object.getPrototypeOf(v);
  return p === Object.prototype || p === null;
}

/**
 * Runs `fn(...args)` with recording paused and records it on every open tape that tracks
 * one of its tensor arguments. Throws ArgumentError when such a tape exists and `name` has
 * no rule (before running anything).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function gradCall<R>(name: string, fn: (...a: any[]) => R, args: readonly unknown[]): R {
  const leaves = tensorLeaves(args);
  const on = tapes.filter((t) => t.open && leaves.some((l) => t.tracks(l)));
  const rule = on.length > 0 ? rules.get(name) : undefined;
  if (on.length > 0 && !rule) {
    throw new ArgumentError(
      `${name}: not differentiable (no gradient rule); it was called on a tensor that grad/valueAndGrad/vjp differentiates. ` +
      'Wrap the argument in stopGradient() to use it as a constant.',
    );
  }
  paused++;
  const slot: { name: string; saved?: unknown } | null = on.length > 0 ? { name } : null;
  pendingSlot = slot;
  let out: R;
  try {
    out = fn(...args);
  } finally {
    paused--;
    pendingSlot = null;
  }
  if (on.length === 0) return out;
  if (out !== null && typeof (out as { then?: unknown }).then === 'function') {
    throw new ArgumentError(`${name}: asynchronous functions cannot be differentiated; call the synchronous form inside grad`);
  }
  const outs = tensorLeaves(out).filter((o) => differentiableDtype(o.dtype));
  for (const t of on) {
    const fresh = outs.filter((o) => !t.tracks(o) && !leaves.includes(o));
    for (const o of fresh) t.track(o);
    t.nodes.push({ name, rule: rule!, args, output: out, saved: slot!.saved, outputs: fresh });
  }
  return out;
}

/**
 * Inside a function that gradCall is recording under `name`: a slot whose `saved` field reaches
 * the rule as `ctx.saved` (e.g. solve keeps its LU factors so the backward does not factor
 * again). Null when the call is not recorded, or for a call nested inside another recorded one.
 */
export function claimSaveSlot(name: string): { saved?: unknown } | null {
  const s = pendingSlot;
  if (s === null || s.name !== name) return null;
  pendingSlot = null;
  return s;
}

/** Runs `fn` with recording paused: what it computes is a constant to every tape. */
export function untracked<R>(fn: () => R): R {
  paused++;
  try {
    return fn();
  } finally {
    paused--;
  }
}

/**
 * For functions with no rule that must not be silently constant under a tape (the async
 * forms, device moves): an ArgumentError when an argument is tracked on an open tape.
 */
export function refuseTracked(name: string, args: readonly unknown[], hint: string): void {
  if (!taping()) return;
  const leaves = tensorLeaves(args);
  if (tapes.some((t) => t.open && leaves.some((l) => t.tracks(l)))) {
    throw new ArgumentError(`${name}: not differentiable inside grad/valueAndGrad/vjp; ${hint}`);
  }
}
