/** `bench baseline` then `bench check` over real run folders on disk (copies of the fixture). */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeBaseline } from '../../../../harness/commands/baseline.ts';
import { check, RegressionFound } from '../../../../harness/commands/check.ts';
import { UserError } from '../../../../harness/errors.ts';
import { copyFixtureResults } from '../temp-results.ts';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function setup(): Promise<{ runA: string; runB: string; baseline: string }> {
  const t = await copyFixtureResults();
  cleanup = t.cleanup;
  const baseline = join(t.root, 'baselines', 'tiny-sct.json');
  await writeBaseline({ runs: [t.runA, t.runB], out: baseline }, () => {});
  return { runA: t.runA, runB: t.runB, baseline };
}

describe('bench baseline', () => {
  it('writes a baseline with both runs as timing samples and says so', async () => {
    const t = await copyFixtureResults();
    cleanup = t.cleanup;
    const out = join(t.root, 'baselines', 'b.json');
    let printed = '';
    await writeBaseline({ runs: [t.runA, t.runB], out }, (s) => (printed += s), new Date('2025-11-22T12:00:00Z'));
    expect(printed).toBe(`wrote ${out}: tiny-sct, 6 variants, 2 timing samples each\n`);
    const b = JSON.parse(await readFile(out, 'utf8')) as { variants: Record<string, { timings: { runtime_s: number[] } }> };
    expect(b.variants['broder/ground-truth']?.timings.runtime_s).toHaveLength(2);
  });
});

describe('bench check', () => {
  it('exits 0 (returns) for the runs the baseline was made from', async () => {
    const s = await setup();
    let printed = '';
    await check({ runs: [s.runA, s.runB], baseline: s.baseline, minFactor: 1.5, qualityOnly: false }, (t) => (printed += t));
    expect(printed).toContain('OK: no regressions.');
  });

  it('throws RegressionFound (exit code 1) after printing the table when quality changed', async () => {
    const s = await setup();
    const file = join(s.runA, 'run.json');
    const run = JSON.parse(await readFile(file, 'utf8')) as { variants: { name: string; measures: { pairs: number } }[] };
    const v = run.variants.find((x) => x.name === 'broder/sct=2');
    if (v) v.measures.pairs = 4;
    await writeFile(file, JSON.stringify(run));
    let printed = '';
    const err = await check({ runs: [s.runA], baseline: s.baseline, minFactor: 1.5, qualityOnly: true }, (t) => (printed += t)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RegressionFound);
    expect((err as RegressionFound).exitCode).toBe(1);
    expect((err as RegressionFound).message).toBe(`1 regression against ${s.baseline}`);
    expect(printed).toMatch(/broder\/sct=2\s+pairs\s+5\s+4\s+\S+run\.json\s+REGRESSION/);
  });

  it('rejects a min-factor of 1 or less as a user error', async () => {
    const s = await setup();
    await expect(check({ runs: [s.runA], baseline: s.baseline, minFactor: 1, qualityOnly: false }, () => {})).rejects.toThrow(UserError);
  });

  it('names a missing baseline file', async () => {
    const s = await setup();
    await expect(check({ runs: [s.runA], baseline: `${s.baseline}.nope`, minFactor: 1.5, qualityOnly: false }, () => {})).rejects.toThrow(/tiny-sct\.json\.nope: cannot read baseline: ENOENT/);
  });
});

describe('bench check on an incomplete run', () => {
  it('never says OK: a run with a file missing is refused (exit 2)', async () => {
    const s = await setup();
    await rm(join(s.runA, 'distribution.csv'));
    let printed = '';
    const err = await check({ runs: [s.runA], baseline: s.baseline, minFactor: 1.5, qualityOnly: true }, (t) => (printed += t)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toMatch(/run\.json: incomplete run: distribution\.csv is missing/);
    expect(printed).not.toContain('OK');
  });
});
