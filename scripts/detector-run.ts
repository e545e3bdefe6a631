/**
 * One detector as one whole process over a file of texts, for the benchmarks that time whole
 * processes against the peers' (scripts/bench-scale-peers.ts, and scripts/minhash-lsh-run.ts):
 *
 *   node --import tsx scripts/detector-run.ts ALGORITHM PARAMS_JSON MIN_SCORE TEXTS.jsonl PAIRS.txt
 *
 * TEXTS.jsonl has one JSON string a line, or a corpus line {"id", "text"} (python/peers/
 * ndd_input.py), the text normalized already; PAIRS.txt gets "a b score" by document index, every
 * pair the plan reports at or above MIN_SCORE. The plan runs on the local backend, two worker
 * threads, seed 1. Prints one JSON line: documents, pairs, seconds, cpu_s, peak_rss_mb, counters.
 */
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import type { Counters, PairList } from '../contract/index.ts';
import { findAdapter } from '../algorithms/registry.ts';
import { createLocalBackend } from '../harness/mapreduce/local/backend.ts';

/** The texts of a file of JSON strings or corpus lines, read line by line: a million documents' are more than one string may hold. */
export async function readTexts(path: string): Promise<string[]> {
  const texts: string[] = [];
  for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    const v = JSON.parse(line) as string | { text: string };
    texts.push(typeof v === 'string' ? v : v.text);
  }
  return texts;
}

/** "a b score" lines, written in pieces: the lines of millions of pairs are more than one string may hold. */
export function writeIndexPairs(path: string, p: PairList): void {
  const fd = openSync(path, 'w');
  try {
    for (let from = 0; from < p.a.length; from += 1 << 16) {
      let piece = '';
      for (let i = from; i < Math.min(p.a.length, from + (1 << 16)); i++) piece += `${p.a[i]} ${p.b[i]} ${p.score[i]}\n`;
      writeSync(fd, piece);
    }
  } finally {
    closeSync(fd);
  }
}

/** Runs `algorithm` with `params` over the texts of `textsPath`, writes its pairs to `pairsPath`. */
export async function runDetector(o: { readonly algorithm: string; readonly params: unknown; readonly minScore: number; readonly textsPath: string; readonly pairsPath: string }): Promise<{ readonly documents: number; readonly pairs: number; readonly counters: Counters }> {
  const adapter = await findAdapter(o.algorithm);
  if (!adapter) throw new Error(`no detector named ${o.algorithm}`);
  const params = adapter.params.parse(o.params);
  const ctx = { minScore: o.minScore, seed: 1 };
  const plan = adapter.plan(params, ctx);
  // the worker threads start and load the kernel's modules while the input is read
  const backend = createLocalBackend({ workers: 2, memoryMb: 8192, pricePerVcpuHour: 0, engine: 'auto', preload: (plan.local?.workerModules ?? []).map((m) => m.url) });
  const work = mkdtempSync(join(tmpdir(), 'detector-run-'));
  try {
    const texts = await readTexts(o.textsPath);
    const r = await backend.run(
      { variant: o.algorithm, algorithm: o.algorithm, params, ...ctx, plan },
      { docs: { ids: texts.map((_, i) => String(i)), texts }, workDir: work, signal: new AbortController().signal, progress() {} },
    );
    writeIndexPairs(o.pairsPath, r.outputs.pairs);
    return { documents: texts.length, pairs: r.outputs.pairs.a.length, counters: r.counters };
  } finally {
    await backend.close();
    rmSync(work, { recursive: true, force: true });
  }
}

/** What a whole process reports of itself at its end. */
export function processFigures(t0: number): { readonly seconds: number; readonly cpu_s: number; readonly peak_rss_mb: number } {
  const cpu = process.cpuUsage();
  // since the process started, all threads
  return { seconds: (performance.now() - t0) / 1000, cpu_s: (cpu.user + cpu.system) / 1e6, peak_rss_mb: process.resourceUsage().maxRSS / 1024 };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [algorithm, paramsJson, minScore, textsPath, pairsPath] = process.argv.slice(2);
  if (!algorithm || !paramsJson || !minScore || !textsPath || !pairsPath) {
    process.stderr.write('usage: detector-run.ts ALGORITHM PARAMS_JSON MIN_SCORE TEXTS.jsonl PAIRS.txt\n');
    process.exit(2);
  }
  const t0 = performance.now();
  const r = await runDetector({ algorithm, params: JSON.parse(paramsJson), minScore: Number(minScore), textsPath, pairsPath });
  process.stdout.write(JSON.stringify({ documents: r.documents, pairs: r.pairs, ...processFigures(t0), counters: r.counters }) + '\n');
}
