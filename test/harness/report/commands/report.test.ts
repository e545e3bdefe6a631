import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { report } from '../../../../harness/commands/report.ts';
import { UserError } from '../../../../harness/errors.ts';
import { copyFixtureResults } from '../temp-results.ts';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('bench report', () => {
  it('writes the leaderboard and the missing run reports of a results folder', async () => {
    const t = await copyFixtureResults();
    cleanup = t.cleanup;
    let printed = '';
    await report({ resultsDir: t.root }, (s) => (printed += s));
    expect(printed.trim().split('\n')).toEqual([`wrote ${join(t.runA, 'report.html')}`, `wrote ${join(t.runB, 'report.html')}`, `wrote ${join(t.root, 'leaderboard.html')} (2 runs)`]);
    expect(await readdir(t.root)).toContain('leaderboard.html');
  });

  it('given a run folder, writes only its report', async () => {
    const t = await copyFixtureResults();
    cleanup = t.cleanup;
    let printed = '';
    await report({ resultsDir: t.runA }, (s) => (printed += s));
    expect(printed).toBe(`wrote ${join(t.runA, 'report.html')}\n`);
    expect(await readdir(t.root)).not.toContain('leaderboard.html');
  });

  it('says so when the results folder does not exist', async () => {
    await expect(report({ resultsDir: '/nonexistent/results' }, () => {})).rejects.toThrow(UserError);
  });
});

describe('bench report over runs that are not complete', () => {
  it('skips a run with a file missing and one whose run.json cannot be read, naming each, and writes the rest', async () => {
    const t = await copyFixtureResults();
    cleanup = t.cleanup;
    await rm(join(t.runA, 'distribution.csv'));
    const truncated = join(t.root, 'tiny-sct', 'truncated');
    await mkdir(truncated);
    await writeFile(join(truncated, 'run.json'), '{"schema_version": 2, "exper');
    let printed = '';
    const warnings: string[] = [];
    await report({ resultsDir: t.root }, (s) => (printed += s), (l) => warnings.push(l));
    expect(warnings).toEqual([
      `warning: skipped ${join(t.runA, 'run.json')}: incomplete run: distribution.csv is missing`,
      expect.stringMatching(new RegExp(`^warning: skipped ${join(truncated, 'run.json').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: invalid JSON`)),
    ]);
    expect(printed.trim().split('\n').at(-1)).toBe(`wrote ${join(t.root, 'leaderboard.html')} (1 run)`);
  });

  it('with --strict, makes a skipped run an error (exit 2)', async () => {
    const t = await copyFixtureResults();
    cleanup = t.cleanup;
    await rm(join(t.runA, 'metrics.csv'));
    await expect(report({ resultsDir: t.root, strict: true }, () => {}, () => {})).rejects.toThrow(UserError);
  });

  it('refuses the report of a run folder with a changed file', async () => {
    const t = await copyFixtureResults();
    cleanup = t.cleanup;
    await writeFile(join(t.runA, 'metrics.csv'), 'experiment\n');
    await expect(report({ resultsDir: t.runA }, () => {})).rejects.toThrow(/run\.json: incomplete run: metrics\.csv has 11 bytes, run\.json lists \d+/);
  });
});
