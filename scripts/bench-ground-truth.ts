/**
 * The ground truth against scipy (issue 13): on the bundled corpus, `bench run` of the
 * full-shingle Broder ground truth alone, as a whole process from start to exit, must take at
 * most a third of the time of a plain scipy sparse-matrix computation of the same pairs
 * (scripts/scipy_ground_truth.py), measured in the same session, the two alternating.
 *
 *   node --import tsx scripts/bench-ground-truth.ts [--reps 3]
 *
 * `bench run` is the built CLI (`npm run build` first, or bin/bench.js runs the sources through
 * tsx and the figure says so) with the quickstart's ground truth, corpus and evaluation and no
 * other variant, three times a repetition: with the cache cold (the mail parsed, the fingerprints
 * computed), with the corpus cached (the documents replayed, the fingerprints computed) and
 * warm (the documents and the fingerprint features replayed). scipy is given the documents' normalized texts (one JSON string a line,
 * written beforehand, outside its time) and cuts the same shingles. Both write the pairs at or
 * above min_score 0.1; they must be the same pairs with the same scores, else this fails. Wall
 * times are the best of the repetitions; CPU seconds are those of the same runs (children's
 * rusage, every thread).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { normalize } from '../algorithms/text/normalize.ts';
import { newCorpusStats, readCorpus } from '../harness/corpus/read.ts';
import { childrenCpuS } from './bench/context.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const MIN_SCORE = 0.1;

export interface ProcessFigures {
  /** best wall-clock seconds of the whole process */
  readonly wallS: number;
  /** CPU seconds (user + system, every thread) of that run */
  readonly cpuS: number;
}

export interface GroundTruthBenchFigures {
  readonly documents: number;
  readonly pairs: number;
  /** `bench run` with the corpus cache empty (the mail parsed) */
  readonly benchCold: ProcessFigures;
  /** `bench run` with the corpus cache filled (the documents replayed), the fingerprints computed */
  readonly benchCorpusWarm: ProcessFigures;
  /** `bench run` with the corpus and the fingerprint features replayed (runtime/stored-values.ts) */
  readonly benchWarm: ProcessFigures;
  readonly scipy: ProcessFigures;
  /** whether `bench run` ran the build (dist/cli) or the sources through tsx */
  readonly built: boolean;
}

function timed(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): ProcessFigures & { stdout: string } {
  const c0 = childrenCpuS();
  const t0 = performance.now();
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', env, maxBuffer: 1 << 26 });
  const wallS = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  // spawnSync waits for the child, whose CPU the kernel then adds to this process's children's.
  return { wallS, cpuS: childrenCpuS() - c0, stdout: r.stdout };
}

/** Whether bin/bench.js runs the build: dist/cli/build.json and no source newer (bin/bench.js's own check). */
export function freshBuild(): boolean {
  try {
    const { built, inputs } = JSON.parse(readFileSync(join(ROOT, 'dist', 'cli', 'build.json'), 'utf8')) as { built: number; inputs: string[] };
    return inputs.every((f) => statSync(join(ROOT, f)).mtimeMs <= built);
  } catch {
    return false;
  }
}

function best(runs: (ProcessFigures & { stdout: string })[]): ProcessFigures {
  const b = runs.reduce((x, y) => (y.wallS < x.wallS ? y : x));
  return { wallS: b.wallS, cpuS: b.cpuS };
}

/** The pairs of bench's pairs/ground-truth.csv.gz and of scipy's output, as "idA idB score" lines, sorted. */
function benchPairs(runDir: string): string[] {
  const csv = gunzipSync(readFileSync(join(runDir, 'pairs', 'ground-truth.csv.gz'))).toString('utf8');
  return csv
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(',').join(' '))
    .sort();
}

function scipyPairs(file: string, ids: readonly string[]): string[] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const [a, b, n, u] = l.split(' ').map(Number) as [number, number, number, number];
      return `${ids[a]} ${ids[b]} ${String(n / u)}`;
    })
    .sort();
}

export async function benchGroundTruth(opts: { reps?: number } = {}): Promise<GroundTruthBenchFigures> {
  const reps = opts.reps ?? 3;
  const dir = mkdtempSync(join(tmpdir(), 'bench-gt-'));
  try {
    const ids: string[] = [];
    const texts: string[] = [];
    for await (const d of readCorpus({ format: 'spamassassin' }, newCorpusStats())) {
      ids.push(d.id);
      texts.push(normalize(d.text));
    }
    const textsPath = join(dir, 'texts.jsonl');
    writeFileSync(textsPath, texts.map((t) => JSON.stringify(t)).join('\n') + '\n');
    const config = join(dir, 'gt.yaml');
    writeFileSync(
      config,
      [
        'experiment: ground-truth',
        'corpus: { format: spamassassin }',
        'ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 64, start: word }, fingerprint: rabin64, sampling: { method: none } } }',
        `evaluate: { threshold: 0.5, min_score: ${MIN_SCORE} }`,
        'backend: { kind: local }',
        '',
      ].join('\n'),
    );
    const cache = join(dir, 'cache');
    const env = { ...process.env, CI: 'true', NDD_BENCH_CACHE_DIR: cache };
    const bench = (tag: string, extra: string[] = []) =>
      timed(process.execPath, [join(ROOT, 'bin', 'bench.js'), 'run', config, '--out', join(dir, 'out'), '--run-id', tag, '--force', ...extra], env);
    const scipy = () => timed('python3', [join(ROOT, 'scripts', 'scipy_ground_truth.py'), textsPath, join(dir, 'scipy-pairs.txt'), String(MIN_SCORE)]);
    const cold: (ProcessFigures & { stdout: string })[] = [];
    const corpusWarm: (ProcessFigures & { stdout: string })[] = [];
    const warm: (ProcessFigures & { stdout: string })[] = [];
    const sci: (ProcessFigures & { stdout: string })[] = [];
    for (let rep = 0; rep < reps; rep++) {
      rmSync(cache, { recursive: true, force: true });
      cold.push(bench('cold'));
      sci.push(scipy());
      corpusWarm.push(bench('corpus-warm', ['--no-stored-values']));
      warm.push(bench('warm'));
    }
    const ours = benchPairs(join(dir, 'out', 'ground-truth', 'warm'));
    const theirs = scipyPairs(join(dir, 'scipy-pairs.txt'), ids);
    if (ours.length !== theirs.length || ours.some((l, i) => l !== theirs[i])) {
      const at = ours.findIndex((l, i) => l !== theirs[i]);
      throw new Error(`bench and scipy disagree: ${ours.length} and ${theirs.length} pairs; first difference: ${ours[at]} / ${theirs[at]}`);
    }
    for (const tag of ['cold', 'corpus-warm']) {
      if (benchPairs(join(dir, 'out', 'ground-truth', tag)).join('\n') !== ours.join('\n')) throw new Error(`the ${tag} and warm runs disagree`);
    }
    const replayed = (tag: string): unknown =>
      (JSON.parse(readFileSync(join(dir, 'out', 'ground-truth', tag, 'run.json'), 'utf8')) as { variants: { backend_extra?: { replayed?: unknown } }[] }).variants[0]?.backend_extra?.replayed;
    if (replayed('corpus-warm') !== undefined || replayed('warm') === undefined) throw new Error('the fingerprint features were not replayed on the warm run only');
    const built = freshBuild();
    return { documents: ids.length, pairs: ours.length, benchCold: best(cold), benchCorpusWarm: best(corpusWarm), benchWarm: best(warm), scipy: best(sci), built };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { reps: { type: 'string' } } });
  const f = await benchGroundTruth({ reps: values.reps === undefined ? 3 : Number(values.reps) });
  const line = (name: string, p: ProcessFigures) =>
    `  ${name.padEnd(26)} ${p.wallS.toFixed(2).padStart(6)} s wall  ${p.cpuS.toFixed(2).padStart(6)} CPU-s  ${(p.wallS / f.scipy.wallS).toFixed(2)}× scipy`;
  process.stdout.write(
    [
      `ground truth on the bundled corpus: ${f.documents} documents, ${f.pairs} pairs at RR >= ${MIN_SCORE} (the same from bench and scipy); bench ${f.built ? 'built (dist/cli)' : 'from the sources (tsx): npm run build first'}`,
      line('scipy sparse matrices', f.scipy),
      line('bench run, cache cold', f.benchCold),
      line('bench run, corpus cached', f.benchCorpusWarm),
      line('bench run, corpus+features', f.benchWarm),
      '',
    ].join('\n'),
  );
}
