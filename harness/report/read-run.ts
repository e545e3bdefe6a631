/** Reading a results folder (harness/results/types.ts) for the reports and the regression check. */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataError, UserError } from '../errors.ts';
import { verifyRunFiles } from '../results/manifest.ts';
import { GENERAL_MEASURES, type MeasureInfo } from '../results/measures.ts';
import { RUN_SCHEMA_VERSION, type RunRecord } from '../results/types.ts';
import type { RunTables } from './run-report.ts';
import type { SpanExamplesFile } from '../results/span-examples.ts';
import type { CurvePoint } from '../evaluate/judgments.ts';
import { parseErrorsFile, variantErrors, type VariantErrors } from './error-browser.ts';
import type { ErrorLine } from '../evaluate/explain/errors.ts';

export interface RunFolder {
  readonly dir: string;
  readonly run: RunRecord;
  readonly tables: RunTables;
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UserError(`${file}: not found (is this a results folder written by \`bench run\`?)`);
    throw new UserError(`${file}: cannot read: ${code ?? String(e)}`);
  }
}

function expect(file: string, ok: boolean, field: string, problem: string): void {
  if (!ok) throw new DataError(`${file}: ${field}: ${problem}`);
}

/**
 * run.json, checked for the fields every reader relies on; the writer is the same program, so
 * this guards against other versions and hand edits, not against every malformed value.
 */
export async function readRunRecord(dir: string): Promise<RunRecord> {
  const file = join(dir, 'run.json');
  return parseRunRecord(await readText(file), file);
}

/** run.json's text, checked, a schema-1 record brought to the current schema; `file` names it in errors. */
export function parseRunRecord(text: string, file: string): RunRecord {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new DataError(`${file}: invalid JSON: ${(e as Error).message}`);
  }
  const r = value as Partial<Record<keyof RunRecord, unknown>> | null;
  expect(file, typeof r === 'object' && r !== null && !Array.isArray(r), '(top level)', 'expected an object');
  const rec = r as Record<string, unknown>;
  const version = rec['schema_version'];
  expect(file, version === RUN_SCHEMA_VERSION || version === 1, 'schema_version', `expected 1 or ${RUN_SCHEMA_VERSION}, got ${JSON.stringify(version)}`);
  expect(file, rec['status'] === 'completed', 'status', `expected "completed", got ${JSON.stringify(rec['status'])}`);
  expect(file, typeof rec['experiment'] === 'string', 'experiment', 'expected a string');
  expect(file, typeof rec['run_id'] === 'string', 'run_id', 'expected a string');
  expect(file, Array.isArray(rec['variants']), 'variants', 'expected an array');
  for (const key of ['corpus', 'evaluate', 'environment', 'git', 'backend', 'totals'] as const) {
    expect(file, typeof rec[key] === 'object' && rec[key] !== null, key, 'expected an object');
  }
  if (version === 1) return fromVersion1(file, rec);
  expect(file, Array.isArray(rec['measures']), 'measures', 'expected an array');
  expect(file, Array.isArray(rec['figures']), 'figures', 'expected an array');
  (rec['variants'] as unknown[]).forEach((v, i) => {
    const o = v as Record<string, unknown> | null;
    expect(file, typeof o === 'object' && o !== null && typeof o['name'] === 'string', `variants[${i}].name`, 'expected a string');
    expect(file, typeof o?.['measures'] === 'object' && o['measures'] !== null, `variants[${i}].measures`, 'expected an object');
  });
  return value as RunRecord;
}

/** The fields of a schema-1 variant; any other numeric field was a detector's own column. */
const V1_FIELDS = new Set(['name', 'algorithm', 'ground_truth', 'params', 'swept', 'pairs', 'metrics', 'distribution', 'runtime_s', 'cpu_s', 'peak_rss_mb', 'cost_usd', 'counters', 'warnings', 'backend_extra']);

/**
 * A run written before the measure registry (schema 1): its fixed columns become the general
 * measures, any other numeric field of a variant a measure of its own (a count, not judged as
 * better or worse). Only what the reports and `bench check` read is carried over.
 */
function fromVersion1(file: string, rec: Record<string, unknown>): RunRecord {
  const own: string[] = [];
  const variants = (rec['variants'] as Record<string, unknown>[]).map((o, i) => {
    expect(file, typeof o === 'object' && o !== null && typeof o['name'] === 'string', `variants[${i}].name`, 'expected a string');
    expect(file, typeof o['metrics'] === 'object' && o['metrics'] !== null, `variants[${i}].metrics`, 'expected an object');
    const metrics = o['metrics'] as Record<string, number | null>;
    const num = (k: string): number | null => (typeof o[k] === 'number' ? (o[k] as number) : null);
    const extra = Object.keys(o).filter((k) => !V1_FIELDS.has(k) && (typeof o[k] === 'number' || o[k] === null));
    for (const k of extra) if (!own.includes(k)) own.push(k);
    const measures: Record<string, number | null> = {
      docs: (rec['corpus'] as { documents?: number }).documents ?? null,
      pairs: num('pairs'),
      ...Object.fromEntries(['avg_error', 'correlation', 'precision_docs', 'recall_docs', 'precision_pairs', 'recall_pairs', 'f1_pairs'].map((k) => [k, metrics[k] ?? null])),
      runtime_s: num('runtime_s'),
      cpu_s: num('cpu_s'),
      peak_rss_mb: num('peak_rss_mb'),
      cost_usd: num('cost_usd'),
      ...Object.fromEntries(extra.map((k) => [k, num(k)])),
    };
    return {
      ...o,
      score: { kind: 'resemblance', floor: 0 },
      decisions: { kind: 'score-at-threshold' },
      measures,
      not_applicable: {},
      pairs_compared: typeof metrics['pairs_compared'] === 'number' ? metrics['pairs_compared'] : 0,
      files: [],
      memory: 'process-maximum',
    };
  });
  const general = GENERAL_MEASURES.filter((m) => !m.key.startsWith('candidate_'));
  const extra: MeasureInfo[] = own.map((key) => ({ key, label: key, kind: 'count', worse: null }));
  const old = rec['totals'] as Record<string, number | undefined>;
  const readS = (rec['corpus'] as { read_s?: number }).read_s ?? 0;
  const runtime = old.runtime_s ?? 0;
  const totals = { read_s: readS, variants_s: runtime, studies_s: 0, write_s: 0, total_s: readS + runtime, runtime_s: runtime, cpu_s: old.cpu_s ?? 0, cost_usd: old.cost_usd ?? 0, peak_rss_mb: old.peak_rss_mb ?? 0 };
  return { ...rec, schema_version: RUN_SCHEMA_VERSION, measures: [...general, ...extra], figures: [], variants, totals, resumed: [] } as unknown as RunRecord;
}

/**
 * Why a run folder is not complete, or undefined when it is: every file its run.json lists is
 * there with the listed size and SHA-256 (a run written before run.json listed its files must at
 * least have its two CSV files).
 */
export function runFolderProblem(dir: string, run: RunRecord): string | undefined {
  if (Array.isArray(run.files)) return verifyRunFiles(dir, run.files);
  for (const f of ['metrics.csv', 'distribution.csv']) if (!existsSync(join(dir, f))) return `${f} is missing`;
  return undefined;
}

/** run.json, read and checked against the folder: a UserError when the run is not complete. */
export async function readCompleteRunRecord(dir: string): Promise<RunRecord> {
  const run = await readRunRecord(dir);
  const problem = runFolderProblem(dir, run);
  if (problem !== undefined) throw new DataError(`${join(dir, 'run.json')}: incomplete run: ${problem}`);
  return run;
}

export interface RunFolderOptions {
  /** the caller has just listed and hashed the folder's files itself (the run writing its report): they are not hashed again */
  readonly checked?: boolean;
  /**
   * The lines of error files the caller wrote into the folder, by variant, as the values they
   * hold (evaluate/explain/errors.ts ExplainedErrors): taken instead of reading those files back
   * (megabytes of text to decode and parse again). A variant not in it is read.
   */
  readonly errorLines?: ReadonlyMap<string, readonly ErrorLine[]>;
}

/** run.json, metrics.csv, distribution.csv and the extra tables run.json lists (RunFolderOptions). */
export async function readRunFolder(dir: string, o: RunFolderOptions = {}): Promise<RunFolder> {
  const run = o.checked ? await readRunRecord(dir) : await readCompleteRunRecord(dir);
  const [metricsCsv, distributionCsv] = await Promise.all([readText(join(dir, 'metrics.csv')), readText(join(dir, 'distribution.csv'))]);
  const extra: Record<string, string> = {};
  for (const name of Object.keys(run.tables ?? {})) extra[name] = await readText(join(dir, name));
  const spanExamples: SpanExamplesFile[] = [];
  const judgedCurves = new Map<string, CurvePoint[]>();
  const errors: VariantErrors[] = [];
  // Read together (a run's error files are megabytes in tens of files), taken in order.
  const read = new Map<string, Promise<string>>();
  const held = (v: { readonly name: string }): readonly ErrorLine[] | undefined => o.errorLines?.get(v.name);
  for (const v of run.variants) {
    for (const f of v.files ?? []) {
      if (!/^(errors|judgments|span-examples)\//.test(f.file) || (f.file.startsWith('errors/') && held(v))) continue;
      const text = readText(join(dir, f.file));
      text.catch(() => undefined); // awaited below, in order: the first file that cannot be read is the one named
      read.set(f.file, text);
    }
  }
  const textOf = (file: string): Promise<string> => read.get(file) as Promise<string>;
  for (const v of run.variants) {
    for (const f of v.files ?? []) {
      if (f.file.startsWith('errors/')) {
        const lines = held(v);
        errors.push(lines ? variantErrors(v.name, lines) : parseErrorsFile(await textOf(f.file), join(dir, f.file), v.name));
      }
      if (f.file.startsWith('judgments/')) judgedCurves.set(v.name, parseCurve(await textOf(f.file), join(dir, f.file)));
      if (!f.file.startsWith('span-examples/')) continue;
      const file = join(dir, f.file);
      try {
        spanExamples.push(JSON.parse(await textOf(f.file)) as SpanExamplesFile);
      } catch (e) {
        if (e instanceof UserError) throw e;
        throw new DataError(`${file}: invalid JSON: ${(e as Error).message}`);
      }
    }
  }
  return { dir, run, tables: { metricsCsv, distributionCsv, extra, ...(spanExamples.length > 0 ? { spanExamples } : {}), ...(judgedCurves.size > 0 ? { judgedCurves } : {}), ...(errors.length > 0 ? { errors } : {}) } };
}

/** A judgments/<variant>.csv (evaluate/judgments.ts curveCsv): `threshold,decided,precision,recall,f1`. */
function parseCurve(text: string, file: string): CurvePoint[] {
  const [header, ...rows] = text.trim().split('\n');
  if (header !== 'threshold,decided,precision,recall,f1') throw new DataError(`${file}: line 1: expected the header threshold,decided,precision,recall,f1`);
  const num = (c: string | undefined): number | null => (c === undefined || c === '' ? null : Number(c));
  return rows.map((r) => {
    const [t, d, p, rc, f1] = r.split(',');
    return { threshold: Number(t), decided: Number(d), precision: Number(p), recall: num(rc), f1: num(f1) };
  });
}
