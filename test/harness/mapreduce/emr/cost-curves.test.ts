import { describe, expect, it } from 'vitest';
import { curvePointsOf, parseCostCurves, variantKey, type CurveRun } from '../../../../harness/mapreduce/emr/cost-curves.ts';

const RUN: CurveRun = {
  experiment: 'curve',
  run_id: 'r1',
  backend: { kind: 'streaming' },
  corpus: { documents: 2000, text_bytes: 4_806_945 },
  variants: [
    { name: 'ground-truth', algorithm: 'broder', params: { a: 1 }, measures: { cpu_s: 3.5, standalone_cpu_s: 3.6 } },
    { name: 'broder/sct=10', algorithm: 'broder', params: { a: 2 }, measures: { cpu_s: 1.5 } },
    { name: 'no-cpu', algorithm: 'broder', params: { a: 3 }, measures: { cpu_s: null } },
  ],
};

describe('curvePointsOf', () => {
  it('takes the CPU run alone where the run has it, else the CPU, and the text size', () => {
    expect(curvePointsOf([RUN])).toEqual([
      { variant: 'ground-truth', algorithm: 'broder', params: { a: 1 }, documents: 2000, text_bytes: 4_806_945, cpu_s: 3.6, run: 'curve/r1' },
      { variant: 'broder/sct=10', algorithm: 'broder', params: { a: 2 }, documents: 2000, text_bytes: 4_806_945, cpu_s: 1.5, run: 'curve/r1' },
    ]);
  });

  it('refuses a run that did not record the size of its text', () => {
    expect(() => curvePointsOf([{ ...RUN, corpus: { documents: 2000 } }])).toThrow(/^run curve\/r1: its run.json predates corpus.text_bytes/);
  });
});

describe('parseCostCurves', () => {
  it('names the file and the place of a bad value', () => {
    const text = JSON.stringify({ description: 'd', measured: 'm', points: [{ variant: 'v', algorithm: 'a', params: {}, documents: 0, text_bytes: 1, cpu_s: 1, run: 'r' }] });
    expect(() => parseCostCurves(text, 'c.json')).toThrow(/^c.json: points.0.documents: /);
    expect(() => parseCostCurves('{', 'c.json')).toThrow(/^c.json: not JSON/);
  });
});

describe('variantKey', () => {
  it('is the same for the same parameters in any key order, and differs otherwise', () => {
    expect(variantKey('broder', { b: [1, { y: 2, x: 1 }], a: 1 })).toBe(variantKey('broder', { a: 1, b: [1, { x: 1, y: 2 }] }));
    expect(variantKey('broder', { a: 1 })).not.toBe(variantKey('simhash', { a: 1 }));
    expect(variantKey('broder', { a: 1 })).not.toBe(variantKey('broder', { a: 2 }));
  });
});
