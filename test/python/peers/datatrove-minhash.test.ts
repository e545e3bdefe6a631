/**
 * The datatrove wrapper (python/peers/datatrove_minhash.py) run by the harness gives the clusters
 * datatrove's stages give when called directly: here stages 1 to 3 and the `.clusters` file
 * stage 3 writes (the wrapper reads them through stage 4, the filter), both with datatrove's
 * default word tokenizer for English, spaCy's, which the peers' set installs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { smallCorpus } from '../../support/corpus.ts';
import { requireTool, skipsWithout } from '../../support/required-tool.ts';
import { PEERS, peersPython, pythonJson, runPeer } from './peers-setup.ts';

const DIRECT = `
import json, os, sys
from datatrove.data import Document
from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.dedup.minhash import MinhashConfig, MinhashDedupSignature, MinhashDedupBuckets, MinhashDedupCluster
from datatrove.utils.binaryio import read_tuples_from_file
inp = json.load(sys.stdin)
cfg = MinhashConfig(n_grams=inp["n_grams"], seed=1)
f = lambda n: os.path.join(inp["work"], n)
docs = [Document(text=t, id=i) for i, t in zip(inp["ids"], inp["texts"])]
LocalPipelineExecutor([docs, MinhashDedupSignature(f("sig"), config=cfg)], tasks=1, logging_dir=f("l1")).run()
LocalPipelineExecutor([MinhashDedupBuckets(f("sig"), f("buckets"), config=cfg)], tasks=cfg.num_buckets, workers=1, logging_dir=f("l2")).run()
LocalPipelineExecutor([MinhashDedupCluster(f("buckets"), f("remove"), config=cfg, save_cluster_id=True)], tasks=1, logging_dir=f("l3")).run()
with open(f("remove/000000.clusters"), "rb") as fh:
    print(json.dumps({inp["ids"][d]: c for d, c in read_tuples_from_file(fh, "2I")}))
`;

/** datatrove's word tokenizer for English as its stages load it. */
const TOKENIZER = `
import json, sys
from datatrove.utils.word_tokenizers import load_word_tokenizer
t = load_word_tokenizer("eng")
print(json.dumps([type(t).__name__, t.word_tokenize(json.load(sys.stdin))]))
`;

/** A partition as sorted groups of ids. */
function partition(labels: Iterable<[string, string | number]>): string[][] {
  const groups = new Map<string, string[]>();
  for (const [id, c] of labels) groups.set(String(c), [...(groups.get(String(c)) ?? []), id]);
  return [...groups.values()].map((g) => g.sort()).sort((x, y) => (x[0] as string).localeCompare(y[0] as string));
}

const setup = peersPython();

describe.skipIf(skipsWithout(setup.found, 'the datatrove wrapper test', setup.found ? '' : setup.reason))("datatrove's MinHash dedup stages through the harness", () => {
  it('give the clusters of the stages called directly', async () => {
    requireTool(setup.found, 'the datatrove wrapper test', setup.found ? '' : setup.reason);
    const python = setup.found ? setup.python : '';
    const docs = smallCorpus();
    const work = mkdtempSync(join(tmpdir(), 'datatrove-direct-'));
    let direct: Record<string, number>;
    try {
      direct = pythonJson(python, DIRECT, { work, n_grams: 3, ids: docs.ids, texts: Array.from(docs.texts).map(normalize) }) as Record<string, number>;
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    const { record, clusters } = await runPeer(
      python,
      `      program: ${PEERS}datatrove_minhash.py
      args: { n_grams: 3 }
      output: clusters`,
    );
    expect(Object.keys(direct).length).toBeGreaterThan(3);
    expect(partition(clusters.map((r) => [r[0] as string, r[1] as string]))).toEqual(partition(Object.entries(direct)));
    expect(record.variants[1]?.measures.largest_cluster).toBe(Math.max(...partition(Object.entries(direct)).map((g) => g.length)));
  });
});

describe.skipIf(skipsWithout(setup.found, 'the datatrove tokenizer test', setup.found ? '' : setup.reason))("datatrove's word tokenizer for English", () => {
  it("is spaCy's, which splits words by its English exceptions, not only at spaces", () => {
    requireTool(setup.found, 'the datatrove tokenizer test', setup.found ? '' : setup.reason);
    const python = setup.found ? setup.python : '';
    expect(pythonJson(python, TOKENIZER, 'we cannot say dont')).toEqual(['SpaCyTokenizer', ['we', 'can', 'not', 'say', 'do', 'nt']]);
  });
});
