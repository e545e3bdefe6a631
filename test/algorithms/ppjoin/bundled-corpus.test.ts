/**
 * PPJoin on the bundled corpus (6,025 mails, char-64 shingles, the quickstart's sets):
 * - for several t, exactly the pairs of an all-pairs Jaccard computed here from the shingle
 *   strings (every pair sharing a token counted through an inverted index; pairs sharing none
 *   have J = 0);
 * - configs/ppjoin-ground-truth.yaml's ground truth reports exactly Broder's full-run pairs with
 *   RR >= its threshold, with Broder's scores.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DocumentSet } from '../../../contract/index.ts';
import { loadExperiment } from '../../../harness/experiment/load.ts';
import { newCorpusStats, readCorpus } from '../../../harness/corpus/read.ts';
import { runPlan } from '../../support/run-plan.ts';
import { tokenSets } from './support.ts';

const CONFIGS = fileURLToPath(new URL('../../../configs/', import.meta.url));
const char64 = { unit: 'char', size: 64, start: 'word' } as const;
let docs: DocumentSet;

beforeAll(async () => {
  const ids: string[] = [];
  const texts: string[] = [];
  for await (const d of readCorpus({ format: 'spamassassin' }, newCorpusStats())) {
    ids.push(d.id);
    texts.push(d.text);
  }
  docs = { ids, texts };
}, 120_000);

/** Every pair's common-token count over an inverted index of the sets; rows for J >= each t. */
function allPairs(sets: readonly Set<string>[], thresholds: readonly number[]): Map<number, string[]> {
  const postings = new Map<string, number[]>();
  sets.forEach((s, d) => {
    for (const tok of s) {
      const p = postings.get(tok);
      if (p) p.push(d);
      else postings.set(tok, [d]);
    }
  });
  const rows = new Map(thresholds.map((t) => [t, [] as string[]]));
  const count = new Int32Array(sets.length);
  for (let a = 0; a < sets.length; a++) {
    const touched: number[] = [];
    for (const tok of sets[a] as Set<string>) {
      for (const b of postings.get(tok) as number[]) {
        if (b <= a) continue;
        if (count[b] === 0) touched.push(b);
        count[b] = (count[b] as number) + 1;
      }
    }
    for (const b of touched) {
      const c = count[b] as number;
      count[b] = 0;
      const j = c / ((sets[a] as Set<string>).size + (sets[b] as Set<string>).size - c);
      for (const t of thresholds) if (j >= t) rows.get(t)?.push(`${a} ${b} ${j}`);
    }
  }
  for (const r of rows.values()) r.sort();
  return rows;
}

describe('PPJoin on the bundled corpus', () => {
  it('equals an all-pairs Jaccard over the char-64 shingle sets at t = 0.5, 0.7, 0.8, 0.9', async () => {
    const thresholds = [0.5, 0.7, 0.8, 0.9];
    const expected = allPairs(tokenSets([...docs.texts], char64), thresholds);
    for (const t of thresholds) {
      const r = await runPlan('ppjoin', { threshold: t, filters: { suffix: true } }, docs, { engine: 'auto', workers: 2, memoryMb: 2048 });
      expect(r.rows, `t=${t}`).toEqual(expected.get(t));
    }
    expect(expected.get(0.9)?.length).toBeGreaterThan(500);
  }, 180_000);

  it("configs/ppjoin-ground-truth.yaml's ground truth is Broder's full run from its threshold up", async () => {
    const exp = await loadExperiment(join(CONFIGS, 'ppjoin-ground-truth.yaml'), { env: {} });
    expect(exp.groundTruth.algorithm).toBe('ppjoin');
    const t = (exp.groundTruth.params as { threshold: number }).threshold;
    const truth = await runPlan('ppjoin', exp.groundTruth.params, docs, { engine: 'auto', workers: 2, memoryMb: 2048 });
    const broder = await runPlan('broder', { shingle: char64, sampling: { method: 'none' } }, docs, { engine: 'auto', workers: 2, memoryMb: 2048 });
    const fromT = broder.rows.filter((r) => Number(r.split(' ')[2]) >= t);
    expect(truth.rows).toEqual(fromT);
    // far fewer candidates than Broder's MR#1 pairs
    const candidates = truth.counters.ppjoin?.candidates_after_signature as number;
    expect(candidates).toBeLessThan((broder.counters['mr1-shingle-pairs']?.output_pairs as number) / 100);
  }, 180_000);
});
