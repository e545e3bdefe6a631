/**
 * Explanations (issue 26): why a detector decided what it did about one pair of documents.
 * An adapter may supply two things through `AlgorithmAdapter.explain`:
 *
 * - `features`: the document as the occurrences of the features its resemblance is the Jaccard
 *   of (Broder's shingle fingerprints), each with where it lies in the original text. The
 *   harness asks the ground truth's adapter for these to compute the exact resemblance and the
 *   shared text of a pair, whatever detector is explained.
 * - `evidence`: what this detector saw of the pair (the bits, bands, terms, filters), computed
 *   again from the documents and the variant's parameters: one pair is cheap, and nothing of
 *   the run needs to have been kept. Structured data for scripts and files, and the same as
 *   lines of text for people, made by the adapter, so that the harness, the error files and
 *   the report show it without knowing the detector.
 */
import type { DocumentSet } from './documents.ts';
import type { StoreCodec } from './plan.ts';

/** A value JSON can hold: evidence goes to `--json`, `errors/<variant>.jsonl` and the report. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/**
 * A document's feature occurrences in text order, duplicates kept: occurrence k is the feature
 * `keys[k]` (equal keys, equal features) over the characters [starts[k], ends[k]) of the
 * document's original text (UTF-16 code units, end exclusive).
 */
export interface FeatureOccurrences {
  readonly keys: readonly string[];
  readonly starts: Uint32Array;
  readonly ends: Uint32Array;
  /**
   * The same keys as numbers, when the adapter numbers them: `ids[k]` for occurrence k, equal
   * ids exactly when equal keys, one numbering for every document of these parameters within
   * the process. The harness then compares documents by these and never reads `keys`, which
   * the adapter may make only when first read: a hex string an occurrence and the hashing of
   * strings were most of the cost of a run's error samples.
   */
  readonly ids?: Uint32Array;
}

/** The pair to explain, in the collection it was run over. */
export interface ExplainContext {
  /** the run's documents: evidence may need collection statistics (document frequencies) */
  readonly docs: DocumentSet;
  /** document indexes, a < b */
  readonly a: number;
  readonly b: number;
  /** the experiment's seed: every random choice of the plan derives from it */
  readonly seed: number;
  /** columns the text lines must fit in */
  readonly width: number;
  /**
   * A value an earlier run kept for these documents (`KernelContext.stored`), when there is
   * one; nothing is computed. Collection statistics come faster from there than from a pass
   * over the collection. Absent: no store.
   */
  storedIfAny?<T>(codec: StoreCodec<T>): T | undefined;
  /**
   * A value this run's kernels computed and still hold for these documents: the one cached
   * under a key (`KernelContext.cached`), or stored by a codec (`KernelContext.stored`); nothing
   * is computed. Undefined when no kernel made it; absent when there is no run (`bench
   * explain`) or its backend runs no kernel in this process. Asynchronous: a kernel's value is
   * a promise. A value on disk (files under the kernel's work folder) stays there until the run
   * ends, after its error samples.
   */
  computedIfAny?<T>(value: string | StoreCodec<T>): Promise<T | undefined>;
  /**
   * A value shared by the explanations of one run or command, by key (a collection's document
   * frequencies, a lexicon): computed by the first that asks. The key must name everything the
   * value depends on besides the documents. Absent: compute it each time.
   */
  cached?<T>(key: string, compute: () => T): T;
  /** the run's interrupt: a pass over the collection stops at it (absent: none) */
  readonly signal?: AbortSignal;
  /** A file the variant's run kept (KernelResult.kept), by name; undefined when it kept none of that name. */
  kept?(name: string): Uint8Array | undefined;
}

/** What a detector saw of a pair. */
export interface Evidence {
  /** one line: the decisive fact ("2 of 118 shared fingerprints kept by fp mod 64 = 0") */
  readonly summary: string;
  readonly data: { readonly [key: string]: JsonValue };
  /** the evidence for people, each line at most `ExplainContext.width` columns */
  readonly lines: readonly string[];
}

export interface AdapterExplain<P> {
  /**
   * The features whose Jaccard is the resemblance these parameters score (absent: the detector
   * scores no such set, and cannot be the ground truth of an explanation).
   */
  features?(params: P, text: string): FeatureOccurrences;
  /** This detector's evidence about the pair `ctx.a`, `ctx.b`. */
  evidence(params: P, ctx: ExplainContext): Evidence | Promise<Evidence>;
}
