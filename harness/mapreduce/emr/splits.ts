/**
 * How the documents are cut into input splits: one text record a document (`index<TAB>text`,
 * the `documents` dataset of job.ts), consecutive documents per split until the split holds
 * at least `split_mb` uncompressed bytes. Each split is one gzip object, and gzip is not
 * splittable, so each split is exactly one map task on EMR. Pure: the dry-run plan and the
 * staging use the same cut.
 */
import type { DocumentSet } from '../../../contract/index.ts';
import { encodeRecord } from '../records.ts';

export interface SplitRange {
  /** First document index in the split. */
  readonly first: number;
  /** One past the last document index. */
  readonly end: number;
  /** Uncompressed bytes of the split's record lines, newlines included. */
  readonly bytes: number;
}

/** What the plan needs to know about the documents: exact splits when the documents were read, else totals. */
export type DocsDescription =
  | { readonly kind: 'exact'; readonly count: number; readonly recordBytes: number; readonly splits: readonly SplitRange[] }
  | { readonly kind: 'estimate'; readonly count: number; readonly recordBytes: number };

export function documentLine(index: number, text: string): string {
  return `${encodeRecord(String(index), text)}\n`;
}

export function splitBytesOf(splitMb: number): number {
  return Math.max(1, Math.round(splitMb * 1024 * 1024));
}

export function cutSplits(lineBytes: ArrayLike<number>, splitBytes: number): SplitRange[] {
  const out: SplitRange[] = [];
  let first = 0;
  let bytes = 0;
  for (let i = 0; i < lineBytes.length; i++) {
    bytes += lineBytes[i] as number;
    if (bytes >= splitBytes) {
      out.push({ first, end: i + 1, bytes });
      first = i + 1;
      bytes = 0;
    }
  }
  if (first < lineBytes.length) out.push({ first, end: lineBytes.length, bytes });
  return out;
}

export function describeDocuments(docs: DocumentSet, splitMb: number): DocsDescription {
  const lens = new Float64Array(docs.texts.length);
  let total = 0;
  let i = 0;
  for (const t of docs.texts) {
    lens[i] = Buffer.byteLength(documentLine(i, t));
    total += lens[i++] as number;
  }
  return { kind: 'exact', count: docs.texts.length, recordBytes: total, splits: cutSplits(lens, splitBytesOf(splitMb)) };
}

/** Number of splits: exact, or for an estimate the upper bound ceil(bytes / split size). */
export function splitCount(d: DocsDescription, splitMb: number): number {
  if (d.kind === 'exact') return d.splits.length;
  return d.count === 0 ? 0 : Math.max(1, Math.ceil(d.recordBytes / splitBytesOf(splitMb)));
}
