/**
 * PPJoin against SetSimilaritySearch (ekzhu/SetSimilaritySearch, the Python all-pairs library
 * with prefix and position filters) on the bundled corpus's char-64 shingle sets: the same pairs,
 * and how long each takes.
 *
 *   node --import tsx scripts/bench-setsimilaritysearch.ts SETSIM_CHECKOUT [T ...]
 *
 * SETSIM_CHECKOUT is a folder holding the library's sources (e.g. `git archive` of its
 * repository into a scratch folder); it is never copied into this repository. The sets are the
 * ones both Broder and PPJoin join (distinct rabin64 fingerprints, as hex), written one document a
 * line; the Python side is timed whole-process (interpreter start, import, reading the sets,
 * the join) and by phase. PPJoin is timed as a variant on the local backend, two threads, from
 * documents in memory (shingling included), and as its join alone (index and probe, one thread,
 * from the ranked sets).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { adapter } from '../algorithms/ppjoin/index.ts';
import { joinRange } from '../algorithms/ppjoin/join.ts';
import { buildIndex, processingOrder } from '../algorithms/ppjoin/order.ts';
import { joinSettings } from '../algorithms/ppjoin/settings.ts';
import { rankTokens, signatures } from '../algorithms/ppjoin/tokens.ts';
import { fingerprintSlice, mergeSlices } from '../algorithms/text/features.ts';
import { fingerprintHex, shingleFingerprints } from '../algorithms/text/fingerprint.ts';
import { normalize } from '../algorithms/text/normalize.ts';
import { newCorpusStats, readCorpus } from '../harness/corpus/read.ts';
import { createLocalBackend } from '../harness/mapreduce/local/backend.ts';

const cpuSeconds = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1e6;
const [checkout, ...ts] = process.argv.slice(2);
if (!checkout) {
  process.stderr.write('usage: node --import tsx scripts/bench-setsimilaritysearch.ts SETSIM_CHECKOUT [T ...]\n');
  process.exit(2);
}
const thresholds = ts.length > 0 ? ts.map(Number) : [0.5, 0.9];
const DRIVER = fileURLToPath(new URL('./setsim-all-pairs.py', import.meta.url));
const shingle = { unit: 'char', size: 64, start: 'word' } as const;

const texts: string[] = [];
for await (const d of readCorpus({ format: 'spamassassin' }, newCorpusStats())) texts.push(d.text);
const docs = { ids: texts.map((_, i) => String(i)), texts };
const dir = mkdtempSync(join(tmpdir(), 'setsim-'));
const setsFile = join(dir, 'sets.txt');
const lines = texts.map((t) => {
  const fps = shingleFingerprints(normalize(t), shingle, 'rabin64');
  const distinct = new Set<string>();
  for (let i = 0; i < fps.count; i++) distinct.add(fingerprintHex(fps.data, i, 2));
  return [...distinct].join(' ');
});
writeFileSync(setsFile, lines.join('\n') + '\n');
process.stdout.write(`${texts.length} documents, ${lines.reduce((s, l) => s + (l ? l.split(' ').length : 0), 0)} tokens\n`);

const tokens = mergeSlices([fingerprintSlice({ texts, firstDoc: 0, shingle, kind: 'rabin64' })]);
const ranked = rankTokens(tokens);
const order = processingOrder(ranked);

for (const t of thresholds) {
  // SetSimilaritySearch, whole process
  const out = join(dir, `setsim-${t}.txt`);
  const t0 = performance.now();
  const report = execFileSync('python3', [DRIVER, setsFile, String(t), out], { env: { ...process.env, PYTHONPATH: checkout }, encoding: 'utf8' });
  const pythonWall = (performance.now() - t0) / 1000;
  const py = JSON.parse(report) as { import_s: number; read_s: number; join_s: number; join_cpu_s: number; process_cpu_s: number; pairs: number };

  // PPJoin as a variant: local backend, 2 threads, documents in memory
  const params = adapter.params.parse({ threshold: t });
  const ctx = { minScore: Number.MIN_VALUE, seed: 1 };
  const backend = createLocalBackend({ workers: 2, memoryMb: 4096, pricePerVcpuHour: 0.05, engine: 'auto' });
  const work = mkdtempSync(join(tmpdir(), 'setsim-pp-'));
  await backend.run(
    { variant: 'warm', algorithm: 'ppjoin', params, ...ctx, plan: adapter.plan(params, ctx) },
    { docs: { ids: ['a'], texts: ['warm up'] }, workDir: work, signal: new AbortController().signal, progress() {} },
  );
  const t1 = performance.now();
  const cpu1 = process.cpuUsage();
  const r = await backend.run(
    { variant: 'pp', algorithm: 'ppjoin', params, ...ctx, plan: adapter.plan(params, ctx) },
    { docs, workDir: work, signal: new AbortController().signal, progress() {} },
  );
  const variantS = (performance.now() - t1) / 1000;
  const variantCpu = cpuSeconds(process.cpuUsage(cpu1));
  await backend.close();
  rmSync(work, { recursive: true, force: true });

  // PPJoin's join alone: index and probe, one thread, from the ranked sets
  const s = joinSettings(params, 0);
  const sig = signatures(tokens, s.signatureWords);
  const t2 = performance.now();
  const cpu2 = process.cpuUsage();
  const { index } = buildIndex(ranked, order, sig, s);
  const j = joinRange({ ...index, settings: s, from: 0, to: ranked.docs });
  const joinS = (performance.now() - t2) / 1000;
  const joinCpu = cpuSeconds(process.cpuUsage(cpu2));

  // scores compared as numbers (Python writes 1.0 where JavaScript writes 1)
  const ours = new Set<string>();
  const p = r.outputs.pairs;
  for (let i = 0; i < p.a.length; i++) ours.add(`${p.a[i]} ${p.b[i]} ${p.score[i]}`);
  const theirs = readFileSync(out, 'utf8').trim().split('\n').filter((l) => l !== '').map((l) => {
    const [a, b, score] = l.split(' ');
    return `${a} ${b} ${Number(score)}`;
  });
  const same = theirs.length === ours.size && theirs.every((l) => ours.has(l));
  process.stdout.write(
    `t = ${t}: SetSimilaritySearch ${pythonWall.toFixed(2)} s whole process, ${py.process_cpu_s.toFixed(2)} CPU-s ` +
      `(import ${py.import_s.toFixed(2)} s, read ${py.read_s.toFixed(2)} s, join ${py.join_s.toFixed(2)} s / ${py.join_cpu_s.toFixed(2)} CPU-s), ${py.pairs} pairs; ` +
      `PPJoin as a variant ${variantS.toFixed(3)} s / ${variantCpu.toFixed(3)} CPU-s (2 threads, shingling included), ` +
      `join alone ${joinS.toFixed(3)} s / ${joinCpu.toFixed(3)} CPU-s (1 thread), ${p.a.length} pairs (${j.a.length}); same pairs and scores: ${same}\n`,
  );
  if (!same) process.exitCode = 1;
}
rmSync(dir, { recursive: true, force: true });
