/**
 * `bench prices refresh`: rewrites the EMR price table (data/prices/emr-prices.json) from the
 * AWS Price List Query API. Needs AWS credentials; the rest of the harness never does.
 */
import { PricingClient } from '@aws-sdk/client-pricing';
import type { Argv, CommandModule } from 'yargs';
import { writeFileAtomic } from '../../kernels/io/atomic-write.ts';
import { UserError } from '../errors.ts';
import { refreshPriceTable, type PricingSender } from '../mapreduce/emr/pricing-api.ts';
import { loadPriceTable, PRICE_TABLE_PATH } from '../mapreduce/emr/prices.ts';
import { EMR_REGIONS } from '../mapreduce/emr/regions.ts';

export interface RefreshOptions {
  readonly file: string;
  /** Default: the regions already in the table. */
  readonly regions?: readonly string[];
  /** Default: every instance type already in the table. */
  readonly instanceTypes?: readonly string[];
  readonly client?: PricingSender;
  readonly today?: string;
  readonly log?: (line: string) => void;
}

export async function runPricesRefresh(o: RefreshOptions): Promise<void> {
  const previous = loadPriceTable(o.file);
  const regions = o.regions?.length ? [...o.regions] : Object.keys(previous.regions);
  for (const r of regions) if (!EMR_REGIONS.includes(r)) throw new UserError(`--region: unknown EMR region ${JSON.stringify(r)}`);
  const types = o.instanceTypes?.length
    ? [...o.instanceTypes]
    : [...new Set(Object.values(previous.regions).flatMap((t) => Object.keys(t)))].sort();
  // The Price List API is served from us-east-1 whatever region is priced.
  const client = o.client ?? new PricingClient({ region: 'us-east-1' });
  let table;
  try {
    table = await refreshPriceTable(client, previous, {
      regions,
      instanceTypes: types,
      today: o.today ?? new Date().toISOString().slice(0, 10),
      ...(o.log ? { progress: o.log } : {}),
    });
  } catch (e) {
    if (e instanceof UserError) throw e;
    const name = (e as { name?: string }).name ?? 'error';
    throw new UserError(`prices refresh: GetProducts failed: ${name}: ${((e as Error).message ?? '').split('\n')[0]}`, { cause: e });
  }
  await writeFileAtomic(o.file, `${JSON.stringify(table, null, 2)}\n`);
  o.log?.(`wrote ${o.file} (${regions.length} region(s), ${types.length} instance type(s), dated ${table.fetchedAt})`);
}

interface RefreshArgs {
  file: string;
  region?: string[];
  'instance-type'?: string[];
}

const refreshCommand: CommandModule<object, RefreshArgs> = {
  command: 'refresh',
  describe: 'update the EMR price table from the AWS Pricing API (needs AWS credentials)',
  builder: (y: Argv) =>
    y
      .option('file', { type: 'string', default: PRICE_TABLE_PATH, describe: 'price table to rewrite' })
      .option('region', { type: 'string', array: true, describe: 'regions to price (default: those in the table)' })
      .option('instance-type', { type: 'string', array: true, describe: 'instance types (default: those in the table)' }) as unknown as Argv<RefreshArgs>,
  handler: async (argv) => {
    await runPricesRefresh({
      file: argv.file,
      ...(argv.region ? { regions: argv.region } : {}),
      ...(argv['instance-type'] ? { instanceTypes: argv['instance-type'] } : {}),
      log: (line) => process.stderr.write(`${line}\n`),
    });
  },
};

export const pricesCommand: CommandModule = {
  command: 'prices',
  describe: 'the dated EMR price table used for cost',
  builder: (y: Argv) => y.command(refreshCommand).demandCommand(1, 'say which: bench prices refresh'),
  handler: () => {},
};
