/** Small document sets for tests, read without the project's readers. */
import { readFileSync } from 'node:fs';
import type { DocumentSet } from '../../contract/index.ts';

export const SMALL_JSONL = new URL('../fixtures/corpus/small.jsonl', import.meta.url);

export function smallCorpus(): DocumentSet {
  const docs = readFileSync(SMALL_JSONL, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as { id: string; text: string });
  return { ids: docs.map((d) => d.id), texts: docs.map((d) => d.text) };
}

export function docSet(texts: readonly string[]): DocumentSet {
  return { ids: texts.map((_, i) => `d${i}`), texts };
}
