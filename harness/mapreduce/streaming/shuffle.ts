/**
 * The map side of Hadoop's shuffle: each map output line goes to the partition that Hadoop's
 * HashPartitioner gives its key (the line's bytes up to the first TAB, as Streaming sends it).
 * Works on raw bytes: no decoding, one write per partition per chunk.
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { hadoopHashBytes, partitionOfHash } from '../partition.ts';

const TAB = 9;
const LF = 10;
const NEWLINE = Buffer.from('\n');

/** Writes the lines of `input` into `files[partition]`; returns the number of records. */
export async function partitionLines(input: Readable, files: readonly string[]): Promise<number> {
  const r = files.length;
  const handles: FileHandle[] = [];
  try {
    for (const f of files) handles.push(await open(f, 'w'));
    const pending: Buffer[][] = files.map(() => []);
    let records = 0;
    let carry: Buffer | undefined;
    const route = (buf: Buffer, final: boolean): number => {
      let start = 0;
      for (;;) {
        let lf = buf.indexOf(LF, start);
        if (lf < 0) {
          if (!final || start >= buf.length) return start;
          lf = buf.length; // a last line without LF: Hadoop reads it as a record all the same
        }
        let keyEnd = buf.indexOf(TAB, start);
        if (keyEnd < 0 || keyEnd > lf) keyEnd = lf;
        const p = partitionOfHash(hadoopHashBytes(buf, start, keyEnd), r);
        const parts = pending[p] as Buffer[];
        if (lf < buf.length) parts.push(buf.subarray(start, lf + 1));
        else parts.push(buf.subarray(start, lf), NEWLINE);
        records++;
        start = lf + 1;
        if (start >= buf.length) return buf.length;
      }
    };
    const flush = async () => {
      await Promise.all(
        pending.map(async (parts, p) => {
          if (parts.length === 0) return;
          pending[p] = [];
          await (handles[p] as FileHandle).write(Buffer.concat(parts));
        }),
      );
    };
    for await (const chunk of input as AsyncIterable<Buffer>) {
      const buf = carry ? Buffer.concat([carry, chunk]) : chunk;
      const used = route(buf, false);
      carry = used < buf.length ? buf.subarray(used) : undefined;
      await flush();
    }
    if (carry) route(carry, true);
    await flush();
    return records;
  } finally {
    await Promise.all(handles.map((h) => h.close()));
  }
}
