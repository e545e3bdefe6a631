/**
 * The peers' virtual environment for the tests of python/peers/: installed by the test that
 * needs it (scripts/ensure-python.ts, once per requirements file), skipped with a warning on a
 * developer's machine that cannot install it, a failure under CI=true (test/support/required-tool.ts).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { ensurePythonSet, type PythonLookup } from '../../../scripts/ensure-python.ts';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import type { RunRecord } from '../../../harness/results/types.ts';
import { runOptions } from '../../support/run-options.ts';

export const PEERS = fileURLToPath(new URL('../../../python/peers/', import.meta.url));
export const SMALL = fileURLToPath(new URL('../../fixtures/corpus/small.jsonl', import.meta.url));

let lookup: PythonLookup | undefined;
/** The peers' python, installed on first use. */
export function peersPython(): PythonLookup {
  lookup ??= ensurePythonSet('peers', (line) => console.warn(line));
  return lookup;
}

/** Runs `code` with the peers' python, `input` as JSON on stdin; its stdout parsed as JSON. */
export function pythonJson(python: string, code: string, input: unknown): unknown {
  const r = spawnSync(python, ['-c', code], { input: JSON.stringify(input), encoding: 'utf8', cwd: PEERS });
  if (r.status !== 0) throw new Error(`python failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** A run of one external variant (`params`, YAML flow lines) on the small corpus; its record and its pairs by id. */
export async function runPeer(python: string, params: string): Promise<{ record: RunRecord; pairs: string[][]; clusters: string[][] }> {
  const root = mkdtempSync(join(tmpdir(), 'peer-'));
  try {
    const config = join(root, 'peer.yaml');
    writeFileSync(
      config,
      `experiment: peer
corpus: { format: jsonl, path: ${SMALL} }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - algorithm: external
    name: peer
    params:
      interpreter: ${python}
${params}
evaluate: { threshold: 0.5, min_score: 0.1, distribution: [0.5] }
seed: 1
backend: { kind: local, workers: 1 }
`,
    );
    const out = await runExperiment(runOptions(config, join(root, 'results')));
    if (out.kind !== 'completed') throw new Error(out.kind);
    const csv = gunzipSync(readFileSync(join(out.dir, 'pairs', 'peer.csv.gz'))).toString('utf8');
    const pairs = csv.trim().split('\n').slice(1).map((l) => l.split(','));
    const clustersFile = join(out.dir, 'clusters', 'peer.csv.gz');
    const clusters = existsSync(clustersFile) ? gunzipSync(readFileSync(clustersFile)).toString('utf8').trim().split('\n').slice(1).map((l) => l.split(',')) : [];
    return { record: out.record, pairs, clusters };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
