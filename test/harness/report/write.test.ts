import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRunDirs } from '../../../harness/report/find-runs.ts';
import { writeLeaderboard, writeRunReport } from '../../../harness/report/write.ts';
import { copyFixtureResults } from './temp-results.ts';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe('writeRunReport', () => {
  it('writes report.html into the run folder and leaves no temporary file', async () => {
    const t = await copyFixtureResults();
    cleanup = t.cleanup;
    await writeRunReport(t.runA);
    const files = (await readdir(t.runA)).sort();
    expect(files).toEqual(['distribution.csv', 'metrics.csv', 'report.html', 'run.json']);
    expect(await readFile(join(t.runA, 'report.html'), 'utf8')).toMatch(/^<!doctype html>/);
  });

  it('reads the extra tables run.json lists', async () => {
    const t = await copyFixtureResults();
    cleanup = t.cleanup;
    const run = JSON.parse(await readFile(join(t.runA, 'run.json'), 'utf8')) as { tables: Record<string, string> };
    run.tables = { 'run-topic-prevalence.csv': 'Table 4.1: run-topics with at least x% near-duplicates in their top n' };
    await writeFile(join(t.runA, 'run.json'), JSON.stringify(run));
    await writeFile(join(t.runA, 'run-topic-prevalence.csv'), 'ndd_pct,n=10\n5,67.46\n');
    await writeRunReport(t.runA);
    const html = await readFile(join(t.runA, 'report.html'), 'utf8');
    expect(html).toContain('<h3>run-topic-prevalence.csv</h3>');
    expect(html).toContain('67.46');
  });
});

describe('findRunDirs', () => {
  it('finds run folders at any depth, skipping hidden (in-progress) folders', async () => {
    const t = await copyFixtureResults();
    cleanup = t.cleanup;
    await mkdir(join(t.root, 'deep', 'er', 'run1'), { recursive: true });
    await writeFile(join(t.root, 'deep', 'er', 'run1', 'run.json'), '{}');
    await mkdir(join(t.root, 'tiny-sct', '.tmp-run'), { recursive: true });
    await writeFile(join(t.root, 'tiny-sct', '.tmp-run', 'run.json'), '{}');
    expect(await findRunDirs(t.root)).toEqual([join(t.root, 'deep', 'er', 'run1'), t.runA, t.runB]);
  });
});

describe('writeLeaderboard', () => {
  it('writes leaderboard.html linking each run report by a relative path, writing missing reports', async () => {
    const t = await copyFixtureResults();
    cleanup = t.cleanup;
    await writeRunReport(t.runA);
    const r = await writeLeaderboard(t.root, new Date('2025-11-22T12:00:00Z'));
    expect(r).toEqual({ file: join(t.root, 'leaderboard.html'), runs: 2, reportsWritten: [t.runB], skipped: [] });
    const html = await readFile(r.file, 'utf8');
    expect(html).toContain('href="tiny-sct/20251122T101500Z-3f9a2c/report.html"');
    expect(html).toContain('href="tiny-sct/20251122T103000Z-7b21d0/report.html"');
    expect((await readdir(t.runB)).includes('report.html')).toBe(true);
  });
});
