import { describe, expect, it } from 'vitest';
import { runGroups, sweepLines, sweptParameters } from '../../../harness/report/run-groups.ts';
import { editedRun, loadRun, RUN_A } from './fixture-runs.ts';

const run = loadRun(RUN_A);

describe('runGroups', () => {
  it('puts the variants of each `runs:` entry together and leaves the ground truth out', () => {
    // The fixture config has two entries: sct sweeping sampling.threshold [4, 3, 2], mod sweeping sampling.m [2, 4].
    const groups = runGroups(run.variants);
    expect(groups.map((g) => g.label)).toEqual(['broder by sampling.threshold', 'broder by sampling.m']);
    expect(groups.map((g) => g.variants.map((v) => v.name))).toEqual([
      ['broder/sct=4', 'broder/sct=3', 'broder/sct=2'],
      ['broder/mod=2', 'broder/mod=4'],
    ]);
  });

  it('separates two entries that sweep the same parameter with different fixed parameters, numbering them', () => {
    const twoSizes = editedRun(run, (r) => {
      const v = r.variants.find((x) => x.name === 'broder/sct=2');
      if (!v) throw new Error('fixture changed');
      (v.params as { shingle: { size: number } }).shingle.size = 32;
    });
    expect(runGroups(twoSizes.variants).map((g) => [g.label, g.variants.length])).toEqual([
      ['broder by sampling.threshold (1)', 2],
      ['broder by sampling.threshold (2)', 1],
      ['broder by sampling.m', 2],
    ]);
  });
});

describe('sweptParameters and sweepLines', () => {
  it('lists the swept paths in order of appearance', () => {
    expect(sweptParameters(run.variants)).toEqual(['sampling.threshold', 'sampling.m']);
  });

  it('orders a line by the swept value, ascending', () => {
    const lines = sweepLines(runGroups(run.variants), 'sampling.threshold');
    expect(lines).toHaveLength(1);
    expect(lines[0]?.variants.map((v) => v.swept['sampling.threshold'])).toEqual([2, 3, 4]);
  });

  it('splits a cross-product sweep into one line per value of the other parameter', () => {
    const cross = editedRun(run, (r) => {
      // Re-label the sct variants as a 2-parameter sweep: size 16 for sct=4 and 3, size 32 for sct=2.
      for (const v of r.variants.filter((x) => x.name.startsWith('broder/sct'))) {
        const t = v.swept['sampling.threshold'];
        v.swept['shingle.size'] = t === 2 ? 32 : 16;
      }
    });
    const lines = sweepLines(runGroups(cross.variants), 'sampling.threshold');
    expect(lines.map((l) => [l.label, l.variants.map((v) => v.name)])).toEqual([
      ['broder by sampling.threshold, shingle.size [shingle.size=16]', ['broder/sct=3', 'broder/sct=4']],
      ['broder by sampling.threshold, shingle.size [shingle.size=32]', ['broder/sct=2']],
    ]);
  });
});
