/**
 * The `backend: { kind: emr, … }` section of an experiment config. Everything that can be
 * checked without the network is checked here, so a typo costs nothing: region, release
 * label, instance types against the price table, S3 URIs. Credentials and the bucket are
 * checked with real calls in `preflight.ts`, still before anything is started or paid for.
 */
import { z } from 'zod';
import { ConfigError } from '../../errors.ts';
import { defaultPriceTable, findPrice, type PriceTable } from './prices.ts';
import { closestName } from '../../did-you-mean.ts';
import { EMR_REGIONS, isEmrRegion } from './regions.ts';
import { joinKey, parseS3Uri, s3UriProblem } from './s3uri.ts';

/** A current 7.x release (Amazon Linux 2023, Hadoop 3.4.2-amzn-2), research doc §1.3. */
export const DEFAULT_RELEASE_LABEL = 'emr-7.14.0';
export const DEFAULT_INSTANCES = {
  master: { type: 'm5.xlarge', count: 1 },
  core: { type: 'm5.xlarge', count: 4 },
} as const;

const s3UriSchema = z.string().superRefine((v, ctx) => {
  const p = s3UriProblem(v);
  if (p) ctx.addIssue({ code: 'custom', message: p });
});

/** emr-X.Y.Z with X ≥ 4: the releases that install Hadoop as an application and ship command-runner.jar. */
export function releaseLabelProblem(label: string): string | undefined {
  const m = /^emr-(\d+)\.(\d+)\.(\d+)$/.exec(label);
  if (!m) return `${JSON.stringify(label)} is not an EMR release label like ${DEFAULT_RELEASE_LABEL}`;
  if (Number(m[1]) < 4) {
    return `${label} predates emr-4.0.0: no Hadoop application or command-runner.jar for streaming steps; use emr-7.x`;
  }
  return undefined;
}

const nodeBootstrapSchema = z
  .discriminatedUnion('kind', [
    z.strictObject({
      kind: z.literal('dnf'),
      package: z.string().regex(/^[a-z0-9._+-]+$/).default('nodejs20').describe('Amazon Linux 2023 package to install'),
      binary: z.string().regex(/^[A-Za-z0-9._/-]+$/).default('node-20').describe('Node executable the steps run'),
    }),
    z.strictObject({
      kind: z.literal('script'),
      path: s3UriSchema.describe('your bootstrap script on S3'),
      args: z.array(z.string()).default([]),
      binary: z.string().regex(/^[A-Za-z0-9._/-]+$/).default('node'),
    }),
    z.strictObject({
      kind: z.literal('preinstalled'),
      binary: z.string().regex(/^[A-Za-z0-9._/-]+$/).default('node'),
    }),
  ])
  .default({ kind: 'dnf', package: 'nodejs20', binary: 'node-20' })
  .describe('how Node reaches the nodes: a staged bootstrap action running `dnf install` (default), your own script, or already there');

const instanceGroupSchema = z.strictObject({
  type: z.string().describe('EC2 instance type, e.g. m5.xlarge; must be in the price table'),
  count: z.number().int().min(0),
});

const fleetsSchema = z
  .strictObject({
    spot: z
      .array(z.enum(['core', 'task']))
      .default(['core', 'task'])
      .describe('roles whose capacity is bought on the spot market (price-capacity-optimized); the master is always on demand'),
    spot_timeout_min: z
      .number()
      .int()
      .min(5)
      .max(1440)
      .default(10)
      .describe('minutes to wait for spot capacity before switching to on demand (SWITCH_TO_ON_DEMAND)'),
    alternatives: z
      .array(z.string())
      .default([])
      .describe('more instance types the spot pools of core and task may draw from, weighted by vCPUs; each must be in the price table'),
  })
  .describe('instance fleets instead of instance groups: spot capacity for core and task nodes with an on-demand fallback');

export type FleetsConfig = z.output<typeof fleetsSchema>;

export function makeEmrBackendSchema(prices: () => PriceTable = defaultPriceTable) {
  return z
    .strictObject({
      kind: z.literal('emr'),
      region: z.string().describe('AWS region, e.g. us-east-1'),
      release_label: z.string().default(DEFAULT_RELEASE_LABEL).describe('EMR release; pin it, it is recorded with every result'),
      instance: z
        .strictObject({
          master: instanceGroupSchema.extend({ count: z.union([z.literal(1), z.literal(3)]).default(1) }),
          core: instanceGroupSchema,
          task: instanceGroupSchema.optional().describe('task nodes: compute without HDFS, the cheapest to run on spot'),
        })
        .optional()
        .describe('instance groups of a new cluster (default 1 + 4 m5.xlarge); omit with cluster_id'),
      fleets: fleetsSchema.optional(),
      cluster_id: z
        .string()
        .regex(/^j-[A-Z0-9]+$/, 'must look like j-XXXXXXXXXXXXX')
        .optional()
        .describe('run on this existing cluster instead (it is not terminated, our steps are cancelled on failure)'),
      s3_prefix: s3UriSchema.describe('s3://bucket/prefix where code, input, output are staged'),
      log_uri: s3UriSchema.optional().describe('default <s3_prefix>/logs/'),
      service_role: z.string().min(1).default('EMR_DefaultRole'),
      instance_profile: z.string().min(1).default('EMR_EC2_DefaultRole'),
      subnet_id: z.string().regex(/^subnet-[0-9a-f]+$/).optional().describe('EC2 subnet (needed where there is no default VPC)'),
      node_bootstrap: nodeBootstrapSchema,
      idle_timeout_s: z.number().int().min(60).max(604800).default(600).describe('EMR auto-termination after this idle time, a safety net if the harness dies'),
      max_cost_usd: z.number().positive().default(5).describe('terminate when the cluster cost so far reaches this'),
      split_mb: z.number().positive().default(64).describe('uncompressed MB of documents per gzip input split (one map task each)'),
      reduce_tasks: z.number().int().positive().optional().describe('default 0.95 × core vCPUs'),
      poll_s: z.number().positive().default(30).describe('seconds between status polls'),
      cost_curve: z
        .string()
        .min(1)
        .optional()
        .describe('JSON file of measured CPU-seconds per MB (`bench cost-curve`) the estimate is made from (default data/emr/cost-curves.json)'),
      engine: z
        .enum(['hadoop', 'spark'])
        .default('hadoop')
        .describe('hadoop: one hadoop-streaming step a job (default); spark: one spark-submit step a variant, Spark on YARN running python/spark/driver.py'),
      spark_conf: z
        .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
        .default({})
        .describe('engine spark: more Spark settings of every step (spark.executor.memory: 4g, …), given as --conf'),
    })
    .superRefine((c, ctx) => {
      if (!isEmrRegion(c.region)) {
        const hint = closestName(c.region, EMR_REGIONS);
        ctx.addIssue({
          code: 'custom',
          path: ['region'],
          message: `unknown EMR region ${JSON.stringify(c.region)}${hint ? ` (did you mean ${hint}?)` : ''}`,
        });
        return;
      }
      const rl = releaseLabelProblem(c.release_label);
      if (rl) ctx.addIssue({ code: 'custom', path: ['release_label'], message: rl });
      if (c.fleets && c.cluster_id) {
        ctx.addIssue({ code: 'custom', path: ['fleets'], message: 'fleets are for a new cluster; an existing cluster_id keeps its own instances' });
      }
      if (c.fleets?.spot.includes('task') && !c.instance?.task) {
        ctx.addIssue({ code: 'custom', path: ['fleets', 'spot'], message: "'task' is on spot but instance.task is not given; add instance.task or leave 'task' out" });
      }
      if (c.instance && c.cluster_id) {
        ctx.addIssue({ code: 'custom', path: ['cluster_id'], message: 'give either instance or cluster_id, not both' });
      }
      if (!c.cluster_id) {
        const table = prices();
        const inst: { master: InstanceGroup; core: InstanceGroup; task?: InstanceGroup | undefined } = c.instance ?? DEFAULT_INSTANCES;
        const types: [string, (string | number)[]][] = (['master', 'core', 'task'] as const).flatMap((role) => {
          const g = inst[role];
          return g ? [[g.type, ['instance', role, 'type']] as [string, (string | number)[]]] : [];
        });
        (c.fleets?.alternatives ?? []).forEach((t, i) => types.push([t, ['fleets', 'alternatives', i]]));
        for (const [t, path] of types) {
          if (!findPrice(table, c.region, t)) {
            const known = Object.keys(table.regions[c.region] ?? {}).sort();
            ctx.addIssue({
              code: 'custom',
              path,
              message:
                `no price for ${t} in ${c.region} in the price table dated ${table.fetchedAt}` +
                (known.length ? ` (known: ${known.join(', ')})` : '') +
                `; run \`bench prices refresh --region ${c.region} --instance-type ${t}\``,
            });
          }
        }
      }
    });
}

export const emrBackendSchema = makeEmrBackendSchema();
export type EmrBackendConfig = z.output<typeof emrBackendSchema>;
export type EmrBackendInput = z.input<typeof emrBackendSchema>;

/** Where the steps run: a cluster we create (and must terminate) or the user's. */
export type ClusterMode =
  | { readonly kind: 'new'; readonly master: InstanceGroup; readonly core: InstanceGroup; readonly task?: InstanceGroup; readonly fleets?: FleetsConfig }
  | { readonly kind: 'existing'; readonly clusterId: string };

export interface InstanceGroup {
  readonly type: string;
  readonly count: number;
}

export function clusterMode(c: EmrBackendConfig): ClusterMode {
  if (c.cluster_id) return { kind: 'existing', clusterId: c.cluster_id };
  const i: { master: InstanceGroup; core: InstanceGroup; task?: InstanceGroup | undefined } = c.instance ?? DEFAULT_INSTANCES;
  return {
    kind: 'new',
    master: { ...i.master },
    core: { ...i.core },
    ...(i.task && i.task.count > 0 ? { task: { ...i.task } } : {}),
    ...(c.fleets ? { fleets: c.fleets } : {}),
  };
}

/** The instances a new cluster runs, master first (for costs: every role at its configured type). */
export function clusterGroups(mode: Extract<ClusterMode, { kind: 'new' }>): InstanceGroup[] {
  return [mode.master, mode.core, ...(mode.task ? [mode.task] : [])];
}

/** The market of a role: spot for the roles `fleets.spot` names, else on demand. */
export function roleMarket(mode: Extract<ClusterMode, { kind: 'new' }>, role: 'master' | 'core' | 'task'): 'ON_DEMAND' | 'SPOT' {
  return role !== 'master' && mode.fleets?.spot.includes(role) ? 'SPOT' : 'ON_DEMAND';
}

/** The instances of a new cluster, by role, as the estimate prices them. */
export function clusterNodes(mode: Extract<ClusterMode, { kind: 'new' }>): { role: 'master' | 'core' | 'task'; type: string; count: number; market: 'ON_DEMAND' | 'SPOT' }[] {
  return [
    { role: 'master', ...mode.master, market: 'ON_DEMAND' },
    { role: 'core', ...mode.core, market: roleMarket(mode, 'core') },
    ...(mode.task ? [{ role: 'task' as const, ...mode.task, market: roleMarket(mode, 'task') }] : []),
  ];
}

export function logUri(c: EmrBackendConfig): string {
  if (c.log_uri) return c.log_uri.endsWith('/') ? c.log_uri : `${c.log_uri}/`;
  const { bucket, prefix } = parseS3Uri(c.s3_prefix);
  return `s3://${bucket}/${joinKey(prefix, 'logs')}/`;
}

/** Reducers: the configured number, else 0.95 × the core vCPUs (the classic Hadoop heuristic), at least 1. */
export function reduceTasks(c: EmrBackendConfig, prices: PriceTable = defaultPriceTable()): number {
  if (c.reduce_tasks) return c.reduce_tasks;
  const mode = clusterMode(c);
  if (mode.kind === 'existing') return 8;
  const vcpu = findPrice(prices, c.region, mode.core.type)?.vcpu ?? 4;
  return Math.max(1, Math.floor(0.95 * vcpu * Math.max(1, mode.core.count)));
}

/**
 * Validates a `backend:` object on its own (the experiment loader maps issues to file:line:col
 * itself); `where` prefixes each one-line issue.
 */
export function parseEmrBackend(raw: unknown, where?: string, prices?: () => PriceTable): EmrBackendConfig {
  const schema = prices ? makeEmrBackendSchema(prices) : emrBackendSchema;
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const at = where ? `${where}: ` : '';
  throw new ConfigError(r.error.issues.map((i) => `${at}${['backend', ...i.path].join('.')}: ${i.message}`));
}
