/**
 * The quickstart's slice on Hadoop's local mode (issue 25: "the local-mode run of the
 * quickstart's slice in the tens of seconds"): `configs/quickstart.yaml` on its first N mails
 * (default 1,000; all 20 variants, 40 jobs) with `{ kind: hadoop, installation: pinned,
 * map_tasks: 2, reduce_tasks: 2 }`, then the same on `local`; each run one whole `bench run`
 * process measured by scripts/measure_process.py (wall, CPU of the process and every process it
 * waited for, peak RSS), with the load average before and after (the machine is shared: CPU
 * seconds are the figure to compare). The two runs' pairs files (decompressed) and counters must
 * be the same; the script says whether they are. Figures go to docs/performance.md.
 *
 *   node --import tsx scripts/bench-hadoop-slice.ts [--docs 1000] [--only-hadoop] [--json FILE]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

interface Measured {
  readonly wall_s: number;
  readonly cpu_s: number;
  readonly peak_rss_mb: number;
  readonly load_before: number;
  readonly load_after: number;
  /** run.json: the variants' seconds, and (hadoop) the job server's and task processes' CPU seconds */
  readonly variants_s: number;
  readonly jvm_and_task_cpu_s?: number;
  readonly jobs?: number;
}

interface RunJson {
  readonly totals: { readonly variants_s: number };
  readonly variants: readonly { readonly name: string; readonly counters: unknown; readonly backend_extra?: { readonly jvm_and_task_cpu_s?: number; readonly jobs?: readonly unknown[] } }[];
}

function run(config: string, backend: string, out: string): Measured {
  const figures = join(out, `${backend}.figures.json`);
  const load_before = loadavg()[0]!;
  const r = spawnSync('python3', [join(ROOT, 'scripts/measure_process.py'), figures, join(ROOT, 'bench'), 'run', config, '--backend', backend, '--out', out, '--run-id', backend], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) throw new Error(`bench run --backend ${backend} exited with ${r.status}`);
  const f = JSON.parse(readFileSync(figures, 'utf8')) as { wall_s: number; cpu_s: number; peak_rss_mb: number };
  const runJson = readRun(out, backend);
  const extras = runJson.variants.map((v) => v.backend_extra ?? {});
  return {
    ...f,
    load_before,
    load_after: loadavg()[0]!,
    variants_s: runJson.totals.variants_s,
    ...(backend === 'hadoop'
      ? { jvm_and_task_cpu_s: extras.reduce((s, e) => s + (e.jvm_and_task_cpu_s ?? 0), 0), jobs: extras.reduce((s, e) => s + (e.jobs?.length ?? 0), 0) }
      : {}),
  };
}

function readRun(out: string, id: string): RunJson {
  return JSON.parse(readFileSync(join(out, 'quickstart', id, 'run.json'), 'utf8')) as RunJson;
}

/** Every pairs file under a run's `pairs/`, decompressed, by its path. */
function pairsFiles(dir: string, prefix = ''): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) for (const [k, v] of pairsFiles(path, `${prefix}${name}/`)) files.set(k, v);
    else files.set(`${prefix}${name}`, gunzipSync(readFileSync(path)));
  }
  return files;
}

function same(out: string): { readonly pairs_files: number; readonly pairs_identical: boolean; readonly counters_identical: boolean } {
  const a = pairsFiles(join(out, 'quickstart', 'hadoop', 'pairs'));
  const b = pairsFiles(join(out, 'quickstart', 'local', 'pairs'));
  const pairsIdentical = a.size === b.size && [...a].every(([k, v]) => b.get(k)?.equals(v) === true);
  // key order follows the order a backend met the counters in: compared sorted
  const counters = (id: string) => JSON.stringify(readRun(out, id).variants.map((v) => [v.name, sorted(v.counters)]));
  return { pairs_files: a.size, pairs_identical: pairsIdentical, counters_identical: counters('hadoop') === counters('local') };
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted((value as Record<string, unknown>)[k])]));
}

function main(): void {
  const { values } = parseArgs({ options: { docs: { type: 'string', default: '1000' }, 'only-hadoop': { type: 'boolean', default: false }, json: { type: 'string' } } });
  const docs = Number(values.docs);
  if (!Number.isInteger(docs) || docs < 1) throw new Error(`--docs ${values.docs}: a whole number of mails, at least 1`);
  const out = mkdtempSync(join(tmpdir(), 'bench-hadoop-slice-'));
  try {
    const quickstart = readFileSync(join(ROOT, 'configs/quickstart.yaml'), 'utf8');
    const config = join(out, 'quickstart-slice.yaml');
    const corpusLine = /^ {2}format: spamassassin.*$/m;
    if (!corpusLine.test(quickstart)) throw new Error('configs/quickstart.yaml: its corpus is no longer `format: spamassassin`; update this script');
    writeFileSync(
      config,
      `${quickstart.replace(corpusLine, `  format: spamassassin\n  limit: ${docs}`)}\nbackends:\n  - { kind: hadoop, installation: pinned, map_tasks: 2, reduce_tasks: 2 }\n`,
    );
    const hadoop = run(config, 'hadoop', out);
    const local = values['only-hadoop'] ? undefined : run(config, 'local', out);
    const result = { docs, hadoop, ...(local ? { local, ...same(out) } : {}) };
    console.log(JSON.stringify(result, null, 2));
    if (values.json) writeFileSync(values.json, `${JSON.stringify(result, null, 2)}\n`);
    const checks = result as { pairs_identical?: boolean; counters_identical?: boolean };
    if (local && !(checks.pairs_identical && checks.counters_identical)) process.exitCode = 1;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

main();
