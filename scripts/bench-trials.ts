/**
 * Residue averaging's cost (Ye et al. 4.4, issue 14): the m trials of `sampling: { method: mod,
 * m, residues: all }` run on one backend, as `bench run` runs them, against m separate runs of
 * one residue each, each on a backend of its own (a fresh process in practice), from the same
 * documents in memory. The trials share the fingerprints and their postings (the kernel's
 * `ctx.cached`) and each joins only its residue's fingerprints; a separate run computes the
 * fingerprints again every time. Both sides leave out what a separate `bench run` would add on
 * top (reading the corpus and the ground truth again), so the ratio is a lower bound.
 *
 *   node --import tsx scripts/bench-trials.ts [--m 16]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { adapter as broder } from '../algorithms/broder/index.ts';
import type { DocumentSet } from '../contract/index.ts';
import { newCorpusStats, readCorpus } from '../harness/corpus/read.ts';
import { createLocalBackend } from '../harness/mapreduce/local/backend.ts';

export interface TrialFigures {
  readonly m: number;
  /** the m trials on one backend, seconds */
  readonly trialsS: number;
  /** m separate runs, a backend each, seconds */
  readonly separateS: number;
  /** the pairs of every trial, equal on both sides (a check that both did the same work) */
  readonly pairs: number;
}

function newBackend() {
  return createLocalBackend({ workers: 2, memoryMb: 2048, pricePerVcpuHour: 0.0504, engine: 'auto' });
}

type LocalBackend = ReturnType<typeof newBackend>;

async function runResidue(backend: LocalBackend, docs: DocumentSet, m: number, r: number, work: string): Promise<number> {
  const params = broder.params.parse({ sampling: { method: 'mod', m, residue: r } });
  const ctx = { minScore: Number.MIN_VALUE, seed: 0 };
  const out = await backend.run(
    { variant: `mod=${m}/residue=${r}`, algorithm: 'broder', params, ...ctx, plan: broder.plan(params, ctx) },
    { docs, workDir: work, signal: new AbortController().signal, progress() {} },
  );
  return out.outputs.pairs.a.length;
}

/** Warms a backend's worker threads (module loading), so that the figures are the computation. */
async function warm(backend: LocalBackend, work: string): Promise<void> {
  await runResidue(backend, { ids: ['a', 'b'], texts: ['warm up the threads', 'warm up the threads'] }, 2, 0, work);
}

export async function benchTrials(docs: DocumentSet, m: number): Promise<TrialFigures> {
  const work = mkdtempSync(join(tmpdir(), 'bench-trials-'));
  try {
    let pairsTrials = 0;
    const shared = newBackend();
    await warm(shared, work);
    let t0 = performance.now();
    for (let r = 0; r < m; r++) pairsTrials += await runResidue(shared, docs, m, r, work);
    const trialsS = (performance.now() - t0) / 1000;
    await shared.close();

    let pairsSeparate = 0;
    let separateS = 0;
    for (let r = 0; r < m; r++) {
      const own = newBackend();
      await warm(own, work);
      t0 = performance.now();
      pairsSeparate += await runResidue(own, docs, m, r, work);
      separateS += (performance.now() - t0) / 1000;
      await own.close();
    }
    if (pairsTrials !== pairsSeparate) throw new Error(`trials found ${pairsTrials} pairs, separate runs ${pairsSeparate}`);
    return { m, trialsS, separateS, pairs: pairsTrials };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export async function bundledDocuments(): Promise<DocumentSet> {
  const texts: string[] = [];
  for await (const d of readCorpus({ format: 'spamassassin' }, newCorpusStats())) texts.push(d.text);
  return { ids: texts.map((_, i) => String(i)), texts };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { m: { type: 'string', default: '16' } } });
  const m = Number(values.m);
  const f = await benchTrials(await bundledDocuments(), m);
  process.stdout.write(
    `${m} trials on one backend: ${f.trialsS.toFixed(2)} s; ${m} separate runs: ${f.separateS.toFixed(2)} s (×${(f.separateS / f.trialsS).toFixed(1)}); ${f.pairs} pairs in all\n`,
  );
}
