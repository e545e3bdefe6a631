/**
 * The two MapReduce jobs of Nikkhoo 2010, section 3.1.1 (Figures 3.2 and 3.3), over text
 * records, runnable unchanged as Hadoop Streaming mapper and reducer.
 *
 * MR#1  map:    document (index, text) → (fingerprint hex, "doc size") for each distinct kept fingerprint
 *       reduce: fingerprint → every 2-subset of its documents as ("a sizeA b sizeB", count); SCT drops
 *               fingerprints shared by more than the threshold here
 * MR#2  map:    identity; reduce: sum the counts → RR = c / (sizeA + sizeB − c), emitted as
 *               ("a:b", score) when RR >= the reporting floor
 *
 * Counters are named so that the typed-array kernel (`kernel.ts`) reports the very same ones.
 */
import { DOCUMENTS, type JobSpec } from '../../contract/index.ts';
import { formatScore } from '../../contract/index.ts';
import { normalize } from '../text/normalize.ts';
import { fingerprintHex, fingerprintMod, shingleFingerprints } from '../text/fingerprint.ts';
import type { BroderParams } from './params.ts';
import { PairCounts } from '../text/pair-counts.ts';
import { commonalityLimit, documentModulus, pairsOf, resemblance, usesSampledSize } from './sampling.ts';

export const MR1 = 'mr1-shingle-pairs';
export const MR2 = 'mr2-resemblance';
export const MR1_OUTPUT = 'shared-shingle-pairs';
export const MR2_OUTPUT = 'resemblance';

export function shinglePairsJob(params: BroderParams): JobSpec {
  const limit = commonalityLimit(params.sampling);
  const sampledSize = usesSampledSize(params.sampling);
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
        const fps = shingleFingerprints(normalize(text), params.shingle, params.fingerprint);
        const firstIndex = new Map<string, number>();
        for (let i = 0; i < fps.count; i++) {
          const hex = fingerprintHex(fps.data, i, fps.width);
          if (!firstIndex.has(hex)) firstIndex.set(hex, i);
        }
        const size = firstIndex.size;
        ctx.count(MR1, 'fingerprints', size);
        const modulus = documentModulus(params.sampling, size);
        const kept: string[] = [];
        for (const [hex, i] of firstIndex) {
          if (modulus && fingerprintMod(fps.data, i, fps.width, modulus.m) !== modulus.residue) continue;
          kept.push(hex);
        }
        if (kept.length === 0) {
          ctx.count(MR1, 'documents_without_fingerprints');
          return;
        }
        ctx.count(MR1, 'fingerprints_kept', kept.length);
        const value = `${doc} ${sampledSize ? kept.length : size}`;
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
      const sizes = new Map<number, number>();
      const flush = (): void => {
        pending.drain((a, b, c) => ctx.emit(`${a} ${sizes.get(a) as number} ${b} ${sizes.get(b) as number}`, String(c)));
        sizes.clear();
      };
      return {
        reduce(_fingerprint, values) {
          if (values.length > limit) {
            ctx.count(MR1, 'fingerprints_over_sct');
            return;
          }
          if (values.length < 2) return;
          const docs = values.map(parseDocSize).sort((x, y) => x[0] - y[0]);
          for (const [d, size] of docs) sizes.set(d, size);
          for (let i = 0; i < docs.length; i++) {
            const a = (docs[i] as [number, number])[0];
            for (let j = i + 1; j < docs.length; j++) pending.increment(a, (docs[j] as [number, number])[0]);
          }
          ctx.count(MR1, 'output_pairs', pairsOf(docs.length));
          if (pending.size >= PENDING_PAIRS_MAX) flush();
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

function parseDocSize(v: string): [number, number] {
  const space = v.indexOf(' ');
  return [Number(v.slice(0, space)), Number(v.slice(space + 1))];
}
