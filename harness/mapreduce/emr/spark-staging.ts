/**
 * The spark backend's `s3://`/`s3a://` staging folder: this backend's S3 upload (lib-storage,
 * staging.ts) and its part-file listing and reading (output.ts). backends.ts hands it to the spark
 * backend, which loads it for S3 staging only.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DeleteObjectsCommand, type S3Client } from '@aws-sdk/client-s3';
import { getObjectBytes, listKeys, listPartKeys } from './output.ts';
import { parseS3Uri } from './s3uri.ts';
import { uploadFile, uploadObject } from './staging.ts';
import type { Stager } from '../spark/stage.ts';

/** `s3a://b/k` is `s3://b/k` to the SDK. */
function s3Location(uri: string): { bucket: string; key: string } {
  const { bucket, prefix } = parseS3Uri(uri.replace(/^s3a:/, 's3:'));
  return { bucket, key: prefix };
}

export function s3Stager(s3: S3Client): Stager {
  return {
    async put(uri, what, signal) {
      const { bucket, key } = s3Location(uri);
      const type = key.endsWith('.json') ? 'application/json' : key.endsWith('.js') ? 'text/javascript' : key.endsWith('.py') ? 'text/x-python' : 'text/plain';
      if ('body' in what) await uploadObject(s3, bucket, key, what.body, type, signal);
      else await uploadFile(s3, bucket, key, what.from, type, signal);
    },
    async parts(uri, into, signal) {
      const { bucket, key } = s3Location(uri);
      const prefix = `${key}/`;
      const send = s3.send.bind(s3) as never;
      const keys = await listPartKeys(send, bucket, prefix);
      await mkdir(into, { recursive: true });
      const files: string[] = [];
      for (const k of keys) {
        signal?.throwIfAborted();
        const file = join(into, k.slice(prefix.length));
        await writeFile(file, await getObjectBytes(send, bucket, k));
        files.push(file);
      }
      return files;
    },
    async clear(uri, signal) {
      const { bucket, key } = s3Location(uri);
      const send = s3.send.bind(s3) as never;
      const keys = await listKeys(send, bucket, `${key}/`);
      for (let i = 0; i < keys.length; i += 1000) {
        signal?.throwIfAborted();
        await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys.slice(i, i + 1000).map((Key) => ({ Key })), Quiet: true } }));
      }
    },
    async read(uri, signal) {
      const { bucket, key } = s3Location(uri);
      signal?.throwIfAborted();
      const bytes = await getObjectBytes(s3.send.bind(s3) as never, bucket, key).catch((e: unknown) => {
        if ((e as { name?: string }).name === 'NoSuchKey') return undefined;
        throw e;
      });
      return bytes === undefined ? undefined : Buffer.from(bytes).toString('utf8');
    },
    localFolder: () => undefined,
  };
}

