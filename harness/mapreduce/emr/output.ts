/**
 * Reading a job's output back from S3: the `part-*` files Hadoop wrote (gzip'd or not; the
 * magic bytes decide), decoded as text records. The pairs dataset's records are `a:b<TAB>score`
 * with document indexes a < b (algorithms/types.ts).
 */
import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import type { PairList } from '../../../algorithms/types.ts';
import { decodeRecord } from '../records.ts';

export function maybeGunzip(bytes: Uint8Array): Buffer {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b ? gunzipSync(b) : b;
}

export class PairDecoder {
  private a: number[] = [];
  private b: number[] = [];
  private s: number[] = [];

  /** Adds the records of one part file; `where` names it in errors. */
  addText(text: string, where: string): void {
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line === '') continue;
      const [key, value] = decodeRecord(line);
      const m = /^(\d+):(\d+)$/.exec(key);
      const score = Number(value);
      if (!m || value.trim() === '' || !Number.isFinite(score)) {
        throw new Error(`${where}: line ${i + 1}: not a pair record "a:b<TAB>score": ${JSON.stringify(line.slice(0, 80))}`);
      }
      this.a.push(Number(m[1]));
      this.b.push(Number(m[2]));
      this.s.push(score);
    }
  }

  result(): PairList {
    return { a: Uint32Array.from(this.a), b: Uint32Array.from(this.b), score: Float64Array.from(this.s) };
  }
}

/** Part files under `prefix` (Hadoop's `_SUCCESS` and other `_`/`.` files are not data). */
export async function listPartKeys(
  send: (cmd: ListObjectsV2Command) => Promise<{ Contents?: { Key?: string }[]; NextContinuationToken?: string; IsTruncated?: boolean }>,
  bucket: string,
  prefix: string,
): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    for (const o of page.Contents ?? []) {
      const base = o.Key?.slice(prefix.length) ?? '';
      if (o.Key && /^part-/.test(base) && !base.includes('/')) keys.push(o.Key);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}

export async function getObjectBytes(
  send: (cmd: GetObjectCommand) => Promise<{ Body?: { transformToByteArray(): Promise<Uint8Array> } }>,
  bucket: string,
  key: string,
): Promise<Uint8Array> {
  const r = await send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  if (!r.Body) throw new Error(`s3://${bucket}/${key}: empty GetObject response`);
  return r.Body.transformToByteArray();
}
