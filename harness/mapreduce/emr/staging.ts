/**
 * Puts a run's inputs on S3 with lib-storage `Upload` (PutObject for small bodies, multipart
 * above 5 MiB): the job script, the bootstrap action, and the documents as gzip'd text-record
 * splits. An abort stops the upload in flight.
 */
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { encodeDocumentMeta, type DocumentSet } from '../../../contract/index.ts';
import { InterruptedError } from '../../errors.ts';
import { documentsMetaPartKey, splitKey, type RunLayout } from './layout.ts';
import { encodeRecord } from '../records.ts';
import { documentLine, type SplitRange } from './splits.ts';

const gzipAsync = promisify(gzip);

export async function uploadObject(
  s3: S3Client,
  bucket: string,
  key: string,
  body: Uint8Array | string,
  contentType: string,
  signal?: AbortSignal,
): Promise<void> {
  if (signal?.aborted) throw new InterruptedError('interrupted while staging to S3');
  const up = new Upload({
    client: s3,
    params: { Bucket: bucket, Key: key, Body: body, ContentType: contentType },
    queueSize: 4,
    partSize: 8 * 1024 * 1024,
    leavePartsOnError: false,
  });
  const onAbort = (): void => void up.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await up.done();
  } catch (e) {
    if (signal?.aborted) throw new InterruptedError('interrupted while staging to S3', { cause: e });
    throw e;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}

export async function uploadFile(s3: S3Client, bucket: string, key: string, path: string, contentType: string, signal?: AbortSignal): Promise<number> {
  const body = await readFile(path);
  await uploadObject(s3, bucket, key, body, contentType, signal);
  return body.length;
}

export function splitText(docs: DocumentSet, r: SplitRange): string {
  let s = '';
  for (let i = r.first; i < r.end; i++) s += documentLine(i, docs.texts.at(i) as string);
  return s;
}

/** Uploads every split as `part-NNNNN.gz`; returns the compressed sizes. */
export async function stageDocuments(
  s3: S3Client,
  layout: RunLayout,
  docs: DocumentSet,
  splits: readonly SplitRange[],
  progress: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<number[]> {
  const sizes: number[] = [];
  for (let i = 0; i < splits.length; i++) {
    const gz = await gzipAsync(Buffer.from(splitText(docs, splits[i] as SplitRange), 'utf8'));
    await uploadObject(s3, layout.bucket, splitKey(layout, i), gz, 'application/gzip', signal);
    sizes.push(gz.length);
    progress(i + 1, splits.length);
  }
  return sizes;
}

/** The `documents-meta` dataset as one uncompressed object: jobs load it whole as side data. */
export function documentMetaText(docs: DocumentSet): string {
  let s = '';
  for (let i = 0; i < docs.texts.length; i++) s += `${encodeRecord(String(i), encodeDocumentMeta(docs.meta?.[i]))}\n`;
  return s;
}

export async function stageDocumentMeta(s3: S3Client, layout: RunLayout, docs: DocumentSet, signal?: AbortSignal): Promise<number> {
  const body = Buffer.from(documentMetaText(docs), 'utf8');
  await uploadObject(s3, layout.bucket, documentsMetaPartKey(layout), body, 'text/plain', signal);
  return body.length;
}
