/** The `bench` executable as users run it: exit codes and one-line errors. */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMALL_JSONL } from '../support/corpus.ts';
import { runBench } from '../support/cli.ts';


const bench = runBench;
const BENCH = fileURLToPath(new URL('../../bin/bench.js', import.meta.url));

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('bench CLI', () => {
  it('lists the algorithms with parameters, defaults and descriptions', async () => {
    const r = await bench(['list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^broder — /m);
    expect(r.stdout).toMatch(/shingle\{unit: char\}\.size: integer \(default 64\)/);
    expect(r.stdout).toMatch(/sampling\{method: adaptive\}\.groups\[\]\.m: integer — modulus/);
    expect(r.stdout).toMatch(/sampling\{method: sct\}\.threshold: integer — SCT/);
  });

  it('explains the summary\'s column names in `bench run --help`, the detectors\' own included', async () => {
    const r = await bench(['run', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}cand_red% +Reduction of candidate pairs against the ground truth, %$/m);
    expect(r.stdout).toMatch(/^ {2}mr1_red% +Reduction of MR#1 output pairs against the ground truth, % \(broder\)$/m);
    expect(r.stdout).toMatch(/^ {2}clus +Mean cluster size, every document with a fingerprint \(Table 6\.2\) \(simhash\)$/m);
  });

  it('ends quietly, exit 0, when the reader of its output has gone (bench list | head)', async () => {
    const child = spawn(process.execPath, [BENCH, 'list'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
    child.stdout.destroy(); // the reader is gone before the first line
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', done));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('exits 2 with one line naming file, line and field for a config error', async () => {
    const f = join(dir, 'bad.yaml');
    writeFileSync(f, `experiment: bad\ncorpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }\nrunz: []\n`);
    const r = await bench(['validate', f]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`${f}:3:1: runz: unknown key 'runz'`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('validates the corpus too: an empty one exits 2 naming the file, a readable one names its first document', async () => {
    const empty = join(dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const f = join(dir, 'empty.yaml');
    writeFileSync(f, `experiment: e\ncorpus: { format: jsonl, path: ${empty} }\n`);
    const r = await bench(['validate', f]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`error: ${empty}: no documents read (no records found)\n`);
    const ok = join(dir, 'small.yaml');
    writeFileSync(ok, `experiment: s\ncorpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }\n`);
    const first = JSON.parse(readFileSync(SMALL_JSONL, 'utf8').split('\n')[0] ?? '{}') as { id: string };
    const v = await bench(['validate', ok]);
    expect(v.code).toBe(0);
    expect(v.stdout).toContain(`jsonl corpus (readable; first document "${first.id}")`);
  });

  it('exits 2 when a ${VAR} is missing, saying where to get it', async () => {
    const f = join(dir, 'gov2.yaml');
    writeFileSync(f, 'experiment: g\ncorpus:\n  format: trecweb\n  path: ${GOV2_ROOT}\n');
    const r = await bench(['run', f, '--out', join(dir, 'out')], { GOV2_ROOT: '' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/GOV2_ROOT/);
  });

  it('exits 2 for an unknown command or option', async () => {
    expect((await bench(['frobnicate'])).code).toBe(2);
    expect((await bench(['run', 'x.yaml', '--frob'])).code).toBe(2);
  });

  it('runs a config, prints the summary and the results path, quiet when not a TTY', async () => {
    const f = join(dir, 'ok.yaml');
    writeFileSync(
      f,
      `experiment: ok\ncorpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }\nruns: [{ algorithm: broder, params: { sampling: { method: mod, m: [2] } } }]\nbackend: { kind: local, workers: 1 }\n`,
    );
    const r = await bench(['run', f, '--out', join(dir, 'out')]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ground-truth\s+\d+\s+0\.0000\s+1\.0000/m);
    expect(r.stdout).toMatch(/^broder\/mod=2\s/m);
    expect(r.stdout).toMatch(new RegExp(`^results: ${join(dir, 'out', 'ok')}/[0-9a-f]{12}$`, 'm'));
    expect(r.stderr).toBe('');
  });

  it('turns a skipped record into exit 2 with --strict, naming the file and byte offset', async () => {
    const f = join(dir, 'strict.yaml');
    // the anserini TREC-web segment has a <DOC> without <DOCNO> at byte 223 (grep -bo '<DOC>')
    const segment = fileURLToPath(new URL('../../../shared/fixtures/anserini/trecweb-segment1.txt', import.meta.url));
    writeFileSync(f, `experiment: strict\ncorpus:\n  format: trecweb\n  path: ${segment}\n`);
    const lenient = await bench(['corpus', f, '--count']);
    expect(lenient.code).toBe(0);
    expect(lenient.stdout).toBe('2\n');
    const strict = await bench(['corpus', f, '--count', '--strict']);
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain(`error: ${segment}: byte 223: missing-docno`);
  });
});
