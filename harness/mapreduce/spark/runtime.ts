/**
 * What runs the spark backend's driver: a Python with pyspark (the project's `.venv/spark`,
 * made from python/requirements-spark.txt by scripts/ensure-python.ts on first use, or the
 * config's `python`), Java (JAVA_HOME or `java` on the PATH), and the driver's file.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../../errors.ts';
import type { SparkConfig } from './config.ts';

export const DRIVER = fileURLToPath(new URL('../../../python/spark/driver.py', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const ENSURE_PYTHON = join(ROOT, 'scripts', 'ensure-python.ts');

export interface SparkRuntime {
  readonly python: string;
  /** what run.json says ran the jobs */
  readonly description: string;
}

/** The config's Python, else the project's spark environment (installed when missing). */
export function sparkRuntime(config: SparkConfig, log: (line: string) => void): SparkRuntime {
  const python = config.python ?? projectPython(log);
  const probe = spawnSync(python, ['-c', 'import pyspark, sys; print(pyspark.__version__)'], { encoding: 'utf8', timeout: 60_000 });
  if (probe.status !== 0) {
    const why = (probe.stderr || String(probe.error ?? '')).trim().split('\n').at(-1) ?? '';
    throw new UserError(`spark backend: ${python} cannot import pyspark: ${why}`);
  }
  return { python, description: `Apache Spark ${probe.stdout.trim()} (pyspark), master ${config.master}` };
}

/** The project environment's python, installed or not (scripts/ensure-python.ts names it by the requirements file's hash). */
export function projectPythonPath(): string {
  const hash = createHash('sha256').update(readFileSync(join(ROOT, 'python', 'requirements-spark.txt'))).digest('hex').slice(0, 12);
  return join(ROOT, '.venv', `spark-${hash}`, 'bin', 'python');
}

function projectPython(log: (line: string) => void): string {
  const python = projectPythonPath();
  if (existsSync(join(python, '..', '..', '.installed'))) return python;
  log('spark: installing pyspark into .venv/spark (python/requirements-spark.txt), once');
  const r = spawnSync(process.execPath, ['--import', 'tsx', ENSURE_PYTHON, 'spark'], { cwd: ROOT, encoding: 'utf8', timeout: 30 * 60_000 });
  if (r.status !== 0) {
    const why = (r.stderr || String(r.error ?? '')).trim().split('\n').at(-1) ?? '';
    throw new UserError(`spark backend: no Python with pyspark (give backend.python, or fix this): ${why}`);
  }
  return r.stdout.trim();
}

/** `local`, `local[N]`, `local[*]` with Spark's task attempts (local mode ignores spark.task.maxFailures). */
export function masterWithAttempts(master: string, attempts: number): string {
  if (master === 'local') return `local[1,${attempts}]`;
  const m = /^local\[([^\],]+)\]$/.exec(master);
  return m ? `local[${m[1]},${attempts}]` : master;
}
