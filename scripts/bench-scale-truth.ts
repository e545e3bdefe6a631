/**
 * `node --import tsx scripts/bench-scale-truth.ts CORPUS.jsonl[.gz] [--docs N] [--floor 0.1]`:
 * the ground truth's join alone on one thread, the full join (ScanCount, every pair sharing a
 * fingerprint) against the prefix join (pairs from the floor up), on features computed once.
 * Then MR#2's count of the pairs sharing a fingerprint, walking every id's postings and one id of
 * each set held by the same documents (distinctPostings). Prints the counts and their times;
 * exit 1 when the pairs from the floor up or the two counts differ.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { sampleFeatures, scanCount, unsampledCounters } from '../algorithms/broder/join.ts';
import { buildPrefixIndex, countSharedPairs, distinctPostings, prefixJoin, sharingLists } from '../algorithms/broder/prefix-join.ts';
import { fingerprintSlice, mergeSlices } from '../algorithms/text/features.ts';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const file = process.argv[2];
if (!file) throw new Error('usage: bench-scale-truth.ts CORPUS.jsonl[.gz] [--docs N] [--floor 0.1] [--no-full]');
const limit = Number(option('docs') ?? Infinity);
const floor = Number(option('floor') ?? 0.1);
const raw = readFileSync(file);
const text = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
const texts: string[] = [];
for (const line of text.split('\n')) {
  if (line === '' || texts.length >= limit) continue;
  texts.push((JSON.parse(line) as { text: string }).text);
}
const seconds = (t0: number): string => ((performance.now() - t0) / 1000).toFixed(2);
let t0 = performance.now();
const shingle = { unit: 'char', size: 64, start: 'word' } as const;
const slices = [];
for (let i = 0; i < texts.length; i += 20_000) slices.push(fingerprintSlice({ texts: texts.slice(i, i + 20_000), firstDoc: i, shingle, kind: 'rabin64', shared: true }));
const f = mergeSlices(slices);
console.log(`${texts.length} documents, ${f.ids.length} fingerprint entries, ${f.fingerprints} distinct: features in ${seconds(t0)} s`);
const emissions = unsampledCounters(f).output_pairs;
console.log(`MR#1 emissions (counted): ${emissions}`);

t0 = performance.now();
const { work: _work, ...index } = buildPrefixIndex(f, floor);
const indexS = seconds(t0);
t0 = performance.now();
const pre = prefixJoin({ index, docStart: f.docStart, ids: f.ids, floor, from: 0, to: f.docs });
console.log(`prefix join from ${floor}: ${pre.a.length} pairs, ${pre.verified} candidates verified; index ${indexS} s, join ${seconds(t0)} s, ${index.prefixNext.length} prefix entries`);
t0 = performance.now();
const shared = countSharedPairs({ ...f, from: 0, to: f.docs });
console.log(`MR#2 distinct pairs (counted, not made, every id's postings): ${shared} in ${seconds(t0)} s`);
t0 = performance.now();
const walked = sharingLists({ ...f, walk: distinctPostings(f.postStart, f.postDocs, f.fingerprints) });
const dedupS = seconds(t0);
t0 = performance.now();
const sharedDistinct = countSharedPairs({ ...f, ...walked, from: 0, to: f.docs });
console.log(`MR#2 distinct pairs, one id of each set with the same postings (${walked.ids.length} of ${f.ids.length} entries walked, found in ${dedupS} s): ${sharedDistinct} in ${seconds(t0)} s: ${sharedDistinct === shared ? 'equal' : 'DIFFERENT'}`);
if (sharedDistinct !== shared) process.exitCode = 1;

if (!process.argv.includes('--no-full')) {
  t0 = performance.now();
  const s = sampleFeatures(f, { method: 'none' });
  const full = scanCount({ ...s, docs: s.docs, from: 0, to: s.docs, floor: Number.MIN_VALUE });
  console.log(`full join: ${full.distinct} distinct pairs sharing a fingerprint in ${seconds(t0)} s`);
  const above: string[] = [];
  for (let i = 0; i < full.a.length; i++) if ((full.score[i] as number) >= floor) above.push(`${full.a[i]} ${full.b[i]} ${full.score[i]}`);
  const mine = Array.from(pre.a, (a, i) => `${a} ${pre.b[i]} ${pre.score[i]}`);
  const same = above.length === mine.length && above.every((r, i) => r === mine[i]);
  console.log(`pairs from ${floor} up: full join ${above.length}, prefix join ${mine.length}: ${same ? 'identical' : 'DIFFERENT'}`);
  if (!same) process.exitCode = 1;
}
