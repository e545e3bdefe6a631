import { describe, expect, it } from 'vitest';
import { summaryTable } from '../../../harness/results/summary.ts';
import { editedRun, loadRun, RUN_A } from '../report/fixture-runs.ts';

const run = loadRun(RUN_A);

describe('the summary bench run prints', () => {
  it('says which variants a resumed run took from its checkpoint', () => {
    const resumed = editedRun(run, (r) => {
      r.resumed = ['broder/ground-truth', 'broder/sct=4'];
    });
    expect(summaryTable(resumed)).toContain(
      'note: 2 variants were taken from the checkpoint of an interrupted run (broder/ground-truth, broder/sct=4); the first variants after them computed what those had (run.json: backend_extra.computed)\n',
    );
    expect(summaryTable(editedRun(run, (r) => void (r.resumed = [])))).not.toContain('checkpoint');
  });

  it('writes a local run\'s cost as under $0.01', () => {
    const cheap = editedRun(run, (r) => {
      r.totals.cost_usd = 6.5e-5;
    });
    expect(summaryTable(cheap)).toMatch(/ · under \$0\.01 · /);
  });
});
