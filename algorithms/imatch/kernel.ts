/**
 * I-Match in process: the jobs of `jobs.ts` over typed arrays, with the same pairs, scores,
 * signatures table and counters.
 *
 * Word sets come from worker threads (`word-sets.ts`, shared by every variant of a run through
 * `cached`); signing runs on the worker threads too (`sign.ts`), with the lexicons and the
 * signature function the signatures job's mapper uses, over the same sorted words. Grouping is a
 * hash map from (lexicon, signature) to a posting list of documents in ascending order; pairs come
 * from a ScanCount pass per document over its postings, which counts the signatures it shares
 * with every later document, as imatch-pairs sums them.
 */
import { lengthOf, type CorpusShape, type KernelContext, type KernelResult, type LocalKernel, type PlanContext, type SideRecord } from '../../contract/index.ts';
import { balancedRanges } from '../text/chunks.ts';
import { mergeWordSlices, type WordSets } from '../text/word-sets.ts';
import { COLLISIONS, DF, PAIRS, sharedScore, SIGNATURES } from './jobs.ts';
import type { ImatchParams } from './params.ts';
import { NO_SIGNATURE, type SignPayload } from './sign.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as WordSetsModule from '../text/word-sets.ts';
import type * as Sign from './sign.ts';

const wordSets = workerModule<typeof WordSetsModule>(new URL('../text/word-sets.ts', import.meta.url).href);
const sign = workerModule<typeof Sign>(new URL('./sign.ts', import.meta.url).href);

export function imatchKernel(params: ImatchParams, ctx: PlanContext): LocalKernel {
  return {
    run: (k) => runKernel(k, params, ctx),
    memoryBytes: (shape) => kernelBytes(shape, params.extra_lexicons + 1),
    workerModules: [wordSets, sign],
  };
}

/**
 * Bytes at the peak. Measured on the bundled corpus (6,025 mails, 12.3 M characters, 0.94 M
 * word-set entries, 70 k words): 28 MB with K = 0, 60 MB with K = 10 (heap and array buffers,
 * the texts themselves not counted). Word sets, the slices being merged and the normalized text of
 * a slice take about 2 bytes a character; the signature lines, their split fields and the group
 * map about 600 bytes a document and signature. Pairs are not bounded by the corpus's shape, but
 * on real text collisions are a small multiple of the documents (579 with K = 0 here).
 */
export function kernelBytes(shape: CorpusShape, signatures: number): number {
  return 2 * shape.chars + 600 * shape.documents * signatures + (1 << 20);
}

async function runKernel(k: KernelContext, params: ImatchParams, ctx: PlanContext): Promise<KernelResult> {
  const sets = await k.cached('word-sets', () => computeWordSets(k));
  // Counters are created where the jobs would count: the df reducer once a term, the signature
  // mapper once a document (and on a document with a signature), the collision reducer once a
  // signature, the pair reducer once a pair.
  if (sets.vocabulary.length > 0) k.count(DF, 'terms', sets.vocabulary.length);
  const lines = await signDocuments(k, sets, params, ctx.seed);

  k.progress('grouping');
  const K1 = params.extra_lexicons + 1;
  // (lexicon, signature) → group id; each document's group ids, lexicon by lexicon
  const groupOf = new Map<string, number>();
  const groupSize: number[] = [];
  const docGroups = new Int32Array(sets.docs * K1).fill(-1);
  const table: SideRecord[] = [];
  let withoutSignature = 0;
  let signatures = 0;
  lines.forEach((line, d) => {
    if (line === '') {
      withoutSignature++;
      return;
    }
    table.push([String(d), line]);
    line.split(' ').forEach((sig, j) => {
      if (sig === NO_SIGNATURE) return;
      signatures++;
      const key = `${j}:${sig}`;
      let g = groupOf.get(key);
      if (g === undefined) {
        g = groupSize.length;
        groupOf.set(key, g);
        groupSize.push(0);
      }
      groupSize[g] = (groupSize[g] as number) + 1;
      docGroups[d * K1 + j] = g;
    });
  });
  if (sets.docs > 0) k.count(SIGNATURES, 'documents', sets.docs);
  if (withoutSignature > 0) k.count(SIGNATURES, 'documents_without_signature', withoutSignature);
  if (sets.docs > withoutSignature) k.count(SIGNATURES, 'signatures', signatures);
  let collisions = 0;
  for (const n of groupSize) collisions += (n * (n - 1)) / 2;
  if (groupSize.length > 0) {
    k.count(COLLISIONS, 'distinct_signatures', groupSize.length);
    // The reducer counts collisions only for a signature two documents share.
    if (collisions > 0) k.count(COLLISIONS, 'collisions', collisions);
  }

  k.progress('pairs');
  const pairs = scanPairs(sets.docs, K1, docGroups, groupSize, ctx.minScore);
  if (pairs.a.length > 0) k.count(PAIRS, 'output_pairs', pairs.a.length);
  return { pairs, tables: { [SIGNATURES]: table } };
}

/** Each document's signatures record ('' for none), signed on the worker threads by document ranges. */
async function signDocuments(k: KernelContext, sets: WordSets, params: ImatchParams, seed: number): Promise<string[]> {
  const words = sets.vocabulary.join('\n');
  const ranges = balancedRanges(sets.docs, (d) => (sets.docStart[d + 1] as number) - (sets.docStart[d] as number), Math.max(1, k.parallelism));
  let done = 0;
  k.progress('signatures', 0, sets.docs);
  const parts = await Promise.all(
    ranges.map(async ([from, to]) => {
      const payload: SignPayload = {
        words,
        df: sets.df,
        docs: sets.docs,
        range: { min: params.idf_min, max: params.idf_max },
        randomization: { extra: params.extra_lexicons, drop: params.drop, seed },
        docStart: sets.docStart,
        ids: sets.ids,
        from,
        to,
      };
      const r = await k.runInWorker(sign.task('signSlice'), payload);
      done += to - from;
      k.progress('signatures', done, sets.docs);
      return to > from ? r.split('\n') : [];
    }),
  );
  return parts.flat();
}

/** Every pair sharing a group, with the number of groups it shares over K+1; pairs sorted by (a, b). */
function scanPairs(docs: number, K1: number, docGroups: Int32Array, groupSize: readonly number[], floor: number): KernelResult['pairs'] {
  // Posting lists: the documents of each group in ascending order, and each entry's position.
  const start = new Uint32Array(groupSize.length + 1);
  groupSize.forEach((n, g) => (start[g + 1] = (start[g] as number) + n));
  const fill = start.slice(0, groupSize.length);
  const members = new Uint32Array(start[groupSize.length] as number);
  const position = new Uint32Array(docs * K1);
  for (let d = 0; d < docs; d++) {
    for (let j = 0; j < K1; j++) {
      const g = docGroups[d * K1 + j] as number;
      if (g < 0) continue;
      const at = fill[g] as number;
      members[at] = d;
      position[d * K1 + j] = at;
      fill[g] = at + 1;
    }
  }
  const count = new Uint32Array(docs);
  const touched = new Uint32Array(docs);
  const a: number[] = [];
  const b: number[] = [];
  const score: number[] = [];
  for (let x = 0; x < docs; x++) {
    let nt = 0;
    for (let j = 0; j < K1; j++) {
      const g = docGroups[x * K1 + j] as number;
      if (g < 0) continue;
      for (let q = (position[x * K1 + j] as number) + 1; q < (start[g + 1] as number); q++) {
        const y = members[q] as number;
        if (count[y] === 0) touched[nt++] = y;
        count[y] = (count[y] as number) + 1;
      }
    }
    touched.subarray(0, nt).sort();
    for (let t = 0; t < nt; t++) {
      const y = touched[t] as number;
      const s = sharedScore(count[y] as number, K1);
      count[y] = 0;
      if (s < floor) continue;
      a.push(x);
      b.push(y);
      score.push(s);
    }
  }
  return { a: Uint32Array.from(a), b: Uint32Array.from(b), score: Float64Array.from(score) };
}

async function computeWordSets(k: KernelContext): Promise<WordSets> {
  const texts = k.docs.texts;
  const slices = balancedRanges(texts.length, (i) => lengthOf(texts, i), Math.max(1, k.parallelism));
  let done = 0;
  k.progress('reading words', 0, texts.length);
  const parts = await Promise.all(
    slices.map(async ([from, to]) => {
      const r = await k.runInWorker(wordSets.task('wordSetSlice'), { texts: texts.slice(from, to) });
      done += to - from;
      k.progress('reading words', done, texts.length);
      return r;
    }),
  );
  k.progress('merging words');
  return mergeWordSlices(parts);
}
