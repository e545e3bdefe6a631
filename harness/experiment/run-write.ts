/**
 * The run's write step: the TREC studies, metrics.csv, distribution.csv and the evaluation's
 * tables, then run.json listing every file with its SHA-256, and the report, into the run
 * folder's temporary folder (committed by the caller).
 */
import type { AlgorithmAdapter } from '../../contract/index.ts';
import type { ErrorLine } from '../evaluate/explain/errors.ts';
import type { ReadContext } from '../corpus/types.ts';
import { describeSkip } from '../corpus/read.ts';
import { DataError } from '../errors.ts';
import { runStudies } from '../evaluate/studies/index.ts';
import type { Progress } from '../progress.ts';
import { evaluationTables } from '../results/evaluation-tables.ts';

import type { gitStateAsync } from '../results/environment.ts';
import { listRunFiles } from '../results/manifest.ts';
import { runMeasures } from '../results/measures.ts';
import { distributionCsv, metricsCsv } from '../results/metrics-csv.ts';
import type { RunFolder } from '../results/run-folder.ts';
import type { FigureRecord, RunRecord } from '../results/types.ts';
import { runRecord, type PhaseTimes } from './run-record.ts';
import type { PreparedRun } from './run-prepare.ts';
import type { RunInput } from './run-read.ts';
import type { VariantsOutcome } from './run-variants.ts';
import type { RunClock } from './run-clock.ts';

export interface WriteOptions {
  readonly configFile: string;
  readonly startedAt: Date;
  readonly git: ReturnType<typeof gitStateAsync>;
  readonly clock: RunClock;
  readonly progress: Progress;
  /** writes report.html into the folder given; `errorLines`: the error files' lines the run holds (by variant), which it need not read back */
  readonly writeReport?: (runDir: string, o: { readonly errorLines: ReadonlyMap<string, readonly ErrorLine[]> }) => Promise<void>;
}

export async function writeRun(run: PreparedRun, input: RunInput, variants: VariantsOutcome, folder: RunFolder, o: WriteOptions): Promise<RunRecord> {
  const { exp, planned } = run;
  const { records, truth } = variants;
  const adapterOf = new Map(planned.map((p) => [p.variant.name, p.adapter]));
  const measures = runMeasures(records.map((r) => ({ adapter: adapterOf.get(r.part_of?.variant ?? r.name) as AlgorithmAdapter, has: (key: string) => key in r.measures })));
  const tables: Record<string, string> = {};
  const studyWarnings: string[] = [];
  if (exp.studies && truth) {
    const studySkips: ReadContext = {
      skip: (s) => {
        if (exp.corpus.strict) throw new DataError(`${describeSkip(s)} (strict mode)`);
        studyWarnings.push(`studies: ${describeSkip(s)}`);
      },
    };
    o.progress.update('TREC studies');
    for (const t of await runStudies({ ids: input.docs.ids, truth: truth.pairs, studies: exp.studies, evaluate: exp.evaluate, ctx: studySkips })) {
      folder.write(t.file, t.csv);
      tables[t.file] = t.description;
    }
  }
  o.clock.mark('studies');
  folder.write('metrics.csv', metricsCsv(exp.name, measures, records));
  folder.write('distribution.csv', distributionCsv(exp.evaluate.distribution, records));
  for (const t of [...(input.exactDuplicates ? [input.exactDuplicates] : []), ...evaluationTables(exp.name, exp.evaluate, records)]) {
    folder.write(t.file, t.csv);
    tables[t.file] = t.description;
  }
  const files = listRunFiles(folder.tempDir);
  const phases: PhaseTimes = o.clock.phases();
  const record = runRecord({
    exp,
    runId: run.runId,
    backend: run.backend,
    measures,
    figures: adapterFigures(planned.map((p) => p.adapter)),
    variants: records,
    corpus: input.corpus,
    startedAt: o.startedAt,
    finishedAt: new Date(),
    configFile: o.configFile,
    tables,
    extraWarnings: studyWarnings,
    inputs: run.inputs,
    files,
    resumed: variants.resumed,
    phases,
    git: await o.git,
  });
  folder.write('run.json', JSON.stringify(record, null, 2) + '\n');
  if (o.writeReport) await o.writeReport(folder.tempDir, { errorLines: variants.errorLines });
  return record;
}

/** Each adapter's figures once, in the order the adapters first appear. */
function adapterFigures(adapters: readonly AlgorithmAdapter[]): FigureRecord[] {
  const seen = new Set<string>();
  return adapters.flatMap((a) => {
    if (seen.has(a.name)) return [];
    seen.add(a.name);
    return (a.figures ?? []).map((f) => ({ ...f, algorithm: a.name }));
  });
}
