/**
 * simhash as three MapReduce jobs over text records, runnable unchanged as Hadoop Streaming
 * mappers and reducers:
 *
 * simhash-df            document frequencies of the features (the shared job of
 *                       `text/document-frequencies.ts`), frozen for the run (thesis §3.3);
 *                       absent when they come from a file
 * simhash-fingerprints  map only: document → (index, 16-hex fingerprint), weights from the df
 *                       table (a side dataset, or the file) and the document's meta (the
 *                       `documents-meta` side dataset, read only when metadata features or tag
 *                       boosting ask for it)
 * simhash-hamming       map: signature → one record per Manku table, key `t:<the table's key
 *                       bits in hex>`, value `fingerprint doc`; reduce: within one key, every two
 *                       distinct fingerprints are compared and a pair within distance k is
 *                       emitted when t is the first table the two share (`tables.ts`); table
 *                       0's reducers also emit the pairs of documents with identical
 *                       fingerprints. Output: `a:b` → 1 − d/64.
 * simhash-clusters      the thesis' clusters (§6.3): map each pair to both its documents;
 *                       reduce: a document's cluster size, 1 + its near-duplicates (a table;
 *                       documents in no pair lead clusters of size 1 and are not listed)
 *
 * Counters are named so that the kernel (`kernel.ts`) reports the very same ones.
 */
import type { JobSpec, SideRecord } from '../../contract/jobs.ts';
import { decodeDocumentMeta, DOCUMENTS, DOCUMENTS_META } from '../../contract/jobs.ts';
import { formatScore, pairKey } from '../../contract/pairs.ts';
import { documentFrequencyJob } from '../text/document-frequencies.ts';
import { readDfFile } from './df-file.ts';
import { charShingles, wordShingles } from '../text/shingles.ts';
import { fingerprintFromHex, fingerprintToHex, hamming, simhashInto, simhashScore } from './fingerprint.ts';
import { hashFeature, type HashSeeds } from './feature-hash.ts';
import { HashCounts } from './hash-counts.ts';
import { firstTable, layoutFor, tableKey, type TableLayout } from './tables.ts';
import { cleanText, FeatureWeigher, metaFieldsUsed, type DfLookup, type WeightingOptions } from './weights.ts';

export const DF_JOB = 'simhash-df';
export const FINGERPRINT_JOB = 'simhash-fingerprints';
export const HAMMING_JOB = 'simhash-hamming';
export const DF_OUTPUT = 'simhash-df';
export const SIGNATURES = 'simhash-signatures';
export const PAIRS = 'simhash-pairs';
export const CLUSTERS_JOB = 'simhash-clusters';
export const CLUSTERS = 'simhash-clusters';

/** The feature strings of a document, repeats kept: what document frequencies count. */
export function featureStrings(text: string, o: WeightingOptions): string[] {
  const clean = cleanText(text, o.strip);
  return o.features.unit === 'char' ? charShingles(clean, o.features.size) : wordShingles(clean, o.features.size);
}

/** What the df table depends on: the feature strings (so variants differing elsewhere share it). */
export function dfKey(o: WeightingOptions): string {
  return JSON.stringify({ features: o.features, strip: o.strip });
}

export function dfJob(o: WeightingOptions): JobSpec {
  return {
    ...documentFrequencyJob({ name: DF_JOB, input: DOCUMENTS, output: DF_OUTPUT, terms: (text) => featureStrings(text, o) }),
    mapKey: dfKey(o),
  };
}

/**
 * The df table by feature hash from `feature<TAB>df` records and the `<TAB>N` record (the df job's
 * output, or a file in the same format). Two features whose hashes collide add up.
 */
export function dfFromRecords(records: Iterable<SideRecord>, seeds: HashSeeds): DfLookup & { readonly table: HashCounts } {
  const table = new HashCounts();
  const h = new Uint32Array(2);
  let documents = 0;
  for (const [term, v] of records) {
    const n = Number(v);
    if (term === '') {
      documents += n;
      continue;
    }
    hashFeature(term, 0, term.length, seeds, h, 0);
    table.add(h[0] as number, h[1] as number, n);
  }
  return { documents, table, get: (hi, lo) => table.get(hi, lo) };
}

export interface FingerprintJobOptions {
  /** the df file's path; null: the df job's output as a side dataset */
  readonly dfFile: string | null;
}

export function fingerprintJob(o: WeightingOptions, opts: FingerprintJobOptions): JobSpec {
  const usesMeta = metaFieldsUsed(o).length > 0;
  const side = [...(opts.dfFile === null ? [DF_OUTPUT] : []), ...(usesMeta ? [DOCUMENTS_META] : [])];
  return {
    name: FINGERPRINT_JOB,
    description: 'weigh each document’s features by tf-idf and sum them into a 64-bit simhash',
    inputs: [DOCUMENTS],
    output: SIGNATURES,
    ...(side.length > 0 ? { side } : {}),
    mapper: (ctx) => {
      const df = dfFromRecords(opts.dfFile === null ? ctx.side(DF_OUTPUT) : readDfFile(opts.dfFile), o.seeds);
      const metas = usesMeta ? metaByDocument(ctx.side(DOCUMENTS_META)) : new Map<string, Record<string, string>>();
      const weigher = new FeatureWeigher(o, df);
      const fp = new Uint32Array(2);
      return {
        map(doc, text) {
          ctx.count(FINGERPRINT_JOB, 'documents');
          const f = weigher.weigh(text, metas.get(doc));
          if (!simhashInto(f.count, f.hi, f.lo, f.weight, fp, 0)) {
            ctx.count(FINGERPRINT_JOB, 'documents_without_features');
            return;
          }
          ctx.count(FINGERPRINT_JOB, 'fingerprints');
          ctx.emit(doc, fingerprintToHex(fp[0] as number, fp[1] as number));
        },
      };
    },
  };
}

/** The meta side dataset as document index → fields. */
export function metaByDocument(records: readonly SideRecord[]): Map<string, Record<string, string>> {
  const m = new Map<string, Record<string, string>>();
  for (const [doc, json] of records) m.set(doc, decodeDocumentMeta(json));
  return m;
}

export function hammingJob(k: number, blocks: number | 'auto'): JobSpec {
  return {
    name: HAMMING_JOB,
    description: `every pair of fingerprints within Hamming distance ${k}, by Manku's permuted tables`,
    inputs: [SIGNATURES],
    output: PAIRS,
    mapper: (ctx) => {
      const layout = layoutFor(k, blocks);
      return {
        map(doc, hex) {
          const [hi, lo] = fingerprintFromHex(hex);
          const value = `${hex} ${doc}`;
          for (let t = 0; t < layout.tables.length; t++) ctx.emit(tableKey(layout, t, hi, lo), value);
        },
      };
    },
    reducer: (ctx) => {
      const layout = layoutFor(k, blocks);
      return { reduce: (key, values) => reduceBucket(layout, k, key, values, ctx) };
    },
  };
}

interface Emitter {
  emit(key: string, value: string): void;
  count(group: string, name: string, amount?: number): void;
}

/** One table bucket: the fingerprints sharing a key in table t. */
function reduceBucket(layout: TableLayout, k: number, key: string, values: readonly string[], ctx: Emitter): void {
  const t = Number(key.slice(0, key.indexOf(':')));
  const byFingerprint = new Map<string, number[]>();
  for (const v of values) {
    const space = v.indexOf(' ');
    const hex = v.slice(0, space);
    const docs = byFingerprint.get(hex);
    const doc = Number(v.slice(space + 1));
    if (docs) docs.push(doc);
    else byFingerprint.set(hex, [doc]);
  }
  const groups = [...byFingerprint].map(([hex, docs]) => ({ fp: fingerprintFromHex(hex), docs }));
  let outputs = 0;
  const emitPair = (x: number, y: number, score: string): void => {
    ctx.emit(pairKey(Math.min(x, y), Math.max(x, y)), score);
    outputs++;
  };
  let candidates = 0;
  if (t === 0) {
    // identical fingerprints share every key; table 0 takes their pairs
    const one = formatScore(simhashScore(0));
    for (const g of groups) {
      candidates += (g.docs.length * (g.docs.length - 1)) / 2;
      for (let i = 0; i < g.docs.length; i++) for (let j = i + 1; j < g.docs.length; j++) emitPair(g.docs[i] as number, g.docs[j] as number, one);
    }
  }
  let comparisons = 0;
  for (let i = 0; i < groups.length; i++) {
    const x = groups[i] as (typeof groups)[number];
    for (let j = i + 1; j < groups.length; j++) {
      const y = groups[j] as (typeof groups)[number];
      comparisons++;
      candidates += x.docs.length * y.docs.length;
      const d = hamming(x.fp[0], x.fp[1], y.fp[0], y.fp[1]);
      if (d > k || firstTable(layout.maskHi, layout.maskLo, x.fp[0] ^ y.fp[0], x.fp[1] ^ y.fp[1]) !== t) continue;
      const score = formatScore(simhashScore(d));
      for (const a of x.docs) for (const b of y.docs) emitPair(a, b, score);
    }
  }
  ctx.count(HAMMING_JOB, 'fingerprint_comparisons', comparisons);
  ctx.count(HAMMING_JOB, 'candidate_pairs', candidates);
  ctx.count(HAMMING_JOB, 'output_pairs', outputs);
}

/** Cluster sizes (thesis §6.3): each document in a pair leads a cluster of itself and its partners. */
export function clustersJob(): JobSpec {
  const sum = (values: readonly string[]): number => values.reduce((s, v) => s + Number(v), 0);
  return {
    name: CLUSTERS_JOB,
    description: 'the size of the cluster each document leads: itself and its near-duplicates (thesis §6.3)',
    inputs: [PAIRS],
    output: CLUSTERS,
    mapper: (ctx) => ({
      map(key) {
        const colon = key.indexOf(':');
        ctx.emit(key.slice(0, colon), '1');
        ctx.emit(key.slice(colon + 1), '1');
      },
    }),
    combiner: (ctx) => ({ reduce: (k, values) => ctx.emit(k, String(sum(values))) }),
    reducer: (ctx) => ({
      reduce(doc, values) {
        ctx.count(CLUSTERS_JOB, 'documents_with_duplicates');
        ctx.emit(doc, String(1 + sum(values)));
      },
    }),
  };
}
