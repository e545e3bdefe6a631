/**
 * Reading a job's output back from S3: the `part-*` files Hadoop wrote (gzip'd or not; the
 * magic bytes decide), decoded as text records (`../outputs.ts` turns them into pairs, spans, tables).
 */
import { gunzipSync } from 'node:zlib';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { decodeRecord } from '../records.ts';

export function maybeGunzip(bytes: Uint8Array): Buffer {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return b.length >= 2 && b[0] === 0x1f && b[1] === 0x8b ? gunzipSync(b) : b;
}

/** Calls `f` with each record of a part file's text and its 1-based line number (empty lines are not records). */
export function forEachTextRecord(text: string, f: (key: string, value: string, line: number) => void): void {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '') continue;
    const [key, value] = decodeRecord(line);
    f(key, value, i + 1);
  }
}

type ListSend = (cmd: ListObjectsV2Command) => Promise<{ Contents?: { Key?: string }[]; NextContinuationToken?: string; IsTruncated?: boolean }>;

/** Every key under `prefix`, sorted. */
export async function listKeys(send: ListSend, bucket: string, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}

/** Part files under `prefix` (Hadoop's `_SUCCESS` and other `_`/`.` files are not data). */
export async function listPartKeys(send: ListSend, bucket: string, prefix: string): Promise<string[]> {
  return (await listKeys(send, bucket, prefix)).filter((key) => {
    const base = key.slice(prefix.length);
    return /^part-/.test(base) && !base.includes('/');
  });
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
