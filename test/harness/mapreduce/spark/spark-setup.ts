/**
 * The Python with pyspark the Spark tests run: the project's `.venv/spark`, installed from
 * python/requirements-spark.txt on first use (scripts/ensure-python.ts, once per requirements
 * file); Java 17 on the PATH or JAVA_HOME. Without them the tests skip with a warning on a
 * developer's machine and fail under CI=true (test/support/required-tool.ts).
 */
import { spawnSync } from 'node:child_process';
import { ensurePythonSet, type PythonLookup } from '../../../../scripts/ensure-python.ts';

let lookup: PythonLookup | undefined;

export function sparkSetup(): PythonLookup {
  if (lookup) return lookup;
  const java = spawnSync(process.env.JAVA_HOME ? `${process.env.JAVA_HOME}/bin/java` : 'java', ['-version'], { encoding: 'utf8' });
  if (java.status !== 0) return (lookup = { found: false, reason: 'no java (Spark 3.5 needs Java 8, 11 or 17): set JAVA_HOME or put java on the PATH' });
  lookup = ensurePythonSet('spark', (line) => console.warn(line));
  return lookup;
}
