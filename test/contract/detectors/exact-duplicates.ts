/**
 * A detector written outside algorithms/, as a user would: exact duplicates by a hash of the
 * normalized text. It only decides (every pair it reports is a duplicate); its score is 1 for
 * every pair, so it says nothing of resemblance. One job, no kernel.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { DOCUMENTS, pairKey, type AlgorithmAdapter, type Plan } from '../../../contract/index.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';

export const GROUP = 'exact-duplicates';

export function planExactDuplicates(): Plan {
  return {
    jobs: [
      {
        name: 'hash-groups',
        description: 'group documents by the SHA-1 of their normalized text; every pair of a group is a duplicate',
        inputs: [DOCUMENTS],
        output: 'duplicates',
        mapper: (ctx) => ({ map: (doc, text) => ctx.emit(createHash('sha1').update(normalize(text)).digest('hex'), doc) }),
        reducer: (ctx) => ({
          reduce(_hash, docs) {
            const sorted = docs.map(Number).sort((x, y) => x - y);
            ctx.count(GROUP, 'groups');
            for (let i = 0; i < sorted.length; i++) {
              for (let j = i + 1; j < sorted.length; j++) {
                ctx.count(GROUP, 'pairs_compared');
                ctx.emit(pairKey(sorted[i] as number, sorted[j] as number), '1');
              }
            }
          },
        }),
      },
    ],
    output: {
      pairs: 'duplicates',
      score: { kind: 'other', why: 'exact duplicates by hash: every pair scores 1, which is no estimate of the RR' },
      decisions: { kind: 'every-reported-pair' },
      candidates: { group: GROUP, name: 'pairs_compared' },
    },
  };
}

export const exactDuplicates: AlgorithmAdapter<z.ZodObject> = {
  name: 'exact-duplicates',
  description: 'test detector: exact duplicates by SHA-1 of the normalized text',
  citation: 'none',
  params: z.object({}).strict(),
  plan: planExactDuplicates,
};
