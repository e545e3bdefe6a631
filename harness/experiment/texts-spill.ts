/**
 * How much of the documents' texts a run holds in memory before the rest goes to its work folder
 * (experiment/corpus.ts, corpus/spilled-texts.ts). The texts are strings in V8's heap, whose limit
 * (`--max-old-space-size`; about 4 GB by default on a 24 GB machine) is a wall: past it the
 * process dies, whatever `memory_mb` says. So the default is the smaller of half the budget (the
 * kernels' structures need the rest) and 60% of the heap's limit (the ids, the evaluation's
 * objects and V8's own headroom need the rest: a million web pages, 2.35 G characters, stay in
 * memory under the default limit).
 */
import { join } from 'node:path';

export interface TextsSpill {
  readonly dir: string;
  /** texts beyond this many UTF-16 code units go to `dir` */
  readonly aboveChars: number;
}

const HEAP_SHARE = 0.6;

export function textsSpill(o: { readonly workDir: string; readonly textsMb?: number; readonly budgetMb?: number; readonly heapLimitBytes: number }): TextsSpill {
  const heapMb = (HEAP_SHARE * o.heapLimitBytes) / 2 ** 20;
  const mb = o.textsMb ?? Math.min(heapMb, o.budgetMb === undefined ? Infinity : o.budgetMb / 2);
  return { dir: join(o.workDir, 'texts'), aboveChars: Math.floor(mb * 2 ** 20) };
}
