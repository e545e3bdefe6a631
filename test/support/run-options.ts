/** Options for `runExperiment` in tests: quiet, no environment, nothing forced. */
import type { RunOptions } from '../../harness/experiment/runner.ts';
import type { Progress } from '../../harness/progress.ts';

export const quiet: Progress = { update() {}, log() {}, done() {} };

export function runOptions(configFile: string, outRoot: string, over: Partial<RunOptions> = {}): RunOptions {
  return { configFile, outRoot, only: [], env: {}, progress: quiet, signal: new AbortController().signal, ...over };
}
