/**
 * Where a run's objects live under `s3_prefix` (the README's "bucket layout"):
 *
 *   <prefix>/<run-id>/code/ndd-job.js                 the bundled job script
 *   <prefix>/<run-id>/code/install-node.sh            the bootstrap action (node_bootstrap: dnf)
 *   <prefix>/<run-id>/input/documents/part-NNNNN.gz   the documents as text records
 *   <prefix>/<run-id>/input/documents-meta/part-00000 their meta, uncompressed (side data; only
 *                                                     when a job reads it)
 *   <prefix>/<run-id>/variants/<vNN-name>/spec.json   {algorithm, params, minScore}
 *   <prefix>/<run-id>/variants/<vNN-name>/<dataset>/  each job's output (part-NNNNN[.gz])
 *   engine: spark also (harness/mapreduce/spark/submit.ts lays out the same places):
 *   <prefix>/<run-id>/code/driver.py                  python/spark/driver.py
 *   <prefix>/<run-id>/code/package.json               {"type":"commonjs"}, beside the job script
 *   <prefix>/<run-id>/variants/<vNN-name>/plan.json   the driver's plan of the variant
 *   <prefix>/<run-id>/variants/<vNN-name>/result.json the driver's result (counters, or the failure)
 *   <prefix>/logs/<cluster-id>/…                      EMR's own logs (log_uri)
 */
import { joinKey } from './s3uri.ts';

import { JOB_SCRIPT_NAME, safeName, SPEC_NAME } from '../hadoop/streaming-args.ts';
import { DRIVER_NAME, PACKAGE_JSON, PLAN_NAME, RESULT_NAME } from '../spark/submit.ts';

export { JOB_SCRIPT_NAME, SPEC_NAME };

export interface RunLayout {
  readonly bucket: string;
  /** `<prefix>/<run-id>` */
  readonly runKey: string;
}

export function runLayout(bucket: string, prefix: string, runId: string): RunLayout {
  return { bucket, runKey: joinKey(prefix, runId) };
}

export const codeKey = (l: RunLayout): string => joinKey(l.runKey, 'code', JOB_SCRIPT_NAME);
export const bootstrapKey = (l: RunLayout): string => joinKey(l.runKey, 'code', 'install-node.sh');
export const documentsKey = (l: RunLayout): string => `${joinKey(l.runKey, 'input', 'documents')}/`;
export const splitKey = (l: RunLayout, i: number): string =>
  joinKey(l.runKey, 'input', 'documents', `part-${String(i).padStart(5, '0')}.gz`);
export const documentsMetaKey = (l: RunLayout): string => `${joinKey(l.runKey, 'input', 'documents-meta')}/`;
export const documentsMetaPartKey = (l: RunLayout): string => joinKey(l.runKey, 'input', 'documents-meta', 'part-00000');
export const variantKey = (l: RunLayout, slug: string): string => joinKey(l.runKey, 'variants', slug);
export const specKey = (l: RunLayout, slug: string): string => joinKey(variantKey(l, slug), SPEC_NAME);
export const driverKey = (l: RunLayout): string => joinKey(l.runKey, 'code', DRIVER_NAME);
export const packageJsonKey = (l: RunLayout): string => joinKey(l.runKey, 'code', PACKAGE_JSON);
export const sparkPlanKey = (l: RunLayout, slug: string): string => joinKey(variantKey(l, slug), PLAN_NAME);
export const sparkResultKey = (l: RunLayout, slug: string): string => joinKey(variantKey(l, slug), RESULT_NAME);
export const datasetKey = (l: RunLayout, slug: string, dataset: string): string =>
  `${joinKey(variantKey(l, slug), safeName(dataset))}/`;

export { variantSlug } from '../hadoop/streaming-args.ts';

export { safeName };

export function consoleLink(region: string, clusterId: string): string {
  return `https://${region}.console.aws.amazon.com/emr/home?region=${region}#/clusterDetails/${clusterId}`;
}
