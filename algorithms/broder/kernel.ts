/**
 * The local backend's fast path for the Broder plan: the same computation as the two text jobs
 * in `jobs.ts`, over typed arrays, on all worker threads. Fingerprinting is shared by every
 * variant of a run that uses the same shingling (`ctx.cached`), which is what makes a sweep of
 * twenty samplings cost little more than one.
 */
import { countPerText, totalLength, concatPairs, type CorpusShape, type PairScorer, type KernelContext, type KernelResult, type LocalKernel } from '../../contract/index.ts';
import { balancedRanges, sharedU32 } from '../text/chunks.ts';
import { corpusFeatures, featuresCodec, featuresKey, featureTasks } from '../text/corpus-features.ts';
import { buildEntryOrder, entryOrderCodec, entryOrderFor } from './entry-order.ts';
import { externalJoin, outOfCoreLists, runExternal } from './external.ts';
import { externalPrefix } from './external-prefix.ts';
import { externalSct } from './external-sct.ts';
import { fingerprintRuns } from '../text/fingerprint-runs.ts';
import { sampleFeatures, scanCount, unsampledCounters, type ScanPayload, type ScanResult } from './join.ts';
import { buildPrefixIndex, countSharedPairs, distinctPostings, exactResemblance, sharingLists, prefixJoin, usesPrefixJoin, type IdLists, type PrefixJoinPayload, type PrefixJoinResult, type SharingPayload } from './prefix-join.ts';
import { MR1, MR2 } from './jobs.ts';
import type { BroderParams } from './params.ts';
import { countsDistinctPairs, runsOutOfCore, usesWords } from './sampling.ts';
import { documentWords, wordCountsCodec } from '../text/word-count.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as Join from './join.ts';
import type * as PrefixJoin from './prefix-join.ts';
import type { DocumentFeatures } from '../text/features.ts';

const ALWAYS_COUNTED = new Set(['documents', 'fingerprints']);

const join = workerModule<typeof Join>(new URL('./join.ts', import.meta.url).href);
const prefixJoinTask = workerModule<typeof PrefixJoin>(new URL('./prefix-join.ts', import.meta.url).href);

/**
 * The in-memory kernel's cost model, the peak memory of the whole process: measured 2,430 MB on
 * 100,000 synthetic documents of 174 M characters (`bench synth scale`, 29 M fingerprint
 * entries, about 70 bytes an entry: the sort's copies, the postings both ways, and the texts
 * copied to the worker threads), so 14 bytes a character, and the process' own 128 MiB. A
 * sweep of SCT and mod 2^k variants adds two entry orders (entry-order.ts), 12 bytes an entry
 * each, about 24 bytes per 6 characters: 18 bytes a character in all. Above `memory_mb` the
 * kernel runs out of core (`external.ts`) instead.
 */
export function broderKernelBytes(shape: CorpusShape): number {
  return 128 * 2 ** 20 + 18 * shape.chars;
}

/**
 * The scorer's bytes (exactScorer): the in-memory kernel's features when they fit, else the
 * documents' rank lists (external-prefix.ts), 4 bytes a shared fingerprint entry: shingles start
 * at words, and a word with its separator is at least two characters, so at most 2 bytes a
 * character, and each document's offset and size.
 */
export function broderScorerBytes(shape: CorpusShape): number {
  return Math.min(broderKernelBytes(shape), 128 * 2 ** 20 + 2 * (shape.chars + shape.documents) + 8 * (shape.documents + 1));
}

export function broderKernel(params: BroderParams, floor: number): LocalKernel {
  const external = runsOutOfCore(params.sampling);
  return {
    run: async (k) => {
      const r = await (outOfCore(k, external) ? runExternal(k, params, floor) : runKernel(k, params, floor));
      return countsDistinctPairs(params.sampling) ? r : { ...r, uncounted: [{ group: MR2, name: 'distinct_pairs' }] };
    },
    memoryBytes: broderKernelBytes,
    outOfCore: external,
    workerModules: [featureTasks, join, prefixJoinTask, fingerprintRuns, externalJoin, externalPrefix, externalSct],
    ...(params.sampling.method === 'none' ? { scorer: (k: KernelContext) => exactScorer(k, params), scorerBytes: broderScorerBytes } : {}),
  };
}

/** Whether the kernel runs out of core: it can (`external`), and the in-memory one does not fit the budget. */
function outOfCore(k: KernelContext, external: boolean): boolean {
  return external && broderKernelBytes(shapeOf(k)) > k.memoryBudgetBytes;
}

function shapeOf(k: KernelContext): CorpusShape {
  return { documents: k.docs.texts.length, chars: totalLength(k.docs.texts) };
}

async function runKernel(k: KernelContext, params: BroderParams, floor: number): Promise<KernelResult> {
  const features = await corpusFeatures(k, params.shingle, params.fingerprint);
  if (usesPrefixJoin(params, floor)) return runPrefixJoin(k, features, { floor, countDistinct: countsDistinctPairs(params.sampling) });
  const words = usesWords(params.sampling) ? await k.stored(wordCountsCodec(), async () => countPerText(k.docs.texts, documentWords)) : undefined;
  // An entry order costs a few passes over every entry and saves each later variant its own
  // copy of what it keeps: it pays from a sweep's second variant on, so the first one goes
  // without, unless an earlier run stored it.
  const orderKind = entryOrderFor(params.sampling);
  const orderKey = `${featuresKey(params.shingle, params.fingerprint)}:order:${orderKind}`;
  const uses = orderKind ? await k.cached(`${orderKey}:uses`, async () => ({ count: 0 })) : undefined;
  if (uses) uses.count++;
  const orderCodec = orderKind ? entryOrderCodec(featuresCodec(params.shingle, params.fingerprint).key, orderKind) : undefined;
  const order =
    orderKind && orderCodec && uses
      ? uses.count > 1
        ? await k.stored(orderCodec, async () => buildEntryOrder(features, orderKind))
        : await k.storedIfAny(orderCodec)
      : undefined;
  k.progress('sampling');
  const sampled = sampleFeatures(features, params.sampling, words, order);
  // MR#1's mapper counts documents and fingerprints for every document, the rest only when they happen.
  const docs = sampled.counters.documents ?? 0;
  for (const [name, value] of Object.entries(sampled.counters)) if (value > 0 || (docs > 0 && ALWAYS_COUNTED.has(name))) k.count(MR1, name, value);

  let steps = 0;
  for (const w of sampled.work) steps += w;
  // A small join (its corpus and fingerprints replayed, no thread started yet) costs less on
  // this thread than starting threads for it; the harness weighs that (KernelContext.worthThreads).
  const inline = !k.worthThreads(steps);
  const ranges = inline ? [[0, sampled.docs] as const] : balancedRanges(sampled.docs, (d) => sampled.work[d] as number, Math.max(1, k.parallelism * 4));
  const scan = (p: ScanPayload): Promise<ScanResult> => (inline ? Promise.resolve(scanCount(p)) : k.runInWorker(join.task('scanCount'), p));
  let done = 0;
  k.progress('join', 0, ranges.length);
  const parts = await Promise.all(
    ranges.map(async ([from, to]) => {
      const r = await scan({
        docStart: sampled.docStart,
        docEnd: sampled.docEnd,
        ids: sampled.ids,
        entryPos: sampled.entryPos,
        postStart: sampled.postStart,
        postDocs: sampled.postDocs,
        sizes: sampled.sizes,
        levels: sampled.levels,
        docLevel: sampled.docLevel,
        docs: sampled.docs,
        from,
        to,
        floor,
      });
      k.progress('join', ++done, ranges.length);
      return r;
    }),
  );
  const pairs = concatPairs(parts);
  // MR#2's reducer counts a pair when it sees one: no pairs, no counters.
  const distinct = parts.reduce((s, p) => s + p.distinct, 0);
  if (distinct > 0 && countsDistinctPairs(params.sampling)) k.count(MR2, 'distinct_pairs', distinct);
  if (pairs.a.length > 0) k.count(MR2, 'output_pairs', pairs.a.length);
  return { pairs };
}


/**
 * The ground truth from its floor up: MR#1's counters counted from the postings (its pairs are
 * not made), the pairs from the prefix join, and, unless the ground truth skips it, MR#2's
 * `distinct_pairs` counted as the text jobs count it (countSharedPairs, along the postings of one
 * id of each set held by the same documents: distinctPostings), on the threads beside the join.
 */
async function runPrefixJoin(k: KernelContext, features: DocumentFeatures, o: { readonly floor: number; readonly countDistinct: boolean }): Promise<KernelResult> {
  const { floor } = o;
  const counters = unsampledCounters(features);
  for (const [name, value] of Object.entries(counters)) if (value > 0 || (features.docs > 0 && ALWAYS_COUNTED.has(name))) k.count(MR1, name, value);
  k.progress('prefix index');
  const { work, ...index } = buildPrefixIndex(features, floor);
  const walked = o.countDistinct ? sharingLists({ ...features, walk: distinctPostings(features.postStart, features.postDocs, features.fingerprints) }) : undefined;
  const sharing = walked ? sharingWork({ ...features, ...walked }) : new Float64Array(0);
  let steps = 0;
  for (const w of work) steps += w;
  for (const w of sharing) steps += w;
  const inline = !k.worthThreads(steps);
  const chunks = Math.max(1, k.parallelism * 4);
  const joinRanges = inline ? [[0, features.docs] as const] : balancedRanges(features.docs, (d) => work[d] as number, chunks);
  const countRanges = !walked ? [] : inline ? [[0, features.docs] as const] : balancedRanges(features.docs, (d) => sharing[d] as number, chunks);
  const join = (p: PrefixJoinPayload): Promise<PrefixJoinResult> => (inline ? Promise.resolve(prefixJoin(p)) : k.runInWorker(prefixJoinTask.task('prefixJoin'), p));
  const count = (p: SharingPayload): Promise<number> => (inline ? Promise.resolve(countSharedPairs(p)) : k.runInWorker(prefixJoinTask.task('countSharedPairs'), p));
  const total = joinRanges.length + countRanges.length;
  let done = 0;
  k.progress('join', 0, total);
  const step = <T>(r: T): T => {
    k.progress('join', ++done, total);
    return r;
  };
  const { docStart, ids, postStart, postDocs, docs } = features;
  const [parts, distincts] = await Promise.all([
    Promise.all(joinRanges.map(async ([from, to]) => step(await join({ index, docStart, ids, floor, from, to })))),
    walked ? Promise.all(countRanges.map(async ([from, to]) => step(await count({ ...walked, postStart, postDocs, docs, from, to })))) : [],
  ]);
  const pairs = concatPairs(parts);
  const distinct = distincts.reduce((s, n) => s + n, 0);
  // MR#2's reducer counts a pair when it sees one: no pairs, no counters.
  if (distinct > 0) k.count(MR2, 'distinct_pairs', distinct);
  if (pairs.a.length > 0) k.count(MR2, 'output_pairs', pairs.a.length);
  return { pairs };
}

/** Each document's postings after its own entries: countSharedPairs' steps, for balancing its ranges. */
function sharingWork(f: Pick<DocumentFeatures, 'docs' | 'docStart' | 'ids' | 'entryPos' | 'postStart'>): Float64Array {
  const work = new Float64Array(f.docs);
  for (let d = 0; d < f.docs; d++) {
    let w = 0;
    for (let e = f.docStart[d] as number; e < (f.docStart[d + 1] as number); e++) {
      const id = f.ids[e] as number;
      w += (f.postStart[id + 1] as number) - (f.postStart[id] as number) - (f.entryPos[e] as number) - 1;
    }
    work[d] = w;
  }
  return work;
}

/**
 * The exact unsampled RR of any pair, for the evaluation (contract LocalKernel.scorer): from the
 * features every variant of the same shingling shares, so after the ground truth it costs
 * nothing to build; out of core, from the documents' rank lists the ground truth made
 * (external-prefix.ts), 4 bytes a shared fingerprint entry.
 */
async function exactScorer(k: KernelContext, params: BroderParams): Promise<PairScorer> {
  if (outOfCore(k, true)) {
    const lists = await outOfCoreLists(k, params);
    // Shared once, so that no piece copies the sizes to its thread.
    const sizes = sharedU32(lists.sizes.length);
    sizes.set(lists.sizes);
    return scorerOn(k, { docStart: lists.docStart, ids: lists.ids, sizes });
  }
  const features = await corpusFeatures(k, params.shingle, params.fingerprint);
  return scorerOn(k, { docStart: features.docStart, ids: features.ids });
}

/**
 * The scorer over id lists on SharedArrayBuffers: the pairs asked for in ranges balanced by the
 * lengths of the two lists each merges, one task a range on the worker threads (each task
 * copies only its own pairs), or on this thread when the work is too small to start threads for.
 */
function scorerOn(k: KernelContext, lists: IdLists): PairScorer {
  const { docStart } = lists;
  const length = (d: number): number => (docStart[d + 1] as number) - (docStart[d] as number);
  return async (a, b) => {
    const work = (i: number): number => length(a[i] as number) + length(b[i] as number);
    let steps = 0;
    for (let i = 0; i < a.length; i++) steps += work(i);
    if (!k.worthThreads(steps)) return exactResemblance(lists, a, b);
    const ranges = balancedRanges(a.length, work, Math.max(1, k.parallelism * 2));
    const parts = await Promise.all(ranges.map(([from, to]) => k.runInWorker(prefixJoinTask.task('scorePairs'), { ...lists, a: a.slice(from, to), b: b.slice(from, to) })));
    const out = new Float64Array(a.length);
    let at = 0;
    for (const part of parts) {
      out.set(part, at);
      at += part.length;
    }
    return out;
  };
}
