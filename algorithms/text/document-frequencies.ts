/**
 * Document frequencies of terms: in how many documents of the corpus each term occurs at least
 * once, and the corpus size N. simhash's tf-idf weights (thesis §3.3), I-Match's idf lexicon,
 * PDC-MR's sentence signatures and SpotSigs' antecedents all start from it. As a job (a word
 * count over each document's distinct terms, with a combiner) and as a pure function, which
 * give the same table.
 *
 * The dataset's records: key a term, value its document frequency in decimal; the record with
 * the empty key holds N (a term is never empty).
 */
import type { JobSpec, SideRecord } from '../../contract/index.ts';

export interface DocumentFrequencies {
  /** documents in the corpus (N) */
  readonly documents: number;
  readonly df: ReadonlyMap<string, number>;
}

/** The table for documents given as their terms (repeats within a document count once). */
export function documentFrequencies(documents: Iterable<Iterable<string>>): DocumentFrequencies {
  const df = new Map<string, number>();
  let n = 0;
  for (const terms of documents) {
    n++;
    for (const t of new Set(terms)) df.set(t, (df.get(t) ?? 0) + 1);
  }
  return { documents: n, df };
}

/** Normalized idf, log(N / df) / log(N) (I-Match's lexicon filter, Chowdhury et al. 2002); 0 when N <= 1. */
export function normalizedIdf(df: number, documents: number): number {
  return documents <= 1 ? 0 : Math.log(documents / df) / Math.log(documents);
}

const N_KEY = '';

export interface DocumentFrequencyJobOptions {
  /** the job's name (also its counter group) */
  readonly name: string;
  readonly input: string;
  readonly output: string;
  /** a document's terms from its record value (the text); repeats are counted once */
  readonly terms: (text: string) => Iterable<string>;
}

/** The job that writes the table: map (term, 1) per distinct term and (N_KEY, 1) per document; sum. */
export function documentFrequencyJob(o: DocumentFrequencyJobOptions): JobSpec {
  const sum = (values: readonly string[]): number => values.reduce((s, v) => s + Number(v), 0);
  return {
    name: o.name,
    description: 'document frequency of every term, and the number of documents',
    inputs: [o.input],
    output: o.output,
    mapper: (ctx) => ({
      map(_doc, text) {
        ctx.emit(N_KEY, '1');
        for (const t of new Set(o.terms(text))) ctx.emit(t, '1');
      },
    }),
    combiner: (ctx) => ({ reduce: (k, values) => ctx.emit(k, String(sum(values))) }),
    reducer: (ctx) => ({
      reduce(k, values) {
        if (k !== N_KEY) ctx.count(o.name, 'terms');
        ctx.emit(k, String(sum(values)));
      },
    }),
  };
}

/** The table from the job's records (a side dataset). */
export function readDocumentFrequencies(records: readonly SideRecord[]): DocumentFrequencies {
  const df = new Map<string, number>();
  let documents = 0;
  for (const [k, v] of records) {
    if (k === N_KEY) documents += Number(v);
    else df.set(k, (df.get(k) ?? 0) + Number(v));
  }
  return { documents, df };
}
