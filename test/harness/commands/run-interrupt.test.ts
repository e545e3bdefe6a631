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
  readonly stderr: string;
}

/** Runs `bench run`; `interruptWhen` is polled and SIGINT sent once it holds. */
function bench(args: string[], interruptWhen?: () => boolean): Promise<Exit> {
  return new Promise((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true' };
    delete env.NODE_OPTIONS;
    const child = spawn(process.execPath, [BENCH, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
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
    child.on('close', (code) => {
      if (timer) clearInterval(timer);
      resolve({ code, stderr });
    });
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
    expect(stopped.stderr).toMatch(/note: \d+ of 11 variants are saved in .*\.resume-r; `bench run .* --resume`/);
    expect(readdirSync(join(out, 'qs'))).toEqual(['.resume-r']);
    expect(existsSync(join(out, 'qs', 'r'))).toBe(false);

    const resumed = await bench(['run', config, '--out', out, '--run-id', 'r', '--resume']);
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
