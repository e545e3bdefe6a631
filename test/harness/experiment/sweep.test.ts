import { parseDocument } from 'yaml';
import { describe, expect, it } from 'vitest';
import { broderParams } from '../../../algorithms/broder/params.ts';
import { distinguishingName, expandSweeps, findSweeps, sweepLabels } from '../../../harness/experiment/sweep.ts';

/** Scans a params mapping written in YAML against the broder schema. */
function scan(yaml: string) {
  const doc = parseDocument(yaml);
  return findSweeps(doc.contents, broderParams, doc.toJS());
}

describe('findSweeps', () => {
  it('finds a list where the schema wants a number, labelled by the method it sits in', () => {
    const { sweeps, problems } = scan('sampling: { method: sct, threshold: [100, 90] }');
    expect(problems).toEqual([]);
    expect(sweeps.map((s) => [s.path, s.label, s.values.map((v) => v.value)])).toEqual([
      [['sampling', 'threshold'], 'sct', [100, 90]],
    ]);
  });

  it('records where each value is written', () => {
    const text = 'sampling: { method: mod, m: [64, 128] }';
    const [sweep] = scan(text).sweeps;
    expect(sweep?.values.map((v) => v.offset)).toEqual([text.indexOf('64'), text.indexOf('128')]);
  });

  it('labels a field outside a method object by its key, and sweeps strings', () => {
    const { sweeps } = scan('fingerprint: [rabin64, md5]\nshingle: { unit: word, size: [4, 5] }');
    expect(sweeps.map((s) => [s.label, s.values.map((v) => v.value)])).toEqual([
      ['fingerprint', ['rabin64', 'md5']],
      ['size', [4, 5]],
    ]);
  });

  it('does not take a list the schema wants for a sweep, but finds sweeps inside it', () => {
    const { sweeps } = scan('sampling: { method: adaptive, groups: [{ max_size: 100, m: [2, 4] }, { m: 8 }] }');
    expect(sweeps.map((s) => [s.path, s.label])).toEqual([[['sampling', 'groups', 0, 'm'], 'm']]);
  });

  it('finds nothing in params without lists', () => {
    expect(scan('sampling: { method: mod, m: 64 }')).toEqual({ sweeps: [], problems: [] });
  });

  it('leaves unknown keys alone for validation to report', () => {
    expect(scan('sampling: { method: mod, m: 64, extra: [1, 2] }')).toEqual({ sweeps: [], problems: [] });
  });

  it('refuses to sweep null or nested values', () => {
    const { sweeps, problems } = scan('sampling: { method: mod, m: [4, [8]] }\nshingle: { unit: word, size: [3, null] }');
    expect(sweeps).toEqual([]);
    expect(problems.map((p) => [p.path, p.problem])).toEqual([
      [['sampling', 'm'], 'a sweep lists strings, numbers or booleans, not a list or mapping'],
      [['shingle', 'size'], 'a sweep lists strings, numbers or booleans, not null'],
    ]);
  });
});

describe('sweepLabels', () => {
  it('keeps distinct labels and turns colliding ones into dotted paths', () => {
    const { sweeps } = scan('sampling: { method: mod, m: [4], residue: [0] }\nshingle: { unit: word, size: [3] }');
    expect(sweepLabels(sweeps)).toEqual(['sampling.m', 'sampling.residue', 'size']);
  });
});

describe('expandSweeps', () => {
  it('is one point named after the run when nothing is swept', () => {
    expect(expandSweeps('broder', { a: 1 }, [])).toEqual([{ name: 'broder', swept: {}, params: { a: 1 }, choice: [] }]);
  });

  it('writes each point its own copy of the params', () => {
    const doc = parseDocument('sampling: { method: mod, m: [2, 4] }');
    const params = doc.toJS() as unknown;
    const points = expandSweeps('b', params, findSweeps(doc.contents, broderParams, params).sweeps);
    expect(points.map((p) => p.params)).toEqual([
      { sampling: { method: 'mod', m: 2 } },
      { sampling: { method: 'mod', m: 4 } },
    ]);
    expect(params).toEqual({ sampling: { method: 'mod', m: [2, 4] } });
  });

  it('counts through the cross product with the last field fastest', () => {
    const doc = parseDocument('shingle: { unit: word, size: [3, 5] }\nfingerprint: [rabin64, md5]\nsampling: { method: mod, m: [2, 4] }');
    const params = doc.toJS() as unknown;
    const points = expandSweeps('r', params, findSweeps(doc.contents, broderParams, params).sweeps);
    expect(points.map((p) => p.choice)).toEqual([
      [0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 1, 1], [1, 0, 0], [1, 0, 1], [1, 1, 0], [1, 1, 1],
    ]);
    expect(points[6]?.name).toBe('r/size=5,fingerprint=md5,mod=2');
    expect(points[6]?.swept).toEqual({ 'shingle.size': 5, fingerprint: 'md5', 'sampling.m': 2 });
  });
});

describe('distinguishingName', () => {
  const name = (raw: unknown): string => distinguishingName('broder', broderParams.parse(raw), broderParams);

  it('names a run by the parameters that set it apart from the defaults', () => {
    expect(name({ sampling: { method: 'sct', threshold: 70 } })).toBe('broder/sct=70');
    expect(name({ sampling: { method: 'mod', m: 64 } })).toBe('broder/mod=64');
    expect(name({ fingerprint: 'md5' })).toBe('broder/fingerprint=md5');
  });

  it('leaves out parameters written with their default values', () => {
    expect(name({})).toBe('broder');
    expect(name({ shingle: { unit: 'char', size: 64, start: 'word' }, fingerprint: 'rabin64', sampling: { method: 'none' } })).toBe('broder');
    expect(name({ sampling: { method: 'mod', m: 64, residue: 0 } })).toBe('broder/mod=64');
  });

  it('gives two different runs two names', () => {
    const runs = [
      { sampling: { method: 'sct', threshold: 70 } },
      { sampling: { method: 'mod', m: 64 } },
      { sampling: { method: 'mod', m: 64, residue: 3 } },
      { sampling: { method: 'adaptive', groups: [{ max_size: 100, m: 2 }, { m: 8 }] } },
      { sampling: { method: 'adaptive', groups: [{ max_size: 200, m: 2 }, { m: 8 }] } },
      { shingle: { unit: 'word', size: 5 } },
    ];
    const names = runs.map(name);
    expect(new Set(names).size).toBe(runs.length);
  });
});
