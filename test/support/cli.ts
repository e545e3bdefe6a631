/** The `bench` executable as users run it (bin/bench.js under this Node, CI=true: no progress bars). */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const BENCH_BIN = fileURLToPath(new URL('../../bin/bench.js', import.meta.url));
const exec = promisify(execFile);

export interface BenchOutcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `bench args…`; a non-zero exit is an outcome, not a throw. */
export async function runBench(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<BenchOutcome> {
  try {
    const r = await exec(process.execPath, [BENCH_BIN, ...args], { env: { ...process.env, CI: 'true', ...env } });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as BenchOutcome;
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}
