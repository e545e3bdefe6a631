/** Whole processes and whole runs: MinHash-LSH against datasketch, the readers, the quickstart, PDC-MR. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adapter as broder } from '../../algorithms/broder/index.ts';
import { adapter as pdcMr } from '../../algorithms/pdc-mr/index.ts';
import { adapter as spotsigs } from '../../algorithms/spotsigs/index.ts';
import { benchMinhash, printMinhashBench } from '../bench-minhash.ts';
import { benchReaders } from '../bench-readers.ts';
import { benchScaleIo } from '../bench-scale-io.ts';
import { benchExternal, printExternalBench } from '../bench-external.ts';
import { ensurePythonSet } from '../ensure-python.ts';
import { ROOT, type Section } from './context.ts';
import { timeVariant, type VariantTiming } from './local-variant.ts';

export const minhashSection: Section = {
  name: 'minhash',
  describe: "MinHash-LSH at 128 permutations, t = 0.5, as one process against datasketch's MinHash + MinHashLSH over the same shingles (datasketch from PyPI in .venv/peers, made when missing; that side is skipped when it cannot be): at least twice as fast at equal or better recall, or exit 1",
  async run(ctx) {
    process.stdout.write('MinHash-LSH against datasketch (128 permutations, t = 0.5, whole processes, best of 3):\n');
    const { texts } = await ctx.texts();
    const peers = ensurePythonSet('peers', (line) => process.stdout.write(`  ${line}\n`));
    const m = await benchMinhash({ texts: [...texts], reps: 3, ...(peers.found ? { python: peers.python } : {}) });
    if (!printMinhashBench(m, (line) => process.stdout.write(line))) process.exitCode = 1;
    ctx.record('minhash_lsh.wall_s', m.ndd.wallS, 's');
    ctx.record('minhash_lsh.cpu_s', m.ndd.cpuS, 's');
    ctx.record('minhash_lsh.recall', m.ndd.recall, 'ratio', 'higher');
    if (m.datasketch) {
      ctx.record('minhash_lsh.datasketch_wall_s', m.datasketch.wallS, 's');
      ctx.record('minhash_lsh.datasketch_cpu_s', m.datasketch.cpuS, 's');
      ctx.record('minhash_lsh.datasketch_recall', m.datasketch.recall, 'ratio', 'higher');
      ctx.record('minhash_lsh.speedup', m.datasketch.wallS / m.ndd.wallS, 'x', 'higher');
    }
  },
};

export const externalSection: Section = {
  name: 'external',
  describe: "the external adapter's own overhead around datasketch's MinHash-LSH (configs/peers.yaml, .venv/peers made when missing): at most 10% of the command's run, or exit 1",
  async run(ctx) {
    process.stdout.write('the external adapter around datasketch (best of 2):\n');
    const peers = ensurePythonSet('peers', (line) => process.stdout.write(`  ${line}\n`));
    if (!peers.found) {
      process.stdout.write(`  skipped: ${peers.reason}\n`);
      return;
    }
    const f = await benchExternal(2);
    if (!printExternalBench(f, (line) => process.stdout.write(line))) process.exitCode = 1;
    ctx.record('external.datasketch_variant_s', f.variantS, 's');
    ctx.record('external.adapter_overhead_s', f.overheadS, 's');
  },
};

export const readersSection: Section = {
  name: 'readers',
  describe: "200 MB of gzip'd TREC-web and WARC generated from the corpus, one thread (MB of input per CPU-second, RSS growth while reading)",
  async run(ctx) {
    process.stdout.write("readers (200 MB of generated gzip'd TREC-web and WARC, one thread):\n");
    for (const [format, f] of Object.entries(await benchReaders({ targetMb: 200 }))) {
      if (!f) continue;
      ctx.record(`reader.${format}.MBps`, f.mbPerCpuSecond, 'MB/s', 'higher');
      ctx.record(`reader.${format}.rss_growth_mb`, f.rssAtEndMb - f.rssAt10PctMb, 'MB');
    }
  },
};

interface RunJson {
  readonly corpus: { readonly read_s: number };
  readonly totals: { readonly runtime_s: number; readonly total_s: number; readonly cpu_s: number; readonly peak_rss_mb: number };
  readonly variants: readonly { readonly name: string; readonly measures: Record<string, number | null> }[];
}

const measure = (run: RunJson, variant: string, key: string): number => run.variants.find((v) => v.name === variant)?.measures[key] ?? NaN;

export const scaleIoSection: Section = {
  name: 'scale-io',
  describe: 'start-up, the mail reader on one thread and on every core, the corpus cache, the quickstart with a warm cache, the ground truth against scipy (scripts/bench-scale-io.ts)',
  async run(ctx) {
    await benchScaleIo((name, value, unit, better) => ctx.record(name, value, unit, better));
  },
};

export const quickstartSection: Section = {
  name: 'quickstart',
  describe: '`bench run configs/quickstart.yaml` three times as a user runs it, then `bench check` against results/baselines/quickstart.json: quality exactly, timings by Mann-Whitney U and a minimum factor (exit 1 on a regression)',
  async run(ctx) {
    process.stdout.write('quickstart (bench run configs/quickstart.yaml, 3 repetitions):\n');
    const out = mkdtempSync(join(tmpdir(), 'bench-ci-run-'));
    const reps: string[] = [];
    const walls: number[] = [];
    for (let rep = 1; rep <= 3; rep++) {
      const t0 = performance.now();
      ctx.cli(['run', join(ROOT, 'configs', 'quickstart.yaml'), '--out', out, '--run-id', `rep${rep}`, '--no-corpus-cache']);
      walls.push((performance.now() - t0) / 1000);
      reps.push(join(out, 'quickstart', `rep${rep}`));
    }
    ctx.record('quickstart.wall_s', Math.min(...walls), 's');
    const run = JSON.parse(readFileSync(join(reps[0] as string, 'run.json'), 'utf8')) as RunJson;
    ctx.record('quickstart.read_s', run.corpus.read_s, 's');
    ctx.record('quickstart.variants_s', run.totals.runtime_s, 's');
    ctx.record('quickstart.peak_rss_mb', run.totals.peak_rss_mb, 'MB');
    ctx.record('quickstart.ground_truth_s', measure(run, 'ground-truth', 'runtime_s'), 's');
    ctx.record('quickstart.mod64_s', measure(run, 'broder/mod=64', 'runtime_s'), 's');
    ctx.record('quickstart.sct70_s', measure(run, 'broder/sct=70', 'runtime_s'), 's');
    const QUICKSTART_BASELINE = join(ROOT, 'results', 'baselines', 'quickstart.json');
    if (ctx.update || !existsSync(QUICKSTART_BASELINE)) {
      ctx.cli(['baseline', ...reps, '--out', QUICKSTART_BASELINE], 'inherit');
    } else {
      process.stdout.write('\nbench check of the quickstart against its baseline (quality exactly, timings statistically):\n');
      try {
        ctx.cli(['check', ...reps, '--baseline', QUICKSTART_BASELINE], 'inherit');
      } catch {
        process.exitCode = 1;
      }
    }
    rmSync(out, { recursive: true, force: true });
  },
};

export const pdcMrSection: Section = {
  name: 'pdc-mr',
  describe: "PDC-MR (4-word shingles, τ 0.9, γ 3), document-level SpotSigs and Broder's full run from documents in memory, taking turns so that they share the machine's load; then the whole pdc-mr-mail pipeline as a user runs it",
  async run(ctx) {
    process.stdout.write("PDC-MR, document-level SpotSigs and Broder's full run (local backend, 2 threads, documents in memory, best of 3):\n");
    const docs = await ctx.docs();
    const detectors = [
      { key: 'broder_full', adapter: broder, raw: {} },
      { key: 'pdc_mr', adapter: pdcMr, raw: { signature: { method: 'shingles', n: 4 }, tau: 0.9, gamma: 3 } },
      { key: 'spotsigs', adapter: spotsigs, raw: { antecedents: 5, tau: 0.5 } },
    ] as const;
    const best = new Map<string, VariantTiming>();
    for (let rep = 0; rep < 3; rep++) {
      for (const d of detectors) {
        const t = await timeVariant(d.adapter, d.raw, docs, { memoryMb: 2048, seed: 1 });
        const b = best.get(d.key);
        best.set(d.key, { wallS: Math.min(b?.wallS ?? Infinity, t.wallS), cpuS: Math.min(b?.cpuS ?? Infinity, t.cpuS) });
      }
    }
    const of = (key: string): VariantTiming => best.get(key) as VariantTiming;
    ctx.record('pdc_mr.local_2_threads_s', of('pdc_mr').wallS, 's');
    ctx.record('pdc_mr.local_cpu_s', of('pdc_mr').cpuS, 's');
    ctx.record('pdc_mr.broder_full_2_threads_s', of('broder_full').wallS, 's');
    ctx.record('pdc_mr.broder_full_cpu_s', of('broder_full').cpuS, 's');
    ctx.record('pdc_mr.spotsigs_2_threads_s', of('spotsigs').wallS, 's');
    ctx.record('pdc_mr.spotsigs_cpu_s', of('spotsigs').cpuS, 's');
    ctx.record('pdc_mr.ratio_to_broder_full', of('pdc_mr').wallS / of('broder_full').wallS, 'x');
    ctx.record('pdc_mr.cpu_ratio_to_broder_full', of('pdc_mr').cpuS / of('broder_full').cpuS, 'x');
    ctx.record('pdc_mr.ratio_to_spotsigs', of('pdc_mr').wallS / of('spotsigs').wallS, 'x');

    process.stdout.write('the whole pipeline: bench run configs/pdc-mr-mail.yaml --only pdc-mr/gamma=3 (best of 2):\n');
    const out = mkdtempSync(join(tmpdir(), 'bench-ci-pdc-run-'));
    const runs: { wall: number; run: RunJson }[] = [];
    for (let rep = 1; rep <= 2; rep++) {
      const t0 = performance.now();
      ctx.cli(['run', join(ROOT, 'configs', 'pdc-mr-mail.yaml'), '--only', 'pdc-mr/gamma=3', '--out', out, '--run-id', `rep${rep}`]);
      const wall = (performance.now() - t0) / 1000;
      runs.push({ wall, run: JSON.parse(readFileSync(join(out, 'pdc-mr-mail', `rep${rep}`, 'run.json'), 'utf8')) as RunJson });
    }
    const { wall, run } = runs.reduce((x, y) => (y.wall < x.wall ? y : x));
    ctx.record('pdc_mr_mail.wall_s', wall, 's');
    ctx.record('pdc_mr_mail.run_cpu_s', run.totals.cpu_s, 's');
    ctx.record('pdc_mr_mail.read_s', run.corpus.read_s, 's');
    ctx.record('pdc_mr_mail.ground_truth_s', measure(run, 'ground-truth', 'runtime_s'), 's');
    ctx.record('pdc_mr_mail.pdc_mr_s', measure(run, 'pdc-mr/gamma=3', 'runtime_s'), 's');
    ctx.record('pdc_mr_mail.pdc_mr_cpu_s', measure(run, 'pdc-mr/gamma=3', 'cpu_s'), 's');
    ctx.record('pdc_mr_mail.peak_rss_mb', run.totals.peak_rss_mb, 'MB');
    rmSync(out, { recursive: true, force: true });
  },
};
