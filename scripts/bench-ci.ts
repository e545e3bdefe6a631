/**
 * `npm run bench:ci`: the performance figures of the project, measured on the bundled corpus.
 *
 *   kernels (tinybench): normalization, shingling+fingerprinting, the fingerprint dictionary,
 *                        sampling and the ScanCount join (ground truth, mod 64, SCT 70), one thread
 *   readers:             200 MB of gzip'd TREC-web and WARC generated from the corpus, one thread
 *                        (MB of uncompressed input per CPU-second, RSS growth while reading)
 *   ground truth:        the full-shingle Broder ground truth on the local backend, both cores,
 *                        from documents in memory (the "under 1 s after the corpus is read" target)
 *   quickstart:          `bench run configs/quickstart.yaml` three times, as a user runs it, then
 *                        `bench check` against results/baselines/quickstart.json: quality exactly,
 *                        timings by Mann-Whitney U and a minimum factor (exit 1 on a regression)
 *   pdc-mr:              PDC-MR (4-word shingles, τ 0.9, γ 3), document-level SpotSigs and Broder's
 *                        full run on the local backend from documents in memory, both cores,
 *                        interleaved so that they share the machine's load; wall and CPU (worker
 *                        threads included) and the ratios; then `bench run configs/pdc-mr-mail.yaml
 *                        --only pdc-mr/gamma=3`, the whole pipeline as a user runs it (reading the
 *                        mail, Broder's ground truth, PDC-MR, the reply measures, the report)
 *
 * The figures are compared with results/baselines/bench-ci.json (a factor per line, printed);
 * `--update` (or a missing baseline) writes both baselines. `--only=SECTION,…` (kernels,
 * ground-truth, readers, quickstart, pdc-mr) runs those sections; with `--update` it replaces
 * their figures in the baseline and keeps the others.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { adapter as broder } from '../algorithms/broder/index.ts';
import { adapter as pdcMr } from '../algorithms/pdc-mr/index.ts';
import { adapter as spotsigs } from '../algorithms/spotsigs/index.ts';
import type { AlgorithmAdapter } from '../contract/index.ts';
import { mergeSlices, fingerprintSlice } from '../algorithms/text/features.ts';
import { sampleFeatures, scanCount } from '../algorithms/broder/join.ts';
import { shingleFingerprints } from '../algorithms/text/fingerprint.ts';
import { normalize } from '../algorithms/text/normalize.ts';
import { newCorpusStats, readCorpus } from '../harness/corpus/read.ts';
import { createLocalBackend } from '../harness/mapreduce/local/backend.ts';
import { machine } from '../harness/results/environment.ts';
import { benchReaders } from './bench-readers.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const BASELINE = join(ROOT, 'results', 'baselines', 'bench-ci.json');
const update = process.argv.includes('--update');
const SECTIONS = ['kernels', 'ground-truth', 'readers', 'quickstart', 'pdc-mr'] as const;
const onlyArg = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const only = onlyArg === undefined ? undefined : onlyArg.split(',');
for (const s of only ?? []) if (!(SECTIONS as readonly string[]).includes(s)) throw new Error(`--only: unknown section ${s} (sections: ${SECTIONS.join(', ')})`);
const want = (section: (typeof SECTIONS)[number]): boolean => only === undefined || only.includes(section);

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

const bench_ = (args: string[], stdio: 'inherit' | 'ignore' = 'ignore'): void => {
  execFileSync(process.execPath, [join(ROOT, 'bin', 'bench.js'), ...args], {
    stdio: ['ignore', stdio, 'inherit'],
    env: { ...process.env, CI: 'true' },
  });
};
let t0 = performance.now();
const texts: string[] = [];
if (want('kernels') || want('ground-truth') || want('pdc-mr')) {
  process.stdout.write('reading the bundled corpus…\n');
  const stats = newCorpusStats();
  for await (const d of readCorpus({ format: 'spamassassin' }, stats)) texts.push(d.text);
  const readS = (performance.now() - t0) / 1000;
  if (want('kernels')) record('corpus.read_s', readS, 's');
  process.stdout.write(`  ${texts.length} documents, ${(Buffer.byteLength(texts.join('')) / 1e6).toFixed(1)} MB of text\n`);
}
const docs = { ids: texts.map((_, i) => String(i)), texts };

if (want('kernels')) await kernels();
if (want('ground-truth')) await groundTruth();
if (want('readers')) await readers();
if (want('quickstart')) quickstart();
if (want('pdc-mr')) {
  await pdcMrLocal();
  pdcMrMail();
}

async function kernels(): Promise<void> {
  const bytes = texts.reduce((s, t) => s + Buffer.byteLength(t), 0);
  const shingle = { unit: 'char', size: 64, start: 'word' } as const;
  const normalized = texts.map(normalize);
  const normBytes = normalized.reduce((s, t) => s + t.length, 0);
  const slice = fingerprintSlice({ texts, firstDoc: 0, shingle, kind: 'rabin64' });
  const features = mergeSlices([slice]);

  const bench = new Bench({ iterations: 5, time: 0, warmupIterations: 1, warmupTime: 0 });
  bench
    .add('normalize', () => {
      for (const t of texts) normalize(t);
    })
    .add('fingerprint char64 rabin64', () => {
      for (const t of normalized) shingleFingerprints(t, shingle, 'rabin64');
    })
    .add('sort and merge fingerprints', () => {
      mergeSlices([fingerprintSlice({ texts, firstDoc: 0, shingle, kind: 'rabin64' })]);
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
    });
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
}

async function groundTruth(): Promise<void> {
  process.stdout.write('ground truth on the local backend (2 threads, from documents in memory):\n');
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
}

async function readers(): Promise<void> {
  process.stdout.write("readers (200 MB of generated gzip'd TREC-web and WARC, one thread):\n");
  for (const [format, f] of Object.entries(await benchReaders({ targetMb: 200 }))) {
    record(`reader.${format}.MBps`, f.mbPerCpuSecond, 'MB/s', 'higher');
    record(`reader.${format}.rss_growth_mb`, f.rssAtEndMb - f.rssAt10PctMb, 'MB');
  }
}

function quickstart(): void {
  process.stdout.write('quickstart (bench run configs/quickstart.yaml, 3 repetitions):\n');
  const out = mkdtempSync(join(tmpdir(), 'bench-ci-run-'));
  const reps: string[] = [];
  const walls: number[] = [];
  for (let rep = 1; rep <= 3; rep++) {
    t0 = performance.now();
    bench_(['run', join(ROOT, 'configs', 'quickstart.yaml'), '--out', out, '--run-id', `rep${rep}`]);
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
}

/**
 * PDC-MR at the paper's best setting, document-level SpotSigs (the paper's baseline) and Broder's
 * full run, each on the local backend from documents in memory: the computation alone. They take
 * turns within each repetition so that a load the machine is under weighs on all three; wall
 * time and CPU time (process-wide: worker threads included) are the best of three.
 */
async function pdcMrLocal(): Promise<void> {
  process.stdout.write("PDC-MR, document-level SpotSigs and Broder's full run (local backend, 2 threads, documents in memory, best of 3):\n");
  const detectors: { key: string; adapter: AlgorithmAdapter; raw: unknown }[] = [
    { key: 'broder_full', adapter: broder, raw: {} },
    { key: 'pdc_mr', adapter: pdcMr, raw: { signature: { method: 'shingles', n: 4 }, tau: 0.9, gamma: 3 } },
    { key: 'spotsigs', adapter: spotsigs, raw: { antecedents: 5, tau: 0.5 } },
  ];
  const wall = new Map<string, number[]>();
  const cpu = new Map<string, number[]>();
  for (let rep = 0; rep < 3; rep++) {
    const backend = createLocalBackend({ workers: 2, memoryMb: 2048, pricePerVcpuHour: 0.0504, engine: 'auto' });
    const work = mkdtempSync(join(tmpdir(), 'bench-ci-pdc-'));
    const job = (d: (typeof detectors)[number], minScore: number) => {
      const params = d.adapter.params.parse(d.raw);
      return { variant: d.key, algorithm: d.adapter.name, params, minScore, seed: 1, plan: d.adapter.plan(params, { minScore, seed: 1 }) };
    };
    const ctx = (texts: readonly string[]) => ({ docs: { ids: texts.map((_, i) => String(i)), texts }, workDir: work, signal: new AbortController().signal, progress() {} });
    // Warm the worker threads (module loading) so the figures are the computation.
    for (const d of detectors) await backend.run(job(d, 1), ctx(['warm up. a short text here.', 'warm up. a short text here.']));
    for (const d of detectors) {
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      await backend.run(job(d, Number.MIN_VALUE), { ...ctx([]), docs });
      const c = process.cpuUsage(c0);
      wall.set(d.key, [...(wall.get(d.key) ?? []), (performance.now() - w0) / 1000]);
      cpu.set(d.key, [...(cpu.get(d.key) ?? []), (c.user + c.system) / 1e6]);
    }
    await backend.close();
    rmSync(work, { recursive: true, force: true });
  }
  const best = (m: Map<string, number[]>, key: string): number => Math.min(...(m.get(key) ?? [NaN]));
  record('pdc_mr.local_2_threads_s', best(wall, 'pdc_mr'), 's');
  record('pdc_mr.local_cpu_s', best(cpu, 'pdc_mr'), 's');
  record('pdc_mr.broder_full_2_threads_s', best(wall, 'broder_full'), 's');
  record('pdc_mr.broder_full_cpu_s', best(cpu, 'broder_full'), 's');
  record('pdc_mr.spotsigs_2_threads_s', best(wall, 'spotsigs'), 's');
  record('pdc_mr.spotsigs_cpu_s', best(cpu, 'spotsigs'), 's');
  record('pdc_mr.ratio_to_broder_full', best(wall, 'pdc_mr') / best(wall, 'broder_full'), 'x');
  record('pdc_mr.cpu_ratio_to_broder_full', best(cpu, 'pdc_mr') / best(cpu, 'broder_full'), 'x');
  record('pdc_mr.ratio_to_spotsigs', best(wall, 'pdc_mr') / best(wall, 'spotsigs'), 'x');
}

/** The whole pipeline as a user runs it, twice: `bench run configs/pdc-mr-mail.yaml --only pdc-mr/gamma=3`. */
function pdcMrMail(): void {
  process.stdout.write('the whole pipeline: bench run configs/pdc-mr-mail.yaml --only pdc-mr/gamma=3 (best of 2):\n');
  const out = mkdtempSync(join(tmpdir(), 'bench-ci-pdc-run-'));
  interface Totals {
    corpus: { read_s: number };
    totals: { total_s: number; cpu_s: number; peak_rss_mb: number };
    variants: { name: string; measures: { runtime_s: number; cpu_s: number } }[];
  }
  const runs: { wall: number; run: Totals }[] = [];
  for (let rep = 1; rep <= 2; rep++) {
    t0 = performance.now();
    bench_(['run', join(ROOT, 'configs', 'pdc-mr-mail.yaml'), '--only', 'pdc-mr/gamma=3', '--out', out, '--run-id', `rep${rep}`]);
    const wall = (performance.now() - t0) / 1000;
    runs.push({ wall, run: JSON.parse(readFileSync(join(out, 'pdc-mr-mail', `rep${rep}`, 'run.json'), 'utf8')) as Totals });
  }
  const { wall, run } = runs.reduce((x, y) => (y.wall < x.wall ? y : x));
  const v = (name: string): Totals['variants'][number]['measures'] | undefined => run.variants.find((x) => x.name === name)?.measures;
  record('pdc_mr_mail.wall_s', wall, 's');
  record('pdc_mr_mail.run_cpu_s', run.totals.cpu_s, 's');
  record('pdc_mr_mail.read_s', run.corpus.read_s, 's');
  record('pdc_mr_mail.ground_truth_s', v('ground-truth')?.runtime_s ?? NaN, 's');
  record('pdc_mr_mail.pdc_mr_s', v('pdc-mr/gamma=3')?.runtime_s ?? NaN, 's');
  record('pdc_mr_mail.pdc_mr_cpu_s', v('pdc-mr/gamma=3')?.cpu_s ?? NaN, 's');
  record('pdc_mr_mail.peak_rss_mb', run.totals.peak_rss_mb, 'MB');
  rmSync(out, { recursive: true, force: true });
}

const previous = existsSync(BASELINE)
  ? (JSON.parse(readFileSync(BASELINE, 'utf8')) as { date: string; machine: unknown; sections_updated?: Record<string, string>; figures: Record<string, Figure> })
  : undefined;
// With --only, the other sections' figures (and the date they were measured) stay as they were.
const current =
  only && previous
    ? {
        date: previous.date,
        machine: previous.machine,
        sections_updated: { ...previous.sections_updated, ...Object.fromEntries(only.map((s) => [s, new Date().toISOString()])) },
        figures: { ...previous.figures, ...figures },
      }
    : { date: new Date().toISOString(), machine: machine(), figures };
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
