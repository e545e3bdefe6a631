/**
 * simhash's speed and memory targets (issue 10), measured, not asserted:
 *   - fingerprints at 50 MB/s or more of normalized text per core (words, tf-idf against a
 *     frozen df table, the 64 weighted bit sums), one thread;
 *   - the Hamming search for k <= 3 over one million 64-bit fingerprints (random, plus planted
 *     near-duplicates and exact copies) in under 10 s and 1 GB, one thread.
 *
 *   node --import tsx scripts/bench-simhash.ts search [--n 1000000]   prints JSON, one line a k
 *
 * The search runs in a process of its own so that its peak RSS (`resourceUsage().maxRSS`) is
 * the search's: Node itself, a million fingerprints, their groups, one table's sort at a time
 * and the pairs. `scripts/bench-ci.ts` calls both.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { simhashInto } from '../algorithms/simhash/fingerprint.ts';
import { HashCounts } from '../algorithms/simhash/hash-counts.ts';
import { simhashParams } from '../algorithms/simhash/params.ts';
import { groupFingerprints, identicalPairs, searchTables } from '../algorithms/simhash/search.ts';
import { layoutFor } from '../algorithms/simhash/tables.ts';
import { FeatureWeigher, weightingOptions } from '../algorithms/simhash/weights.ts';
import { generator } from '../harness/synth/random.ts';

export interface FingerprintFigures {
  /** MB (10^6 code units) of normalized text per second of wall time, and per CPU-second */
  readonly mbPerSecond: number;
  readonly mbPerCpuSecond: number;
}

/**
 * Fingerprints of already normalized texts (`weighClean`: no second normalization), best of
 * `reps` passes after a warm-up, with the df table of the texts themselves.
 */
export function benchFingerprints(normalized: readonly string[], reps = 5): FingerprintFigures {
  const o = weightingOptions(simhashParams.parse({}), 0);
  const counting = new FeatureWeigher(o, null);
  const df = new HashCounts(1 << 16);
  for (const t of normalized) {
    const f = counting.distinct(t);
    for (let i = 0; i < f.count; i++) df.add(f.hi[i] as number, f.lo[i] as number, 1);
  }
  const weigher = new FeatureWeigher(o, { documents: normalized.length, get: (hi, lo) => df.get(hi, lo) });
  const out = new Uint32Array(2);
  const mb = normalized.reduce((s, t) => s + t.length, 0) / 1e6;
  let best = Infinity;
  let bestCpu = Infinity;
  for (let rep = 0; rep <= reps; rep++) {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    for (const t of normalized) {
      const f = weigher.weighClean(t);
      simhashInto(f.count, f.hi, f.lo, f.weight, out, 0);
    }
    const c = process.cpuUsage(c0);
    if (rep === 0) continue; // warm-up
    best = Math.min(best, (performance.now() - t0) / 1000);
    bestCpu = Math.min(bestCpu, (c.user + c.system) / 1e6);
  }
  return { mbPerSecond: mb / best, mbPerCpuSecond: mb / bestCpu };
}

export interface SearchFigures {
  readonly k: number;
  readonly fingerprints: number;
  readonly tables: number;
  readonly pairs: number;
  readonly comparisons: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly peakRssMb: number;
}

/**
 * n fingerprints: random, then a tenth of them overwritten by copies of others with 0 to 3
 * bits flipped (exact duplicates and planted near-duplicates), from a fixed seed.
 */
export function plantedFingerprints(n: number): { hi: Uint32Array; lo: Uint32Array; docs: Uint32Array } {
  // mulberry32's 32-bit outputs (its floats are those over 2^32, exactly).
  const random = generator(12345);
  const next = (): number => random() * 4294967296;
  const hi = new Uint32Array(n);
  const lo = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    hi[i] = next();
    lo[i] = next();
  }
  for (let i = 0; i < n / 10; i++) {
    const src = next() % n;
    const dst = next() % n;
    let h = hi[src] as number;
    let l = lo[src] as number;
    for (let f = 0; f < i % 4; f++) {
      const b = next() % 64;
      if (b < 32) h ^= 1 << b;
      else l ^= 1 << (b - 32);
    }
    hi[dst] = h >>> 0;
    lo[dst] = l >>> 0;
  }
  return { hi, lo, docs: Uint32Array.from({ length: n }, (_, i) => i) };
}

/** One search, in this process: what the kernel does, all tables on this thread. */
function searchOnce(n: number, k: number): SearchFigures {
  const f = plantedFingerprints(n);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const layout = layoutFor(k, 'auto');
  const groups = groupFingerprints(f.hi, f.lo, f.docs);
  let pairs = identicalPairs(groups).a.length;
  let comparisons = 0;
  for (let t = 0; t < layout.tables.length; t++) {
    const r = searchTables({ groups, maskHi: layout.maskHi, maskLo: layout.maskLo, k, tables: [t] });
    pairs += r.a.length;
    comparisons += r.fingerprintComparisons;
  }
  const c = process.cpuUsage(c0);
  return {
    k,
    fingerprints: n,
    tables: layout.tables.length,
    pairs,
    comparisons,
    seconds: (performance.now() - t0) / 1000,
    cpuSeconds: (c.user + c.system) / 1e6,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

/** The search for each k in a child process of its own (for an honest peak RSS). */
export function benchSearch(n = 1_000_000, ks: readonly number[] = [0, 1, 2, 3]): SearchFigures[] {
  const script = fileURLToPath(import.meta.url);
  return ks.map((k) => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', script, 'search', '--n', String(n), '--k', String(k)], { encoding: 'utf8' });
    return JSON.parse(out.trim().split('\n').pop() as string) as SearchFigures;
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'search') {
  const { values } = parseArgs({ args: process.argv.slice(3), options: { n: { type: 'string', default: '1000000' }, k: { type: 'string', default: '3' } } });
  process.stdout.write(`${JSON.stringify(searchOnce(Number(values.n), Number(values.k)))}\n`);
}
