import type { StepConfig } from '@aws-sdk/client-emr';
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../../contract/index.ts';
import type { JobSpec } from '../../../../contract/index.ts';
import { parseEmrBackend } from '../../../../harness/mapreduce/emr/config.ts';
import { emrDryRunPlan, type PlannedVariant } from '../../../../harness/mapreduce/emr/plan.ts';
import { describeDocuments } from '../../../../harness/mapreduce/emr/splits.ts';

const noop = () => ({ map() {}, reduce() {} });
const job = (j: Omit<JobSpec, 'mapper'> & { combine?: boolean; reduce?: boolean }): JobSpec => ({
  ...j,
  mapper: noop,
  ...(j.combine ? { combiner: noop } : {}),
  ...(j.reduce === false ? {} : { reducer: noop }),
});

const twoJobs: Plan = {
  jobs: [
    job({ name: 'mr1-shingle-pairs', description: 'shingle → docs', inputs: ['documents'], output: 'shingles' }),
    job({ name: 'mr2-pair-scores', description: 'pairs → RR', inputs: ['shingles'], output: 'pairs', combine: true }),
  ],
  output: { pairs: 'pairs', score: { kind: 'resemblance', floor: 0.1 }, decisions: { kind: 'score-at-threshold' } },
};
const variant = (name: string, plan: Plan = twoJobs): PlannedVariant => ({
  variant: name, algorithm: 'broder', params: { sct: 70 }, minScore: 0.1, seed: 0, plan,
});

const config = parseEmrBackend({
  kind: 'emr', region: 'us-east-1', s3_prefix: 's3://ndd-test/bench', reduce_tasks: 6, max_cost_usd: 5, split_mb: 1,
  instance: { master: { type: 'm5.xlarge' }, core: { type: 'm5.xlarge', count: 4 } },
});
const docs = describeDocuments({ ids: ['a', 'b', 'c'], texts: ['x'.repeat(600_000), 'y'.repeat(600_000), 'z'] }, 1);

const R = 's3://ndd-test/bench/r1';
const V = `${R}/variants/v01-broder_sct_70`;
const cmd = (jobName: string, phase: string): string => `node-20 ndd-job.js --spec spec.json --job ${jobName} --phase ${phase}`;

describe('emrDryRunPlan: a 2-job variant on a new cluster', () => {
  const plan = emrDryRunPlan({ config, variants: [variant('broder/sct=70')], docs, runId: 'r1' });
  const run = plan.requests.find((r) => r.operation === 'RunJobFlow')?.params as { Steps: StepConfig[] } & Record<string, unknown>;

  it('writes job 1 generic options first, then the streaming options', () => {
    expect(run.Steps[0]).toEqual({
      Name: 'ndd-bench r1 v01-broder_sct_70 mr1-shingle-pairs',
      ActionOnFailure: 'CANCEL_AND_WAIT',
      HadoopJarStep: {
        Jar: 'command-runner.jar',
        Args: [
          'hadoop-streaming',
          '-D', 'mapreduce.job.name=ndd-bench r1 v01-broder_sct_70 mr1-shingle-pairs',
          '-D', 'mapreduce.job.reduces=6',
          '-D', 'mapreduce.map.output.compress=true',
          '-D', 'mapreduce.map.output.compress.codec=org.apache.hadoop.io.compress.SnappyCodec',
          '-D', 'mapreduce.output.fileoutputformat.compress=true',
          '-D', 'mapreduce.output.fileoutputformat.compress.codec=org.apache.hadoop.io.compress.GzipCodec',
          '-files', `${R}/code/ndd-job.js,${V}/spec.json`,
          '-input', `${R}/input/documents/`,
          '-output', `${V}/shingles/`,
          '-mapper', cmd('mr1-shingle-pairs', 'map'),
          '-reducer', cmd('mr1-shingle-pairs', 'reduce'),
        ],
      },
    });
  });

  it('reads job 2 from job 1’s output and adds the combiner', () => {
    const args = run.Steps[1]?.HadoopJarStep?.Args ?? [];
    expect(args.slice(args.indexOf('-input'))).toEqual([
      '-input', `${V}/shingles/`,
      '-output', `${V}/pairs/`,
      '-mapper', cmd('mr2-pair-scores', 'map'),
      '-reducer', cmd('mr2-pair-scores', 'reduce'),
      '-combiner', cmd('mr2-pair-scores', 'combine'),
    ]);
  });

  it('places every generic option before every streaming option in every step', () => {
    for (const s of run.Steps) {
      const a = s.HadoopJarStep?.Args ?? [];
      const lastGeneric = Math.max(a.lastIndexOf('-D'), a.lastIndexOf('-files'));
      const firstStreaming = Math.min(...['-input', '-output', '-mapper', '-reducer', '-combiner'].map((o) => a.indexOf(o)).filter((i) => i >= 0));
      expect(lastGeneric).toBeLessThan(firstStreaming);
    }
  });

  it('creates a cluster with Hadoop, the roles, the bootstrap and idle auto-termination', () => {
    expect(run).toMatchObject({
      ReleaseLabel: 'emr-7.14.0',
      LogUri: 's3://ndd-test/bench/logs/',
      Applications: [{ Name: 'Hadoop' }],
      ServiceRole: 'EMR_DefaultRole',
      JobFlowRole: 'EMR_EC2_DefaultRole',
      BootstrapActions: [{ Name: 'install-node', ScriptBootstrapAction: { Path: `${R}/code/install-node.sh`, Args: [] } }],
      AutoTerminationPolicy: { IdleTimeout: 600 },
      StepConcurrencyLevel: 1,
      Instances: {
        KeepJobFlowAliveWhenNoSteps: true,
        InstanceGroups: [
          { InstanceRole: 'MASTER', InstanceType: 'm5.xlarge', InstanceCount: 1, Market: 'ON_DEMAND', Name: 'master' },
          { InstanceRole: 'CORE', InstanceType: 'm5.xlarge', InstanceCount: 4, Market: 'ON_DEMAND', Name: 'core' },
        ],
      },
    });
  });

  it('lists every object with its size: bundle, bootstrap, 2 splits, spec', () => {
    // doc 0 line = "0\t" + 600000 x + "\n" = 600003 bytes; doc 1 the same: 1 MiB is reached after doc 1.
    const spec = '{"algorithm":"broder","params":{"sct":70},"minScore":0.1,"seed":0}\n';
    expect(plan.objects.map((o) => [o.uri, o.bytes])).toEqual([
      [`${R}/code/ndd-job.js`, null],
      [`${R}/code/install-node.sh`, expect.any(Number)],
      [`${R}/input/documents/part-00000.gz`, 1_200_006],
      [`${R}/input/documents/part-00001.gz`, 4],
      [`${V}/spec.json`, spec.length],
    ]);
    expect(plan.documents).toEqual({ count: 3, recordBytes: 1_200_010, splits: 2, splitMb: 1, exact: true });
  });

  it('orders the requests: preflight, uploads, cluster, polling, results, terminate', () => {
    expect(plan.requests.map((r) => r.operation)).toEqual([
      'HeadBucket', 'Upload', 'Upload', 'Upload', 'Upload', 'Upload', 'RunJobFlow',
      'DescribeCluster', 'ListSteps', 'ListInstances', 'ListObjectsV2', 'GetObject', 'GetObject', 'TerminateJobFlows',
    ]);
    expect(plan.requests.at(-1)?.params).toEqual({ JobFlowIds: ['<cluster-id>'] });
  });

  it('states the hourly rate and how long the cap lets the cluster live: 5 × $0.24 → 250 min for $5', () => {
    expect(plan.cost.ratePerHourUsd).toBeCloseTo(1.2, 12);
    expect(plan.cost.minutesUntilCap).toBeCloseTo(250, 9);
    expect(JSON.parse(JSON.stringify(plan))).toEqual(plan);
  });
});

describe('emrDryRunPlan: more variants, side data, existing clusters', () => {
  it('adds later variants with AddJobFlowSteps on the same cluster', () => {
    const plan = emrDryRunPlan({ config, variants: [variant('broder/sct=70'), variant('broder/sct=60')], docs, runId: 'r1' });
    const add = plan.requests.find((r) => r.operation === 'AddJobFlowSteps')?.params as { JobFlowId: string; Steps: StepConfig[] };
    expect(add.JobFlowId).toBe('<cluster-id>');
    expect(add.Steps.map((s) => s.Name)).toEqual(['ndd-bench r1 v02-broder_sct_60 mr1-shingle-pairs', 'ndd-bench r1 v02-broder_sct_60 mr2-pair-scores']);
    expect(plan.requests.filter((r) => r.operation === 'TerminateJobFlows')).toHaveLength(1);
  });

  it('ships a side dataset with -files, uncompressed, and names it to the task; a map-only job has no reducer', () => {
    const plan = emrDryRunPlan({
      config,
      runId: 'r1',
      docs,
      variants: [variant('x', {
        jobs: [
          job({ name: 'counts', description: '', inputs: ['documents'], output: 'df' }),
          job({ name: 'filter', description: '', inputs: ['documents'], output: 'pairs', side: ['df'], reduce: false }),
        ],
        output: { pairs: 'pairs', score: { kind: 'resemblance', floor: 0.1 }, decisions: { kind: 'score-at-threshold' } },
      })],
    });
    const steps = (plan.requests.find((r) => r.operation === 'RunJobFlow')?.params as { Steps: StepConfig[] }).Steps;
    const a0 = steps[0]?.HadoopJarStep?.Args ?? [];
    const a1 = steps[1]?.HadoopJarStep?.Args ?? [];
    expect(a0).not.toContain('mapreduce.output.fileoutputformat.compress=true');
    expect(a1[a1.indexOf('-files') + 1]).toBe(`${R}/code/ndd-job.js,${R}/variants/v01-x/spec.json,${R}/variants/v01-x/df#side-df`);
    expect(a1[a1.indexOf('-mapper') + 1]).toBe('node-20 ndd-job.js --spec spec.json --job filter --phase map --side df=side-df');
    expect(a1).toContain('mapreduce.job.reduces=0');
    expect(a1).not.toContain('-reducer');
  });

  it('on a user’s cluster: AddJobFlowSteps, CONTINUE on failure, CancelSteps instead of terminate', () => {
    const existing = parseEmrBackend({ kind: 'emr', region: 'us-east-1', s3_prefix: 's3://ndd-test/bench', cluster_id: 'j-ABC123' });
    const plan = emrDryRunPlan({ config: existing, variants: [variant('v')], docs, runId: 'r1' });
    const ops = plan.requests.map((r) => r.operation);
    expect(ops).not.toContain('RunJobFlow');
    expect(ops).not.toContain('TerminateJobFlows');
    expect(ops.at(-1)).toBe('CancelSteps');
    const add = plan.requests.find((r) => r.operation === 'AddJobFlowSteps')?.params as { JobFlowId: string; Steps: StepConfig[] };
    expect(add.JobFlowId).toBe('j-ABC123');
    expect(add.Steps.every((s) => s.ActionOnFailure === 'CONTINUE')).toBe(true);
    expect(plan.cluster).toEqual({ kind: 'existing', clusterId: 'j-ABC123', consoleLink: 'https://us-east-1.console.aws.amazon.com/emr/home?region=us-east-1#/clusterDetails/j-ABC123' });
  });
});

describe('emrDryRunPlan: instance fleets with spot core and task nodes', () => {
  const fleetsConfig = parseEmrBackend({
    kind: 'emr', region: 'us-east-1', s3_prefix: 's3://ndd-test/bench', reduce_tasks: 6, split_mb: 1,
    instance: { master: { type: 'm5.xlarge' }, core: { type: 'm5.xlarge', count: 2 }, task: { type: 'm5.2xlarge', count: 3 } },
    fleets: { spot: ['task'], spot_timeout_min: 15, alternatives: ['c5.2xlarge'] },
  });
  const plan = emrDryRunPlan({ config: fleetsConfig, variants: [variant('broder/sct=70')], docs, runId: 'r1' });
  const run = plan.requests.find((r) => r.operation === 'RunJobFlow')?.params as { Instances: Record<string, unknown> };

  it('asks for fleets, not groups: the master on demand, core on demand, task on spot with an on-demand fallback', () => {
    expect(run.Instances['InstanceGroups']).toBeUndefined();
    expect(run.Instances['InstanceFleets']).toEqual([
      { Name: 'master', InstanceFleetType: 'MASTER', TargetOnDemandCapacity: 1, InstanceTypeConfigs: [{ InstanceType: 'm5.xlarge' }] },
      {
        Name: 'core', InstanceFleetType: 'CORE', TargetOnDemandCapacity: 8, TargetSpotCapacity: 0,
        InstanceTypeConfigs: [{ InstanceType: 'm5.xlarge', WeightedCapacity: 4 }],
        LaunchSpecifications: { OnDemandSpecification: { AllocationStrategy: 'lowest-price' } },
      },
      {
        // 3 × m5.2xlarge = 24 vCPUs of capacity, which an 8-vCPU c5.2xlarge fills as well
        Name: 'task', InstanceFleetType: 'TASK', TargetSpotCapacity: 24, TargetOnDemandCapacity: 0,
        InstanceTypeConfigs: [
          { InstanceType: 'm5.2xlarge', WeightedCapacity: 8, BidPriceAsPercentageOfOnDemandPrice: 100 },
          { InstanceType: 'c5.2xlarge', WeightedCapacity: 8, BidPriceAsPercentageOfOnDemandPrice: 100 },
        ],
        LaunchSpecifications: {
          SpotSpecification: { TimeoutDurationMinutes: 15, TimeoutAction: 'SWITCH_TO_ON_DEMAND', AllocationStrategy: 'price-capacity-optimized' },
          OnDemandSpecification: { AllocationStrategy: 'lowest-price' },
        },
      },
    ]);
  });

  it('prices the cluster with its task nodes: 3 × $0.24 + 3 × $0.48 per hour', () => {
    expect(plan.cost.ratePerHourUsd).toBeCloseTo(3 * 0.24 + 3 * 0.48, 12);
    expect(plan.cluster).toMatchObject({ kind: 'new', task: { type: 'm5.2xlarge', count: 3 }, capacity: 'instance fleets' });
  });
});

describe('emrDryRunPlan: instance groups with task nodes', () => {
  it('adds an on-demand TASK group', () => {
    const c = parseEmrBackend({
      kind: 'emr', region: 'us-east-1', s3_prefix: 's3://ndd-test/bench',
      instance: { master: { type: 'm5.xlarge' }, core: { type: 'm5.xlarge', count: 2 }, task: { type: 'm5.xlarge', count: 1 } },
    });
    const plan = emrDryRunPlan({ config: c, variants: [variant('v')], docs, runId: 'r1' });
    const run = plan.requests.find((r) => r.operation === 'RunJobFlow')?.params as { Instances: { InstanceGroups: unknown[] } };
    expect(run.Instances.InstanceGroups.at(-1)).toEqual({ Name: 'task', InstanceRole: 'TASK', Market: 'ON_DEMAND', InstanceType: 'm5.xlarge', InstanceCount: 1 });
  });
});

describe('emrDryRunPlan: engine spark', () => {
  const spark = parseEmrBackend({
    kind: 'emr', region: 'us-east-1', s3_prefix: 's3://ndd-test/bench', reduce_tasks: 6, max_cost_usd: 5, split_mb: 1, engine: 'spark',
    instance: { master: { type: 'm5.xlarge' }, core: { type: 'm5.xlarge', count: 4 } },
  });
  const plan = emrDryRunPlan({ config: spark, variants: [variant('broder/sct=70'), variant('broder/sct=60')], docs, runId: 'r1' });

  it('lists the driver, package.json and each variant’s plan among the objects, in the streaming layout', () => {
    expect(plan.objects.map((o) => o.uri)).toEqual([
      `${R}/code/ndd-job.js`, `${R}/code/install-node.sh`, `${R}/code/driver.py`, `${R}/code/package.json`,
      `${R}/input/documents/part-00000.gz`, `${R}/input/documents/part-00001.gz`,
      `${V}/spec.json`, `${V}/plan.json`,
      `${R}/variants/v02-broder_sct_60/spec.json`, `${R}/variants/v02-broder_sct_60/plan.json`,
    ]);
  });

  it('gives each variant one spark-submit step, the first in RunJobFlow with Spark installed, the next added', () => {
    const run = plan.requests.find((r) => r.operation === 'RunJobFlow')?.params as { Steps: StepConfig[]; Applications: unknown };
    expect(run.Applications).toEqual([{ Name: 'Hadoop' }, { Name: 'Spark' }]);
    expect(run.Steps.map((s) => s.Name)).toEqual(['ndd-bench r1 v01-broder_sct_70 spark-submit']);
    expect(run.Steps[0]?.HadoopJarStep?.Args?.slice(0, 7)).toEqual(['spark-submit', '--master', 'yarn', '--deploy-mode', 'cluster', '--name', 'ndd-bench r1 broder/sct=70']);
    expect(run.Steps[0]?.HadoopJarStep?.Args?.slice(-2)).toEqual([`${R}/code/driver.py`, `${V}/plan.json`]);
    const added = plan.requests.filter((r) => r.operation === 'AddJobFlowSteps').map((r) => (r.params as { Steps: StepConfig[] }).Steps.map((s) => s.Name));
    expect(added).toEqual([['ndd-bench r1 v02-broder_sct_60 spark-submit']]);
  });

  it("reads the counters from the driver's result.json instead of the step logs, and keeps the streaming run's estimate", () => {
    const gets = plan.requests.filter((r) => r.operation === 'GetObject').map((r) => (r.params as { Key: string }).Key);
    expect(gets.filter((k) => k.endsWith('result.json'))).toEqual(['bench/r1/variants/v01-broder_sct_70/result.json', 'bench/r1/variants/v02-broder_sct_60/result.json']);
    expect(gets.some((k) => k.includes('syslog'))).toBe(false);
    expect(plan.cost).toEqual(emrDryRunPlan({ config, variants: [variant('broder/sct=70')], docs, runId: 'r1' }).cost);
  });
});
