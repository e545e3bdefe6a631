/**
 * The two MapReduce jobs of Nikkhoo 2010, section 3.1.1 (Figures 3.2 and 3.3), over text
 * records, runnable unchanged as Hadoop Streaming mapper and reducer.
 *
 * MR#1  map:    document (index, text) → (fingerprint hex, "doc size") for each distinct kept fingerprint;
 *               under adaptive sampling with several moduli, "doc level size_level … size_top": the
 *               document's sample size at its own modulus and at each coarser one (sampling.ts)
 *       reduce: fingerprint → every 2-subset of its documents as ("a sizeA b sizeB", count), the
 *               sizes at the coarser level of the two; SCT drops fingerprints shared by more than
 *               the threshold here
 * MR#2  map:    identity; reduce: sum the counts → RR = c / (sizeA + sizeB − c), emitted as
 *               ("a:b", score) when RR >= the reporting floor
 *
 * Counters are named so that the typed-array kernel (`kernel.ts`) reports the very same ones.
 */
import { DOCUMENTS, type JobSpec } from '../../contract/index.ts';
import { formatScore } from '../../contract/index.ts';
import { normalize } from '../text/normalize.ts';
import { fingerprintHex, fingerprintMod, shingleFingerprints } from '../text/fingerprint.ts';
import { wordCount } from '../text/word-count.ts';
import type { BroderParams } from './params.ts';
import { PairCounts } from '../text/pair-counts.ts';
import {
  adaptiveGroup,
  commonalityLimit,
  documentLevel,
  groupCounters,
  pairsOf,
  resemblance,
  samplingLevels,
  usesSampledSize,
  usesWords,
} from './sampling.ts';

export const MR1 = 'mr1-shingle-pairs';
export const MR2 = 'mr2-resemblance';
export const MR1_OUTPUT = 'shared-shingle-pairs';
export const MR2_OUTPUT = 'resemblance';

export function shinglePairsJob(params: BroderParams): JobSpec {
  const limit = commonalityLimit(params.sampling);
  const sampledSize = usesSampledSize(params.sampling);
  const levels = samplingLevels(params.sampling);
  const byWords = usesWords(params.sampling);
  return {
    name: MR1,
    description: 'fingerprint each document; for each fingerprint emit every pair of documents that share it',
    inputs: [DOCUMENTS],
    output: MR1_OUTPUT,
    mapKey: JSON.stringify({
      shingle: params.shingle,
      fingerprint: params.fingerprint,
      sampling: sampledSize ? params.sampling : 'none',
    }),
    mapper: (ctx) => ({
      map(doc, text) {
        ctx.count(MR1, 'documents');
        const normalized = normalize(text);
        const fps = shingleFingerprints(normalized, params.shingle, params.fingerprint);
        const firstIndex = new Map<string, number>();
        for (let i = 0; i < fps.count; i++) {
          const hex = fingerprintHex(fps.data, i, fps.width);
          if (!firstIndex.has(hex)) firstIndex.set(hex, i);
        }
        const size = firstIndex.size;
        ctx.count(MR1, 'fingerprints', size);
        const words = byWords ? wordCount(normalized) : 0;
        const level = documentLevel(params.sampling, levels, size, words);
        const group = adaptiveGroup(params.sampling, size, words);
        // A counter is created only when something is counted, as the kernel's are.
        if (group >= 0 && size > 0) ctx.count(MR1, groupCounters(group).fingerprints, size);
        const modulus = level >= 0 ? (levels.moduli[level] as number) : 0;
        const kept: string[] = [];
        const keptIndex: number[] = [];
        for (const [hex, i] of firstIndex) {
          if (modulus > 0 && fingerprintMod(fps.data, i, fps.width, modulus) !== levels.residue) continue;
          kept.push(hex);
          keptIndex.push(i);
        }
        if (kept.length === 0) {
          ctx.count(MR1, 'documents_without_fingerprints');
          return;
        }
        ctx.count(MR1, 'fingerprints_kept', kept.length);
        if (group >= 0) ctx.count(MR1, groupCounters(group).kept, kept.length);
        let value = `${doc} ${sampledSize ? kept.length : size}`;
        if (levels.moduli.length > 1) {
          // The sizes at the coarser levels, for pairs with documents sampled more coarsely.
          const sizes = [kept.length];
          for (let l = level + 1; l < levels.moduli.length; l++) {
            const m = levels.moduli[l] as number;
            let n = 0;
            for (const i of keptIndex) if (fingerprintMod(fps.data, i, fps.width, m) === levels.residue) n++;
            sizes.push(n);
          }
          value = `${doc} ${level} ${sizes.join(' ')}`;
        }
        for (const hex of kept) ctx.emit(hex, value);
      },
    }),
    reducer: (ctx) => {
      // In-reducer combining (Lin & Dyer's in-mapper combining, applied to this reducer's
      // output): a pair's count over all the fingerprints this task reduces is emitted once,
      // instead of one "1" per shared fingerprint. MR#2 sums whatever counts arrive, so the
      // scores do not change; the shuffle of MR#2 shrinks by the pairs' average overlap.
      // The `output_pairs` counter still counts pairs per fingerprint, the thesis' quantity.
      const pending = new PairCounts(PENDING_PAIRS_MAX);
      const sizes = new Map<number, DocSizes>();
      const sizeAt = (d: DocSizes, level: number): number => d.sizes[level - d.level] as number;
      const flush = (): void => {
        pending.drain((a, b, c) => {
          const x = sizes.get(a) as DocSizes;
          const y = sizes.get(b) as DocSizes;
          const level = Math.max(x.level, y.level);
          ctx.emit(`${a} ${sizeAt(x, level)} ${b} ${sizeAt(y, level)}`, String(c));
        });
        sizes.clear();
      };
      return {
        reduce(_fingerprint, values) {
          if (values.length > limit) {
            ctx.count(MR1, 'fingerprints_over_sct');
            return;
          }
          if (values.length < 2) return;
          const docs = values.map(parseDocSizes).sort((x, y) => x.doc - y.doc);
          for (const d of docs) sizes.set(d.doc, d);
          for (let i = 0; i < docs.length; i++) {
            const a = (docs[i] as DocSizes).doc;
            for (let j = i + 1; j < docs.length; j++) {
              pending.increment(a, (docs[j] as DocSizes).doc);
              // Emptied as soon as it holds PENDING_PAIRS_MAX pairs, also in the middle of a
              // fingerprint: one shared by d documents adds d(d-1)/2 pairs, and the table has
              // 2 * PENDING_PAIRS_MAX slots. Emptied only between fingerprints, a fingerprint of
              // 1,885 documents (1.78 M pairs) filled it and the probe for a free slot never ended.
              if (pending.size >= PENDING_PAIRS_MAX) {
                flush();
                for (const d of docs) sizes.set(d.doc, d);
              }
            }
          }
          ctx.count(MR1, 'output_pairs', pairsOf(docs.length));
        },
        close: flush,
      };
    },
  };
}

/** Distinct pairs an MR#1 reduce task holds before it emits them (24 bytes of table each). */
const PENDING_PAIRS_MAX = 1_000_000;

export function resemblanceJob(floor: number): JobSpec {
  const sum = (values: readonly string[]): number => {
    let c = 0;
    for (const v of values) c += Number(v);
    return c;
  };
  return {
    name: MR2,
    description: 'count the fingerprints each pair shares and turn the count into the resemblance rate',
    inputs: [MR1_OUTPUT],
    output: MR2_OUTPUT,
    // No combiner: MR#1's reducers already summed each pair's count, so a pair reaches this job
    // at most once per MR#1 reduce task; a combiner would cost a sort per map task for little.
    mapper: (ctx) => ({ map: (k, v) => ctx.emit(k, v) }),
    reducer: (ctx) => ({
      reduce(key, values) {
        const [a, sa, b, sb] = key.split(' ').map(Number) as [number, number, number, number];
        const rr = resemblance(sum(values), sa, sb);
        ctx.count(MR2, 'distinct_pairs');
        if (rr < floor) return;
        ctx.count(MR2, 'output_pairs');
        ctx.emit(`${a}:${b}`, formatScore(rr));
      },
    }),
  };
}

/** A document as MR#1's mapper describes it: its sample sizes from its own level up. */
interface DocSizes {
  readonly doc: number;
  readonly level: number;
  readonly sizes: readonly number[];
}

function parseDocSizes(v: string): DocSizes {
  const f = v.split(' ').map(Number);
  // "doc size" (one level) or "doc level size_level … size_top" (adaptive with several moduli)
  return f.length === 2 ? { doc: f[0] as number, level: 0, sizes: [f[1] as number] } : { doc: f[0] as number, level: f[1] as number, sizes: f.slice(2) };
}
