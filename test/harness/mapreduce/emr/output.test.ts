import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { forEachTextRecord, maybeGunzip } from '../../../../harness/mapreduce/emr/output.ts';

describe('forEachTextRecord', () => {
  it('gives each record of a part file with its line number, skipping empty lines', () => {
    const seen: [string, string, number][] = [];
    forEachTextRecord('0:3\t0.5\n\n4:9\t0.125\nk\\tx\tv\\n\n', (k, v, line) => seen.push([k, v, line]));
    expect(seen).toEqual([
      ['0:3', '0.5', 1],
      ['4:9', '0.125', 3],
      ['k\tx', 'v\n', 4],
    ]);
  });
});

describe('maybeGunzip', () => {
  it('inflates gzip and passes plain text through', () => {
    expect(maybeGunzip(gzipSync('1:2\t0.5\n')).toString()).toBe('1:2\t0.5\n');
    expect(maybeGunzip(Buffer.from('1:2\t0.5\n')).toString()).toBe('1:2\t0.5\n');
  });
});
