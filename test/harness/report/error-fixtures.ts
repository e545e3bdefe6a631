/**
 * Error files for the report's tests, written by the run's own writer (errorsJsonl) over
 * documents made to be hostile: markup, entities, U+2028, a lone surrogate, and a document
 * longer than the report carries with a shared span past the cut.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { adapter as broder } from '../../../algorithms/broder/index.ts';
import type { AlgorithmAdapter } from '../../../contract/index.ts';
import { CARRIED_TEXT, errorsJsonl, type ErrorLine, type ErrorSample } from '../../../harness/evaluate/explain/errors.ts';
import type { ExplainedVariant } from '../../../harness/evaluate/explain/pair.ts';
import { HOSTILE } from './fixture-runs.ts';

/** Words that differ from document to document (a seeded LCG over syllables): no shingle is shared by chance. */
export function filler(seed: number, chars: number): string {
  const syl = ['ka', 'lo', 'mi', 'nu', 'pe', 'ri', 'so', 'tu', 'va', 'ze', 'qu', 'xo'];
  let x = seed >>> 0;
  let out = '';
  while (out.length < chars) {
    let w = '';
    for (let k = 0; k < 3; k++) {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      w += syl[x % syl.length];
    }
    out += `${w} `;
  }
  return out.slice(0, chars);
}

const SHARED = `We meet on Monday at ten.\nBring the </pre></textarea><script>alert(3)</script> notes &lt;b&gt; and ${HOSTILE}.\u2028Fine by me \ud800 alone.\n`;

/** d0 and d1 share SHARED; d2 is longer than the report carries and shares with d3 text before and after the cut. */
export function hostileDocuments(): { ids: string[]; texts: string[] } {
  const head = filler(1, 9000);
  const tail = filler(2, 3000);
  return {
    ids: [`${HOSTILE} one`, 'two</script>', 'long', 'four'],
    texts: [`Hello all.\n${filler(3, 150)}\n${SHARED}${filler(4, 300)}`, `${filler(5, 200)} ${SHARED}-- \nAnn`, `${head} ${filler(6, 2500)} ${tail}`, `${head} ${tail}`],
  };
}

const truth: ExplainedVariant = {
  name: 'ground-truth',
  adapter: broder as unknown as AlgorithmAdapter,
  params: broder.params.parse({ shingle: { unit: 'char', size: 8 } }),
  decisions: { kind: 'score-at-threshold' },
};
const sampled: ExplainedVariant = { ...truth, name: 'sampled', params: broder.params.parse({ shingle: { unit: 'char', size: 8 }, sampling: { method: 'mod', m: 2 } }) };

/** errors/<variant>.jsonl of the hostile documents: (0, 1) a false positive judged no duplicate, in one cluster, (2, 3) a false negative not judged, in none, at threshold 0.6. */
export async function hostileErrors(): Promise<{ bytes: Buffer; lines: readonly ErrorLine[]; docs: { ids: string[]; texts: string[] } }> {
  const docs = hostileDocuments();
  const sample: ErrorSample = {
    falsePositives: 7,
    falseNegatives: 3,
    sample: [
      { a: 0, b: 1, score: 0.9, truth: 0.2, kind: 'false positive', wrongness: 0.4 },
      { a: 2, b: 3, score: null, truth: 0.8, kind: 'false negative', wrongness: 0.2 },
    ],
  };
  // the judges saw the first pair only, and called it no duplicate
  const judgedOf = (a: number, b: number): boolean | undefined => (a === 0 && b === 1 ? false : undefined);
  // the first pair in one cluster, linked directly; the second pair in none
  const clusters = { clusterOf: Int32Array.from([0, 0, -1, -1]), links: { a: [0], b: [1] }, madeOf: 'decided pairs' as const };
  const { bytes, lines } = await errorsJsonl(sample, { docs, variant: sampled, truth, threshold: 0.6, seed: 1, width: 98, judgedOf, clusters });
  if (docs.texts[2]!.length <= CARRIED_TEXT) throw new Error('the long document must be longer than the report carries');
  return { bytes, lines, docs };
}

/** Adds a file to a copied run folder, listed in run.json (its size and hash) and under the variant at `variant`. */
export async function addRunFile(dir: string, variant: number, file: string, bytes: Buffer, description: string): Promise<void> {
  await mkdir(dirname(join(dir, file)), { recursive: true });
  await writeFile(join(dir, file), bytes);
  const runFile = join(dir, 'run.json');
  const run = JSON.parse(await readFile(runFile, 'utf8')) as { files: object[]; variants: { files?: object[] }[] };
  run.files.push({ path: file, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  const v = run.variants[variant] as { files?: object[] };
  v.files = [...(v.files ?? []), { file, rows: bytes.toString('utf8').trim().split('\n').length, description }];
  await writeFile(runFile, JSON.stringify(run));
}
