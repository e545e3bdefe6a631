import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataError, UserError } from '../../../harness/errors.ts';
import { readRunFolder, readRunRecord } from '../../../harness/report/read-run.ts';
import { renderRunReport } from '../../../harness/report/run-report.ts';
import { addRunFile, hostileErrors } from './error-fixtures.ts';
import { loadRun, RUN_A } from './fixture-runs.ts';

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

async function withRunJson(text: string): Promise<string> {
  dir = await mkdtemp(join(tmpdir(), 'ndd-readrun-'));
  await writeFile(join(dir, 'run.json'), text);
  return dir;
}

describe('readRunFolder', () => {
  it('reads the fixture run with its two CSV files', async () => {
    const f = await readRunFolder(RUN_A);
    expect(f.run.experiment).toBe('tiny-sct');
    expect(f.tables.metricsCsv.split('\n')[0]).toMatch(/^experiment,variant,algorithm,/);
    expect(f.tables.extra).toEqual({});
  });
});

describe('readRunFolder of a folder its caller has just checked', () => {
  // distribution.csv changed in place, at its listed size: only its SHA-256 tells
  async function withChangedFile(): Promise<string> {
    dir = await mkdtemp(join(tmpdir(), 'ndd-readrun-'));
    await cp(RUN_A, dir, { recursive: true });
    const file = join(dir, 'distribution.csv');
    const text = await readFile(file, 'latin1');
    await writeFile(file, (text[0] === 'x' ? 'y' : 'x') + text.slice(1), 'latin1');
    return dir;
  }

  it('hashes the files again by default, and finds the change', async () => {
    await expect(readRunFolder(await withChangedFile())).rejects.toThrow(/distribution\.csv differs from the file run\.json lists/);
  });

  it('does not hash them again when checked (the run writing its own report)', async () => {
    const f = await readRunFolder(await withChangedFile(), { checked: true });
    expect(f.run.experiment).toBe('tiny-sct');
  });
});

describe('readRunFolder with the error lines its caller holds (the run writing its own report)', () => {
  const variant = loadRun(RUN_A).variants[1]!.name;

  /** A copy of run A with errors/<variant>.jsonl of the hostile documents for its second variant. */
  async function withErrors(bytes: Buffer): Promise<string> {
    dir = await mkdtemp(join(tmpdir(), 'ndd-readrun-'));
    await cp(RUN_A, dir, { recursive: true });
    await addRunFile(dir, 1, 'errors/broder/sct=4.jsonl', bytes, 'errors');
    return dir;
  }

  it('gives the report that reading the file gives', async () => {
    const { bytes, lines } = await hostileErrors();
    const d = await withErrors(bytes);
    const read = await readRunFolder(d);
    const held = await readRunFolder(d, { errorLines: new Map([[variant, lines]]) });
    expect(held.tables.errors).toHaveLength(1);
    expect(renderRunReport(held.run, held.tables)).toBe(renderRunReport(read.run, read.tables));
  });

  it('does not read the file of a variant whose lines it holds', async () => {
    const { bytes, lines } = await hostileErrors();
    const d = await withErrors(bytes);
    await writeFile(join(d, 'errors/broder/sct=4.jsonl'), 'not JSON\n');
    await expect(readRunFolder(d, { checked: true })).rejects.toThrow(/sct=4\.jsonl: line 1: invalid JSON/);
    expect((await readRunFolder(d, { checked: true, errorLines: new Map([[variant, lines]]) })).tables.errors?.[0]?.lines).toBe(lines);
  });
});

describe('readRunRecord errors', () => {
  it('says the folder is not a results folder when run.json is missing', async () => {
    dir = await mkdtemp(join(tmpdir(), 'ndd-readrun-'));
    await expect(readRunRecord(dir)).rejects.toThrow(UserError);
    await expect(readRunRecord(dir)).rejects.toThrow(/run\.json: not found/);
  });

  it('names the file for invalid JSON', async () => {
    const d = await withRunJson('{"schema_version": 1,');
    await expect(readRunRecord(d)).rejects.toThrow(DataError);
    await expect(readRunRecord(d)).rejects.toThrow(/run\.json: invalid JSON/);
  });

  it('names the field of another schema version', async () => {
    const d = await withRunJson('{"schema_version": 3}');
    await expect(readRunRecord(d)).rejects.toThrow(/run\.json: schema_version: expected 1 or 2, got 3$/);
  });
});

describe('readRunRecord of a run written before the measure registry (schema 1)', () => {
  it('turns the fixed columns into measures and a detector column into a measure of its own', async () => {
    const v1 = {
      schema_version: 1,
      status: 'completed',
      experiment: 'old',
      run_id: 'r',
      corpus: { documents: 12 },
      evaluate: {},
      environment: {},
      git: {},
      backend: { kind: 'local' },
      totals: {},
      variants: [
        { name: 'ground-truth', pairs: 7, metrics: { avg_error: 0, correlation: 1, f1_pairs: 1, pairs_compared: 9 }, runtime_s: 0.4, cpu_s: 0.6, peak_rss_mb: 90, cost_usd: 0, own_count: 172 },
      ],
    };
    const run = await readRunRecord(await withRunJson(JSON.stringify(v1)));
    expect(run.schema_version).toBe(2);
    expect(run.variants[0]?.measures).toMatchObject({ docs: 12, pairs: 7, avg_error: 0, correlation: 1, f1_pairs: 1, runtime_s: 0.4, own_count: 172 });
    expect(run.variants[0]?.pairs_compared).toBe(9);
    expect(run.measures.map((m) => m.key)).toContain('own_count');
  });
});
