/**
 * MinHash-LSH against datasketch (issue 15, "Speed"): on the bundled corpus, the `minhash`
 * detector at 128 permutations and t = 0.5, as a whole process, must take at most half the
 * time of datasketch's MinHash + MinHashLSH over the same shingles, at equal or better recall.
 *
 *   node --import tsx scripts/bench-minhash.ts [--reps 3]
 *
 * datasketch is its PyPI release, pinned in python/requirements-peers.txt and run by the
 * project's environment (scripts/ensure-python.ts makes it when it is missing). Both sides read the same file of normalized texts (one JSON string a line) and cut the
 * same shingles (char-64 at word starts; both report the number of distinct shingles, which
 * must agree); each is one process, timed from its start to its exit (wall clock), the best of
 * `reps` runs, the two alternating. Recall and precision are against the full-shingle ground
 * truth (Broder, every fingerprint) at RR >= 0.5, computed here on the local backend.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { findAdapter } from '../algorithms/registry.ts';
import { normalize } from '../algorithms/text/normalize.ts';
import { newCorpusStats, readCorpus } from '../harness/corpus/read.ts';
import { createLocalBackend } from '../harness/mapreduce/local/backend.ts';
import { ensurePythonSet } from './ensure-python.ts';

const ROOT = new URL('..', import.meta.url).pathname;

export interface SideFigures {
  /** best wall-clock seconds of the whole process */
  readonly wallS: number;
  /** CPU seconds (all threads) of that run, as the process reported them */
  readonly cpuS: number;
  readonly recall: number;
  readonly precision: number;
  readonly pairs: number;
  readonly candidates: number;
  /** distinct shingles (datasketch) or fingerprints (ndd-bench) summed over documents */
  readonly shingles: number;
  /** what the process reported about itself (phases, CPU) */
  readonly report: Record<string, unknown>;
}

export interface MinhashBenchFigures {
  readonly documents: number;
  readonly duplicates: number;
  readonly ndd: SideFigures;
  readonly datasketch: SideFigures | null;
}

/** Pairs (a < b) of the ground truth at or above `t`, as "a b" strings. */
async function groundTruth(texts: readonly string[], t: number): Promise<Set<string>> {
  const broder = await findAdapter('broder');
  if (!broder) throw new Error('no broder adapter');
  const params = broder.params.parse({});
  const ctx = { minScore: t, seed: 1 };
  const backend = createLocalBackend({ workers: 2, memoryMb: 4096, pricePerVcpuHour: 0, engine: 'auto' });
  const work = mkdtempSync(join(tmpdir(), 'bench-minhash-gt-'));
  try {
    const r = await backend.run(
      { variant: 'ground-truth', algorithm: 'broder', params, ...ctx, plan: broder.plan(params, ctx) },
      { docs: { ids: texts.map(String), texts }, workDir: work, signal: new AbortController().signal, progress() {} },
    );
    const p = r.outputs.pairs;
    const out = new Set<string>();
    for (let i = 0; i < p.a.length; i++) if ((p.score[i] as number) >= t) out.add(`${p.a[i]} ${p.b[i]}`);
    return out;
  } finally {
    await backend.close();
    rmSync(work, { recursive: true, force: true });
  }
}

function readPairs(path: string): Set<string> {
  const out = new Set<string>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    const [a, b] = line.split(' ');
    out.add(`${a} ${b}`);
  }
  return out;
}

function timed(cmd: string, args: string[]): { wallS: number; report: Record<string, unknown> } {
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });
  const wallS = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  const last = r.stdout.trim().split('\n').pop() ?? '{}';
  return { wallS, report: JSON.parse(last) as Record<string, unknown> };
}

export async function benchMinhash(opts: { texts: readonly string[]; python?: string; reps?: number; permutations?: number; threshold?: number }): Promise<MinhashBenchFigures> {
  const k = opts.permutations ?? 128;
  const t = opts.threshold ?? 0.5;
  const reps = opts.reps ?? 3;
  const dir = mkdtempSync(join(tmpdir(), 'bench-minhash-'));
  try {
    const normalized = opts.texts.map(normalize);
    const textsPath = join(dir, 'texts.jsonl');
    writeFileSync(textsPath, normalized.map((x) => JSON.stringify(x)).join('\n') + '\n');
    const dup = await groundTruth(normalized, t);
    const score = (pairs: Set<string>): { recall: number; precision: number } => {
      let hit = 0;
      for (const p of pairs) if (dup.has(p)) hit++;
      return { recall: hit / dup.size, precision: pairs.size === 0 ? 0 : hit / pairs.size };
    };
    const nddPairs = join(dir, 'ndd-pairs.txt');
    const dsPairs = join(dir, 'datasketch-pairs.txt');
    const runNdd = () => timed(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'minhash-lsh-run.ts'), textsPath, nddPairs, String(k), String(t)]);
    const runDs = (python: string) => timed(python, [join(ROOT, 'scripts', 'datasketch_minhash_lsh.py'), textsPath, dsPairs, String(k), String(t)]);
    let ndd: { wallS: number; report: Record<string, unknown> } | undefined;
    let ds: { wallS: number; report: Record<string, unknown> } | undefined;
    for (let rep = 0; rep < reps; rep++) {
      const a = runNdd();
      if (!ndd || a.wallS < ndd.wallS) ndd = a;
      if (opts.python) {
        const b = runDs(opts.python);
        if (!ds || b.wallS < ds.wallS) ds = b;
      }
    }
    const side = (r: { wallS: number; report: Record<string, unknown> }, pairsPath: string, shingles: unknown): SideFigures => ({
      wallS: r.wallS,
      cpuS: Number(r.report['cpu_s']),
      ...score(readPairs(pairsPath)),
      pairs: Number(r.report['pairs']),
      candidates: Number(r.report['candidates']),
      shingles: Number(shingles),
      report: r.report,
    });
    const nddDone = ndd as { wallS: number; report: Record<string, unknown> };
    return {
      documents: normalized.length,
      duplicates: dup.size,
      ndd: side(nddDone, nddPairs, nddDone.report['fingerprints']),
      datasketch: ds ? side(ds, dsPairs, ds.report['shingles']) : null,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Prints the comparison; true when the target holds (or datasketch is not there to compare). */
export function printMinhashBench(f: MinhashBenchFigures, write: (s: string) => void): boolean {
  const line = (name: string, s: SideFigures): void =>
    write(
      `  ${name.padEnd(30)} ${s.wallS.toFixed(2).padStart(6)} s (${s.cpuS.toFixed(2)} CPU-s)   recall ${s.recall.toFixed(4)}   precision ${s.precision.toFixed(4)}   ` +
        `${s.candidates} candidates, ${s.pairs} pairs, ${s.shingles} shingles\n`,
    );
  write(`  ${f.documents} documents, ${f.duplicates} ground-truth pairs at RR >= 0.5\n`);
  line('ndd-bench minhash (2 threads)', f.ndd);
  if (!f.datasketch) {
    write('  datasketch: skipped (its environment could not be made: npm run peers:install says why)\n');
    return true;
  }
  line('datasketch MinHash+LSH', f.datasketch);
  const speedup = f.datasketch.wallS / f.ndd.wallS;
  const cpuRatio = f.datasketch.cpuS / f.ndd.cpuS;
  const same = f.datasketch.shingles === f.ndd.shingles;
  const ok = speedup >= 2 && f.ndd.recall >= f.datasketch.recall && same;
  write(
    `  speed-up ×${speedup.toFixed(2)} wall (target ×2), ×${cpuRatio.toFixed(2)} CPU, recall ${f.ndd.recall >= f.datasketch.recall ? '>=' : '<'} datasketch's, ` +
      `${same ? 'same' : 'DIFFERENT'} shingles: ${ok ? 'target met' : 'TARGET MISSED'}\n`,
  );
  return ok;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { reps: { type: 'string', default: '3' } } });
  const texts: string[] = [];
  for await (const d of readCorpus({ format: 'spamassassin' }, newCorpusStats())) texts.push(d.text);
  const peers = ensurePythonSet('peers', (line) => process.stderr.write(`${line}\n`));
  const f = await benchMinhash({ texts, reps: Number(values.reps), ...(peers.found ? { python: peers.python } : {}) });
  if (!printMinhashBench(f, (s) => process.stdout.write(s))) process.exitCode = 1;
}
