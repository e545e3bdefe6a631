/**
 * TREC run files: `topic Q0 docno rank score tag`, whitespace separated; columns after the
 * sixth are ignored, as trec_eval does ("reserved for future expansion" in its own
 * trec_eval.results.trunc). Documents are ordered as trec_eval orders them: by score
 * descending, ties by docno descending in byte order (strcmp); the rank column is ignored,
 * since real runs carry unsorted or inconsistent ranks.
 *
 * A line that cannot be read (fewer than six columns, a score that is not a number) or a
 * docno repeated within a topic is a counted skip with its line and byte offset: a run is a
 * document list, and losing one entry of it loses one document, not the experiment.
 * `--strict` (in the runner) turns those skips into errors.
 */
import { readTextFile } from '../corpus/files.ts';
import { clip, quote } from '../errors.ts';
import type { ReadContext } from '../corpus/types.ts';

export interface Retrieved {
  readonly docno: string;
  readonly score: number;
}

/** topic → retrieved documents in trec_eval order; topics in order of first appearance. */
export type Run = Map<string, Retrieved[]>;

const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

export async function readRun(path: string, ctx: ReadContext): Promise<Run> {
  return parseRun(await readTextFile(path), path, ctx);
}

/** trec_eval's order: score descending, then docno descending as strcmp compares bytes. */
export function trecEvalOrder(a: Retrieved, b: Retrieved): number {
  if (a.score !== b.score) return b.score - a.score;
  if (a.docno === b.docno) return 0;
  return Buffer.compare(Buffer.from(b.docno), Buffer.from(a.docno));
}

/** Parses run text; `path` names the file in skips. */
export function parseRun(text: string, path: string, ctx: ReadContext): Run {
  const run: Run = new Map();
  const seen = new Map<string, Set<string>>();
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? '';
    const at = offset;
    offset += Buffer.byteLength(raw) + 1;
    const line = raw.trim();
    if (line === '') continue;
    const skip = (reason: string, problem: string, id?: string) =>
      ctx.skip({
        file: path,
        offset: at,
        ...(id === undefined ? {} : { id }),
        reason,
        kind: 'skipped',
        detail: `${path}:${i + 1}: ${problem}`,
      });
    const cols = line.split(/\s+/);
    if (cols.length < 6) {
      skip('malformed-run-line', `expected 6 columns (topic Q0 docno rank score tag), found ${cols.length}`);
      continue;
    }
    const [topic, , docno, , scoreText] = cols as [string, string, string, string, string];
    if (!FLOAT.test(scoreText)) {
      skip('non-numeric-score', `score ${quote(scoreText)} is not a number`, docno);
      continue;
    }
    let docs = seen.get(topic);
    if (!docs) seen.set(topic, (docs = new Set()));
    if (docs.has(docno)) {
      skip('duplicate-run-doc', `${clip(docno)} retrieved twice for topic ${clip(topic)}; the first line is kept`, docno);
      continue;
    }
    docs.add(docno);
    let list = run.get(topic);
    if (!list) run.set(topic, (list = []));
    list.push({ docno, score: Number(scoreText) });
  }
  for (const list of run.values()) list.sort(trecEvalOrder);
  return run;
}

/** Per topic, the docnos of the first `n` documents in trec_eval order. */
export function topN(run: Run, n: number): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [topic, list] of run) out.set(topic, list.slice(0, n).map((r) => r.docno));
  return out;
}
