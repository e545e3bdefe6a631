/** The runner's report step: the report module is loaded lazily, so `bench run` starts fast. */
export async function writeRunReportIfAvailable(runDir: string): Promise<void> {
  const { writeRunReport } = await import('./write.ts');
  await writeRunReport(runDir);
}
