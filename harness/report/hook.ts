import type { ErrorLine } from '../evaluate/explain/errors.ts';
import type { RunFolderOptions } from './read-run.ts';

/**
 * The runner's report step: the report module is loaded lazily, so `bench run` starts fast. The
 * run has just listed its files with their SHA-256 into run.json (run-write.ts) in a folder only
 * it writes to: they are not hashed again (a run's error files are megabytes), and the lines of
 * the error files it wrote are taken as it holds them rather than read back.
 */
export async function writeRunReportIfAvailable(runDir: string, o: { readonly errorLines?: ReadonlyMap<string, readonly ErrorLine[]> } = {}): Promise<void> {
  const { writeRunReport } = await import('./write.ts');
  const options: RunFolderOptions = { checked: true, ...(o.errorLines ? { errorLines: o.errorLines } : {}) };
  await writeRunReport(runDir, options);
}
