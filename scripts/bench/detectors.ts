/** Each detector as a variant on the local backend (2 threads, documents in memory). */
import { adapter as broder } from '../../algorithms/broder/index.ts';
import { adapter as imatch } from '../../algorithms/imatch/index.ts';
import { adapter as ppjoin } from '../../algorithms/ppjoin/index.ts';
import { adapter as simhash } from '../../algorithms/simhash/index.ts';
import { benchFingerprints, benchSearch } from '../bench-simhash.ts';
import { benchTrials } from '../bench-trials.ts';
import { syntheticCorpus } from '../synthetic-corpus.ts';
import type { Section } from './context.ts';
import { bestOf, timeVariant } from './local-variant.ts';

export const groundTruth: Section = {
  name: 'ground-truth',
  describe: "the full-shingle Broder ground truth (the \"under 1 s after the corpus is read\" target)",
  async run(ctx) {
    process.stdout.write('ground truth on the local backend (2 threads, from documents in memory, best of 3):\n');
    const docs = await ctx.docs();
    ctx.record('ground_truth.local_2_threads_s', (await bestOf(3, () => timeVariant(broder, {}, docs))).wallS, 's');
  },
};

export const ppjoinSection: Section = {
  name: 'ppjoin',
  describe: "PPJoin at t = 0.5 and 0.9, alone and after the ground truth (its fingerprints reused); 100,000 documents at t = 0.8 against Broder's ground truth",
  async run(ctx) {
    const docs = await ctx.docs();
    process.stdout.write('ppjoin on the local backend (2 threads, from documents in memory, best of 3):\n');
    for (const t of [0.5, 0.9]) ctx.record(`ppjoin.t${t}.local_2_threads_s`, (await bestOf(3, () => timeVariant(ppjoin, { threshold: t }, docs))).wallS, 's');
    process.stdout.write('ppjoin after the Broder ground truth in the same run (its fingerprints reused, best of 3):\n');
    for (const t of [0.5, 0.9]) {
      const before = { adapter: broder, raw: {} };
      ctx.record(`ppjoin.t${t}.after_ground_truth_s`, (await bestOf(3, () => timeVariant(ppjoin, { threshold: t }, docs, { before }))).wallS, 's');
    }
    ctx.record('ppjoin.after_ground_truth.t0.5_over_t0.9', ctx.figure('ppjoin.t0.5.after_ground_truth_s') / ctx.figure('ppjoin.t0.9.after_ground_truth_s'), 'x', 'higher');
    process.stdout.write('100,000 documents (scripts/synthetic-corpus.ts), 2 threads, once each:\n');
    const big = syntheticCorpus([...docs.texts], 100_000);
    const bigDocs = { ids: big.map((_, i) => String(i)), texts: big };
    ctx.record('synthetic100k.ppjoin_t0.8_s', (await timeVariant(ppjoin, { threshold: 0.8 }, bigDocs, { memoryMb: 8192 })).wallS, 's');
    ctx.record('synthetic100k.broder_ground_truth_s', (await timeVariant(broder, {}, bigDocs, { memoryMb: 8192 })).wallS, 's');
    ctx.record('synthetic100k.broder_over_ppjoin', ctx.figure('synthetic100k.broder_ground_truth_s') / ctx.figure('synthetic100k.ppjoin_t0.8_s'), 'x', 'higher');
  },
};

export const simhashSection: Section = {
  name: 'simhash',
  describe: 'simhash fingerprints (one thread, target 50 MB/s), the Hamming search over 1,000,000 fingerprints for k = 0..3 (target < 10 s, < 1 GB), k = 3 on the local backend',
  async run(ctx) {
    const { texts } = await ctx.texts();
    process.stdout.write('simhash (fingerprints and search on one thread; k = 3 on the local backend, 2 threads):\n');
    const { normalize } = await import('../../algorithms/text/normalize.ts');
    const fp = benchFingerprints(texts.map(normalize));
    ctx.record('simhash.fingerprint.MBps', fp.mbPerSecond, 'MB/s', 'higher');
    ctx.record('simhash.fingerprint.MB_per_cpu_s', fp.mbPerCpuSecond, 'MB/s', 'higher');
    for (const s of benchSearch()) {
      ctx.record(`simhash.search_1m.k${s.k}_s`, s.seconds, 's');
      ctx.record(`simhash.search_1m.k${s.k}_cpu_s`, s.cpuSeconds, 's');
      ctx.record(`simhash.search_1m.k${s.k}_peak_rss_mb`, s.peakRssMb, 'MB');
    }
    ctx.record('simhash.local_2_threads_s', (await bestOf(3, async () => timeVariant(simhash, {}, await ctx.docs()))).wallS, 's');
  },
};

export const imatchSection: Section = {
  name: 'imatch',
  describe: 'I-Match, K = 0 and K = 10 (the "under 1 s after reading" target)',
  async run(ctx) {
    process.stdout.write('I-Match on the local backend (2 threads, from documents in memory, best of 3):\n');
    const docs = await ctx.docs();
    for (const [label, raw] of [['k0', {}], ['k10', { extra_lexicons: 10 }]] as const) {
      ctx.record(`imatch.${label}.local_2_threads_s`, (await bestOf(3, () => timeVariant(imatch, raw, docs, { seed: 1 }))).wallS, 's');
    }
  },
};

export const trialsSection: Section = {
  name: 'trials',
  describe: 'mod 16 over all 16 residues (Ye et al. 4.4) on one backend sharing the fingerprints, against 16 separate runs',
  async run(ctx) {
    process.stdout.write('residue trials (mod 16, all 16 residues, 2 threads, from documents in memory):\n');
    const trials = await benchTrials(await ctx.docs(), 16);
    ctx.record('residue_trials.16_trials_s', trials.trialsS, 's');
    ctx.record('residue_trials.16_separate_runs_s', trials.separateS, 's');
    ctx.record('residue_trials.speedup', trials.separateS / trials.trialsS, '×', 'higher');
  },
};
