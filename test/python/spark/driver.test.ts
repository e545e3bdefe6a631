/**
 * The pure parts of python/spark/driver.py, run by the spark environment's Python: the shuffle's
 * partition of a key is Hadoop's (harness/mapreduce/partition.ts, itself tested against
 * Hadoop's HashPartitioner), keys are Hadoop Streaming's, and a task's counters counted once
 * however often Spark runs it.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hadoopPartition } from '../../../harness/mapreduce/partition.ts';
import { requireTool, skipsWithout } from '../../support/required-tool.ts';
import { sparkSetup } from '../../harness/mapreduce/spark/spark-setup.ts';

const spark = sparkSetup();
const WHAT = 'the tests of python/spark/driver.py';
const SPARK_DIR = fileURLToPath(new URL('../../../python/spark/', import.meta.url));

/** Runs `code` with driver.py importable as `driver`; returns what it prints, parsed as JSON. */
function python(code: string, input: unknown): unknown {
  if (!spark.found) return requireTool(false, WHAT, spark.reason);
  const r = spawnSync(spark.python, ['-c', `import json, sys\nsys.path.insert(0, ${JSON.stringify(SPARK_DIR)})\nimport driver\ndata = json.load(sys.stdin)\n${code}`], {
    input: JSON.stringify(input),
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

describe.skipIf(skipsWithout(spark.found, WHAT, spark.found ? '' : spark.reason))('driver.py', () => {
  it("partitions a key as Hadoop's HashPartitioner does, over its UTF-8 bytes", () => {
    const keys = ['', 'a', '0', '12345', 'fp 9223372036854775807', 'd\\t1 2', 'é', 'ü€𝄞', 'x'.repeat(300), 'a:b', '-17'];
    for (const reducers of [1, 2, 3, 7]) {
      const got = python(`print(json.dumps([driver.hadoop_partition_hash(k.encode()) % ${reducers} for k in data]))`, keys);
      expect(got, `${reducers} reducers`).toEqual(keys.map((k) => hadoopPartition(k, reducers)));
    }
  });

  it("takes a line's key up to its first TAB, the whole line without one", () => {
    const got = python('print(json.dumps([driver.record_key(l.encode()).decode() for l in data]))', ['k\tv', 'k\tv\tw', 'kv', '\tv', '']);
    expect(got).toEqual(['k', 'k', 'kv', '', '']);
  });

  it('sums counter lines, skipping malformed ones', () => {
    const lines = ['reporter:counter:g,a,2', 'reporter:counter:g,a,3', 'reporter:counter:g,b,-1', 'reporter:counter:h,c,x', 'reporter:counter:bad'];
    expect(python('print(json.dumps(driver.parse_counters([l.encode() for l in data])))', lines)).toEqual({ g: { a: 5, b: -1 } });
  });

  it('keeps one value a task when Spark reports the same task twice', () => {
    const code = `p = driver.LastWins()
acc = p.zero({})
for update in ({(0, "map", 0): {"g": {"a": 2}}}, {(0, "map", 1): {"g": {"a": 5}}}, {(0, "map", 0): {"g": {"a": 2}}}):
    acc = p.addInPlace(acc, update)
total = {}
for c in acc.values():
    driver.add_counters(total, c)
print(json.dumps(total))`;
    expect(python(code, null)).toEqual({ g: { a: 7 } });
  });
});
