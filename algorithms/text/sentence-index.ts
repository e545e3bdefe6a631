/**
 * The kernel's inverted index and sentence join, shared by PDC-MR (units = sentences) and
 * document-level SpotSigs (units = documents): the signed slices merged into one CSR of units
 * by signature, and Algorithm 1 run as ScanCount on worker threads.
 */
import type { KernelContext } from '../../contract/index.ts';
import { invertLists } from '../../kernels/postings.ts';
import { balancedRanges, sharedU32 } from './chunks.ts';
import { KeyTable } from './key-table.ts';
import type { DocumentFrequencies } from './document-frequencies.ts';
import type { JoinResult, SignedSlice } from './sentence-tasks.ts';
import { workerModule } from '../../contract/tasks.ts';
import type * as SentenceTasks from './sentence-tasks.ts';

/** The sentence detectors' worker tasks (sentence-tasks.ts). */
export const sentenceTasks = workerModule<typeof SentenceTasks>(new URL('./sentence-tasks.ts', import.meta.url).href);

export interface UnitIndex {
  readonly units: number;
  /** document of each unit, and the unit's position in it */
  readonly unitDoc: Uint32Array;
  readonly unitId: Uint32Array;
  readonly start: Uint32Array;
  readonly end: Uint32Array;
  /** distinct signatures of each unit */
  readonly size: Uint32Array;
  /** units of each document */
  readonly docUnits: Uint32Array;
  readonly sigStart: Uint32Array;
  readonly sigs: Uint32Array;
  readonly entryPos: Uint32Array;
  /** units holding each signature id, ascending */
  readonly postStart: Uint32Array;
  readonly postUnit: Uint32Array;
  readonly terms: number;
  /** signatures held by units of at least two documents */
  readonly sharedTerms: number;
  readonly documentsWithoutUnits: number;
  readonly unitsWithoutSignatures: number;
}

/** Merges slices signed in corpus order (`slices[i]` covers documents [from, to)). */
export function buildIndex(slices: readonly (readonly [number, number])[], signed: readonly SignedSlice[], docs: number): UnitIndex {
  let units = 0;
  let entries = 0;
  for (const s of signed) {
    units += s.start.length;
    entries += s.sigStart[s.sigStart.length - 1] as number;
  }
  const unitDoc = sharedU32(units);
  const unitId = new Uint32Array(units);
  const start = new Uint32Array(units);
  const end = new Uint32Array(units);
  const size = sharedU32(units);
  const docUnits = new Uint32Array(docs);
  const sigStart = sharedU32(units + 1);
  const sigs = sharedU32(entries);
  // Dense signature ids in order of first occurrence (MR#1's shuffle, by hash).
  const globalId = new KeyTable(signed[0]?.width ?? 1, entries / 2);
  let g = 0;
  let e = 0;
  let documentsWithoutUnits = 0;
  let unitsWithoutSignatures = 0;
  slices.forEach(([from], i) => {
    const s = signed[i] as SignedSlice;
    const w = s.width;
    let local = 0;
    for (let d = 0; d < s.docSentences.length; d++) {
      const n = s.docSentences[d] as number;
      docUnits[from + d] = n;
      if (n === 0) documentsWithoutUnits++;
      for (let j = 0; j < n; j++, local++, g++) {
        unitDoc[g] = from + d;
        unitId[g] = j;
        start[g] = s.start[local] as number;
        end[g] = s.end[local] as number;
        const a = s.sigStart[local] as number;
        const b = s.sigStart[local + 1] as number;
        size[g] = b - a;
        if (b === a) unitsWithoutSignatures++;
        for (let q = a; q < b; q++) sigs[e++] = globalId.id(s.keys, q * w);
        sigStart[g + 1] = e;
      }
    }
  });

  // Postings: units by signature id, ascending (filled in unit order).
  const terms = globalId.size;
  const postings = invertLists({ keys: terms, entries: sigs, listStart: sigStart, lists: units, positions: 'in-postings', allocate: sharedU32 });
  const { start: postStart, lists: postUnit, positions: entryPos } = postings;
  let sharedTerms = 0;
  for (let t = 0; t < terms; t++) {
    const a = postStart[t] as number;
    const b = postStart[t + 1] as number;
    if (b - a > 1 && unitDoc[postUnit[a] as number] !== unitDoc[postUnit[b - 1] as number]) sharedTerms++;
  }
  return {
    units, unitDoc, unitId, start, end, size, docUnits, sigStart, sigs, entryPos, postStart, postUnit, terms, sharedTerms,
    documentsWithoutUnits, unitsWithoutSignatures,
  };
}

/** Algorithm 1 over all units, on worker threads in ranges of about equal posting work. */
export async function joinUnits(k: KernelContext, index: UnitIndex, tau: number): Promise<JoinResult[]> {
  const { sigStart, sigs, postStart, entryPos } = index;
  const work = (x: number): number => {
    let w = 0;
    for (let q = sigStart[x] as number; q < (sigStart[x + 1] as number); q++) {
      const t = sigs[q] as number;
      w += (postStart[t + 1] as number) - (postStart[t] as number) - (entryPos[q] as number) - 1;
    }
    return w;
  };
  const ranges = balancedRanges(index.units, work, Math.max(1, k.parallelism * 4));
  let joined = 0;
  k.progress('joining', 0, ranges.length);
  return Promise.all(
    ranges.map(async ([from, to]) => {
      const r = await k.runInWorker(sentenceTasks.task('joinSentences'), {
        sentDoc: index.unitDoc,
        size: index.size,
        sigStart,
        sigs,
        entryPos,
        postStart,
        postSent: index.postUnit,
        sentences: index.units,
        tau,
        from,
        to,
      });
      k.progress('joining', ++joined, ranges.length);
      return r;
    }),
  );
}

/** Document frequencies of the documents' terms (`documentTerms`), counted on worker threads, one slice of documents a task. */
export async function corpusDocumentFrequencies(k: KernelContext, slices: readonly [number, number][]): Promise<DocumentFrequencies> {
  const parts = await Promise.all(
    slices.map(([from, to]) => k.runInWorker(sentenceTasks.task('termSlice'), { texts: k.docs.texts.slice(from, to) })),
  );
  const df = new Map<string, number>();
  for (const p of parts) p.terms.forEach((t, i) => df.set(t, (df.get(t) ?? 0) + (p.df[i] as number)));
  return { documents: k.docs.texts.length, df };
}
