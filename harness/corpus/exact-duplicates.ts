/**
 * Exact duplicates first, as Ye et al. do (section 4.2): documents whose whole text is the same
 * are found by the MD5 of the text, "converted into a string of words separated by single
 * spaces" (white space collapsed, ends trimmed; the readers have already removed the HTML), and
 * each group keeps its first document in reading order, so the near-duplicate join sees every
 * text once.
 */
import { createHash } from 'node:crypto';
import type { DocumentSet } from '../../contract/index.ts';
import { pickTexts } from './spilled-texts.ts';

export interface ExactDuplicateGroup {
  /** the index (in the documents read) of the document kept */
  readonly kept: number;
  /** the indexes of the documents removed, ascending */
  readonly removed: readonly number[];
}

export interface ExactDuplicates {
  /** the documents kept, in reading order */
  readonly docs: DocumentSet;
  /** every group of two or more identical texts, by its first document */
  readonly groups: readonly ExactDuplicateGroup[];
  readonly removed: number;
}

/** The text MD5 is taken of: white space runs as one space, no space at the ends. */
export function canonicalText(text: string): string {
  return text.replace(/\s+/gu, ' ').trim();
}

export function removeExactDuplicates(docs: DocumentSet): ExactDuplicates {
  const first = new Map<string, number>();
  const groups = new Map<number, number[]>();
  const keep: number[] = [];
  let i = 0;
  for (const text of docs.texts) {
    const digest = createHash('md5').update(canonicalText(text), 'utf8').digest('hex');
    const k = first.get(digest);
    if (k === undefined) {
      first.set(digest, i);
      keep.push(i);
    } else {
      let g = groups.get(k);
      if (!g) groups.set(k, (g = []));
      g.push(i);
    }
    i++;
  }
  const meta = docs.meta;
  return {
    docs: {
      ids: keep.map((i) => docs.ids[i] as string),
      texts: pickTexts(docs.texts, keep),
      ...(meta ? { meta: keep.map((i) => meta[i]) } : {}),
    },
    groups: [...groups].map(([kept, removed]) => ({ kept, removed })).sort((x, y) => x.kept - y.kept),
    removed: docs.texts.length - keep.length,
  };
}
