/**
 * AWS regions where Amazon EMR on EC2 runs (commercial, GovCloud and China partitions). A
 * typo in `backend.region` is caught against this list before any request is made, because the
 * SDK would otherwise fail later with an unhelpful DNS or endpoint error.
 */
export const EMR_REGIONS: readonly string[] = [
  'us-east-1', 'us-east-2', 'us-west-1', 'us-west-2',
  'ca-central-1', 'ca-west-1', 'mx-central-1', 'sa-east-1',
  'eu-central-1', 'eu-central-2', 'eu-west-1', 'eu-west-2', 'eu-west-3',
  'eu-south-1', 'eu-south-2', 'eu-north-1',
  'af-south-1', 'il-central-1', 'me-south-1', 'me-central-1',
  'ap-east-1', 'ap-south-1', 'ap-south-2', 'ap-northeast-1', 'ap-northeast-2', 'ap-northeast-3',
  'ap-southeast-1', 'ap-southeast-2', 'ap-southeast-3', 'ap-southeast-4', 'ap-southeast-5', 'ap-southeast-7',
  'us-gov-east-1', 'us-gov-west-1', 'cn-north-1', 'cn-northwest-1',
];

export function isEmrRegion(region: string): boolean {
  return EMR_REGIONS.includes(region);
}
