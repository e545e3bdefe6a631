import { LineCounter, parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { describeValue, formatPath, IssueList, yamlLocator } from '../../../harness/experiment/issues.ts';

describe('formatPath', () => {
  it('joins keys with dots and writes list indexes in brackets', () => {
    expect(formatPath(['runs', 0, 'params', 'sampling', 'm'])).toBe('runs[0].params.sampling.m');
    expect(formatPath(['corpus', 'subset', 'runs', 2])).toBe('corpus.subset.runs[2]');
    expect(formatPath([])).toBe('config');
  });
});

describe('describeValue', () => {
  it('names the YAML type and shows scalars', () => {
    expect([describeValue('abc'), describeValue(1.5), describeValue(true), describeValue(null)]).toEqual([
      "string 'abc'", 'number 1.5', 'boolean true', 'null',
    ]);
    expect([describeValue([1]), describeValue({ a: 1 }), describeValue(undefined)]).toEqual(['a list', 'a mapping', 'nothing']);
  });
});

describe('yamlLocator and IssueList', () => {
  const text = 'a:\n  b: [1, 2]\n  c: { d: x }\n';
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc });
  const locate = yamlLocator(doc.contents);

  it('finds values and keys, or the nearest ancestor of what is missing', () => {
    expect(locate.value(['a', 'b', 1])).toBe(text.indexOf('2'));
    expect(locate.key(['a', 'c'])).toBe(text.indexOf('c:'));
    expect(locate.value(['a', 'c', 'd'])).toBe(text.indexOf('x'));
    expect(locate.value(['a', 'c', 'missing'])).toBe(text.indexOf('{'));
  });

  it('sorts lines into document order and drops repeats', () => {
    const issues = new IssueList('f.yaml', lc);
    issues.add(locate.value(['a', 'c', 'd']), ['a', 'c', 'd'], 'late');
    issues.add(locate.value(['a', 'b', 0]), ['a', 'b', 0], 'early');
    issues.add(locate.value(['a', 'c', 'd']), ['a', 'c', 'd'], 'late');
    expect(issues.lines()).toEqual(['f.yaml:2:7: a.b[0]: early', 'f.yaml:3:11: a.c.d: late']);
  });
});
