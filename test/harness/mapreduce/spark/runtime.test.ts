/** Spark's task attempts on one machine: local mode reads them from the master, not spark.task.maxFailures. */
import { describe, expect, it } from 'vitest';
import { masterWithAttempts } from '../../../../harness/mapreduce/spark/runtime.ts';

describe('masterWithAttempts', () => {
  it('adds the attempts to a local master', () => {
    expect(masterWithAttempts('local', 4)).toBe('local[1,4]');
    expect(masterWithAttempts('local[2]', 4)).toBe('local[2,4]');
    expect(masterWithAttempts('local[*]', 1)).toBe('local[*,1]');
  });

  it("leaves a cluster's master and a local master that names its attempts as they are", () => {
    expect(masterWithAttempts('spark://host:7077', 4)).toBe('spark://host:7077');
    expect(masterWithAttempts('yarn', 4)).toBe('yarn');
    expect(masterWithAttempts('local[2,3]', 4)).toBe('local[2,3]');
  });
});
