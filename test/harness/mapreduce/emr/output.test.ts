import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { maybeGunzip, PairDecoder } from '../../../../harness/mapreduce/emr/output.ts';

describe('PairDecoder', () => {
  it('decodes a:b<TAB>score records from several parts', () => {
    const d = new PairDecoder();
    d.addText('0:3\t0.5\n1:2\t1\n', 'part-00000');
    d.addText('\n4:9\t0.125\n', 'part-00001');
    const p = d.result();
    expect([...p.a]).toEqual([0, 1, 4]);
    expect([...p.b]).toEqual([3, 2, 9]);
    expect([...p.score]).toEqual([0.5, 1, 0.125]);
  });
  it('names the part and line of a bad record', () => {
    const d = new PairDecoder();
    expect(() => d.addText('0:1\t0.5\nfoo\tbar\n', 's3://b/k/part-00002')).toThrow('s3://b/k/part-00002: line 2: not a pair record');
    expect(() => d.addText('0:1\t\n', 'p')).toThrow('p: line 1');
  });
});

describe('maybeGunzip', () => {
  it('inflates gzip and passes plain text through', () => {
    expect(maybeGunzip(gzipSync('1:2\t0.5\n')).toString()).toBe('1:2\t0.5\n');
    expect(maybeGunzip(Buffer.from('1:2\t0.5\n')).toString()).toBe('1:2\t0.5\n');
  });
});
