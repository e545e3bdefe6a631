/**
 * The text-dedup wrapper (python/peers/textdedup_clusters.py) run by the harness gives the
 * clusters text-dedup's own command gives when a user runs it (`python -m text_dedup.minhash`,
 * `python -m text_dedup.simhash`) on the same documents: the union-find its `--debug` flag
 * dumps, and the documents its deduplicated dataset keeps (one of each cluster, every other one);
 * and, by a second method, the components of the pairs found by brute force over text-dedup's
 * own fingerprints.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { ensurePythonSet } from '../../../scripts/ensure-python.ts';
import { smallCorpus } from '../../support/corpus.ts';
import { requireTool, skipsWithout } from '../../support/required-tool.ts';
import { PEERS, pythonJson, runPeer } from './peers-setup.ts';

/** What text-dedup's command left in `out`: its union-find's clusters of 2+ and the ids its dataset kept. */
const READ_OUTPUT = `
import json, pickle
from datasets import load_from_disk
uf = pickle.load(open(inp["out"] + "/uf.pkl", "rb"))
groups = {}
for x in list(uf.parent):
    groups.setdefault(uf.find(x), []).append(x)
result["clusters"] = [g for g in groups.values() if len(g) > 1]
result["kept"] = list(load_from_disk(inp["out"])["id"])
`;

/**
 * A second method: text-dedup's fingerprints (its embed_func, hash and parameters as its main
 * sets them up), then the pairs found by brute force over all pairs (MinHash: sharing a band's
 * value; SimHash: at most bit_diff bits apart) joined into components here.
 */
const BRUTE_FORCE = `
import numpy as np
a, ids, texts = inp["args"], inp["ids"], inp["texts"]
if inp["algorithm"] == "minhash":
    from text_dedup.minhash import embed_func, SIGNATURE_COLUMN
    from text_dedup.utils import optimal_param, sha1_hash
    b, r = optimal_param(a["threshold"], a["num_perm"], false_positive_weight=0.5, false_negative_weight=0.5)
    rng = np.random.RandomState(42)
    prime = np.uint64((1 << 61) - 1)
    perms = (rng.randint(1, prime, size=(a["num_perm"],), dtype=np.uint64), rng.randint(0, prime, size=(a["num_perm"],), dtype=np.uint64))
    sigs = [embed_func(t, i, num_perm=a["num_perm"], ngram_size=a["ngram"], min_length=a["min_length"], hashranges=[(k * r, (k + 1) * r) for k in range(b)],
                       permutations=perms, hash_func=lambda x: sha1_hash(x, d=32), dtype=np.uint64, max_hash=np.uint32((1 << 32) - 1), modulo_prime=prime)[SIGNATURE_COLUMN]
            for i, t in enumerate(texts)]
    near = lambda i, j: any(x == y for x, y in zip(sigs[i], sigs[j]))
else:
    from bitarray import frozenbitarray
    from text_dedup.simhash import embed_func, SIGNATURE_COLUMN
    from text_dedup.utils import xxh3_64_digest
    sigs = [frozenbitarray(buffer=embed_func(t, i, ngram=3, permutations=None, hash_func=xxh3_64_digest)[SIGNATURE_COLUMN]) for i, t in enumerate(texts)]
    near = lambda i, j: (sigs[i] ^ sigs[j]).count(1) <= a["bit_diff"]
root = list(range(len(texts)))
def find(x):
    while root[x] != x:
        x = root[x]
    return x
for i in range(len(texts)):
    for j in range(i + 1, len(texts)):
        if near(i, j):
            root[find(j)] = find(i)
groups = {}
for i in range(len(texts)):
    groups.setdefault(find(i), []).append(ids[i])
result["brute"] = [g for g in groups.values() if len(g) > 1]
`;

/** Both read in one process (each import of text_dedup loads datasets, seconds). */
const READ_BOTH = `
import json, sys
inp = json.load(sys.stdin)
result = {}
${READ_OUTPUT}
${BRUTE_FORCE}
print(json.dumps(result))
`;

/** A partition as sorted groups of ids. */
function partition(groups: readonly (readonly string[])[]): string[][] {
  return groups.map((g) => [...g].sort()).sort((x, y) => (x[0] as string).localeCompare(y[0] as string));
}

/** text-dedup's own command on `docs` (JSONL of id and text), as its README runs it, with `options`. */
function textDedupCommand(python: string, c: Case, docs: { ids: readonly string[]; texts: readonly string[] }): { clusters: string[][]; kept: string[]; brute: string[][] } {
  const algorithm = c.algorithm;
  const options = Object.entries(c.args).flatMap(([k, v]) => [`--${k}`, String(v)]);
  const work = mkdtempSync(join(tmpdir(), 'textdedup-direct-'));
  try {
    const corpus = join(work, 'corpus.jsonl');
    writeFileSync(corpus, docs.ids.map((id, i) => JSON.stringify({ id, text: docs.texts.at(i) })).join('\n') + '\n');
    const out = join(work, 'out');
    const args = ['-m', `text_dedup.${algorithm}`, '--path', 'json', '--data_files', corpus, '--split', 'train', '--cache_dir', join(work, 'cache'), '--output', out, '--column', 'text', '--idx_column', 'id', '--debug', ...options];
    const r = spawnSync(python, args, { cwd: work, encoding: 'utf8', env: { ...process.env, HF_HOME: join(work, 'hf'), HF_DATASETS_OFFLINE: '1' } });
    if (r.status !== 0) throw new Error(`text_dedup.${algorithm} failed: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    return pythonJson(python, READ_BOTH, { out, algorithm, args: { ngram: 3, min_length: 5, ...c.args }, ...docs }) as { clusters: string[][]; kept: string[]; brute: string[][] };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const setup = ensurePythonSet('textdedup', (line) => console.warn(line));
const why = setup.found ? '' : setup.reason;

const CASES = [
  { algorithm: 'minhash', args: { num_perm: 64, threshold: 0.5, ngram: 3, min_length: 0, num_proc: 1 }, minChars: 0 },
  // SimHash at its defaults (64 bits, 3-grams of characters, 4 blocks, 3 bits apart); the wrapper
  // hands it no text under 5 characters, on which text-dedup 0.4.0 fails (the wrapper's docstring).
  { algorithm: 'simhash', args: { bit_diff: 3, num_proc: 1 }, minChars: 5 },
] as const;

type Case = (typeof CASES)[number];

/** The case's wrapper arguments as a YAML flow mapping's body. */
function argsYaml(c: Case): string {
  return Object.entries({ algorithm: c.algorithm, ...c.args })
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ');
}

/** The small corpus's normalized texts this case hands text-dedup (the wrapper's rule: SimHash gets none under 5 characters). */
function handedOver(c: Case): { ids: string[]; texts: string[] } {
  const small = smallCorpus();
  const texts = Array.from(small.texts).map(normalize);
  const handed = small.ids.flatMap((_, i) => ((texts[i] ?? '').length >= c.minChars ? [i] : []));
  return { ids: handed.map((i) => small.ids[i] as string), texts: handed.map((i) => texts[i] as string) };
}

/** Each case's two sides, computed once (the two tests of a case read both). */
const wrapperRuns = new Map<string, ReturnType<typeof runPeer>>();
const directRuns = new Map<string, ReturnType<typeof textDedupCommand>>();
function sides(python: string, c: Case): { wrapper: ReturnType<typeof runPeer>; direct: ReturnType<typeof textDedupCommand> } {
  let wrapper = wrapperRuns.get(c.algorithm);
  if (!wrapper) {
    wrapper = runPeer(
      python,
      `      program: ${PEERS}textdedup_clusters.py
      args: { ${argsYaml(c)} }
      output: clusters`,
    );
    wrapperRuns.set(c.algorithm, wrapper);
  }
  let direct = directRuns.get(c.algorithm);
  if (!direct) {
    direct = textDedupCommand(python, c, handedOver(c));
    directRuns.set(c.algorithm, direct);
  }
  return { wrapper, direct };
}

/** The wrapper's clusters as groups of ids. */
function groupsOf(clusters: readonly string[][]): string[][] {
  const groups = new Map<string, string[]>();
  for (const [doc, cluster] of clusters) groups.set(cluster as string, [...(groups.get(cluster as string) ?? []), doc as string]);
  return [...groups.values()];
}

describe.skipIf(skipsWithout(setup.found, 'the text-dedup wrapper tests', why))("text-dedup's MinHash and SimHash through the harness", () => {
  for (const c of CASES) {
    it(`${c.algorithm}: gives the clusters of text-dedup's own command, one of each kept in its output`, async () => {
      requireTool(setup.found, 'the text-dedup wrapper tests', why);
      const { wrapper, direct } = sides(setup.found ? setup.python : '', c);
      const { record, clusters } = await wrapper;
      const wrapped = groupsOf(clusters);
      expect(direct.clusters.length).toBeGreaterThan(1);
      expect(partition(wrapped)).toEqual(partition(direct.clusters));
      // What text-dedup removes: all but one document of each cluster; every other document handed over is kept.
      const kept = new Set(direct.kept);
      expect(wrapped.map((g) => g.filter((d) => kept.has(d)).length)).toEqual(wrapped.map(() => 1));
      const clustered = new Set(wrapped.flat());
      expect(handedOver(c).ids.filter((d) => !clustered.has(d)).every((d) => kept.has(d))).toBe(true);
      expect(record.variants[1]?.measures.largest_cluster).toBe(Math.max(...direct.clusters.map((g) => g.length)));
    });

    it(`${c.algorithm}: its clusters are the components of the pairs its fingerprints give by brute force`, async () => {
      requireTool(setup.found, 'the text-dedup wrapper tests', why);
      const { wrapper, direct } = sides(setup.found ? setup.python : '', c);
      expect(direct.brute.length).toBeGreaterThan(1);
      expect(partition(groupsOf((await wrapper).clusters))).toEqual(partition(direct.brute));
    });
  }
});
