/**
 * `node --import tsx scripts/bench-scale-ooc.ts CORPUS.jsonl[.gz] [--docs N] [--floor 0.1] [--full]`:
 * the ground truth's kernel (Broder, char-64 shingles, no sampling) on two worker threads, in
 * memory and out of core by prefix join (external-prefix.ts), and with --full the spilled full
 * join, on the first N documents. Prints each one's time (wall and CPU of the process) and
 * counters; exit 1 when the pairs from the floor up or the counters differ.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { adapter as broder } from '../algorithms/broder/index.ts';
import { runExternal, type ExternalTuning } from '../algorithms/broder/external.ts';
import type { Counters, DocumentSet, KernelResult } from '../contract/index.ts';
import { makeKernelContext } from '../harness/runtime/kernel-context.ts';
import { WorkerPool } from '../harness/runtime/pool.ts';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const file = process.argv[2];
if (!file) throw new Error('usage: bench-scale-ooc.ts CORPUS.jsonl[.gz] [--docs N] [--floor 0.1] [--full]');
const limit = Number(option('docs') ?? 20_000);
const floor = Number(option('floor') ?? 0.1);
const raw = readFileSync(file);
const text = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
const texts: string[] = [];
for (const line of text.split('\n')) {
  if (line === '' || texts.length >= limit) continue;
  texts.push((JSON.parse(line) as { text: string }).text);
}
const docs: DocumentSet = { ids: texts.map((_, i) => `d${i}`), texts };
const params = broder.params.parse({ shingle: { unit: 'char', size: 64, start: 'word' } });
const pool = new WorkerPool(2);

async function timed(name: string, run: (k: ReturnType<typeof makeKernelContext>['ctx']) => Promise<KernelResult>): Promise<{ rows: string; counters: Counters }> {
  const work = mkdtempSync(join(tmpdir(), 'bench-scale-ooc-'));
  const counters: Counters = {};
  try {
    const k = makeKernelContext({
      docs,
      tasks: { parallelism: 2, run: (task, payload) => pool.run(task, payload), worthThreads: () => true },
      memoryBudgetBytes: 2 ** 34,
      workDir: work,
      signal: new AbortController().signal,
      cache: new Map(),
      counters,
      progress: () => undefined,
    }).ctx;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const r = await run(k);
    const cpu = process.cpuUsage(cpu0);
    const rows = Array.from(r.pairs.a, (a, i) => `${a} ${r.pairs.b[i]} ${r.pairs.score[i]}`).join('\n');
    // The worker threads' CPU is the process'.
    console.log(`${name}: ${r.pairs.a.length} pairs from ${floor}; wall ${((performance.now() - t0) / 1000).toFixed(2)} s, CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s; ${JSON.stringify(counters)}`);
    return { rows, counters };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const plan = broder.plan(params, { minScore: floor, seed: 0 });
const local = plan.local;
if (!local) throw new Error('broder has no local kernel');
console.log(`${texts.length} documents, ${texts.reduce((s, t) => s + t.length, 0)} characters`);
const outOfCore = (tuning: ExternalTuning) => (k: Parameters<typeof local.run>[0]) => runExternal(k, params, floor, tuning);
const results = [await timed('in memory (prefix join)', (k) => local.run(k)), await timed('out of core (prefix join)', outOfCore({ prefixJoin: 'always' }))];
if (process.argv.includes('--full')) results.push(await timed('out of core (spilled full join)', outOfCore({ prefixJoin: 'never' })));
await pool.close();
const [first, ...rest] = results as [(typeof results)[0], ...typeof results];
const same = rest.every((r) => r.rows === first.rows && JSON.stringify(r.counters) === JSON.stringify(first.counters));
console.log(same ? 'pairs and counters identical' : 'DIFFERENT pairs or counters');
if (!same) process.exitCode = 1;
