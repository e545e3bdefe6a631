/**
 * The runner's report step: the report module is loaded lazily, so `bench run` starts fast. The
 * run has just listed its files with their SHA-256 into run.json (run-write.ts) in a folder only
 * it writes to: they are not hashed again (a run's error files are megabytes).
 */
export async function writeRunReportIfAvailable(runDir: string): Promise<void> {
  const { writeRunReport } = await import('./write.ts');
  await writeRunReport(runDir, { checked: true });
}
