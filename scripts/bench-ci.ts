/**
 * `npm run bench:ci`: the performance figures of the project, measured on the bundled corpus.
 *
 *   kernels (tinybench): normalization, shingling+fingerprinting, the fingerprint dictionary,
 *                        sampling and the ScanCount join (ground truth, mod 64, SCT 70), one thread
 *   readers:             200 MB of gzip'd TREC-web and WARC generated from the corpus, one thread
 *                        (MB of uncompressed input per CPU-second, RSS growth while reading)
 *   ground truth:        the full-shingle Broder ground truth on the local backend, both cores,
 *                        from documents in memory (the "under 1 s after the corpus is read" target)
 *   I-Match:             its word sets and signing (one thread), and the whole detector on the local
 *                        backend, both cores, from documents in memory, K = 0 and K = 10 (issue 10's
 *                        "under 1 s after reading" target)
 *   scale-io:            start-up, the mail reader, the corpus cache, the quickstart with a warm
 *                        cache, the ground truth against scipy (scripts/bench-scale-io.ts)
 *   quickstart:          `bench run configs/quickstart.yaml` three times, as a user runs it (the
 *                        corpus read each time: --no-corpus-cache), then
 *                        `bench check` against results/baselines/quickstart.json: quality exactly,
 *                        timings by Mann-Whitney U and a minimum factor (exit 1 on a regression)
 *
 * The figures are compared with results/baselines/bench-ci.json (a factor per line, printed);
 * `--update` (or a missing baseline) writes both baselines.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { adapter as broder } from '../algorithms/broder/index.ts';
import { adapter as imatch } from '../algorithms/imatch/index.ts';
import { signSlice } from '../algorithms/imatch/sign.ts';
import { mergeWordSlices, wordSetSlice } from '../algorithms/text/word-sets.ts';
import { mergeSlices, fingerprintSlice } from '../algorithms/text/features.ts';
import { sampleFeatures, scanCount } from '../algorithms/broder/join.ts';
import { shingleFingerprints } from '../algorithms/text/fingerprint.ts';
import { normalize } from '../algorithms/text/normalize.ts';
import { newCorpusStats, readCorpus } from '../harness/corpus/read.ts';
import { createLocalBackend } from '../harness/mapreduce/local/backend.ts';
import { machine } from '../harness/results/environment.ts';
import { benchReaders } from './bench-readers.ts';
import { benchScaleIo } from './bench-scale-io.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const BASELINE = join(ROOT, 'results', 'baselines', 'bench-ci.json');
const update = process.argv.includes('--update');
// The figures are those of the CLI as `npm install` builds it (scripts/build.mjs), not of the sources through tsx.
execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: ['ignore', 'inherit', 'inherit'] });

interface Figure {
  readonly value: number;
  readonly unit: string;
  /** which way is better, for the factor column */
  readonly better: 'lower' | 'higher';
}

const figures: Record<string, Figure> = {};
const record = (name: string, value: number, unit: string, better: 'lower' | 'higher' = 'lower'): void => {
  figures[name] = { value, unit, better };
  process.stdout.write(`  ${name}: ${value.toFixed(unit === 'MB/s' ? 1 : 3)} ${unit}\n`);
};

process.stdout.write('reading the bundled corpus…\n');
let t0 = performance.now();
const texts: string[] = [];
const stats = newCorpusStats();
for await (const d of readCorpus({ format: 'spamassassin' }, stats)) texts.push(d.text);
const readS = (performance.now() - t0) / 1000;
const bytes = texts.reduce((s, t) => s + Buffer.byteLength(t), 0);
record('corpus.read_s', readS, 's');
process.stdout.write(`  ${texts.length} documents, ${(bytes / 1e6).toFixed(1)} MB of text\n`);

const shingle = { unit: 'char', size: 64, start: 'word' } as const;
const normalized = texts.map(normalize);
const normBytes = normalized.reduce((s, t) => s + t.length, 0);
const slice = fingerprintSlice({ texts, firstDoc: 0, shingle, kind: "rabin64" });
const features = mergeSlices([slice]);
const wordSets = mergeWordSlices([wordSetSlice({ texts })]);
const signAll = (extra: number): string =>
  signSlice({
    words: wordSets.vocabulary.join('\n'),
    df: wordSets.df,
    docs: wordSets.docs,
    range: { min: 0.1, max: 1 },
    randomization: { extra, drop: 0.33, seed: 1 },
    docStart: wordSets.docStart,
    ids: wordSets.ids,
    from: 0,
    to: wordSets.docs,
  });

const bench = new Bench({ iterations: 5, time: 0, warmupIterations: 1, warmupTime: 0 });
bench
  .add('normalize', () => {
    for (const t of texts) normalize(t);
  })
  .add('fingerprint char64 rabin64', () => {
    for (const t of normalized) shingleFingerprints(t, shingle, 'rabin64');
  })
  .add("sort and merge fingerprints", () => {
    mergeSlices([fingerprintSlice({ texts, firstDoc: 0, shingle, kind: "rabin64" })]);
  })
  .add('sample+join ground truth', () => {
    const s = sampleFeatures(features, { method: 'none' });
    scanCount({ ...s, from: 0, to: s.docs, floor: Number.MIN_VALUE });
  })
  .add('sample+join mod 64', () => {
    const s = sampleFeatures(features, { method: 'mod', m: 64, residue: 0 });
    scanCount({ ...s, from: 0, to: s.docs, floor: Number.MIN_VALUE });
  })
  .add('sample+join sct 70', () => {
    const s = sampleFeatures(features, { method: 'sct', threshold: 70 });
    scanCount({ ...s, from: 0, to: s.docs, floor: Number.MIN_VALUE });
  })
  .add('imatch word sets', () => {
    mergeWordSlices([wordSetSlice({ texts })]);
  })
  .add('imatch sign K=0', () => signAll(0))
  .add('imatch sign K=10', () => signAll(10));
process.stdout.write('kernels (one thread, mean of 5):\n');
await bench.run();
for (const task of bench.tasks) {
  const r = task.result;
  if (r.state !== 'completed') throw new Error(`${task.name}: ${r.state}`);
  record(`kernel.${task.name}.ms`, r.latency.mean, 'ms');
}
record('kernel.normalize.MBps', bytes / 1e6 / ((figures['kernel.normalize.ms'] as Figure).value / 1000), 'MB/s', 'higher');
record(
  'kernel.fingerprint.MBps',
  normBytes / 1e6 / ((figures['kernel.fingerprint char64 rabin64.ms'] as Figure).value / 1000),
  'MB/s',
  'higher',
);

process.stdout.write('ground truth on the local backend (2 threads, from documents in memory):\n');
const docs = { ids: texts.map((_, i) => String(i)), texts };
const gtTimes: number[] = [];
for (let rep = 0; rep < 3; rep++) {
  const backend = createLocalBackend({ workers: 2, memoryMb: 1024, pricePerVcpuHour: 0.0504, engine: 'auto' });
  const params = broder.params.parse({});
  const work = mkdtempSync(join(tmpdir(), 'bench-ci-'));
  // Warm the worker threads (module loading) so the figure is the computation.
  await backend.run(
    { variant: 'warm', algorithm: 'broder', params, minScore: 1, seed: 0, plan: broder.plan(params, { minScore: 1, seed: 0 }) },
    { docs: { ids: ['a'], texts: ['warm up'] }, workDir: work, signal: new AbortController().signal, progress() {} },
  );
  t0 = performance.now();
  await backend.run(
    { variant: 'gt', algorithm: 'broder', params, minScore: Number.MIN_VALUE, seed: 0, plan: broder.plan(params, { minScore: Number.MIN_VALUE, seed: 0 }) },
    { docs, workDir: work, signal: new AbortController().signal, progress() {} },
  );
  gtTimes.push((performance.now() - t0) / 1000);
  await backend.close();
  rmSync(work, { recursive: true, force: true });
}
record('ground_truth.local_2_threads_s', Math.min(...gtTimes), 's');

process.stdout.write('I-Match on the local backend (2 threads, from documents in memory):\n');
for (const [label, raw] of [['k0', {}], ['k10', { extra_lexicons: 10 }]] as const) {
  const times: number[] = [];
  for (let rep = 0; rep < 3; rep++) {
    const backend = createLocalBackend({ workers: 2, memoryMb: 1024, pricePerVcpuHour: 0.0504, engine: 'auto' });
    const params = imatch.params.parse(raw);
    const ctx = { minScore: Number.MIN_VALUE, seed: 1 };
    const work = mkdtempSync(join(tmpdir(), 'bench-ci-'));
    // Warm the worker threads (module loading) on a document set of its own: its word sets are not reused.
    await backend.run(
      { variant: 'warm', algorithm: 'imatch', params, ...ctx, plan: imatch.plan(params, ctx) },
      { docs: { ids: ['a', 'b'], texts: ['warm up', 'warm up'] }, workDir: work, signal: new AbortController().signal, progress() {} },
    );
    t0 = performance.now();
    await backend.run(
      { variant: label, algorithm: 'imatch', params, ...ctx, plan: imatch.plan(params, ctx) },
      { docs, workDir: work, signal: new AbortController().signal, progress() {} },
    );
    times.push((performance.now() - t0) / 1000);
    await backend.close();
    rmSync(work, { recursive: true, force: true });
  }
  record(`imatch.${label}.local_2_threads_s`, Math.min(...times), 's');
}

process.stdout.write('readers (200 MB of generated gzip\'d TREC-web and WARC, one thread):\n');
for (const [format, f] of Object.entries(await benchReaders({ targetMb: 200 }))) {
  if (!f) continue;
  record(`reader.${format}.MBps`, f.mbPerCpuSecond, 'MB/s', 'higher');
  record(`reader.${format}.rss_growth_mb`, f.rssAtEndMb - f.rssAt10PctMb, 'MB');
}

await benchScaleIo(record);

process.stdout.write('quickstart (bench run configs/quickstart.yaml, 3 repetitions):\n');
const out = mkdtempSync(join(tmpdir(), 'bench-ci-run-'));
const bench_ = (args: string[], stdio: 'inherit' | 'ignore' = 'ignore'): void => {
  execFileSync(process.execPath, [join(ROOT, 'bin', 'bench.js'), ...args], {
    stdio: ['ignore', stdio, 'inherit'],
    env: { ...process.env, CI: 'true' },
  });
};
const reps: string[] = [];
const walls: number[] = [];
for (let rep = 1; rep <= 3; rep++) {
  t0 = performance.now();
  bench_(['run', join(ROOT, 'configs', 'quickstart.yaml'), '--out', out, '--run-id', `rep${rep}`, '--no-corpus-cache']);
  walls.push((performance.now() - t0) / 1000);
  reps.push(join(out, 'quickstart', `rep${rep}`));
}
record('quickstart.wall_s', Math.min(...walls), 's');
const run = JSON.parse(readFileSync(join(reps[0] as string, 'run.json'), 'utf8')) as {
  corpus: { read_s: number };
  totals: { runtime_s: number; peak_rss_mb: number };
  variants: { name: string; runtime_s: number }[];
};
record('quickstart.read_s', run.corpus.read_s, 's');
record('quickstart.variants_s', run.totals.runtime_s, 's');
record('quickstart.peak_rss_mb', run.totals.peak_rss_mb, 'MB');
const v = (name: string): number => run.variants.find((x) => x.name === name)?.runtime_s ?? NaN;
record('quickstart.ground_truth_s', v('ground-truth'), 's');
record('quickstart.mod64_s', v('broder/mod=64'), 's');
record('quickstart.sct70_s', v('broder/sct=70'), 's');

const QUICKSTART_BASELINE = join(ROOT, 'results', 'baselines', 'quickstart.json');
if (update || !existsSync(QUICKSTART_BASELINE)) {
  bench_(['baseline', ...reps, '--out', QUICKSTART_BASELINE], 'inherit');
} else {
  process.stdout.write('\nbench check of the quickstart against its baseline (quality exactly, timings statistically):\n');
  try {
    bench_(['check', ...reps, '--baseline', QUICKSTART_BASELINE], 'inherit');
  } catch {
    process.exitCode = 1;
  }
}
rmSync(out, { recursive: true, force: true });

const current = { date: new Date().toISOString(), machine: machine(), figures };
if (existsSync(BASELINE)) {
  const base = JSON.parse(readFileSync(BASELINE, 'utf8')) as { date: string; figures: Record<string, Figure> };
  process.stdout.write(`\ncompared with ${BASELINE} (${base.date}):\n`);
  for (const [name, f] of Object.entries(figures)) {
    const b = base.figures[name];
    if (!b) continue;
    const factor = f.better === 'lower' ? f.value / b.value : b.value / f.value;
    const flag = factor > 1.5 ? '  slower' : factor < 1 / 1.5 ? '  faster' : '';
    process.stdout.write(`  ${name.padEnd(40)} ${b.value.toFixed(3).padStart(10)} → ${f.value.toFixed(3).padStart(10)} ${f.unit.padEnd(4)} ×${factor.toFixed(2)}${flag}\n`);
  }
}
if (update || !existsSync(BASELINE)) {
  mkdirSync(join(ROOT, 'results', 'baselines'), { recursive: true });
  writeFileSync(BASELINE, JSON.stringify(current, null, 2) + '\n');
  process.stdout.write(`\nwrote ${BASELINE}\n`);
}
