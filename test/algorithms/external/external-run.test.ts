/**
 * `algorithm: external` through the real runner: a Python detector that computes exact Jaccard
 * from the definitions gives the ground truth's measures; hostile commands give counted skips,
 * strict errors and one-line failures; other backends refuse it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { explainFromRun } from '../../../harness/commands/explain.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { InterruptedError, isUserError } from '../../../harness/errors.ts';
import type { RunRecord } from '../../../harness/results/types.ts';
import { SMALL_JSONL } from '../../support/corpus.ts';
import { skipsWithout } from '../../support/required-tool.ts';
import { runOptions } from '../../support/run-options.ts';

const EXACT = fileURLToPath(new URL('../../fixtures/external/exact_jaccard.py', import.meta.url));
const hasPython = spawnSync('python3', ['--version']).status === 0;

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'external-run-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A config of the small corpus with these runs (YAML lines under `runs:`), and its file. */
function config(runs: string, extra = ''): string {
  const file = join(root, `c${++n}.yaml`);
  writeFileSync(
    file,
    `experiment: ext${n}
corpus: { format: jsonl, path: ${fileURLToPath(SMALL_JSONL)} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
${runs}
evaluate: { threshold: 0.5, min_score: 0.1, distribution: [0.5] }
backend: { kind: local, workers: 1 }
${extra}`,
  );
  return file;
}

function script(name: string, body: string): string {
  const path = join(root, name);
  writeFileSync(path, body);
  return path;
}

async function run(file: string, over: Parameters<typeof runOptions>[2] = {}): Promise<RunRecord> {
  const out = await runExperiment(runOptions(file, join(root, 'results'), { notice: () => undefined, ...over }));
  if (out.kind !== 'completed') throw new Error(out.kind);
  return out.record;
}

/** A run of `sh PROGRAM {output}`, the program named relative to the config (both are in `root`). */
const shRun = (program: string, extra = ''): string => `  - algorithm: external
    name: ext
    params: { program: ${basename(program)}, command: [sh, "{program}", "{output}"]${extra} }`;

describe.skipIf(skipsWithout(hasPython, 'the external detector run in Python', 'python3 is not on PATH'))('an external detector in Python', () => {
  it('computing exact Jaccard from the definitions gives exactly the ground truth\'s pairs and measures', async () => {
    const rec = await run(
      config(`  - algorithm: external
    name: exact
    params:
      program: ${EXACT}
      command: [python3, "{program}", --corpus, "{corpus}", --output, "{output}", --size, "{size}"]
      args: { size: [16, 8] }
      score: resemblance
      decisions: score-at-threshold`),
    );
    const [truth, v16, v8] = rec.variants;
    expect(v16?.name).toBe('exact/size=16');
    // The same shingles as strings instead of Rabin fingerprints: the same scores.
    expect(v16?.measures).toMatchObject({ pairs: truth?.measures.pairs, avg_error: 0, correlation: 1, precision_pairs: 1, recall_pairs: 1 });
    expect(v8?.measures.avg_error).toBeGreaterThan(0);
    expect(v16?.counters.external).toMatchObject({ lines_skipped_malformed: 0, lines_skipped_unknown_id: 0, output_pairs: truth?.measures.pairs });
    const tree = v16?.backend_extra?.process_tree as { cpu_s: number; peak_rss_mb: number };
    expect(tree.peak_rss_mb).toBeGreaterThan(1);
    expect(v16?.measures.cpu_s).toBeGreaterThanOrEqual(tree.cpu_s);
  });
});

describe('external variants on the leaderboard', () => {
  it('are each in the series of their run, named in the config, across a sweep', async () => {
    const pair = script('pair.sh', 'printf "b0,b0-edit\\n" > "$1"\n');
    const runs = ['one', 'two'].map((name) => `  - algorithm: external
    name: ${name}
    params: { program: ${basename(pair)}, command: [sh, "{program}", "{output}"], args: { k: [1, 2] } }`);
    const rec = await run(config(runs.join('\n')));
    expect(rec.variants.map((v) => [v.name, v.series])).toEqual([
      ['ground-truth', undefined],
      ['one/k=1', 'one'],
      ['one/k=2', 'one'],
      ['two/k=1', 'two'],
      ['two/k=2', 'two'],
    ]);
  });
});

describe('an external command’s own output', () => {
  it('is kept with the run, and its errors and bench explain show the command’s own line for a pair', async () => {
    // b0 and b3 are unrelated: a false positive; b0 and b0-edit a true positive
    const pair = script('own.sh', 'printf "b3,b0, 1\\nb0,b0-edit,1\\n" > "$1"\n');
    const rec = await run(config(shRun(pair, ', score: other, decisions: every-reported-pair')));
    const dir = join(root, 'results', rec.experiment, rec.run_id);
    const v = rec.variants[1];
    expect(v?.files.map((f) => f.file)).toContain('kept/ext/output.pairs.csv.gz');
    expect(gunzipSync(readFileSync(join(dir, 'kept/ext/output.pairs.csv.gz'))).toString('utf8')).toBe('b3,b0, 1\nb0,b0-edit,1\n');
    const errors = readFileSync(join(dir, 'errors/ext.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; explanation: { a: { id: string }; b: { id: string }; evidence: { summary: string; lines: string[] } } });
    const fp = errors.find((e) => e.kind === 'false positive');
    expect([fp?.explanation.a.id, fp?.explanation.b.id]).toEqual(['b0', 'b3']);
    expect(fp?.explanation.evidence.summary).toBe('output.pairs.csv line 1 names the pair');
    expect(fp?.explanation.evidence.lines).toEqual(['output.pairs.csv line 1: b3,b0, 1']);
    const shown = await explainFromRun({ run: dir, variant: 'ext', docA: 'b0', docB: 'b0-edit', noCache: true });
    expect(shown.explanation.evidence?.lines).toEqual(['output.pairs.csv line 2: b0,b0-edit,1']);
  });
});

describe('an external detector that misbehaves', () => {
  it('has its malformed and unknown-id lines counted and named in run.json', async () => {
    const s = script('skips.sh', 'printf "b0,b0-edit\\nb0,nobody\\nb1,b1-edit,0.9,extra\\nlist0,list1\\n" > "$1"\n');
    const rec = await run(config(shRun(s)));
    const v = rec.variants[1];
    expect(v?.measures.pairs).toBe(2);
    expect(v?.counters.external).toMatchObject({ lines_read: 4, lines_skipped_malformed: 1, lines_skipped_unknown_id: 1, output_pairs: 2 });
    expect(v?.warnings).toEqual([
      `skips.sh's pairs:2: a document id not in the corpus: "nobody" (skipped)`,
      `skips.sh's pairs:3: not doc_a,doc_b[,score] (2 fields): "b1,b1-edit,0.9,extra" (skipped)`,
    ]);
  });

  it('fails at its first bad line under --strict', async () => {
    const s = script('strict.sh', 'printf "b0,b0-edit\\nb0,nobody\\n" > "$1"\n');
    const err = await run(config(shRun(s)), { inputs: { skips: 'fail' } }).catch((e: unknown) => e);
    expect(isUserError(err)).toBe(true);
    expect((err as Error).message).toBe(`strict.sh's pairs:2: a document id not in the corpus: "nobody" (strict mode)`);
  });

  it('fails in one line when it exits non-zero or writes no output file, and keeps nothing', async () => {
    const fails = script('fails.sh', 'echo "no such model" >&2\nexit 2\n');
    const err = await run(config(shRun(fails))).catch((e: unknown) => e);
    expect(isUserError(err)).toBe(true);
    expect((err as Error).message).toBe('fails.sh: the command sh exited with code 2: no such model');
    const quiet = script('quiet.sh', 'exit 0\n');
    await expect(run(config(shRun(quiet)))).rejects.toThrow("quiet.sh's pairs: the command ended without writing its output (pairs) to {output}");
  });

  it('with an empty output has no pairs and a warning', async () => {
    const empty = script('empty.sh', ': > "$1"\n');
    const v = (await run(config(shRun(empty)))).variants[1];
    expect(v?.measures.pairs).toBe(0);
    expect(v?.warnings).toContain("empty.sh's pairs: the command wrote no pairs");
  });

  it('is refused by another backend in one line before anything runs', async () => {
    const s = script('never.sh', 'exit 9\n');
    const file = config(shRun(s), 'backends:\n  - { kind: streaming, map_tasks: 1, reduce_tasks: 1 }\n');
    const err = await run(file, { backendKind: 'streaming' }).catch((e: unknown) => e);
    expect(isUserError(err)).toBe(true);
    expect((err as Error).message).toBe(`${file}: variant ext: the streaming backend cannot run algorithm external (it runs a command on this machine and has no MapReduce jobs): run it on the local backend`);
  });

  it('with a program that does not exist fails before anything runs', async () => {
    const err = await run(config(shRun(join(root, 'absent.sh')))).catch((e: unknown) => e);
    expect(isUserError(err)).toBe(true);
    expect((err as Error).message).toBe(`${join(root, 'absent.sh')}: no such file (the external detector's program)`);
  });

  it('stops at its timeout', async () => {
    const s = script('sleeps.sh', 'sleep 60\n');
    await expect(run(config(shRun(s, ', timeout_s: 0.3')))).rejects.toThrow('sleeps.sh: the command sh did not finish within timeout_s 0.3: its process tree was stopped');
  });

  it('is stopped with its children when the run is interrupted, and the run keeps nothing', async () => {
    const pids = join(root, 'interrupted.pids');
    const s = script('interrupted.sh', `sleep 300 &\necho $! > ${pids}\nwait\n`);
    const ac = new AbortController();
    const running = run(config(shRun(s)), { signal: ac.signal });
    const end = Date.now() + 20_000;
    while (!(existsSync(pids) && readFileSync(pids, 'utf8').trim() !== '') && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    const child = Number(readFileSync(pids, 'utf8'));
    ac.abort(new Error('SIGINT'));
    const err = await running.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect((err as Error).message).toMatch(/^interrupted: 1 of 2 variants are saved/);
    const gone = Date.now() + 5000;
    let alive = true;
    while (alive && Date.now() < gone) {
      try {
        process.kill(child, 0);
        await new Promise((r) => setTimeout(r, 20));
      } catch {
        alive = false;
      }
    }
    expect(alive).toBe(false);
  });
});
