/**
 * The text-dedup wrapper (python/peers/textdedup_clusters.py) run by the harness gives the
 * clusters text-dedup's own command gives when a user runs it (`python -m text_dedup.minhash`,
 * `python -m text_dedup.simhash`) on the same documents: the union-find its `--debug` flag
 * dumps, and the documents its deduplicated dataset keeps (one of each cluster, every other one).
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
import json, pickle, sys
from datasets import load_from_disk
out = json.load(sys.stdin)["out"]
uf = pickle.load(open(out + "/uf.pkl", "rb"))
groups = {}
for x in list(uf.parent):
    groups.setdefault(uf.find(x), []).append(x)
print(json.dumps({"clusters": [g for g in groups.values() if len(g) > 1], "kept": list(load_from_disk(out)["id"])}))
`;

/** A partition as sorted groups of ids. */
function partition(groups: readonly (readonly string[])[]): string[][] {
  return groups.map((g) => [...g].sort()).sort((x, y) => (x[0] as string).localeCompare(y[0] as string));
}

/** text-dedup's own command on `docs` (JSONL of id and text), as its README runs it, with `options`. */
function textDedupCommand(python: string, algorithm: string, docs: { ids: readonly string[]; texts: readonly string[] }, options: readonly string[]): { clusters: string[][]; kept: string[] } {
  const work = mkdtempSync(join(tmpdir(), 'textdedup-direct-'));
  try {
    const corpus = join(work, 'corpus.jsonl');
    writeFileSync(corpus, docs.ids.map((id, i) => JSON.stringify({ id, text: docs.texts[i] })).join('\n') + '\n');
    const out = join(work, 'out');
    const args = ['-m', `text_dedup.${algorithm}`, '--path', 'json', '--data_files', corpus, '--split', 'train', '--cache_dir', join(work, 'cache'), '--output', out, '--column', 'text', '--idx_column', 'id', '--debug', ...options];
    const r = spawnSync(python, args, { cwd: work, encoding: 'utf8', env: { ...process.env, HF_HOME: join(work, 'hf'), HF_DATASETS_OFFLINE: '1' } });
    if (r.status !== 0) throw new Error(`text_dedup.${algorithm} failed: ${r.stderr.trim().split('\n').slice(-3).join(' | ')}`);
    return pythonJson(python, READ_OUTPUT, { out }) as { clusters: string[][]; kept: string[] };
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

describe.skipIf(skipsWithout(setup.found, 'the text-dedup wrapper tests', why))("text-dedup's MinHash and SimHash through the harness", () => {
  for (const c of CASES) {
    it(`${c.algorithm}: gives the clusters of text-dedup's own command, one of each kept in its output`, async () => {
      requireTool(setup.found, 'the text-dedup wrapper tests', why);
      const python = setup.found ? setup.python : '';
      const small = smallCorpus();
      const texts = small.texts.map(normalize);
      const handed = small.ids.flatMap((id, i) => ((texts[i] ?? '').length >= c.minChars ? [i] : []));
      const docs = { ids: handed.map((i) => small.ids[i] as string), texts: handed.map((i) => texts[i] as string) };
      const options = Object.entries(c.args).flatMap(([k, v]) => [`--${k}`, String(v)]);
      const direct = textDedupCommand(python, c.algorithm, docs, options);

      const argsYaml = Object.entries({ algorithm: c.algorithm, ...c.args })
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ');
      const { record, clusters } = await runPeer(
        python,
        `      program: ${PEERS}textdedup_clusters.py
      args: { ${argsYaml} }
      output: clusters`,
      );
      const wrapped = new Map<string, string[]>();
      for (const [doc, cluster] of clusters) wrapped.set(cluster as string, [...(wrapped.get(cluster as string) ?? []), doc as string]);

      expect(direct.clusters.length).toBeGreaterThan(1);
      expect(partition([...wrapped.values()])).toEqual(partition(direct.clusters));
      // What text-dedup removes: all but one document of each cluster; every other document handed over is kept.
      const kept = new Set(direct.kept);
      expect([...wrapped.values()].map((g) => g.filter((d) => kept.has(d)).length)).toEqual([...wrapped.values()].map(() => 1));
      const clustered = new Set([...wrapped.values()].flat());
      expect(docs.ids.filter((d) => !clustered.has(d)).every((d) => kept.has(d))).toBe(true);
      expect(record.variants[1]?.measures.largest_cluster).toBe(Math.max(...direct.clusters.map((g) => g.length)));
    });
  }
});
