import { describe, expect, it } from 'vitest';
import type { JobSpec, Plan } from '../../../../contract/index.ts';
import { hadoopBackendSchema } from '../../../../harness/mapreduce/hadoop/config.ts';
import { hadoopDryRunPlan } from '../../../../harness/mapreduce/hadoop/dry-run.ts';

const noop = () => ({ map() {}, reduce() {} });
const job = (j: Omit<JobSpec, 'mapper' | 'reducer'>): JobSpec => ({ ...j, mapper: noop, reducer: noop });
const plan: Plan = {
  jobs: [
    job({ name: 'mr1', description: '', inputs: ['documents'], output: 'shingles' }),
    job({ name: 'mr2', description: '', inputs: ['shingles'], output: 'pairs', side: ['documents-meta'] }),
  ],
  output: { pairs: 'pairs', score: { kind: 'resemblance', floor: 0.1 }, decisions: { kind: 'score-at-threshold' } },
};
const config = hadoopBackendSchema.parse({ kind: 'hadoop', staging_dir: 'hdfs:///user/me/ndd/', reduce_tasks: 3, node: '/usr/bin/node' });

describe('hadoopDryRunPlan', () => {
  const p = hadoopDryRunPlan(config, [{ variant: 'broder/sct=70', plan }], 'r1');
  const v = p.variants[0];
  const B = 'hdfs:///user/me/ndd/r1-v01';

  it('lists what it stages: the job script, the spec, the documents and their meta', () => {
    expect(v?.staged.map((s) => s.path)).toEqual([`${B}/ndd-job.js`, `${B}/spec.json`, `${B}/documents/part-00000`, `${B}/documents-meta/part-00000`]);
  });

  it('gives each job one hadoop jar line, generic options first, quoted for a shell', () => {
    expect(v?.commands).toHaveLength(5);
    expect(v?.commands[0]).toBe(`hadoop fs -mkdir -p ${B}`);
    const mr2 = v?.commands[3] ?? '';
    expect(mr2.startsWith('hadoop jar $HADOOP_HOME/share/hadoop/tools/lib/hadoop-streaming-*.jar -D mapreduce.job.maps=2 ')).toBe(true);
    expect(mr2).toContain(`-D 'mapreduce.job.name=ndd-bench broder/sct=70 mr2' -D mapreduce.job.reduces=3 `);
    // side data rides in -files under its alias; the output of a job read as side data is not gzip'd, this one is
    expect(mr2).toContain(`-files ${B}/ndd-job.js,${B}/spec.json,${B}/documents-meta#side-documents-meta -input ${B}/shingles -output ${B}/pairs`);
    expect(mr2).toContain(`-mapper '/usr/bin/node ndd-job.js --spec spec.json --job mr2 --phase map --side documents-meta=side-documents-meta'`);
    expect(mr2.indexOf('-files')).toBeLessThan(mr2.indexOf('-input'));
  });
});
