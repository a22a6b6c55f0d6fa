// The fast-check run policy of the whole suite, read from the environment in one place:
// a fixed seed (so a catch is never luck and every failure replays) and a run multiplier.
//   LAPIS_FC_SEED        integer seed (default 424242), or `random` for a fresh printed one
//   LAPIS_FC_RUNS_SCALE  multiplies every property's numRuns (default 3; 0.2 for a smoke run)

export const DEFAULT_SEED = 424242;
export const DEFAULT_RUNS_SCALE = 3;
/** fast-check's own default, used for properties that give no numRuns. */
export const BASE_RUNS = 100;

export function seedFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const s = env.LAPIS_FC_SEED?.trim();
  if (s === undefined || s === '') return DEFAULT_SEED;
  if (s === 'random') return (Math.random() * 2 ** 31) | 0;
  const v = Number(s);
  if (!Number.isSafeInteger(v) || v < -(2 ** 31) || v >= 2 ** 31) {
    throw new Error(`LAPIS_FC_SEED=${s}: expected an integer in [-2^31, 2^31) or 'random'`);
  }
  return v;
}

export function runsScaleFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const s = env.LAPIS_FC_RUNS_SCALE?.trim();
  if (s === undefined || s === '') return DEFAULT_RUNS_SCALE;
  const v = Number(s);
  if (!(Number.isFinite(v) && v > 0)) throw new Error(`LAPIS_FC_RUNS_SCALE=${s}: expected a positive number`);
  return v;
}

/** A property's runs under the multiplier: never below 1. */
export function scaledRuns(numRuns: number, scale: number): number {
  return Math.max(1, Math.round(numRuns * scale));
}
