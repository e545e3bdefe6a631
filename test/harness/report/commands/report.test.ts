import { readdir } from 'node:fs/promises';
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
