import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adapter } from '../../../algorithms/imatch/index.ts';
import { docSet } from '../../support/corpus.ts';
import { runPlan } from '../../support/run-plan.ts';

const explain = adapter.explain!;
const sha1 = (words: string[]) => createHash('sha1').update(words.join('\n')).digest('hex');
type Data = { terms_a: string[]; terms_b: string[]; only_a: string[]; only_b: string[]; collided: number[]; reported: boolean; score: number; lexicons: { signature_a: string | null; signature_b: string | null }[] };

describe('I-Match evidence, worked by hand', () => {
  // N = 4. df: apple, banana, cherry 2 → normalized idf log(4/2)/log 4 = 0.5; "the" 3 → log(4/3)/log 4 = 0.21;
  // dog, cat 1 → 1.
  const texts = ['Apple banana cherry', 'banana cherry apple the', 'the dog', 'the cat'];
  const ctx = { docs: docSet(texts), a: 0, b: 1, seed: 1, width: 100 };

  it('collides when the lexicon leaves out the one word that differs (idf_min 0.3 drops "the")', async () => {
    const e = await explain.evidence(adapter.params.parse({ idf_min: 0.3 }), ctx);
    const d = e.data as unknown as Data;
    expect([d.terms_a, d.terms_b, d.only_a, d.only_b]).toEqual([['apple', 'banana', 'cherry'], ['apple', 'banana', 'cherry'], [], []]);
    expect(d.lexicons[0]).toMatchObject({ signature_a: sha1(['apple', 'banana', 'cherry']), signature_b: sha1(['apple', 'banana', 'cherry']) });
    expect([d.collided, d.reported, d.score]).toEqual([[0], true, 1]);
  });

  it('names the lexicon word that breaks the signature (idf_min 0.1 keeps "the")', async () => {
    const e = await explain.evidence(adapter.params.parse({ idf_min: 0.1 }), ctx);
    const d = e.data as unknown as Data;
    expect([d.only_a, d.only_b, d.collided, d.reported]).toEqual([[], ['the'], [], false]);
    expect(d.lexicons[0]?.signature_b).toBe(sha1(['apple', 'banana', 'cherry', 'the']));
    expect(e.lines.some((l) => l === 'only in B (1): the')).toBe(true);
  });

  it('reports the pairs the run reports, with its scores, with randomized lexicons (a second method: the plan)', async () => {
    const corpus = ['a b c d e f g h', 'a b c d e f g x', 'a b c d e f y z', 'q r s t', 'q r s u', 'a q'];
    const p = { idf_min: 0, extra_lexicons: 4, drop: 0.5 };
    const run = await runPlan('imatch', p, docSet(corpus), { engine: 'auto', seed: 9 });
    expect(run.rows.length).toBeGreaterThan(0);
    for (let a = 0; a < corpus.length; a++) {
      for (let b = a + 1; b < corpus.length; b++) {
        const d = (await explain.evidence(adapter.params.parse(p), { docs: docSet(corpus), a, b, seed: 9, width: 100 })).data as unknown as Data;
        const row = run.rows.find((r) => r.startsWith(`${a} ${b} `));
        expect(d.reported, `${a}:${b}`).toBe(row !== undefined);
        if (row) expect(Number(row.split(' ')[2])).toBe(d.score);
      }
    }
  });
});
