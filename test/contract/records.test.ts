import { describe, expect, it } from 'vitest';
import { encodeSpanValue, PairCollector, readCounter, SpanCollector } from '../../contract/index.ts';

describe('pair records', () => {
  it('decode a:b<TAB>score into a PairList', () => {
    const c = new PairCollector(10);
    c.add('0:3', '0.5', () => 'part-00000: line 1');
    c.add('4:9', '0.125', () => 'part-00001: line 1');
    const p = c.result();
    expect([...p.a]).toEqual([0, 4]);
    expect([...p.b]).toEqual([3, 9]);
    expect([...p.score]).toEqual([0.5, 0.125]);
  });

  it.each([
    ['foo', 'bar'],
    ['3:1', '0.5'],
    ['1:10', '0.5'],
    ['0:1', ''],
    ['0:1', '1.5'],
    ['0:1', '-0.1'],
  ])('name the place of a malformed record %s<TAB>%s', (k, v) => {
    const c = new PairCollector(10);
    expect(() => c.add(k, v, () => 's3://b/k/part-00002: line 2')).toThrow(/^s3:\/\/b\/k\/part-00002: line 2: not a pair record/);
  });
});

describe('span records', () => {
  it('round-trip with and without units', () => {
    const plain = { a: 1, b: 4, aStart: 10, aEnd: 50, bStart: 0, bEnd: 40 };
    const withUnits = { ...plain, units: { aStart: 2, bStart: 0, length: 3 } };
    expect(encodeSpanValue(plain)).toBe('10 50 0 40');
    expect(encodeSpanValue(withUnits)).toBe('10 50 0 40 2 0 3');
    const c = new SpanCollector(5);
    c.add('1:4', encodeSpanValue(plain), () => 'x');
    c.add('1:4', encodeSpanValue(withUnits), () => 'x');
    expect(c.result()).toEqual([plain, withUnits]);
  });

  it.each([
    ['4:1', '0 1 0 1'],
    ['1:9', '0 1 0 1'],
    ['1:4', '5 1 0 1'],
    ['1:4', '0 1 0'],
    ['1:4', '0 1 0 1 2 3'],
  ])('reject a malformed record %s<TAB>%s', (k, v) => {
    expect(() => new SpanCollector(5).add(k, v, () => 'spans part-00000: line 7')).toThrow(/^spans part-00000: line 7: not a span record/);
  });
});

describe('counters', () => {
  it('read 0 for a counter absent from a group that exists, null for a missing group', () => {
    const counters = { job: { documents: 3 } };
    expect(readCounter(counters, { group: 'job', name: 'documents' })).toBe(3);
    expect(readCounter(counters, { group: 'job', name: 'output_pairs' })).toBe(0);
    expect(readCounter(counters, { group: 'other', name: 'output_pairs' })).toBeNull();
  });
});
