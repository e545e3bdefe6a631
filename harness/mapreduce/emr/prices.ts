/**
 * The dated price table shipped in `data/prices/emr-prices.json`: per region and instance type,
 * the EC2 on-demand rate and the EMR fee in USD per hour. Costs are computed from it, never
 * from EMR's NormalizedInstanceHours (an hourly-rounded m1.small approximation).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { DataError } from '../../errors.ts';

export const PRICE_TABLE_PATH = fileURLToPath(new URL('../../../data/prices/emr-prices.json', import.meta.url));

const instancePriceSchema = z.strictObject({
  ec2: z.number().nonnegative(),
  emr: z.number().nonnegative(),
  vcpu: z.number().int().positive(),
  memoryGiB: z.number().positive(),
  unverified: z.string().optional(),
});

export const priceTableSchema = z.strictObject({
  description: z.string(),
  fetchedAt: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  currency: z.literal('USD'),
  unit: z.string(),
  source: z.strictObject({
    method: z.enum(['snapshot', 'aws-pricing-api']),
    ec2: z.string(),
    emr: z.string(),
    note: z.string(),
  }),
  regions: z.record(z.string(), z.record(z.string(), instancePriceSchema)),
});

export type InstancePrice = z.output<typeof instancePriceSchema>;
export type PriceTable = z.output<typeof priceTableSchema>;

export function parsePriceTable(text: string, file: string): PriceTable {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new DataError(`${file}: not JSON: ${(e as Error).message}`);
  }
  const r = priceTableSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new DataError(`${file}: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return r.data;
}

export function loadPriceTable(file: string = PRICE_TABLE_PATH): PriceTable {
  return parsePriceTable(readFileSync(file, 'utf8'), file);
}

let cached: PriceTable | undefined;
/** The table shipped in the repository, read once. */
export function defaultPriceTable(): PriceTable {
  cached ??= loadPriceTable();
  return cached;
}

export function findPrice(table: PriceTable, region: string, instanceType: string): InstancePrice | undefined {
  return table.regions[region]?.[instanceType];
}

/** EC2 + EMR fee, USD per hour. */
export function hourlyRate(p: InstancePrice): number {
  return p.ec2 + p.emr;
}
