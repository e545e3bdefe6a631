/**
 * Checks made with real calls before anything is started or paid for: credentials (the
 * client's provider chain), the staging bucket (HeadBucket), and for `cluster_id` the
 * cluster's state and instance types. Each failure is a one-line UserError.
 */
import { DescribeClusterCommand, ListInstancesCommand, type EMRClient, type Instance } from '@aws-sdk/client-emr';
import { HeadBucketCommand, type S3Client } from '@aws-sdk/client-s3';
import { UserError } from '../../errors.ts';
import { findPrice, type PriceTable } from './prices.ts';

export async function checkCredentials(client: S3Client | EMRClient): Promise<void> {
  let id: string | undefined;
  try {
    const creds = await client.config.credentials();
    id = creds.accessKeyId;
  } catch (e) {
    throw new UserError(
      `backend.emr: no AWS credentials found (${firstLine(e)}); set AWS_PROFILE, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`,
      { cause: e },
    );
  }
  if (!id) throw new UserError('backend.emr: the AWS credentials found have no access key id');
}

export async function checkBucket(s3: S3Client, bucket: string): Promise<void> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
  } catch (e) {
    const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    const name = (e as { name?: string }).name;
    if (status === 404 || name === 'NotFound' || name === 'NoSuchBucket') {
      throw new UserError(`backend.s3_prefix: bucket ${bucket} does not exist (create it with \`aws s3 mb s3://${bucket}\`)`, { cause: e });
    }
    if (status === 403) throw new UserError(`backend.s3_prefix: access to bucket ${bucket} denied (403): check the IAM policy of your credentials`, { cause: e });
    if (status === 301) throw new UserError(`backend.s3_prefix: bucket ${bucket} is in another region than backend.region`, { cause: e });
    if (name === 'CredentialsProviderError') throw new UserError(`backend.emr: no AWS credentials found (${firstLine(e)})`, { cause: e });
    throw new UserError(`backend.s3_prefix: HeadBucket ${bucket} failed: ${name ?? 'error'}: ${firstLine(e)}`, { cause: e });
  }
}

/** The instance types of a running existing cluster; every one must have a price. */
export async function checkExistingCluster(
  emr: EMRClient,
  clusterId: string,
  region: string,
  prices: PriceTable,
): Promise<{ state: string; releaseLabel?: string; instances: Instance[] }> {
  let state: string | undefined;
  let releaseLabel: string | undefined;
  try {
    const r = await emr.send(new DescribeClusterCommand({ ClusterId: clusterId }));
    state = r.Cluster?.Status?.State;
    releaseLabel = r.Cluster?.ReleaseLabel;
  } catch (e) {
    throw new UserError(`backend.cluster_id: cluster ${clusterId} not found in ${region}: ${firstLine(e)}`, { cause: e });
  }
  if (state !== 'WAITING' && state !== 'RUNNING') {
    throw new UserError(`backend.cluster_id: cluster ${clusterId} is ${state ?? 'in an unknown state'}; steps can run only on a WAITING or RUNNING cluster`);
  }
  const instances: Instance[] = [];
  let marker: string | undefined;
  do {
    const page = await emr.send(new ListInstancesCommand({ ClusterId: clusterId, InstanceStates: ['RUNNING'], Marker: marker }));
    instances.push(...(page.Instances ?? []));
    marker = page.Marker;
  } while (marker);
  for (const t of new Set(instances.map((i) => i.InstanceType ?? '?'))) {
    if (!findPrice(prices, region, t)) {
      throw new UserError(
        `backend.cluster_id: cluster ${clusterId} runs ${t}, which has no price in ${region} in the price table dated ${prices.fetchedAt}; run \`bench prices refresh --region ${region} --instance-type ${t}\``,
      );
    }
  }
  return { state, ...(releaseLabel ? { releaseLabel } : {}), instances };
}

function firstLine(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return (m.split('\n')[0] ?? '').trim() || 'unknown error';
}
