/**
 * `bench cost-curve <run-dir>... --out <file>`: the points of the local cost curve (CPU-seconds
 * against MB of text, per variant) from finished runs, the file an EMR estimate is made from
 * (`backend.cost_curve`, harness/mapreduce/emr/estimate.ts).
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CommandModule } from 'yargs';
import { writeFileAtomic } from '../../kernels/io/atomic-write.ts';
import { UserError } from '../errors.ts';
import { curvePointsOf, type CostCurves } from '../mapreduce/emr/cost-curves.ts';
import { readCompleteRunRecord } from '../report/read-run.ts';

export interface CostCurveArgs {
  readonly runs: readonly string[];
  readonly out: string;
  readonly measured?: string;
}

export async function writeCostCurve(args: CostCurveArgs, print: (text: string) => void): Promise<CostCurves> {
  const records = await Promise.all(args.runs.map(readCompleteRunRecord));
  const points = curvePointsOf(records);
  if (points.length === 0) throw new UserError(`${args.runs.join(', ')}: no variant with a CPU time`);
  const backends = [...new Set(records.map((r) => r.backend.kind))].join(', ');
  const machines = [...new Set(records.map((r) => `${r.environment.cpu_model}, ${r.environment.cpus} CPUs`))].join('; ');
  const curves: CostCurves = {
    description: `CPU-seconds per variant against MB of document text, from ${records.length} runs (${[...new Set(records.map((r) => r.experiment))].join(', ')}), for the EMR estimate`,
    measured: args.measured ?? `${backends} backend on ${machines}`,
    points,
  };
  await mkdir(dirname(args.out), { recursive: true });
  await writeFileAtomic(args.out, `${JSON.stringify(curves, null, 2)}\n`);
  const sizes = new Set(points.map((p) => p.text_bytes)).size;
  print(`wrote ${args.out}: ${points.length} point${points.length === 1 ? '' : 's'} at ${sizes} size${sizes === 1 ? '' : 's'}${sizes < 2 ? ' (a curve needs runs at 2 sizes at least)' : ''}\n`);
  return curves;
}

export const costCurveCommand: CommandModule<object, { runs: string[]; out: string; measured?: string }> = {
  command: 'cost-curve <runs..>',
  describe: 'Write the CPU-seconds-per-MB points of finished runs at several corpus sizes: the cost curves an EMR estimate scales (backend.cost_curve)',
  builder: (y) =>
    y
      .positional('runs', { type: 'string', array: true, demandOption: true, describe: 'run folders of the same variants over corpora of different sizes' })
      .option('out', { type: 'string', demandOption: true, describe: 'file to write, e.g. data/emr/cost-curves.json' })
      .option('measured', { type: 'string', describe: 'how the runs were made, kept in the file (default: the backend and the machine)' }),
  handler: async (argv) => {
    await writeCostCurve({ runs: argv.runs, out: argv.out, ...(argv.measured !== undefined ? { measured: argv.measured } : {}) }, (t) => process.stdout.write(t));
  },
};
