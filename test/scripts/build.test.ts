/**
 * The built CLI (scripts/build.mjs, as `npm install` runs it): bin/bench.js runs it without tsx
 * while it is fresh, its worker threads load kernels and plans from the bundle (the module
 * table), and it gives the results the sources give; once a source is newer, the sources run.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VARYING_COLUMNS } from '../../harness/results/measures.ts';
import { SMALL_JSONL } from '../support/corpus.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'bench.js');
const PRELOAD = fileURLToPath(new URL('../fixtures/build/report-tsx.mjs', import.meta.url));
const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), 'build-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function bench(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string }> {
  const e: NodeJS.ProcessEnv = { ...process.env, CI: 'true', ...env };
  delete e.NODE_OPTIONS;
  return run(process.execPath, ['--import', PRELOAD, BIN, ...args], { env: e, cwd: ROOT });
}

const metrics = (runDir: string): string => {
  const [head, ...rows] = readFileSync(join(runDir, 'metrics.csv'), 'utf8').trim().split('\n') as [string, ...string[]];
  const keep = head.split(',').map((c) => !VARYING_COLUMNS.includes(c));
  return [head, ...rows].map((r) => r.split(',').filter((_, i) => keep[i]).join(',')).join('\n');
};

beforeAll(() => {
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'ignore' });
});

describe('the built CLI', () => {
  it('starts without tsx and lists its commands', async () => {
    const r = await bench(['--help']);
    expect(r.stderr).not.toContain('[tsx loaded]');
    expect(r.stdout).toMatch(/bench run <config>/);
    expect(r.stdout).toMatch(/bench cache/);
  });

  it('runs kernels and the text jobs on worker threads from the bundle, with the results of the sources', async () => {
    const results: Record<string, string> = {};
    for (const engine of ['auto', 'jobs']) {
      const config = join(dir, `${engine}.yaml`);
      writeFileSync(
        config,
        `experiment: ${engine}\ncorpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }\n` +
          `runs: [{ algorithm: broder, params: { sampling: { method: sct, threshold: [2] } } }, { algorithm: imatch }]\n` +
          `backend: { kind: local, workers: 2, engine: ${engine} }\n`,
      );
      const built = await bench(['run', config, '--out', join(dir, 'built')]);
      expect(built.stderr).not.toContain('[tsx loaded]');
      const sources = await bench(['run', config, '--out', join(dir, 'sources')], { NDD_BENCH_FROM_SOURCES: '1' });
      expect(sources.stderr).toContain('[tsx loaded]');
      const [a] = readdirSync(join(dir, 'built', engine));
      const [b] = readdirSync(join(dir, 'sources', engine));
      results[engine] = metrics(join(dir, 'built', engine, a!));
      expect(results[engine]).toBe(metrics(join(dir, 'sources', engine, b!)));
    }
    expect(results['jobs']!.split('\n').length).toBe(4);
  });

  // The bundle carries the npm packages but keeps the job-script bundler's own import.meta.url define.
  it('runs the streaming backend from the bundle, with the results of the sources', async () => {
    const config = join(dir, 'streaming.yaml');
    writeFileSync(
      config,
      `experiment: streaming\ncorpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }\n` +
        `runs: [{ algorithm: broder, params: { sampling: { method: sct, threshold: [2] } } }]\nbackend: { kind: streaming }\n`,
    );
    const built = await bench(['run', config, '--out', join(dir, 'built')]);
    expect(built.stderr).not.toContain('[tsx loaded]');
    const sources = await bench(['run', config, '--out', join(dir, 'sources')], { NDD_BENCH_FROM_SOURCES: '1' });
    expect(sources.stderr).toContain('[tsx loaded]');
    const [a] = readdirSync(join(dir, 'built', 'streaming'));
    const [b] = readdirSync(join(dir, 'sources', 'streaming'));
    expect(metrics(join(dir, 'built', 'streaming', a!))).toBe(metrics(join(dir, 'sources', 'streaming', b!)));
  });

  it('is not run once a source it was built from is newer', async () => {
    const source = join(ROOT, 'harness', 'corpus', 'registry.ts');
    const { atime, mtime } = statSync(source);
    utimesSync(source, atime, new Date(Date.now() + 60_000));
    try {
      expect((await bench(['--help'])).stderr).toContain('[tsx loaded]');
    } finally {
      utimesSync(source, atime, mtime);
    }
    expect((await bench(['--help'])).stderr).not.toContain('[tsx loaded]');
  });
});
