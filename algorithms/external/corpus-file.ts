/**
 * The corpus as an external detector reads it: one JSON object a line, `{"id": …, "text": …}`,
 * in the run's document order, with the normalized text every built-in detector sees
 * (docs/design.md §4.1) or the text as the reader gave it.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { DocumentSet } from '../../contract/index.ts';
import { normalize } from '../text/normalize.ts';

/** Bytes gathered before each write. */
const CHUNK = 4 << 20;

export function writeCorpusJsonl(docs: DocumentSet, text: 'normalized' | 'raw', path: string): void {
  const fd = openSync(path, 'w');
  try {
    let chunk: string[] = [];
    let size = 0;
    docs.ids.forEach((id, i) => {
      const t = docs.texts.at(i) as string;
      const line = `${JSON.stringify({ id, text: text === 'raw' ? t : normalize(t) })}\n`;
      chunk.push(line);
      size += line.length;
      if (size >= CHUNK) {
        writeSync(fd, chunk.join(''));
        chunk = [];
        size = 0;
      }
    });
    if (chunk.length > 0) writeSync(fd, chunk.join(''));
  } finally {
    closeSync(fd);
  }
}
