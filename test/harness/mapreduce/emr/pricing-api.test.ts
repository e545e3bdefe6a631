import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetProductsCommand, PricingClient } from '@aws-sdk/client-pricing';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { runPricesRefresh } from '../../../../harness/commands/prices.ts';
import { DataError } from '../../../../harness/errors.ts';
import { fetchInstancePrice, parseEc2, parseEmr } from '../../../../harness/mapreduce/emr/pricing-api.ts';
import { loadPriceTable, PRICE_TABLE_PATH } from '../../../../harness/mapreduce/emr/prices.ts';

const fixture = (name: string): string[] => {
  const f = JSON.parse(readFileSync(new URL(`../../../fixtures/emr/${name}`, import.meta.url), 'utf8')) as { PriceList: unknown[] };
  return f.PriceList.map((x) => JSON.stringify(x));
};
const EC2 = fixture('getproducts-ec2-m5.xlarge.json');
const EMR = fixture('getproducts-emr-m5.xlarge.json');

describe('parsing GetProducts price lists', () => {
  it('takes the EC2 on-demand hourly price of plain RunInstances, not the reserved term nor licensed software', () => {
    expect(parseEc2(EC2, 'us-east-1', 'm5.xlarge')).toEqual({ ec2: 0.192, vcpu: 4, memoryGiB: 16 });
  });
  it('takes the EMR fee', () => {
    expect(parseEmr(EMR, 'us-east-1', 'm5.xlarge')).toBe(0.048);
  });
  it('refuses two different on-demand prices for one instance type', () => {
    const other = JSON.parse(EMR[0] as string) as { terms: { OnDemand: Record<string, { priceDimensions: Record<string, { pricePerUnit: { USD: string } }> }> } };
    const term = Object.values(other.terms.OnDemand)[0];
    const dim = term && Object.values(term.priceDimensions)[0];
    if (dim) dim.pricePerUnit.USD = '0.05';
    expect(() => parseEmr([...EMR, JSON.stringify(other)], 'us-east-1', 'm5.xlarge')).toThrow(DataError);
    expect(() => parseEmr([...EMR, JSON.stringify(other)], 'us-east-1', 'm5.xlarge')).toThrow('ambiguous on-demand prices 0.048, 0.05');
  });
  it('says when there is no price at all', () => {
    expect(() => parseEmr([], 'us-east-1', 'm5.xlarge')).toThrow('GetProducts ElasticMapReduce m5.xlarge us-east-1: no on-demand hourly price');
  });
});

describe('fetching through the SDK', () => {
  const pricing = mockClient(PricingClient);
  beforeEach(() => pricing.reset());

  it('sends the documented filters and follows NextToken', async () => {
    pricing
      .on(GetProductsCommand, { ServiceCode: 'AmazonEC2' })
      .resolvesOnce({ PriceList: [EC2[1] as string], NextToken: 'page2' })
      .resolves({ PriceList: [EC2[0] as string] });
    pricing.on(GetProductsCommand, { ServiceCode: 'ElasticMapReduce' }).resolves({ PriceList: EMR });
    const client = new PricingClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });
    expect(await fetchInstancePrice(client, 'us-east-1', 'm5.xlarge')).toEqual({ ec2: 0.192, emr: 0.048, vcpu: 4, memoryGiB: 16 });
    const calls = pricing.commandCalls(GetProductsCommand).map((c) => c.args[0].input);
    expect(calls.map((c) => [c.ServiceCode, c.NextToken])).toEqual([['AmazonEC2', undefined], ['AmazonEC2', 'page2'], ['ElasticMapReduce', undefined]]);
    expect(calls[2]?.Filters).toEqual([
      { Type: 'TERM_MATCH', Field: 'regionCode', Value: 'us-east-1' },
      { Type: 'TERM_MATCH', Field: 'productFamily', Value: 'Elastic Map Reduce Instance' },
      { Type: 'TERM_MATCH', Field: 'softwareType', Value: 'EMR' },
      { Type: 'TERM_MATCH', Field: 'instanceType', Value: 'm5.xlarge' },
    ]);
  });

  it('`bench prices refresh` rewrites the table, dated, with the API as its source', async () => {
    pricing.on(GetProductsCommand, { ServiceCode: 'AmazonEC2' }).resolves({ PriceList: EC2 });
    pricing.on(GetProductsCommand, { ServiceCode: 'ElasticMapReduce' }).resolves({ PriceList: EMR });
    const dir = mkdtempSync(join(tmpdir(), 'prices-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'emr-prices.json');
    copyFileSync(PRICE_TABLE_PATH, file);
    const client = new PricingClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });
    await runPricesRefresh({ file, instanceTypes: ['m5.xlarge'], client, today: '2026-12-01' });
    const t = loadPriceTable(file);
    expect(t.fetchedAt).toBe('2026-12-01');
    expect(t.source.method).toBe('aws-pricing-api');
    expect(t.regions).toEqual({ 'us-east-1': { 'm5.xlarge': { ec2: 0.192, emr: 0.048, vcpu: 4, memoryGiB: 16 } } });
  });
});

describe('the shipped price table', () => {
  it('is dated, names its source, and agrees with the research doc for m5.xlarge', () => {
    const t = loadPriceTable();
    expect(t.fetchedAt).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(t.source.emr).toBe('https://aws.amazon.com/emr/pricing/');
    expect(t.regions['us-east-1']?.['m5.xlarge']).toMatchObject({ ec2: 0.192, emr: 0.048 });
  });
});
