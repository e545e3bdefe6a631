/**
 * An s3:// (or s3a://) staging folder of the spark backend: the EMR backend's upload (PutObject
 * below 5 MiB, with the object's content type), its part-file listing and reading, against a
 * mocked client (the requests' shapes) and against moto_server (a real S3 API over HTTP).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Stager } from '../../../../harness/mapreduce/emr/spark-staging.ts';
import { hasMoto, MOTO_CREDENTIALS, NO_MOTO, startMoto } from '../../../support/moto.ts';
import { requireTool, skipsWithout } from '../../../support/required-tool.ts';

const dirs: string[] = [];
const temp = (): string => {
  const d = mkdtempSync(join(tmpdir(), 'spark-s3-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('s3 staging (request shapes)', () => {
  it('puts a text and a file with PutObject, the s3a:// bucket and key as s3://, with their content types', async () => {
    const mock = mockClient(S3Client);
    mock.on(PutObjectCommand).resolves({});
    const file = join(temp(), 'ndd-job.js');
    writeFileSync(file, 'module.exports = 1;\n');
    const st = s3Stager(new S3Client({ region: 'us-east-1', credentials: MOTO_CREDENTIALS }));
    await st.put('s3a://bkt/ndd/r1/variants/v01-x/plan.json', { body: '{"a":1}' });
    await st.put('s3://bkt/ndd/r1/code/ndd-job.js', { from: file });
    const puts = mock.commandCalls(PutObjectCommand).map((c) => c.args[0].input);
    expect(puts.map((p) => [p.Bucket, p.Key, p.ContentType, Buffer.from(p.Body as Uint8Array).toString('utf8')])).toEqual([
      ['bkt', 'ndd/r1/variants/v01-x/plan.json', 'application/json', '{"a":1}'],
      ['bkt', 'ndd/r1/code/ndd-job.js', 'text/javascript', 'module.exports = 1;\n'],
    ]);
    mock.restore();
  });

  it('reads a result that is not there as undefined, and passes on any other failure', async () => {
    const mock = mockClient(S3Client);
    mock.on(GetObjectCommand, { Key: 'p/missing.json' }).rejects(Object.assign(new Error('no such key'), { name: 'NoSuchKey' }));
    mock.on(GetObjectCommand, { Key: 'p/denied.json' }).rejects(Object.assign(new Error('access denied'), { name: 'AccessDenied' }));
    const st = s3Stager(new S3Client({ region: 'us-east-1', credentials: MOTO_CREDENTIALS }));
    expect(await st.read('s3://bkt/p/missing.json')).toBeUndefined();
    await expect(st.read('s3://bkt/p/denied.json')).rejects.toThrow('access denied');
    mock.restore();
  });
});

describe.skipIf(skipsWithout(hasMoto, 'the spark S3 staging tests against moto_server', NO_MOTO))('s3 staging against moto_server', () => {
  let moto: Awaited<ReturnType<typeof startMoto>> | undefined;
  let s3: S3Client;
  beforeAll(async () => {
    requireTool(hasMoto, 'the spark S3 staging tests against moto_server', NO_MOTO);
    moto = await startMoto();
    s3 = new S3Client({ region: 'us-east-1', endpoint: moto.endpoint, forcePathStyle: true, credentials: MOTO_CREDENTIALS });
    await s3.send(new CreateBucketCommand({ Bucket: 'ndd-spark' }));
  }, 60_000);
  afterAll(async () => moto?.stop());

  it("gives back a dataset's part files in name order, without _SUCCESS or a deeper folder's, and a text put there", async () => {
    const st = s3Stager(s3);
    const ds = 's3://ndd-spark/run/variants/v01-x/pairs';
    for (const [name, body] of [['part-00001', 'b\t2\n'], ['_SUCCESS', ''], ['part-00000', 'a\t1\n'], ['sub/part-00002', 'c\t3\n']] as const) {
      await st.put(`${ds}/${name}`, { body });
    }
    await st.put('s3a://ndd-spark/run/variants/v01-x/result.json', { body: '{"ok":true}' });
    const into = join(temp(), 'fetched');
    const parts = await st.parts(ds, into);
    expect(parts.map((p) => basename(p))).toEqual(['part-00000', 'part-00001']);
    expect(parts.map((p) => readFileSync(p, 'utf8'))).toEqual(['a\t1\n', 'b\t2\n']);
    expect(await st.read('s3://ndd-spark/run/variants/v01-x/result.json')).toBe('{"ok":true}');
    expect(await st.read('s3://ndd-spark/run/variants/v01-x/nothing.json')).toBeUndefined();
  });

  it("clears a variant's folder of an earlier run, and nothing beside it", async () => {
    const st = s3Stager(s3);
    await st.put('s3://ndd-spark/c/variants/v01-x/pairs/part-00000', { body: 'a\t1\n' });
    await st.put('s3://ndd-spark/c/variants/v01-x/result.json', { body: '{}' });
    await st.put('s3://ndd-spark/c/variants/v01-xy/spec.json', { body: '{}' });
    await st.clear('s3://ndd-spark/c/variants/v01-x');
    const left = await s3.send(new ListObjectsV2Command({ Bucket: 'ndd-spark', Prefix: 'c/' }));
    expect((left.Contents ?? []).map((o) => o.Key)).toEqual(['c/variants/v01-xy/spec.json']);
  });
});
