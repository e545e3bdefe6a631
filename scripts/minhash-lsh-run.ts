/**
 * MinHash-LSH as one process, for the comparison with datasketch in `npm run bench:ci`:
 *
 *   node --import tsx scripts/minhash-lsh-run.ts TEXTS.jsonl PAIRS.txt [PERMUTATIONS] [THRESHOLD]
 *
 * The input and output are those of scripts/datasketch_minhash_lsh.py (one JSON string a line,
 * or a corpus line {"id", "text"}; "a b score" a pair): the `minhash` detector's plan with its defaults (char-64 shingles, Rabin
 * fingerprints, k-permutation signatures, bands and rows chosen for the threshold, verification
 * by estimated Jaccard) on the local backend, two worker threads, seed 1. Prints one JSON line.
 */
import { closeSync, createReadStream, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { adapter } from '../algorithms/minhash/index.ts';
import { createLocalBackend } from '../harness/mapreduce/local/backend.ts';

const [textsPath, pairsPath, perms = '128', threshold = '0.5'] = process.argv.slice(2);
if (!textsPath || !pairsPath) {
  process.stderr.write('usage: minhash-lsh-run.ts TEXTS.jsonl PAIRS.txt [PERMUTATIONS] [THRESHOLD]\n');
  process.exit(2);
}
const t0 = performance.now();
const params = adapter.params.parse({ permutations: Number(perms), threshold: Number(threshold) });
const ctx = { minScore: Number.MIN_VALUE, seed: 1 };
const plan = adapter.plan(params, ctx);
// the worker threads start and load the kernel's modules while the input is read
const backend = createLocalBackend({ workers: 2, memoryMb: 4096, pricePerVcpuHour: 0, engine: 'auto', preload: (plan.local?.workerModules ?? []).map((m) => m.url) });
// Read line by line: a million documents' texts are more than one string may hold.
const texts: string[] = [];
for await (const line of createInterface({ input: createReadStream(textsPath, 'utf8'), crlfDelay: Infinity })) {
  if (line.trim() === '') continue;
  const v = JSON.parse(line) as string | { text: string };
  texts.push(typeof v === 'string' ? v : v.text);
}
const docs = { ids: texts.map((_, i) => String(i)), texts };
const work = mkdtempSync(join(tmpdir(), 'minhash-lsh-'));
try {
  const r = await backend.run(
    { variant: 'minhash', algorithm: 'minhash', params, ...ctx, plan },
    { docs, workDir: work, signal: new AbortController().signal, progress() {} },
  );
  const p = r.outputs.pairs;
  // in pieces: the lines of millions of pairs are more than one string may hold
  const fd = openSync(pairsPath, 'w');
  try {
    for (let from = 0; from < p.a.length; from += 1 << 16) {
      let piece = '';
      for (let i = from; i < Math.min(p.a.length, from + (1 << 16)); i++) piece += `${p.a[i]} ${p.b[i]} ${p.score[i]}\n`;
      writeSync(fd, piece);
    }
  } finally {
    closeSync(fd);
  }
  process.stdout.write(
    JSON.stringify({
      documents: texts.length,
      fingerprints: r.counters['minhash-signatures']?.['fingerprints'] ?? 0,
      candidates: r.counters['minhash-candidates']?.['candidate_pairs'] ?? 0,
      pairs: p.a.length,
      seconds: (performance.now() - t0) / 1000,
      // since the process started, all threads
      cpu_s: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
      peak_rss_mb: process.resourceUsage().maxRSS / 1024,
    }) + '\n',
  );
} finally {
  await backend.close();
  rmSync(work, { recursive: true, force: true });
}
