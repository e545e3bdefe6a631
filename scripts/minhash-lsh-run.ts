/**
 * MinHash-LSH as one process, for the comparison with datasketch in `npm run bench:ci`:
 *
 *   node --import tsx scripts/minhash-lsh-run.ts TEXTS.jsonl PAIRS.txt [PERMUTATIONS] [THRESHOLD]
 *
 * The input and output are those of scripts/datasketch_minhash_lsh.py (one JSON string a line,
 * or a corpus line {"id", "text"}; "a b score" a pair): the `minhash` detector's plan with its
 * defaults (char-64 shingles, Rabin fingerprints, k-permutation signatures, bands and rows chosen
 * for the threshold, verification by estimated Jaccard) on the local backend, two worker
 * threads, seed 1 (scripts/detector-run.ts). Prints one JSON line.
 */
import { processFigures, runDetector } from './detector-run.ts';

const [textsPath, pairsPath, perms = '128', threshold = '0.5'] = process.argv.slice(2);
if (!textsPath || !pairsPath) {
  process.stderr.write('usage: minhash-lsh-run.ts TEXTS.jsonl PAIRS.txt [PERMUTATIONS] [THRESHOLD]\n');
  process.exit(2);
}
const t0 = performance.now();
const r = await runDetector({ algorithm: 'minhash', params: { permutations: Number(perms), threshold: Number(threshold) }, minScore: Number.MIN_VALUE, textsPath, pairsPath });
process.stdout.write(
  JSON.stringify({
    documents: r.documents,
    fingerprints: r.counters['minhash-signatures']?.['fingerprints'] ?? 0,
    candidates: r.counters['minhash-candidates']?.['candidate_pairs'] ?? 0,
    pairs: r.pairs,
    ...processFigures(t0),
  }) + '\n',
);
