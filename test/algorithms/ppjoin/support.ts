/**
 * Helpers for the PPJoin tests (not a test file): run a plan's jobs in memory as Hadoop would
 * (values in a shuffled order), run its kernel on real worker threads, and compute the expected
 * pairs by brute force straight from the definitions (shingle strings, their fingerprints, sets,
 * every pair's Jaccard).
 */
import type { Counters, DocumentSet, Plan } from '../../../contract/index.ts';
import { adapter } from '../../../algorithms/ppjoin/index.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { charShingles, wordShingles } from '../../../algorithms/text/shingles.ts';
import { fingerprintHex, fingerprintOf } from '../../../algorithms/text/fingerprint.ts';
import type { FingerprintKind, ShingleSpec } from '../../../algorithms/text/params.ts';
import { jobPairs, pairRows, runPlanJobs, runPlanKernel } from '../../support/kernel-and-jobs.ts';
import { mulberry32 } from '../text/random-text.ts';

export interface Outcome {
  /** `a b score`, sorted */
  readonly rows: string[];
  readonly counters: Counters;
}

export function planFor(params: unknown, minScore = Number.MIN_VALUE): Plan {
  return adapter.plan(adapter.params.parse(params), { minScore, seed: 1 });
}

/**
 * Every job of the plan in order, each in memory. The records of each job's input are shuffled
 * (seeded) first, so a reducer sees its values in another order than they were written.
 */
export function runJobs(plan: Plan, docs: DocumentSet, shuffleSeed = 7): Outcome {
  const out = runPlanJobs(plan, docs, { shuffleSeed });
  return { rows: pairRows(jobPairs(plan, out, docs.texts.length)), counters: out.counters };
}

/** The plan's kernel on `workers` threads (1: in line), with a context as the local backend builds it. */
export async function runKernel(plan: Plan, docs: DocumentSet, workers = 1): Promise<Outcome> {
  const { result: r, counters } = await runPlanKernel(plan, docs, { workers, tasks: 'pool' });
  return { rows: pairRows(r.pairs), counters };
}

/** Each document's token set, from the shingle strings and the fingerprint of each. */
export function tokenSets(texts: readonly string[], shingle: ShingleSpec, kind: FingerprintKind = 'rabin64'): Set<string>[] {
  return texts.map((t) => {
    const norm = normalize(t);
    const shingles = shingle.unit === 'char' ? charShingles(norm, shingle.size) : wordShingles(norm, shingle.size);
    const width = kind === 'rabin64' ? 2 : 4;
    return new Set(shingles.map((s) => fingerprintHex(fingerprintOf(s, kind), 0, width)));
  });
}

/** Every pair with Jaccard >= t, by enumeration, as sorted `a b score` rows. */
export function bruteForce(sets: readonly ReadonlySet<string>[], t: number): string[] {
  const rows: string[] = [];
  for (let a = 0; a < sets.length; a++) {
    for (let b = a + 1; b < sets.length; b++) {
      const A = sets[a] as ReadonlySet<string>;
      const B = sets[b] as ReadonlySet<string>;
      if (A.size === 0 || B.size === 0) continue;
      const [small, large] = A.size <= B.size ? [A, B] : [B, A];
      let common = 0;
      for (const x of small) if (large.has(x)) common++;
      const j = common / (A.size + B.size - common);
      if (j >= t) rows.push(`${a} ${b} ${j}`);
    }
  }
  return rows.sort();
}

export function docSet(texts: readonly string[]): DocumentSet {
  return { ids: texts.map((_, i) => `d${i}`), texts };
}

/** Every combination of the five filters. */
export function allFilterSettings(): Record<string, boolean>[] {
  const names = ['length', 'prefix', 'position', 'suffix', 'signature'];
  const out: Record<string, boolean>[] = [];
  for (let m = 0; m < 1 << names.length; m++) out.push(Object.fromEntries(names.map((n, i) => [n, ((m >> i) & 1) === 1])));
  return out;
}

/**
 * A corpus of near-duplicates with a spread of resemblances: base documents of 20 to 80 words
 * drawn from a skewed vocabulary (so token frequencies vary, as in mail), each followed by
 * variants with 1 to 12 words replaced, deleted or inserted, and a few exact copies.
 */
export function nearDuplicateCorpus(seed: number, bases = 30): string[] {
  const random = mulberry32(seed);
  const vocabulary = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}`);
  const word = (): string => vocabulary[Math.floor(vocabulary.length * random() ** 2)] as string;
  const texts: string[] = [];
  for (let b = 0; b < bases; b++) {
    const base = Array.from({ length: 20 + Math.floor(random() * 60) }, word);
    texts.push(base.join(' '));
    const variants = Math.floor(random() * 4);
    for (let v = 0; v < variants; v++) {
      const copy = [...base];
      const edits = random() < 0.15 ? 0 : 1 + Math.floor(random() * 12);
      for (let e = 0; e < edits; e++) {
        const at = Math.floor(random() * copy.length);
        const kind = random();
        if (kind < 0.5) copy[at] = word();
        else if (kind < 0.75 && copy.length > 2) copy.splice(at, 1);
        else copy.splice(at, 0, word());
      }
      texts.push(copy.join(' '));
    }
  }
  return texts;
}
