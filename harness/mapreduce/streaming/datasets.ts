/**
 * Datasets on disk as Hadoop keeps them: a dataset is an ordered list of part files of text
 * records. The `documents` input is one line a document (key = document index in decimal,
 * value = text); the pairs output (key `a:b`, value the score) becomes a PairList.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { DocumentSet, PairList } from '../../../algorithms/types.ts';
import { decodeRecord, encodeRecord } from '../records.ts';
import { forEachLine } from './line-reader.ts';

const WRITE_CHARS = 1 << 20;

export async function writeDocuments(file: string, docs: DocumentSet, signal?: AbortSignal): Promise<void> {
  const fh = await open(file, 'w');
  try {
    let buf = '';
    for (let i = 0; i < docs.texts.length; i++) {
      buf += encodeRecord(String(i), docs.texts[i] as string) + '\n';
      if (buf.length >= WRITE_CHARS) {
        signal?.throwIfAborted();
        await fh.write(buf);
        buf = '';
      }
    }
    if (buf) await fh.write(buf);
  } finally {
    await fh.close();
  }
}

const PAIR_KEY = /^(\d+):(\d+)$/;

/** Decodes the pairs dataset; a malformed record is a bug in the algorithm's jobs, reported with its place. */
export async function readPairs(files: readonly string[], numDocs: number): Promise<PairList> {
  const a: number[] = [];
  const b: number[] = [];
  const score: number[] = [];
  for (const file of files) {
    let lineNo = 0;
    await forEachLine(createReadStream(file, { highWaterMark: 1 << 20 }), (line) => {
      lineNo++;
      const [key, value] = decodeRecord(line);
      const m = PAIR_KEY.exec(key);
      const x = m ? Number(m[1]) : NaN;
      const y = m ? Number(m[2]) : NaN;
      const s = value.trim() === '' ? NaN : Number(value);
      if (!(x < y && y < numDocs) || !(s >= 0 && s <= 1)) {
        throw new Error(`${file}: line ${lineNo}: not a pair record "a:b<TAB>score" with a < b < ${numDocs}, 0 <= score <= 1: ${JSON.stringify(line.slice(0, 80))}`);
      }
      a.push(x);
      b.push(y);
      score.push(s);
    });
  }
  return { a: Uint32Array.from(a), b: Uint32Array.from(b), score: Float64Array.from(score) };
}
