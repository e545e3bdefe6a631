/**
 * TREC relevance judgments. Two layouts, told apart by the column count of the first data
 * line (every other line must have the same count):
 * - qrels, 4 columns: `topic iteration docno grade` (trec_eval's format; the iteration
 *   column is unused by trec_eval and ignored here);
 * - prels, 5 columns: `topic docno grade method probability`, the statAP/MTC form of the
 *   Million Query and TREC 2009 Web tracks (checked on prels.web09.1-50.txt: column 3 takes
 *   the grades 0/1/2, column 4 the id of the selection method that sampled the document,
 *   column 5 its inclusion probability). Only topic, docno and grade are kept.
 * Grades are integers and may be negative (spam/junk judgments); relevant means grade > 0.
 * Blank lines and lines whose first non-blank character is `#` are comments (a `#` inside a
 * docno is not). A malformed line is a DataError naming `file:line`, not a skip: reading
 * judgments partially would give wrong results without anyone noticing.
 */
import { clip, DataError, quote } from '../errors.ts';
import { readTextFile } from '../corpus/files.ts';

/** topic → docno → grade. */
export type Qrels = Map<string, Map<string, number>>;

type Layout = { name: 'qrels'; columns: 4; docno: 2; grade: 3 } | { name: 'prels'; columns: 5; docno: 1; grade: 2 };
const QRELS: Layout = { name: 'qrels', columns: 4, docno: 2, grade: 3 };
const PRELS: Layout = { name: 'prels', columns: 5, docno: 1, grade: 2 };

const INTEGER = /^[+-]?\d+$/;

export async function readQrels(path: string): Promise<Qrels> {
  return parseQrels(await readTextFile(path), path);
}

/** Parses qrels or prels text; `path` is only used in messages. */
export function parseQrels(text: string, path: string): Qrels {
  const qrels: Qrels = new Map();
  let layout: Layout | undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').trim();
    if (line === '' || line.startsWith('#')) continue;
    const where = `${path}:${i + 1}`;
    const cols = line.split(/\s+/);
    layout ??= cols.length === 4 ? QRELS : cols.length === 5 ? PRELS : undefined;
    if (!layout) {
      throw new DataError(`${where}: expected 4 columns (topic iter docno grade) or 5 (topic docno grade method prob), found ${cols.length}`);
    }
    if (cols.length !== layout.columns) {
      throw new DataError(`${where}: expected ${layout.columns} columns as in the rest of this ${layout.name} file, found ${cols.length}`);
    }
    const topic = cols[0] as string;
    const docno = cols[layout.docno] as string;
    const gradeText = cols[layout.grade] as string;
    if (!INTEGER.test(gradeText)) throw new DataError(`${where}: grade ${quote(gradeText)} is not an integer`);
    if (layout.name === 'prels' && !Number.isFinite(Number(cols[4]))) {
      throw new DataError(`${where}: inclusion probability ${quote(cols[4] ?? '')} is not a number`);
    }
    const grade = Number(gradeText);
    let judged = qrels.get(topic);
    if (!judged) qrels.set(topic, (judged = new Map()));
    const previous = judged.get(docno);
    if (previous !== undefined && previous !== grade) {
      throw new DataError(`${where}: ${clip(docno)} judged again for topic ${clip(topic)} with grade ${grade} (was ${previous})`);
    }
    judged.set(docno, grade);
  }
  if (!layout) throw new DataError(`${path}: no judgments in the file`);
  return qrels;
}

/** Per topic, the documents judged relevant (grade > 0), in file order. */
export function relevantDocs(qrels: Qrels): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [topic, judged] of qrels) {
    const relevant = [...judged].filter(([, grade]) => grade > 0).map(([docno]) => docno);
    if (relevant.length > 0) out.set(topic, relevant);
  }
  return out;
}
