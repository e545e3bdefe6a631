/** The detectors' inner loops on one thread (tinybench, mean of 5), from the corpus in memory. */
import { Bench } from 'tinybench';
import { sampleFeatures, scanCount } from '../../algorithms/broder/join.ts';
import { signSlice } from '../../algorithms/imatch/sign.ts';
import { signatureSlice } from '../../algorithms/minhash/kernel-worker.ts';
import { densifyHash, permutationWords } from '../../algorithms/minhash/permutations.ts';
import { adapter as ppjoin } from '../../algorithms/ppjoin/index.ts';
import { joinRange } from '../../algorithms/ppjoin/join.ts';
import { buildIndex, processingOrder } from '../../algorithms/ppjoin/order.ts';
import { joinSettings } from '../../algorithms/ppjoin/settings.ts';
import { rankTokens, signatures } from '../../algorithms/ppjoin/tokens.ts';
import { fingerprintSlice, mergeSlices } from '../../algorithms/text/features.ts';
import { shingleFingerprints } from '../../algorithms/text/fingerprint.ts';
import { normalize } from '../../algorithms/text/normalize.ts';
import { mergeWordSlices, wordSetSlice } from '../../algorithms/text/word-sets.ts';
import type { Section } from './context.ts';

export const kernels: Section = {
  name: 'kernels',
  describe: "normalization, fingerprints, Broder's join (ground truth, mod 64, SCT 70), PPJoin, I-Match and MinHash inner loops, one thread",
  async run(ctx) {
    const { texts, readS } = await ctx.texts();
    ctx.record('corpus.read_s', readS, 's');
    const bytes = texts.reduce((s, t) => s + Buffer.byteLength(t), 0);
    const shingle = { unit: 'char', size: 64, start: 'word' } as const;
    const normalized = texts.map(normalize);
    const normBytes = normalized.reduce((s, t) => s + t.length, 0);
    const features = mergeSlices([fingerprintSlice({ texts, firstDoc: 0, shingle, kind: 'rabin64' })]);
    const ppRanked = rankTokens(features);
    const ppOrder = processingOrder(ppRanked);
    const ppJoin = (t: number): void => {
      const settings = joinSettings(ppjoin.params.parse({ threshold: t }), 0);
      const { index } = buildIndex(ppRanked, ppOrder, signatures(features, settings.signatureWords), settings);
      joinRange({ ...index, settings, from: 0, to: ppRanked.docs });
    };
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
    const sketch = (kind: 'k-permutation' | 'one-permutation') =>
      ({ kind, k: 128, bits: null, perms: permutationWords(1, kind === 'k-permutation' ? 128 : 1), densify: densifyHash(1) }) as const;
    const join = (sampling: Parameters<typeof sampleFeatures>[1]) => () => {
      const s = sampleFeatures(features, sampling);
      scanCount({ ...s, from: 0, to: s.docs, floor: Number.MIN_VALUE });
    };

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
      .add('sample+join ground truth', join({ method: 'none' }))
      .add('sample+join mod 64', join({ method: 'mod', m: 64, residue: 0 }))
      .add('sample+join sct 70', join({ method: 'sct', threshold: 70 }))
      .add('ppjoin ranks char64', () => {
        processingOrder(rankTokens(features));
      })
      .add('ppjoin join t=0.5', () => ppJoin(0.5))
      .add('ppjoin join t=0.9', () => ppJoin(0.9))
      .add('imatch word sets', () => {
        mergeWordSlices([wordSetSlice({ texts })]);
      })
      .add('imatch sign K=0', () => signAll(0))
      .add('imatch sign K=10', () => signAll(10))
      .add('minhash signatures k=128', () => {
        signatureSlice({ texts, shingle, fingerprint: 'rabin64', sketch: sketch('k-permutation'), keepSets: false });
      })
      .add('minhash one-permutation k=128', () => {
        signatureSlice({ texts, shingle, fingerprint: 'rabin64', sketch: sketch('one-permutation'), keepSets: false });
      });
    process.stdout.write('kernels (one thread, mean of 5):\n');
    await bench.run();
    for (const task of bench.tasks) {
      const r = task.result;
      if (r.state !== 'completed') throw new Error(`${task.name}: ${r.state}`);
      ctx.record(`kernel.${task.name}.ms`, r.latency.mean, 'ms');
    }
    ctx.record('kernel.normalize.MBps', bytes / 1e6 / (ctx.figure('kernel.normalize.ms') / 1000), 'MB/s', 'higher');
    ctx.record('kernel.fingerprint.MBps', normBytes / 1e6 / (ctx.figure('kernel.fingerprint char64 rabin64.ms') / 1000), 'MB/s', 'higher');
  },
};
