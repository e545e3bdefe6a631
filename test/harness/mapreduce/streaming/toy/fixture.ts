/**
 * Shared pieces of the streaming tests: the toy corpus, the toy algorithm computed in plain
 * TypeScript (pairwise, not through postings), a BackendContext, and the bundled toy job script.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocumentSet } from '../../../../../contract/index.ts';
import type { BackendContext, VariantJob } from '../../../../../harness/mapreduce/backend.ts';
import { bundleJobScript } from '../../../../../harness/mapreduce/streaming/bundle.ts';
import { cleanText, toyWords, type ToyParams } from './toy-algorithms.ts';

export const TOY_ENTRY = fileURLToPath(new URL('./toy-job-main.ts', import.meta.url));

const tempDirs: string[] = [];

/** A fresh folder under the OS temp dir, removed by `removeTempDirs` (call it in `afterAll`). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  script = undefined;
}

/** One bundle per test process, in its own temp folder. */
let script: Promise<string> | undefined;
export function toyJobScript(): Promise<string> {
  script ??= bundleJobScript(tempDir('ndd-toy-bundle-'), { entry: TOY_ENTRY });
  return script;
}

export const TOY_DOCS: DocumentSet = {
  ids: [],
  texts: [
    'The quick brown fox jumps over the lazy dog',
    'the quick brown fox\tjumps over the lazy cat',
    'A lazy afternoon; the cat sleeps.\nThe dog\\barks.',
    'Zebra crossing, zebra stripes, ZEBRA!',
    '',
    'Grüße aus Köln: the fox again',
    'completely unrelated words here',
    'quick brown fox jumps, quick brown fox jumps',
    'dog barks at the quick cat\r\nand the fox',
    'stripes and crossing and a zebra',
  ],
};

export function toyVariant(params: Partial<ToyParams> = {}): VariantJob {
  const p = toyWords.params.parse(params);
  return { variant: 'toy', algorithm: toyWords.name, params: p, minScore: 0, seed: 0, plan: toyWords.plan(p, { minScore: 0, seed: 0 }) };
}

export interface ExpectedPair {
  readonly key: string;
  readonly score: number;
}

/** The toy algorithm by brute force over all pairs of documents. */
export function expectedToy(docs: DocumentSet, params: Pick<ToyParams, 'max_df'>): { pairs: ExpectedPair[]; distinctWords: number; postingPairs: number } {
  const words = Array.from(docs.texts).map(cleanText);
  const occurrences = new Map<string, number>();
  for (const ws of words) for (const w of ws) occurrences.set(w, (occurrences.get(w) ?? 0) + 1);
  const rare = words.map((ws) => new Set(ws.filter((w) => (occurrences.get(w) as number) <= params.max_df)));
  const pairs: ExpectedPair[] = [];
  let postingPairs = 0;
  for (let a = 0; a < docs.texts.length; a++) {
    for (let b = a + 1; b < docs.texts.length; b++) {
      let shared = 0;
      for (const w of rare[a] as Set<string>) if ((rare[b] as Set<string>).has(w)) shared++;
      postingPairs += shared;
      if (shared > 0) pairs.push({ key: `${a}:${b}`, score: shared / (shared + 1) });
    }
  }
  return { pairs: pairs.sort((x, y) => (x.key < y.key ? -1 : 1)), distinctWords: occurrences.size, postingPairs };
}

export function pairsOf(list: { a: Uint32Array; b: Uint32Array; score: Float64Array }): ExpectedPair[] {
  return Array.from(list.a, (a, i) => ({ key: `${a}:${list.b[i]}`, score: list.score[i] as number })).sort((x, y) =>
    x.key < y.key ? -1 : 1,
  );
}

export function makeContext(docs: DocumentSet, signal: AbortSignal = new AbortController().signal): BackendContext {
  return {
    docs,
    workDir: tempDir('ndd-streaming-test-'),
    signal,
    progress: () => {},
  };
}

/** Processes (other than this one) whose command line mentions `needle`, from /proc. */
export function processesMentioning(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}
