/** The reports' I/O edge: read results folders, render, write atomically. */
import { access } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { writeFileAtomic } from '../../kernels/io/atomic-write.ts';
import { findRunDirs } from './find-runs.ts';
import { renderLeaderboard, type LeaderboardEntry } from './leaderboard.ts';
import { isUserError } from '../errors.ts';
import type { RunRecord } from '../results/types.ts';
import { readCompleteRunRecord, readRunFolder, type RunFolderOptions } from './read-run.ts';
import { renderRunReport } from './run-report.ts';

/** Writes `<runDir>/report.html` from the folder's run.json and CSV files (`o`: readRunFolder's). */
export async function writeRunReport(runDir: string, o: RunFolderOptions = {}): Promise<void> {
  const folder = await readRunFolder(runDir, o);
  await writeFileAtomic(join(runDir, 'report.html'), renderRunReport(folder.run, folder.tables));
}

export interface LeaderboardResult {
  readonly file: string;
  readonly runs: number;
  /** run folders that had no report.html and got one, so that every link resolves */
  readonly reportsWritten: readonly string[];
  /** run folders left out, each with the reason: a run.json that cannot be read, a file missing or changed */
  readonly skipped: readonly string[];
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** Writes `<resultsDir>/leaderboard.html` over every run folder found under it. */
export async function writeLeaderboard(resultsDir: string, now: Date = new Date()): Promise<LeaderboardResult> {
  const dirs = await findRunDirs(resultsDir);
  const entries: LeaderboardEntry[] = [];
  const reportsWritten: string[] = [];
  const skipped: string[] = [];
  for (const dir of dirs) {
    let run: RunRecord;
    try {
      run = await readCompleteRunRecord(dir);
    } catch (e) {
      if (!isUserError(e)) throw e;
      skipped.push(e.message);
      continue;
    }
    if (!(await exists(join(dir, 'report.html')))) {
      await writeRunReport(dir);
      reportsWritten.push(dir);
    }
    entries.push({ run, reportHref: [...relative(resultsDir, dir).split(sep), 'report.html'].map(encodeURIComponent).join('/') });
  }
  const file = join(resultsDir, 'leaderboard.html');
  await writeFileAtomic(file, renderLeaderboard(entries, { generatedAt: now.toISOString(), resultsDir }));
  return { file, runs: entries.length, reportsWritten, skipped };
}
