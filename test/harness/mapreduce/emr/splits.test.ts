import { describe, expect, it } from 'vitest';
import { cutSplits, describeDocuments, documentLine, splitCount } from '../../../../harness/mapreduce/emr/splits.ts';

describe('cutSplits', () => {
  it('closes a split once it holds at least the split size', () => {
    expect(cutSplits([4, 4, 4, 4, 4], 8)).toEqual([
      { first: 0, end: 2, bytes: 8 },
      { first: 2, end: 4, bytes: 8 },
      { first: 4, end: 5, bytes: 4 },
    ]);
  });
  it('keeps a record larger than the split size whole', () => {
    expect(cutSplits([20, 1], 8)).toEqual([{ first: 0, end: 1, bytes: 20 }, { first: 1, end: 2, bytes: 1 }]);
  });
  it('makes no split of no documents', () => {
    expect(cutSplits([], 8)).toEqual([]);
  });
});

describe('describeDocuments', () => {
  it('counts the bytes of escaped record lines', () => {
    // "0\ta\\tb\n" = 1 + 1 + 4 + 1 = 7 bytes; "1\té\n" = 1 + 1 + 2 + 1 = 5 bytes
    expect(documentLine(0, 'a\tb')).toBe('0\ta\\tb\n');
    const d = describeDocuments({ ids: ['x', 'y'], texts: ['a\tb', 'é'] }, 1);
    expect(d).toEqual({ kind: 'exact', count: 2, recordBytes: 12, splits: [{ first: 0, end: 2, bytes: 12 }] });
  });
  it('estimates the split count from totals when the documents were not read', () => {
    expect(splitCount({ kind: 'estimate', count: 10, recordBytes: 3 * 1024 * 1024 + 1 }, 1)).toBe(4);
  });
});
