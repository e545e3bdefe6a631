/**
 * Results that cannot lose data or lie (issue 16), through the real runner on a small corpus:
 * run ids are names, a foreign folder is never replaced, one writer per run id, runs tied to
 * their inputs, dead runs' leftovers removed, and --resume giving the uninterrupted run's CSVs.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AlgorithmAdapter } from '../../../contract/index.ts';
import { keptNoteOf, UserError } from '../../../harness/errors.ts';
import { runExperiment, type RunOptions } from '../../../harness/experiment/runner.ts';
import { VARYING_COLUMNS } from '../../../harness/results/measures.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';
import { quiet, runOptions } from '../../support/run-options.ts';
import { TEST_DETECTORS } from '../../contract/detectors/catalog.ts';
import { deadPid } from '../../support/dead-pid.ts';

let root: string;
let corpus: string;
let config: string;


beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'run-safety-'));
  corpus = join(root, 'small.jsonl');
  copyFileSync(fileURLToPath(SMALL_JSONL), corpus);
  config = join(root, 'small.yaml');
  writeFileSync(
    config,
    `experiment: small
corpus: { format: jsonl, path: ${corpus} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: broder
    params: { shingle: { unit: char, size: 16 }, sampling: { method: sct, threshold: [5, 2] } }
  - algorithm: broder
    params: { shingle: { unit: char, size: 16 }, sampling: { method: mod, m: [2] } }
backend: { kind: local, workers: 1 }
`,
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function options(out: string, over: Partial<RunOptions> = {}): RunOptions {
  return runOptions(config, join(root, out), { notice: () => {}, ...over });
}

const csvWithoutTimings = (file: string): string => {
  const rows = readFileSync(file, 'utf8').trim().split('\n').map((r) => r.split(','));
  const keep = (rows[0] as string[]).map((c) => !VARYING_COLUMNS.includes(c));
  return rows.map((r) => r.filter((_, i) => keep[i]).join(',')).join('\n');
};

describe('run ids', () => {
  it.each(['../../precious', '', '/tmp/abs', 'a/b', '.hidden', 'x'.repeat(101), 'tab\there'])('refuses %j with a one-line UserError, writing nothing', async (id) => {
    const out = join(root, 'ids');
    await expect(runExperiment(options('ids', { runId: id }))).rejects.toThrow(UserError);
    await expect(runExperiment(options('ids', { runId: id }))).rejects.toThrow(/^--run-id '.*': a run id is 1 to 100 letters/);
    expect(existsSync(out)).toBe(false);
  });

  it('cannot reach a folder outside the results folder: the file in it survives', async () => {
    const precious = join(root, 'precious');
    mkdirSync(precious, { recursive: true });
    writeFileSync(join(precious, 'thesis.tex'), 'years of work');
    await expect(runExperiment(options('x/results', { runId: '../../precious', earlier: { complete: 'replace' } }))).rejects.toThrow(UserError);
    expect(readFileSync(join(precious, 'thesis.tex'), 'utf8')).toBe('years of work');
  });
});

describe('the results path', () => {
  it('is never replaced when it is not a run folder of the experiment, even with --force', async () => {
    const target = join(root, 'foreign', 'small', 'mine');
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'notes.txt'), 'mine');
    await expect(runExperiment(options('foreign', { runId: 'mine', earlier: { complete: 'replace' } }))).rejects.toThrow(/foreign\/small\/mine exists and is not a run folder \(it has no run\.json\): refusing to replace it/);
    expect(readdirSync(target)).toEqual(['notes.txt']);
    expect(readdirSync(join(root, 'foreign', 'small'))).toEqual(['mine']);
  });
});

describe('one writer per run id', () => {
  it('refuses a second run of the same id while the first writes, naming it, and the first completes whole', async () => {
    // The first run's last variant waits until the second run has been answered: the race is
    // exactly "a second run starts the moment the first has written its ground truth".
    let open: () => void = () => {};
    const gateOpen = new Promise<void>((resolve) => (open = resolve));
    const gate: AlgorithmAdapter = {
      name: 'gate',
      description: 'test: waits for the second run',
      citation: 'none',
      params: z.object({}).strict(),
      plan: () => ({
        jobs: [],
        output: { pairs: 'p', score: { kind: 'other', why: 'a gate' }, decisions: { kind: 'every-reported-pair' } },
        local: {
          memoryBytes: () => 0,
          run: async () => {
            await gateOpen;
            return { pairs: { a: new Uint32Array(0), b: new Uint32Array(0), score: new Float64Array(0) } };
          },
        },
      }),
    };
    const detectors = { ...TEST_DETECTORS, adapters: [...TEST_DETECTORS.adapters, gate] };
    const gated = join(root, 'gated.yaml');
    writeFileSync(gated, readFileSync(config, 'utf8').replace(/runs:[\s\S]*?backend:/, 'runs:\n  - algorithm: gate\nbackend:'));
    let second: Promise<unknown> | undefined;
    const first = runExperiment(
      runOptions(gated, join(root, 'race'), {
        runId: 'r',
        detectors,
        notice: () => {},
        progress: {
          ...quiet,
          log: (line) => {
            if (second === undefined && line.includes('ground-truth')) {
              second = runExperiment(runOptions(gated, join(root, 'race'), { runId: 'r', detectors, notice: () => {} })).then(
                (outcome) => outcome,
                (e: unknown) => e,
              );
              void second.finally(open);
            }
          },
        },
      }),
    );
    const done = await first;
    const err = await second;
    expect(err).toBeInstanceOf(UserError);
    expect(String((err as Error).message)).toMatch(new RegExp(`race/small/r is being written by pid ${process.pid} on ${hostname()} since \\S+: wait for that run`));
    if (done.kind !== 'completed') throw new Error('expected the first run to complete');
    const listed = done.record.files.map((f) => f.path);
    expect(listed).toEqual(['distribution.csv', 'errors/gate.jsonl', 'metrics.csv', 'pairs/gate.csv.gz', 'pairs/ground-truth.csv.gz', 'size-groups.csv']);
    for (const f of listed) expect(existsSync(join(done.dir, f))).toBe(true);
    expect(readdirSync(join(root, 'race', 'small'))).toEqual(['r']);
  });

  it('takes over the lock and removes the temporary folder of a run whose process is dead, with a notice', async () => {
    const dir = join(root, 'stale', 'small');
    mkdirSync(dir, { recursive: true });
    const pid = deadPid();
    writeFileSync(join(dir, '.lock-s'), JSON.stringify({ pid, host: hostname(), started: '2026-01-01T00:00:00.000Z' }));
    mkdirSync(join(dir, `.partial-s-${pid}`));
    writeFileSync(join(dir, `.partial-s-${pid}`, 'metrics.csv'), 'half');
    const notices: string[] = [];
    const r = await runExperiment(options('stale', { runId: 's', notice: (l) => notices.push(l) }));
    expect(r.kind).toBe('completed');
    expect(readdirSync(dir)).toEqual(['s']);
    expect(notices).toEqual([
      `note: removed the stale lock of ${join(dir, 's')} (pid ${pid} started 2026-01-01T00:00:00.000Z is gone)`,
      `note: removed ${join(dir, `.partial-s-${pid}`)}, left by a run that was killed (pid ${pid})`,
    ]);
  });
  it('removes killed runs’ work folders from the user’s own temp folder only, never another user’s in the shared one', async () => {
    const shared = mkdtempSync(join(tmpdir(), 'shared-tmp-'));
    const pid = deadPid();
    const mine = join(shared, `ndd-bench-${process.getuid?.() ?? ''}`);
    mkdirSync(join(mine, `run-${pid}-x`), { recursive: true, mode: 0o700 });
    // What another user's run, or an older version, left in the shared temp folder.
    mkdirSync(join(shared, `ndd-bench-${pid}-theirs`));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = shared;
    try {
      const notices: string[] = [];
      const r = await runExperiment(options('workdirs', { runId: 'w', notice: (l) => notices.push(l) }));
      expect(r.kind).toBe('completed');
      expect(notices).toEqual([`note: removed ${join(mine, `run-${pid}-x`)}, left by a run that was killed (pid ${pid})`]);
      expect(readdirSync(mine)).toEqual([]);
      expect(existsSync(join(shared, `ndd-bench-${pid}-theirs`))).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
      rmSync(shared, { recursive: true, force: true });
    }
  });
  it('releases the lock and leaves nothing when a step after taking it fails before the run starts', async () => {
    const notADir = join(root, 'tmp-is-a-file');
    writeFileSync(notADir, 'not a folder');
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = notADir;
    try {
      await expect(runExperiment(options('setup-fails', { runId: 'f' }))).rejects.toThrow(UserError);
      await expect(runExperiment(options('setup-fails', { runId: 'f' }))).rejects.toThrow(/cannot create the temp folder for this user's runs \(ENOTDIR\); set TMPDIR/);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    // No lock, no partial folder: the experiment's results folder went with them.
    expect(existsSync(join(root, 'setup-fails', 'small'))).toBe(false);
    // A run of the same id is not refused by a leaked lock of this (living) process.
    expect((await runExperiment(options('setup-fails', { runId: 'f' }))).kind).toBe('completed');
    expect(readdirSync(join(root, 'setup-fails', 'small'))).toEqual(['f']);
  });
});

describe('a run tied to its inputs', () => {
  it('is already complete on the same inputs, and refuses to keep or replace silently after the corpus changed', async () => {
    const first = await runExperiment(options('inputs', { runId: 'i' }));
    expect(first.kind).toBe('completed');
    expect((await runExperiment(options('inputs', { runId: 'i' }))).kind).toBe('already-complete');
    const original = readFileSync(corpus, 'utf8');
    try {
      writeFileSync(corpus, `${original}{"id": "new", "text": "a document added after the first run"}\n`);
      const err = await runExperiment(options('inputs', { runId: 'i' })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UserError);
      expect((err as Error).message).toMatch(/inputs\/small\/i is a complete run of this config on other inputs \(.*small\.jsonl changed \(1 files, .* → 1 files, .*\)\): --force replaces it/);
      const forced = await runExperiment(options('inputs', { runId: 'i', earlier: { complete: 'replace' } }));
      if (forced.kind !== 'completed') throw new Error('expected a forced run');
      expect(forced.record.corpus.documents).toBe(first.kind === 'completed' ? first.record.corpus.documents + 1 : NaN);
    } finally {
      writeFileSync(corpus, original);
    }
  });
});

describe('a late failure', () => {
  it('says on its error what was kept and how to finish, and the run resumes with nothing run again', async () => {
    const failed = await runExperiment(
      options('late', {
        runId: 'l',
        writeReport: () => Promise.reject(new Error('a bug in the report')),
      }),
    ).catch((e: unknown) => e);
    expect((failed as Error).message).toBe('a bug in the report');
    expect(keptNoteOf(failed)).toMatch(/^4 of 4 variants are saved in .*\.resume-l; to finish the run: bench run .* --run-id l --resume$/);
    const resumed = await runExperiment(options('late', { runId: 'l', earlier: { checkpoint: 'resume' } }));
    if (resumed.kind !== 'completed') throw new Error('expected a resumed run');
    expect(resumed.record.resumed).toHaveLength(4);
  });
});

describe('--resume', () => {
  it('finishes an interrupted run with the uninterrupted run’s CSVs and pairs, and records what it resumed', async () => {
    const clean = await runExperiment(options('clean', { runId: 'c' }));
    if (clean.kind !== 'completed') throw new Error('expected a clean run');
    // interrupted after two of the four variants
    const c = new AbortController();
    let finished = 0;
    const notices: string[] = [];
    const interrupted = runExperiment(
      options('resume', {
        runId: 'c',
        signal: c.signal,
        notice: (l) => notices.push(l),
        progress: { ...quiet, log: () => void (++finished === 2 && c.abort(new Error('interrupted'))) },
      }),
    );
    await expect(interrupted).rejects.toThrow(/^interrupted: 2 of 4 variants are saved in .*; to finish the run: bench run .* --run-id c --resume$/);
    expect(notices).toEqual([]);
    // Run again without --resume, the saved variants are not thrown away: the run is refused.
    await expect(runExperiment(options('resume', { runId: 'c' }))).rejects.toThrow(/an earlier run of this id saved 2 of 4 variants .*--force starts over$/);
    expect(existsSync(join(root, 'resume', 'small', 'c'))).toBe(false);
    const resumed = await runExperiment(options('resume', { runId: 'c', earlier: { checkpoint: 'resume' } }));
    if (resumed.kind !== 'completed') throw new Error('expected a resumed run');
    expect(resumed.record.resumed).toEqual(['ground-truth', 'broder/sct=5']);
    expect(csvWithoutTimings(join(resumed.dir, 'metrics.csv'))).toBe(csvWithoutTimings(join(clean.dir, 'metrics.csv')));
    for (const f of ['distribution.csv', 'pairs/ground-truth.csv.gz', 'pairs/broder/sct=5.csv.gz', 'pairs/broder/sct=2.csv.gz', 'pairs/broder/mod=2.csv.gz']) {
      expect(readFileSync(join(resumed.dir, f)).equals(readFileSync(join(clean.dir, f)))).toBe(true);
    }
    // the checkpoint is gone once the run is complete
    expect(readdirSync(join(root, 'resume', 'small'))).toEqual(['c']);
  });
});

describe('a run that fails', () => {
  it('leaves no results folder, lock or temporary folder behind', async () => {
    const bad = join(root, 'bad.jsonl');
    writeFileSync(bad, '{"id": "a", "text": "fine"}\nnot json\n');
    const cfg = join(root, 'bad.yaml');
    writeFileSync(cfg, readFileSync(config, 'utf8').replace(corpus, bad).replace('corpus: {', 'corpus: { strict: true,'));
    const out = join(root, 'failing');
    await expect(runExperiment(runOptions(cfg, out, { notice: () => {} }))).rejects.toThrow(UserError);
    expect(existsSync(out) ? readdirSync(out) : []).toEqual([]);
  });
});
