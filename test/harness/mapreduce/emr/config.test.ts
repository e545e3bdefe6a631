import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../harness/errors.ts';
import { clusterMode, logUri, parseEmrBackend, reduceTasks } from '../../../../harness/mapreduce/emr/config.ts';

const base = { kind: 'emr', region: 'us-east-1', s3_prefix: 's3://ndd-bench-test/runs' };

/** The issues of a config that must fail, each checked to be one line. */
function issues(raw: unknown): string[] {
  try {
    parseEmrBackend(raw, 'configs/x.yaml');
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    const list = (e as ConfigError).issues;
    for (const i of list) expect(i).not.toContain('\n');
    return [...list];
  }
  throw new Error('config was accepted');
}

describe('emrBackendSchema: defaults', () => {
  it('fills the documented defaults', () => {
    const c = parseEmrBackend(base);
    expect(c.release_label).toBe('emr-7.14.0');
    expect(c.service_role).toBe('EMR_DefaultRole');
    expect(c.instance_profile).toBe('EMR_EC2_DefaultRole');
    expect(c.node_bootstrap).toEqual({ kind: 'dnf', package: 'nodejs20', binary: 'node-20' });
    expect(c.idle_timeout_s).toBe(600);
    expect(clusterMode(c)).toEqual({ kind: 'new', master: { type: 'm5.xlarge', count: 1 }, core: { type: 'm5.xlarge', count: 4 } });
    expect(logUri(c)).toBe('s3://ndd-bench-test/runs/logs/');
  });
  it('defaults reducers to 0.95 × core vCPUs: 4 m5.xlarge × 4 vCPU → 15', () => {
    expect(reduceTasks(parseEmrBackend(base))).toBe(15);
  });
  it('takes an existing cluster id instead of instances', () => {
    expect(clusterMode(parseEmrBackend({ ...base, cluster_id: 'j-2AXXXXXXGAPLF' }))).toEqual({ kind: 'existing', clusterId: 'j-2AXXXXXXGAPLF' });
  });
});

describe('emrBackendSchema: bad input, one line each', () => {
  it('a region typo, with a hint', () => {
    expect(issues({ ...base, region: 'us-east1' })).toEqual([
      'configs/x.yaml: backend.region: unknown EMR region "us-east1" (did you mean us-east-1?)',
    ]);
  });
  it('an instance type not in the price table', () => {
    const [i] = issues({ ...base, instance: { master: { type: 'm5.xlarge' }, core: { type: 'm5.xlarg', count: 2 } } });
    expect(i).toMatch(/^configs\/x\.yaml: backend\.instance\.core\.type: no price for m5\.xlarg in us-east-1 in the price table dated \d{4}-\d\d-\d\d/);
    expect(i).toContain('bench prices refresh --region us-east-1 --instance-type m5.xlarg');
  });
  it('a region with no prices at all', () => {
    const [i] = issues({ ...base, region: 'eu-west-1' });
    expect(i).toContain('backend.instance.master.type: no price for m5.xlarge in eu-west-1');
  });
  it('a release label without Hadoop streaming (before emr-4)', () => {
    expect(issues({ ...base, release_label: 'emr-3.11.0' })[0]).toContain('backend.release_label: emr-3.11.0 predates emr-4.0.0');
  });
  it('a release label that is not one', () => {
    expect(issues({ ...base, release_label: '7.14.0' })[0]).toContain('backend.release_label: "7.14.0" is not an EMR release label');
  });
  it('bad S3 URIs', () => {
    expect(issues({ ...base, s3_prefix: 'https://ndd-bench-test/runs' })[0]).toBe(
      'configs/x.yaml: backend.s3_prefix: must start with s3:// (got "https://ndd-bench-test/runs")',
    );
    expect(issues({ ...base, s3_prefix: 's3://Bad_Bucket/x' })[0]).toContain('backend.s3_prefix: bucket name "Bad_Bucket" is not valid');
    expect(issues({ ...base, log_uri: 's3://ok-bucket/a,b' })[0]).toContain('backend.log_uri: must not contain commas');
  });
  it('both instances and a cluster id', () => {
    expect(issues({ ...base, cluster_id: 'j-ABC', instance: { master: { type: 'm5.xlarge' }, core: { type: 'm5.xlarge', count: 1 } } })).toEqual([
      'configs/x.yaml: backend.cluster_id: give either instance or cluster_id, not both',
    ]);
  });
  it('an idle timeout EMR would refuse', () => {
    expect(issues({ ...base, idle_timeout_s: 30 })[0]).toContain('backend.idle_timeout_s');
  });
  it('an unknown key', () => {
    expect(issues({ ...base, instances: {} })[0]).toContain('instances');
  });
});

describe('emrBackendSchema: fleets', () => {
  const instance = { master: { type: 'm5.xlarge' }, core: { type: 'm5.xlarge', count: 2 } };
  it('defaults spot to core and task, with a 10-minute timeout', () => {
    const c = parseEmrBackend({ ...base, instance: { ...instance, task: { type: 'm5.xlarge', count: 2 } }, fleets: {} });
    expect(c.fleets).toEqual({ spot: ['core', 'task'], spot_timeout_min: 10, alternatives: [] });
  });
  it("refuses 'task' on spot without task nodes", () => {
    expect(issues({ ...base, instance, fleets: { spot: ['task'] } })).toEqual([
      "configs/x.yaml: backend.fleets.spot: 'task' is on spot but instance.task is not given; add instance.task or leave 'task' out",
    ]);
  });
  it('refuses an alternative type without a price, naming its place', () => {
    const [i] = issues({ ...base, instance, fleets: { spot: ['core'], alternatives: ['m5.xlarge', 'm9.huge'] } });
    expect(i).toMatch(/^configs\/x\.yaml: backend\.fleets\.alternatives\.1: no price for m9\.huge in us-east-1/);
  });
  it('refuses fleets on an existing cluster', () => {
    expect(issues({ ...base, cluster_id: 'j-2AXXXXXXGAPLF', fleets: { spot: ['core'] } })).toContain(
      'configs/x.yaml: backend.fleets: fleets are for a new cluster; an existing cluster_id keeps its own instances',
    );
  });
});
