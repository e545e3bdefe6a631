/**
 * EC2 spot prices for the estimate, from DescribeSpotPriceHistory: for each instance type the
 * latest Linux/UNIX price of each availability zone, and their median. Price-capacity-optimized
 * allocation takes the pools with the most spare capacity among the cheap ones, not always the
 * cheapest, so the median zone is the fairer guess than the minimum. Best effort: without
 * credentials or network the estimate keeps its stated default (estimate.ts DEFAULT_SPOT_RATIO).
 */
import { DescribeSpotPriceHistoryCommand, type _InstanceType, type EC2Client, type SpotPrice } from '@aws-sdk/client-ec2';
import type { SpotPrices } from './estimate.ts';

/** The median of the latest price of each zone, per instance type; pure. */
export function medianLatestByZone(history: readonly SpotPrice[]): Record<string, number> {
  const latest = new Map<string, Map<string, { at: number; usd: number }>>();
  for (const p of history) {
    const usd = Number(p.SpotPrice);
    if (!p.InstanceType || !p.AvailabilityZone || !Number.isFinite(usd)) continue;
    const zones = latest.get(p.InstanceType) ?? new Map<string, { at: number; usd: number }>();
    latest.set(p.InstanceType, zones);
    const at = p.Timestamp?.getTime() ?? 0;
    const seen = zones.get(p.AvailabilityZone);
    if (!seen || at > seen.at) zones.set(p.AvailabilityZone, { at, usd });
  }
  const out: Record<string, number> = {};
  for (const [type, zones] of latest) {
    const v = [...zones.values()].map((z) => z.usd).sort((a, b) => a - b);
    const mid = v.length >> 1;
    out[type] = v.length % 2 ? (v[mid] as number) : ((v[mid - 1] as number) + (v[mid] as number)) / 2;
  }
  return out;
}

/**
 * The spot prices of `types` now, or undefined (and why, through `note`) when EC2 cannot be
 * asked or knows none of them; types it has no price for take the default in the estimate.
 */
export async function fetchSpotPrices(
  ec2: EC2Client,
  o: { readonly region: string; readonly types: readonly string[]; readonly now: Date; readonly note?: (line: string) => void },
): Promise<SpotPrices | undefined> {
  const history: SpotPrice[] = [];
  try {
    let token: string | undefined;
    do {
      const page = await ec2.send(
        new DescribeSpotPriceHistoryCommand({
          InstanceTypes: [...new Set(o.types)] as _InstanceType[],
          ProductDescriptions: ['Linux/UNIX'],
          // the price in effect now, in every zone
          StartTime: o.now,
          EndTime: o.now,
          ...(token ? { NextToken: token } : {}),
        }),
      );
      history.push(...(page.SpotPriceHistory ?? []));
      token = page.NextToken || undefined;
    } while (token);
  } catch (e) {
    o.note?.(`spot price history unavailable (${(e as { name?: string }).name ?? 'error'}: ${(e as Error).message.split('\n')[0]}); the estimate's spot column uses its stated default`);
    return undefined;
  }
  const usdPerHour = medianLatestByZone(history);
  if (Object.keys(usdPerHour).length === 0) return undefined;
  return { usdPerHour, source: `EC2 spot price history of ${o.now.toISOString().slice(0, 16)}Z in ${o.region}, median over availability zones` };
}
