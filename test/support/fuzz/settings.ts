/**
 * How long and from which seed the reader fuzz tests run. In `npm test`: a fixed seed and a
 * fixed number of cases per property (a few seconds per reader). Under `npm run fuzz`
 * (scripts/fuzz.ts): FUZZ_SEED and FUZZ_SECONDS from the environment, the time shared out over
 * every property of every reader file, cases drawn until each property's share is used.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The seed of `npm test`: any fixed number; change it only on purpose. */
export const DEFAULT_SEED = 160_016;
/** Cases per property in `npm test`. */
export const DEFAULT_RUNS = 12;
/** Cases of the property with large inputs (a repeated slice, up to 512 KB) in `npm test`. */
export const LARGE_RUNS = 5;
/** Properties `fuzzReader` defines per reader file. */
export const PROPERTIES_PER_READER = 5;
/** Test files vitest runs at once (vitest.config.ts maxWorkers). */
const PARALLEL_FILES = 2;

export const FUZZ_DIR = fileURLToPath(new URL('../../harness/corpus/fuzz/', import.meta.url));

export interface FuzzSettings {
  readonly seed: number;
  /** fast-check numRuns */
  readonly numRuns: number;
  /** ms a property may run (fuzz mode), else undefined */
  readonly timeLimitMs: number | undefined;
  /** vitest's timeout for one property */
  readonly testTimeoutMs: number;
  /** a single read that takes longer is a hang */
  readonly caseTimeoutMs: number;
  readonly fuzzing: boolean;
}

export function fuzzSettings(): FuzzSettings {
  const seedText = process.env.FUZZ_SEED;
  const secondsText = process.env.FUZZ_SECONDS;
  const caseTimeoutMs = 15_000;
  if (seedText === undefined && secondsText === undefined) {
    return { seed: DEFAULT_SEED, numRuns: DEFAULT_RUNS, timeLimitMs: undefined, testTimeoutMs: 120_000, caseTimeoutMs, fuzzing: false };
  }
  const seed = seedText === undefined ? DEFAULT_SEED : Number(seedText);
  if (!Number.isSafeInteger(seed)) throw new Error(`FUZZ_SEED must be an integer, got ${seedText}`);
  const seconds = secondsText === undefined ? 600 : Number(secondsText);
  if (!(seconds > 0)) throw new Error(`FUZZ_SECONDS must be a positive number, got ${secondsText}`);
  const files = readdirSync(FUZZ_DIR).filter((f) => f.endsWith('.fuzz.test.ts')).length;
  const slots = Math.max(1, Math.ceil((files * PROPERTIES_PER_READER) / PARALLEL_FILES));
  const timeLimitMs = Math.max(1000, Math.floor((seconds * 1000) / slots));
  return {
    seed,
    numRuns: Number.MAX_SAFE_INTEGER,
    timeLimitMs,
    // room for the last case, a hang and shrinking a counterexample
    testTimeoutMs: timeLimitMs + 10 * caseTimeoutMs + 120_000,
    caseTimeoutMs,
    fuzzing: true,
  };
}
