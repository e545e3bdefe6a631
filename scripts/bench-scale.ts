/**
 * `npm run bench:scale`: the cost curve and the out-of-core figures of issue 13. A long run (an
 * hour or more at 1,000,000 documents on two cores), so it is not part of `bench:ci`.
 *
 *   1. corpora: `bench synth scale` at each size (--sizes), made once into --data
 *   2. `bench run configs/scale.yaml` on each (local backend, memory_mb 8192): wall time, CPU
 *      seconds and peak RSS of the whole process (GNU time), and per variant from run.json
 *   3. the first --slice documents of the largest corpus, in memory and out of core: their
 *      pairs files must be identical; and the largest run's ground-truth and mod pairs among
 *      those documents must equal the in-memory ones (their scores depend on the two documents
 *      only; SCT's depend on the whole corpus)
 *   4. --streaming N: the same config on the streaming backend over the N-document corpus
 *
 * The runs are written under --out (`./bench report <out>` draws the curve).
 * Figures go to results/baselines/bench-scale.json with --update, else are compared with it.
 * Exit 1 when a check of pairs fails or a peak exceeds memory_mb.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { machine } from '../harness/results/environment.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const BASELINE = join(ROOT, 'results', 'baselines', 'bench-scale.json');

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? (process.argv[i + 1] as string) : fallback;
}
const sizes = option('sizes', '10000,100000,1000000').split(',').map(Number);
const data = resolve(option('data', join(ROOT, 'results', 'scale-corpora')));
const out = resolve(option('out', join(ROOT, 'results', 'scale-runs')));
const slice = Number(option('slice', '100000'));
const streaming = process.argv.includes('--streaming') ? Number(option('streaming', '100000')) : null;
const update = process.argv.includes('--update');
const budgetMb = 8192;

interface Figure {
  readonly value: number;
  readonly unit: string;
}
const figures: Record<string, Figure> = {};
const record = (name: string, value: number, unit: string): void => {
  figures[name] = { value, unit };
  process.stdout.write(`  ${name}: ${Number.isInteger(value) ? value : value.toFixed(3)} ${unit}\n`);
};
let failed = false;
const fail = (why: string): void => {
  failed = true;
  process.stdout.write(`  FAILED: ${why}\n`);
};

interface Measured {
  readonly wallS: number;
  readonly cpuS: number;
  readonly peakMb: number;
}

/** Runs `bench` with GNU time around it when there is one: wall, CPU (user + system) and peak RSS. */
function bench(args: readonly string[], env: NodeJS.ProcessEnv = {}): Measured {
  const timeFile = join(data, '.time');
  const gnuTime = existsSync('/usr/bin/time');
  const command = gnuTime ? '/usr/bin/time' : process.execPath;
  const argv = [...(gnuTime ? ['-f', '%e %U %S %M', '-o', timeFile, process.execPath] : []), join(ROOT, 'bin', 'bench.js'), ...args];
  const t0 = performance.now();
  const r = spawnSync(command, argv, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, CI: 'true', ...env } });
  const wallS = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`bench ${args.join(' ')} exited with ${r.status ?? r.signal}`);
  if (!gnuTime) return { wallS, cpuS: NaN, peakMb: NaN };
  const [wall, user, sys, maxKb] = readFileSync(timeFile, 'utf8').trim().split(/\s+/).slice(-4).map(Number) as [number, number, number, number];
  return { wallS: wall, cpuS: user + sys, peakMb: maxKb / 1024 };
}

interface RunJson {
  readonly corpus: { readonly documents: number; readonly read_s: number };
  readonly totals: { readonly total_s: number; readonly cpu_s: number; readonly peak_rss_mb: number };
  readonly variants: readonly { readonly name: string; readonly measures: Record<string, number | null>; readonly backend_extra?: Record<string, unknown> }[];
}

const runJson = (dir: string): RunJson => JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as RunJson;

/** A variant's pairs file as its rows (doc_a, doc_b, score), header left out. */
function pairRows(runDir: string, variant: string): string[] {
  const text = gunzipSync(readFileSync(join(runDir, 'pairs', `${variant}.csv.gz`))).toString('utf8');
  return text.split('\n').slice(1).filter((l) => l !== '');
}

/** configs/scale.yaml with another memory_mb, and optionally a document limit. */
function configVariant(name: string, memoryMb: number, limit?: number): string {
  let text = readFileSync(join(ROOT, 'configs', 'scale.yaml'), 'utf8').replace(/memory_mb: \d+/, `memory_mb: ${memoryMb}`);
  if (limit !== undefined) text = text.replace('  path: ${SCALE_DIR}/corpus.jsonl.gz\n', `  path: \${SCALE_DIR}/corpus.jsonl.gz\n  limit: ${limit}\n`);
  const file = join(data, `${name}.yaml`);
  writeFileSync(file, text);
  return file;
}

mkdirSync(data, { recursive: true });
const corpus = (n: number): string => join(data, `scale-${n}`);

process.stdout.write(`corpora (bench synth scale) in ${data}:\n`);
for (const n of sizes) {
  if (existsSync(corpus(n))) continue;
  const m = bench(['synth', 'scale', '--documents', String(n), '--out', join(data, `scale-${n}`)]);
  record(`synth.${n}.wall_s`, m.wallS, 's');
}

process.stdout.write(`\nconfigs/scale.yaml on the local backend, memory_mb ${budgetMb}:\n`);
const runDir = (id: string): string => join(out, 'scale', id);
for (const n of sizes) {
  const m = bench(['run', join(ROOT, 'configs', 'scale.yaml'), '--out', out, '--run-id', `local-${n}`, '--force', '--no-stored-values'], { SCALE_DIR: corpus(n) });
  const run = runJson(runDir(`local-${n}`));
  record(`local.${n}.wall_s`, m.wallS, 's');
  record(`local.${n}.cpu_s`, m.cpuS, 's');
  // GNU time's maximum RSS is the kernel's high-water mark, which the runner resets at every
  // variant (per-variant peaks): the process's peak is the larger of it and the variants' peaks.
  const peakMb = Math.max(m.peakMb, ...run.variants.map((v) => v.measures['peak_rss_mb'] ?? 0));
  record(`local.${n}.peak_rss_mb`, peakMb, 'MB');
  record(`local.${n}.read_s`, run.corpus.read_s, 's');
  for (const v of run.variants) {
    const key = `local.${n}.${v.name}`;
    record(`${key}.runtime_s`, v.measures['runtime_s'] ?? NaN, 's');
    record(`${key}.cpu_s`, v.measures['cpu_s'] ?? NaN, 's');
    record(`${key}.peak_rss_mb`, v.measures['peak_rss_mb'] ?? NaN, 'MB');
    record(`${key}.spill_mb`, v.measures['spill_mb'] ?? NaN, 'MB');
    record(`${key}.pairs`, v.measures['pairs'] ?? NaN, 'pairs');
    process.stdout.write(`    ${v.name}: ${v.backend_extra?.['out_of_core'] ? 'out of core' : 'in memory'}\n`);
  }
  if (peakMb > budgetMb) fail(`peak RSS ${peakMb.toFixed(0)} MB at ${n} documents is over memory_mb ${budgetMb}`);
}

const largest = Math.max(...sizes);
if (largest > slice) {
  process.stdout.write(`\nthe first ${slice} documents of the ${largest}-document corpus, in memory and out of core:\n`);
  const inMemory = bench(['run', configVariant('slice-in-memory', budgetMb, slice), '--out', out, '--run-id', `slice-${slice}-in-memory`, '--force', '--no-stored-values'], { SCALE_DIR: corpus(largest) });
  const outOfCore = bench(['run', configVariant('slice-out-of-core', 1024, slice), '--out', out, '--run-id', `slice-${slice}-out-of-core`, '--force', '--no-stored-values'], { SCALE_DIR: corpus(largest) });
  const mem = runJson(runDir(`slice-${slice}-in-memory`));
  const ext = runJson(runDir(`slice-${slice}-out-of-core`));
  const peak = (m: Measured, r: RunJson): number => Math.max(m.peakMb, r.totals.peak_rss_mb);
  record(`slice.${slice}.in_memory.wall_s`, inMemory.wallS, 's');
  record(`slice.${slice}.in_memory.peak_rss_mb`, peak(inMemory, mem), 'MB');
  record(`slice.${slice}.out_of_core_1024.wall_s`, outOfCore.wallS, 's');
  record(`slice.${slice}.out_of_core_1024.peak_rss_mb`, peak(outOfCore, ext), 'MB');
  if (peak(outOfCore, ext) > 1024) fail(`peak RSS ${peak(outOfCore, ext).toFixed(0)} MB of the out-of-core slice is over its memory_mb 1024`);
  for (const v of mem.variants) {
    const how = (r: RunJson): unknown => r.variants.find((x) => x.name === v.name)?.backend_extra?.['out_of_core'];
    if (how(mem) !== undefined || how(ext) === undefined) fail(`${v.name}: expected the slice in memory at ${budgetMb} MB and out of core at 1024 MB`);
    const a = pairRows(runDir(`slice-${slice}-in-memory`), v.name);
    const b = pairRows(runDir(`slice-${slice}-out-of-core`), v.name);
    const same = a.length === b.length && a.every((row, i) => row === b[i]);
    process.stdout.write(`  ${v.name}: ${a.length} pairs in memory, ${b.length} out of core: ${same ? 'identical' : 'DIFFERENT'}\n`);
    if (!same) fail(`${v.name}: the out-of-core pairs of the slice differ from the in-memory ones`);
    record(`slice.${slice}.${v.name}.pairs_equal`, same ? 1 : 0, '');
  }
  // Pair scores of the ground truth and of mod sampling depend on the two documents only.
  const bound = `doc-${String(slice).padStart(7, '0')}`;
  for (const name of ['ground-truth', 'broder/mod=64']) {
    const whole = pairRows(runDir(`local-${largest}`), name).filter((row) => {
      const [a, b] = row.split(',');
      return (a as string) < bound && (b as string) < bound;
    });
    const part = pairRows(runDir(`slice-${slice}-in-memory`), name);
    const same = whole.length === part.length && whole.every((row, i) => row === part[i]);
    process.stdout.write(`  ${name}: the ${largest}-document run's pairs among the first ${slice} documents ${same ? 'equal' : 'DIFFER FROM'} the in-memory slice's (${whole.length} and ${part.length})\n`);
    if (!same) fail(`${name}: the ${largest}-document run's pairs among the slice differ from the in-memory slice's`);
    record(`slice.${slice}.${name}.equals_largest_run`, same ? 1 : 0, '');
  }
}

if (streaming !== null) {
  process.stdout.write(`\nconfigs/scale.yaml on the streaming backend, ${streaming} documents:\n`);
  const m = bench(['run', join(ROOT, 'configs', 'scale.yaml'), '--backend', 'streaming', '--out', out, '--run-id', `streaming-${streaming}`, '--force', '--no-stored-values'], { SCALE_DIR: corpus(streaming) });
  record(`streaming.${streaming}.wall_s`, m.wallS, 's');
  record(`streaming.${streaming}.cpu_s`, m.cpuS, 's');
  const run = runJson(runDir(`streaming-${streaming}`));
  for (const v of run.variants) record(`streaming.${streaming}.${v.name}.runtime_s`, v.measures['runtime_s'] ?? NaN, 's');
  const local = existsSync(runDir(`local-${streaming}`)) ? runJson(runDir(`local-${streaming}`)) : null;
  for (const v of run.variants) {
    if (!local) break;
    const same = pairRows(runDir(`streaming-${streaming}`), v.name).join('\n') === pairRows(runDir(`local-${streaming}`), v.name).join('\n');
    process.stdout.write(`  ${v.name}: streaming pairs ${same ? 'equal' : 'DIFFER FROM'} the local backend's\n`);
    if (!same) fail(`${v.name}: streaming and local pairs differ at ${streaming} documents`);
  }
}

const current = { date: new Date().toISOString(), machine: machine(), git: gitCommit(), sizes, figures };
if (existsSync(BASELINE) && !update) {
  const base = JSON.parse(readFileSync(BASELINE, 'utf8')) as { date: string; figures: Record<string, Figure> };
  process.stdout.write(`\ncompared with ${BASELINE} (${base.date}):\n`);
  for (const [name, f] of Object.entries(figures)) {
    const b = base.figures[name];
    if (!b || !b.value) continue;
    process.stdout.write(`  ${name.padEnd(56)} ${b.value.toFixed(1).padStart(10)} → ${f.value.toFixed(1).padStart(10)} ${f.unit.padEnd(5)} ×${(f.value / b.value).toFixed(2)}\n`);
  }
} else {
  writeFileSync(BASELINE, JSON.stringify(current, null, 2) + '\n');
  process.stdout.write(`\nwrote ${BASELINE}\n`);
}
rmSync(join(data, '.time'), { force: true });
if (failed) process.exitCode = 1;

function gitCommit(): string | null {
  try {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {
    return null;
  }
}
