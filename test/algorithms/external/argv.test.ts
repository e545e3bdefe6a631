import { describe, expect, it } from 'vitest';
import { commandLine } from '../../../algorithms/external/argv.ts';
import { externalParams } from '../../../algorithms/external/params.ts';

const paths = { program: '/p/run.py', interpreter: '/v/bin/python', corpus: '/w/c.jsonl', output: '/w/out.csv', seed: 7 };

describe('the external command line', () => {
  it('is [interpreter] program --corpus --output --seed and --NAME VALUE for each argument by default', () => {
    const p = externalParams.parse({ program: 'run.py', interpreter: 'python', args: { num_perm: 128, threshold: 0.5 } });
    const c = commandLine(p, paths);
    expect([c.file, ...c.args]).toEqual(['/v/bin/python', '/p/run.py', '--corpus', '/w/c.jsonl', '--output', '/w/out.csv', '--seed', '7', '--num_perm', '128', '--threshold', '0.5']);
    expect(c.env).toMatchObject({ NDD_CORPUS: '/w/c.jsonl', NDD_OUTPUT: '/w/out.csv', NDD_SEED: '7', NDD_TEXT: 'normalized', NDD_ARG_NUM_PERM: '128', NDD_ARG_THRESHOLD: '0.5' });
  });

  it('fills placeholders in a command and env given', () => {
    const p = externalParams.parse({ program: 'x', command: ['{program}', '--t={threshold}', '{corpus}'], args: { threshold: 0.8 }, env: { OUT: '{output}' } });
    const c = commandLine(p, paths);
    expect([c.file, ...c.args]).toEqual(['/p/run.py', '--t=0.8', '/w/c.jsonl']);
    expect(c.env.OUT).toBe('/w/out.csv');
  });

  it('refuses an unknown placeholder and contradictory declarations', () => {
    const issues = (x: unknown): string[] => (externalParams.safeParse(x).error?.issues ?? []).map((i) => i.message);
    expect(issues({ program: 'x', command: ['{program}', '{threshhold}'], args: { threshold: 1 } })[0]).toMatch(/^unknown placeholder \{threshhold\}/);
    expect(issues({ program: 'x', command: ['{interpreter}'] })).toEqual(['the command names {interpreter}: give `interpreter`']);
    expect(issues({ program: 'x', decisions: 'score-at-threshold' })).toEqual(['score-at-threshold needs a score: declare `score: resemblance` or `other`']);
    expect(issues({ program: 'x', output: 'clusters', score: 'other' })).toEqual(['clusters carry no score: leave `score` out']);
  });
});
