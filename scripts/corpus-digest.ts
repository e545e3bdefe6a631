/**
 * The exact documents and skips a reader produces, as digests: a check that a faster reader
 * (or the corpus cache) gives byte for byte what the reference gives.
 *
 *   node --import tsx scripts/corpus-digest.ts FORMAT [PATH] [--docs] [--workers=N] [--cache=DIR]
 *
 * Prints one JSON object: the number of documents, a SHA-256 over every document (id, text and
 * meta, in order), the stats (read, kept, skipped and recovered by reason) and every skip as
 * it was reported (file, offset, id, reason, detail, kind). With `--docs`, one line a document
 * (id and the SHA-256 of its text) follows, to find the first that differs.
 */
import { createHash } from 'node:crypto';
import { corpusCacheFromEnv } from '../harness/corpus/cache.ts';
import { newCorpusStats, readCorpus } from '../harness/corpus/read.ts';

const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const perDoc = process.argv.includes('--docs');
const workersArg = process.argv.find((a) => a.startsWith('--workers='));
const workers = workersArg === undefined ? undefined : Number(workersArg.slice('--workers='.length));
const cacheArg = process.argv.find((a) => a.startsWith('--cache='));
const cache = cacheArg === undefined ? undefined : corpusCacheFromEnv({ NDD_BENCH_CACHE_DIR: cacheArg.slice('--cache='.length) });
const [format, path] = args;
if (!format) {
  process.stderr.write('usage: corpus-digest.ts FORMAT [PATH] [--docs]\n');
  process.exit(2);
}
const stats = newCorpusStats();
const all = createHash('sha256');
const lines: string[] = [];
let docs = 0;
const t0 = performance.now();
const cpu0 = process.cpuUsage();
let error: string | undefined;
try {
  for await (const d of readCorpus({ format, ...(path ? { path } : {}), ...(workers === undefined ? {} : { workers }), ...(cache ? { cache } : {}) }, stats)) {
    const line = JSON.stringify([d.id, d.text, d.meta ?? null]);
    all.update(line).update('\n');
    docs++;
    if (perDoc) lines.push(`${d.id}\t${createHash('sha256').update(d.text).digest('hex').slice(0, 16)}`);
  }
} catch (e) {
  // A reader's error is part of what it does: the message is compared too.
  error = `${(e as Error).name}: ${(e as Error).message}`;
}
const cpu = process.cpuUsage(cpu0);
process.stderr.write(`cache: ${stats.cache}; ${docs} documents in ${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${((cpu.user + cpu.system) / 1e6).toFixed(2)} CPU-s\n`);
process.stdout.write(
  `${JSON.stringify(
    {
      docs,
      ...(error === undefined ? {} : { error }),
      digest: all.digest('hex'),
      read: stats.read,
      kept: stats.kept,
      skipped: stats.skipped,
      recovered: stats.recovered,
      skips: stats.skips,
    },
    null,
    1,
  )}\n`,
);
if (perDoc) process.stdout.write(`${lines.join('\n')}\n`);
