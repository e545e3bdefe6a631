/**
 * The job script as Hadoop Streaming runs it: a real `node <bundle>` process over stdin/stdout.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeRecord } from '../../../../harness/mapreduce/records.ts';
import { removeTempDirs, tempDir, toyJobScript } from './toy/fixture.ts';

let script = '';
const dir = tempDir('ndd-task-cli-');
const wordsSpec = join(dir, 'words.json');
const echoSpec = join(dir, 'echo.json');
writeFileSync(wordsSpec, JSON.stringify({ algorithm: 'toy-words', params: { max_df: 2, fail_on: null }, minScore: 0, seed: 0 }));
writeFileSync(echoSpec, JSON.stringify({ algorithm: 'toy-echo', params: {}, minScore: 0, seed: 0 }));

beforeAll(async () => {
  script = await toyJobScript();
});

function runScript(args: string[], input: string) {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const r = spawnSync(process.execPath, [script, ...args], { input, encoding: 'utf8', env });
  const stderr = r.stderr.split('\n').filter((l) => l.length > 0);
  return { code: r.status, stdout: r.stdout, stderr };
}

afterAll(removeTempDirs);

describe('job script', () => {
  it('passes keys and values with tabs, newlines, CRs, backslashes and non-ASCII through map and reduce unchanged', () => {
    // Written out escaped by hand, the encoding of records.ts: \\ for \, \t, \n, \r.
    const input = [
      'plain\tvalue',
      'tab\\there\tvalue with\\ttab',
      'new\\nline\tmulti\\nline\\r\\nvalue',
      'back\\\\slash\tC:\\\\dir\\\\file',
      'grüße\t日本語',
      'empty value\t',
      'two\ttabs\\tin\tone value', // a raw TAB after the first belongs to the value
    ];
    const mapped = runScript(['--spec', echoSpec, '--job', 'echo', '--phase', 'map'], input.join('\n') + '\n');
    expect(mapped.code).toBe(0);
    expect(mapped.stdout).toBe(input.map((l) => (l.startsWith('two') ? 'two\ttabs\\tin\\tone value' : l)).join('\n') + '\n');
    expect(decodeRecord(mapped.stdout.split('\n')[2] as string)).toEqual(['new\nline', 'multi\nline\r\nvalue']);
    expect(decodeRecord(mapped.stdout.split('\n')[3] as string)).toEqual(['back\\slash', 'C:\\dir\\file']);
    const sorted = mapped.stdout.split('\n').filter(Boolean).sort().join('\n') + '\n';
    const reduced = runScript(['--spec', echoSpec, '--job', 'echo', '--phase', 'reduce'], sorted);
    expect(reduced.code).toBe(0);
    expect(reduced.stdout).toBe(sorted);
  });

  it('reduces runs of equal keys as one group: a→1+2, b→5', () => {
    const r = runScript(['--spec', wordsSpec, '--job', 'counts', '--phase', 'reduce'], 'a\t1\na\t2\nb\t5\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('a\t3\nb\t5\n');
  });

  it('reports counter totals once at the end, with commas in names replaced', () => {
    const counts = join(dir, 'counts-empty');
    writeFileSync(counts, '');
    const postings = runScript(
      ['--spec', wordsSpec, '--job', 'postings', '--phase', 'reduce', '--side', `counts=${counts}`],
      'w\t1\nw\t0\nw\t2\nx\t4\n',
    );
    expect(postings.code).toBe(0);
    // w is in documents 0, 1, 2: pairs 0:1, 0:2, 1:2; x alone: none.
    expect(postings.stdout).toBe('0:1\t1\n0:2\t1\n1:2\t1\n');
    expect(postings.stderr).toEqual(['reporter:counter:toy,pairs_ emitted,3']);
  });

  it('serves --side datasets to ctx.side, given as several part files', () => {
    const a = join(dir, 'counts-a');
    const b = join(dir, 'counts-b');
    writeFileSync(a, 'cat\t1\ndog\t5\n');
    writeFileSync(b, 'fox\t2\n');
    const r = runScript(
      ['--spec', wordsSpec, '--job', 'postings', '--phase', 'map', '--side', `counts=${a}`, '--side', `counts=${b}`],
      '7\tcat dog fox cat\n',
    );
    expect(r.code).toBe(0);
    // max_df = 2 keeps cat (1) and fox (2), drops dog (5); each distinct word once.
    expect(r.stdout).toBe('cat\t7\nfox\t7\n');
  });

  it('serves a side dataset given as a folder of part files, plain or gzip (EMR -files)', () => {
    const folder = join(dir, 'counts-folder');
    mkdirSync(folder);
    writeFileSync(join(folder, 'part-00000'), 'cat\t1\ndog\t5\n');
    writeFileSync(join(folder, 'part-00001.gz'), gzipSync('fox\t2\n'));
    writeFileSync(join(folder, '_SUCCESS'), '');
    const r = runScript(['--spec', wordsSpec, '--job', 'postings', '--phase', 'map', '--side', `counts=${folder}`], '7\tcat dog fox cat\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('cat\t7\nfox\t7\n');
  });

  it('fails with exit 2 when a side dataset the job declares is not given', () => {
    const r = runScript(['--spec', wordsSpec, '--job', 'postings', '--phase', 'map'], '');
    expect(r.code).toBe(2);
    expect(r.stderr).toEqual(['ndd-job postings map: job postings needs side dataset(s) --side counts=<file>']);
  });

  it('fails with exit 3 and a one-line message naming the line on a bad record', () => {
    const r = runScript(['--spec', echoSpec, '--job', 'echo', '--phase', 'map'], 'ok\t1\nbad\tvalue \\q here\n');
    expect(r.code).toBe(3);
    expect(r.stderr).toEqual(['ndd-job echo map: bad record: stdin line 2: value: invalid escape "\\\\q" in record field']);
  });

  it('fails with exit 1 and ends stderr with one line when the job code throws', () => {
    const spec = join(dir, 'fail.json');
    writeFileSync(spec, JSON.stringify({ algorithm: 'toy-words', params: { max_df: 2, fail_on: 'boom' }, minScore: 0, seed: 0 }));
    const r = runScript(['--spec', spec, '--job', 'clean', '--phase', 'map'], '0\tfine\n1\tit goes boom\n');
    expect(r.code).toBe(1);
    expect(r.stderr.at(-1)).toBe('ndd-job clean map: planted failure in document 1');
  });

  it('fails with exit 2 naming the jobs there are when the job is unknown', () => {
    const r = runScript(['--spec', wordsSpec, '--job', 'nope', '--phase', 'map'], '');
    expect(r.code).toBe(2);
    expect(r.stderr).toEqual([`ndd-job nope map: ${wordsSpec}: algorithm toy-words has no job "nope" (jobs: clean, counts, postings, scores)`]);
  });

  it('fails with exit 2 on a bad phase', () => {
    const r = runScript(['--spec', wordsSpec, '--job', 'clean', '--phase', 'shuffle'], '');
    expect(r.code).toBe(2);
    expect(r.stderr).toEqual(['ndd-job: --phase must be map, combine or reduce, got "shuffle"']);
  });
});
