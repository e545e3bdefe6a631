/** Reading a results folder (harness/results/types.ts) for the reports and the regression check. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DataError, UserError } from '../errors.ts';
import { RUN_SCHEMA_VERSION, type RunRecord } from '../results/types.ts';
import type { RunTables } from './run-report.ts';

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
  const text = await readText(file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new DataError(`${file}: invalid JSON: ${(e as Error).message}`);
  }
  const r = value as Partial<Record<keyof RunRecord, unknown>> | null;
  expect(file, typeof r === 'object' && r !== null && !Array.isArray(r), '(top level)', 'expected an object');
  const rec = r as Record<string, unknown>;
  expect(file, rec['schema_version'] === RUN_SCHEMA_VERSION, 'schema_version', `expected ${RUN_SCHEMA_VERSION}, got ${JSON.stringify(rec['schema_version'])}`);
  expect(file, rec['status'] === 'completed', 'status', `expected "completed", got ${JSON.stringify(rec['status'])}`);
  expect(file, typeof rec['experiment'] === 'string', 'experiment', 'expected a string');
  expect(file, typeof rec['run_id'] === 'string', 'run_id', 'expected a string');
  expect(file, Array.isArray(rec['variants']), 'variants', 'expected an array');
  for (const key of ['corpus', 'evaluate', 'environment', 'git', 'backend', 'totals'] as const) {
    expect(file, typeof rec[key] === 'object' && rec[key] !== null, key, 'expected an object');
  }
  (rec['variants'] as unknown[]).forEach((v, i) => {
    const o = v as Record<string, unknown> | null;
    expect(file, typeof o === 'object' && o !== null && typeof o['name'] === 'string', `variants[${i}].name`, 'expected a string');
    expect(file, typeof o?.['metrics'] === 'object' && o['metrics'] !== null, `variants[${i}].metrics`, 'expected an object');
    expect(file, typeof o?.['runtime_s'] === 'number', `variants[${i}].runtime_s`, 'expected a number');
  });
  return value as RunRecord;
}

/** run.json, metrics.csv, distribution.csv and the extra tables run.json lists. */
export async function readRunFolder(dir: string): Promise<RunFolder> {
  const run = await readRunRecord(dir);
  const [metricsCsv, distributionCsv] = await Promise.all([readText(join(dir, 'metrics.csv')), readText(join(dir, 'distribution.csv'))]);
  const extra: Record<string, string> = {};
  for (const name of Object.keys(run.tables ?? {})) extra[name] = await readText(join(dir, name));
  return { dir, run, tables: { metricsCsv, distributionCsv, extra } };
}
