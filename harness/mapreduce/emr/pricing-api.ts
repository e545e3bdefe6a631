/**
 * Refreshing the price table from the AWS Price List Query API (`GetProducts`, endpoint in
 * us-east-1, signed: it needs credentials). Filters are the ones proven in public code
 * (research doc §3.4). Each `PriceList` entry is a JSON *string* holding `product.attributes`
 * and `terms.OnDemand.<sku.offer>.priceDimensions.<rate>.pricePerUnit.USD`.
 */
import { GetProductsCommand, type Filter, type GetProductsCommandOutput } from '@aws-sdk/client-pricing';
import { DataError } from '../../errors.ts';
import type { InstancePrice, PriceTable } from './prices.ts';

export interface PricingSender {
  send(command: GetProductsCommand): Promise<GetProductsCommandOutput>;
}

const tm = (Field: string, Value: string): Filter => ({ Type: 'TERM_MATCH', Field, Value });

export function ec2Filters(region: string, instanceType: string): Filter[] {
  return [
    tm('regionCode', region), tm('instanceType', instanceType), tm('operatingSystem', 'Linux'),
    tm('tenancy', 'Shared'), tm('preInstalledSw', 'NA'), tm('capacitystatus', 'Used'),
  ];
}

export function emrFilters(region: string, instanceType: string): Filter[] {
  return [
    tm('regionCode', region), tm('productFamily', 'Elastic Map Reduce Instance'),
    tm('softwareType', 'EMR'), tm('instanceType', instanceType),
  ];
}

interface PriceItem {
  product?: { sku?: string; attributes?: Record<string, string> };
  terms?: { OnDemand?: Record<string, { priceDimensions?: Record<string, { unit?: string; pricePerUnit?: { USD?: string } }> }> };
}

/** Distinct hourly on-demand USD prices of one product; usually exactly one. */
export function onDemandHourly(item: PriceItem): number[] {
  const out = new Set<number>();
  for (const term of Object.values(item.terms?.OnDemand ?? {})) {
    for (const dim of Object.values(term.priceDimensions ?? {})) {
      const usd = Number(dim.pricePerUnit?.USD);
      if (dim.unit?.toLowerCase().startsWith('hr') && Number.isFinite(usd) && usd > 0) out.add(usd);
    }
  }
  return [...out];
}

function parseItems(priceList: readonly unknown[], what: string): PriceItem[] {
  return priceList.map((raw, i) => {
    try {
      return JSON.parse(String(raw)) as PriceItem;
    } catch {
      throw new DataError(`GetProducts ${what}: PriceList[${i}] is not JSON`);
    }
  });
}

function single(prices: number[], what: string): number {
  const distinct = [...new Set(prices)];
  if (distinct.length === 0) throw new DataError(`GetProducts ${what}: no on-demand hourly price`);
  if (distinct.length > 1) throw new DataError(`GetProducts ${what}: ambiguous on-demand prices ${distinct.sort((a, b) => a - b).join(', ')}`);
  return distinct[0] as number;
}

/** EC2 Linux on-demand: products whose operation is plain `RunInstances` (no licensed software, no capacity blocks). */
export function parseEc2(priceList: readonly unknown[], region: string, instanceType: string): { ec2: number; vcpu: number; memoryGiB: number } {
  const what = `AmazonEC2 ${instanceType} ${region}`;
  const items = parseItems(priceList, what).filter((it) => {
    const a = it.product?.attributes ?? {};
    return a.instanceType === instanceType && (a.operation === undefined || a.operation === 'RunInstances') && (a.marketoption === undefined || a.marketoption === 'OnDemand');
  });
  const ec2 = single(items.flatMap(onDemandHourly), what);
  const a = items[0]?.product?.attributes ?? {};
  const vcpu = Number(a.vcpu);
  const memoryGiB = Number(/([\d.]+)/.exec(a.memory ?? '')?.[1]);
  if (!Number.isInteger(vcpu) || vcpu <= 0 || !(memoryGiB > 0)) throw new DataError(`GetProducts ${what}: no vcpu/memory attributes`);
  return { ec2, vcpu, memoryGiB };
}

export function parseEmr(priceList: readonly unknown[], region: string, instanceType: string): number {
  const what = `ElasticMapReduce ${instanceType} ${region}`;
  const items = parseItems(priceList, what).filter((it) => it.product?.attributes?.instanceType === instanceType);
  return single(items.flatMap(onDemandHourly), what);
}

async function allPages(client: PricingSender, ServiceCode: string, Filters: Filter[]): Promise<unknown[]> {
  const out: unknown[] = [];
  let NextToken: string | undefined;
  do {
    const r = await client.send(new GetProductsCommand({ ServiceCode, Filters, FormatVersion: 'aws_v1', NextToken }));
    out.push(...((r.PriceList as unknown[] | undefined) ?? []));
    NextToken = r.NextToken;
  } while (NextToken);
  return out;
}

export async function fetchInstancePrice(client: PricingSender, region: string, instanceType: string): Promise<InstancePrice> {
  const ec2 = parseEc2(await allPages(client, 'AmazonEC2', ec2Filters(region, instanceType)), region, instanceType);
  const emr = parseEmr(await allPages(client, 'ElasticMapReduce', emrFilters(region, instanceType)), region, instanceType);
  return { ec2: ec2.ec2, emr, vcpu: ec2.vcpu, memoryGiB: ec2.memoryGiB };
}

/** A new table with every (region, type) priced from the API, dated `today`; other entries are dropped. */
export async function refreshPriceTable(
  client: PricingSender,
  previous: PriceTable,
  opts: { regions: readonly string[]; instanceTypes: readonly string[]; today: string; progress?: (line: string) => void },
): Promise<PriceTable> {
  const regions: PriceTable['regions'] = {};
  for (const region of opts.regions) {
    const table: Record<string, InstancePrice> = {};
    for (const t of opts.instanceTypes) {
      table[t] = await fetchInstancePrice(client, region, t);
      opts.progress?.(`${region} ${t}: EC2 $${table[t].ec2}/h + EMR $${table[t].emr}/h`);
    }
    regions[region] = table;
  }
  return {
    ...previous,
    fetchedAt: opts.today,
    source: {
      method: 'aws-pricing-api',
      ec2: 'AWS Price List Query API, GetProducts ServiceCode AmazonEC2 (Linux, Shared, NA, Used), https://api.pricing.us-east-1.amazonaws.com',
      emr: 'AWS Price List Query API, GetProducts ServiceCode ElasticMapReduce (Elastic Map Reduce Instance, EMR), https://api.pricing.us-east-1.amazonaws.com',
      note: 'Written by `bench prices refresh`.',
    },
    regions,
  };
}
