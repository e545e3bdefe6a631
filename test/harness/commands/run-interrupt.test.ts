/**
 * `bench run` as a user runs it: SIGINT during the sampling variants of the quickstart (on its
 * first 1,500 mails, to stay fast) exits 130 leaving no results folder, only the checkpoint;
 * `--resume` finishes the run with the CSVs and pairs of an uninterrupted run.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VARYING_COLUMNS } from '../../../harness/results/measures.ts';

const BENCH = fileURLToPath(new URL('../../../bin/bench.js', import.meta.url));
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
let root: string;
let config: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'interrupt-'));
  config = join(root, 'qs.yaml');
  writeFileSync(
    config,
    `experiment: qs
corpus: { format: spamassassin, limit: 1500 }
runs:
  - algorithm: broder
    params: { sampling: { method: mod, m: [2, 4, 8, 16, 32, 64] } }
  - algorithm: broder
    params: { sampling: { method: sct, threshold: [100, 50, 20, 10] } }
backend: { kind: local, workers: 2 }
`,
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Exit {
  readonly code: number | null;
  /** the signal that ended the process, when it did not exit */
  readonly signal?: NodeJS.Signals | null;
  readonly stderr: string;
}

/** Runs `bench run`; `interruptWhen` is polled and SIGINT sent once it holds. */
function bench(args: string[], interruptWhen?: () => boolean): Promise<Exit> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, [BENCH, ...args], { env, cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = interruptWhen
      ? setInterval(() => {
          if (interruptWhen()) {
            clearInterval(timer);
            child.kill('SIGINT');
          }
        }, 20)
      : undefined;
    child.on('close', (code, signal) => {
      if (timer) clearInterval(timer);
      resolve({ code, signal, stderr });
    });
  });
}

/** Runs a command line through the shell, as a user pasting it would. */
function shell(command: string): Promise<Exit> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
    delete env.NODE_OPTIONS;
    const child = spawn('sh', ['-c', command], { env, cwd: REPO, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

const savedVariants = (dir: string): number => {
  try {
    return Object.keys((JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { variants: object }).variants).length;
  } catch {
    return 0;
  }
};

const withoutTimings = (file: string): string => {
  const rows = readFileSync(file, 'utf8').trim().split('\n').map((r) => r.split(','));
  const keep = (rows[0] as string[]).map((c) => !VARYING_COLUMNS.includes(c));
  return rows.map((r) => r.filter((_, i) => keep[i]).join(',')).join('\n');
};

describe('bench run interrupted and resumed', () => {
  it('exits 130 on SIGINT during the variants, keeps only the checkpoint, and --resume gives the uninterrupted CSVs', async () => {
    const clean = await bench(['run', config, '--out', join(root, 'clean'), '--run-id', 'r']);
    expect(clean.code).toBe(0);
    const out = join(root, 'out');
    const checkpoint = join(out, 'qs', '.resume-r');
    const stopped = await bench(['run', config, '--out', out, '--run-id', 'r'], () => savedVariants(checkpoint) >= 3);
    expect(stopped.code).toBe(130);
    // One line: what was kept and the command that finishes the run, with every option it had.
    const line = /^interrupted: \d+ of 11 variants are saved in (.*); to finish the run: (.*)\n$/.exec(stopped.stderr);
    expect(line?.[1]).toBe(checkpoint);
    // Started from the checkout's folder, the CLI names itself as the README does.
    expect(line?.[2]).toBe(`./bench run ${config} --out ${out} --run-id r --resume`);
    expect(readdirSync(join(out, 'qs'))).toEqual(['.resume-r']);
    expect(existsSync(join(out, 'qs', 'r'))).toBe(false);

    // The same command without --resume would start over: it is refused, and the checkpoint kept.
    const again = await bench(['run', config, '--out', out, '--run-id', 'r']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^error: .*: an earlier run of this id saved \d+ of 11 variants \(.*\.resume-r\): `\.\/bench run .* --resume` finishes it; --force starts over\n$/);
    expect(readdirSync(join(out, 'qs'))).toEqual(['.resume-r']);

    // The printed command, as the shell runs it.
    const resumed = await shell(line?.[2] ?? 'false');
    expect(resumed.code).toBe(0);
    const dir = join(out, 'qs', 'r');
    const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { resumed: string[] };
    expect(run.resumed.length).toBeGreaterThanOrEqual(3);
    expect(run.resumed[0]).toBe('ground-truth');
    const cleanDir = join(root, 'clean', 'qs', 'r');
    expect(withoutTimings(join(dir, 'metrics.csv'))).toBe(withoutTimings(join(cleanDir, 'metrics.csv')));
    expect(readFileSync(join(dir, 'distribution.csv')).equals(readFileSync(join(cleanDir, 'distribution.csv')))).toBe(true);
    for (const f of readdirSync(join(cleanDir, 'pairs', 'broder'))) {
      expect(readFileSync(join(dir, 'pairs', 'broder', f)).equals(readFileSync(join(cleanDir, 'pairs', 'broder', f)))).toBe(true);
    }
    expect(readdirSync(join(out, 'qs'))).toEqual(['r']);
  }, 120_000);
});

describe('an interrupt before a command has anything to stop', () => {
  it('says in one line what was kept, and exits 130', async () => {
    // SIGINT soon after the start: while the CLI loads, or reads the corpus. Once Node runs
    // bin/bench.js, whatever the moment, there is a line and exit 130; before that (seconds on a
    // busy machine) Node's own default ends the process by the signal, silently. Either way
    // nothing is written; later tries give the CLI the time to be there at least once.
    const reached: string[] = [];
    for (const [i, delayMs] of [500, 1500, 4000].entries()) {
      const started = Date.now();
      const id = `e${i}`;
      const stopped = await bench(['run', config, '--out', join(root, 'early'), '--run-id', id], () => Date.now() - started > delayMs);
      expect(existsSync(join(root, 'early', 'qs', id))).toBe(false);
      if (stopped.code === null) {
        expect(stopped.signal).toBe('SIGINT');
        expect(stopped.stderr).toBe('');
        continue;
      }
      expect(stopped.code).toBe(130);
      expect(stopped.stderr).toMatch(/^interrupted(: nothing was written| before any variant finished: nothing was kept|: \d+ of 11 variants are saved in .*|: the ground truth's run, before its evaluation, is saved in .*)\n$/);
      reached.push(id);
      break;
    }
    expect(reached).toHaveLength(1);
  }, 60_000);
});
