/**
 * One pair's score in a pairs file (`pairs/<variant>.csv.gz`, pairs-file.ts): what a run said of
 * a pair, for `bench explain`. The file is sorted by the ids as strings; the ids are looked for
 * as the writer encoded them, in either order.
 */
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { DataError, UserError } from '../errors.ts';
import { csvField } from './pairs-file.ts';

const gunzipAsync = promisify(gunzip);

/** The score of the pair `idA`, `idB` in the pairs file `file`; null when the file has no such row. */
export async function pairScore(file: string, idA: string, idB: string): Promise<number | null> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    throw new UserError(`${file}: cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
  }
  let text: string;
  try {
    text = (await gunzipAsync(bytes)).toString('utf8');
  } catch (e) {
    throw new DataError(`${file}: not a gzip file: ${(e as Error).message}`);
  }
  const [first, second] = idA < idB ? [idA, idB] : [idB, idA];
  const head = `\n${csvField(first)},${csvField(second)},`;
  const at = text.indexOf(head);
  if (at < 0) return null;
  const from = at + head.length;
  const end = text.indexOf('\n', from);
  const cell = text.slice(from, end < 0 ? text.length : end);
  const score = Number(cell);
  if (cell === '' || !(score >= 0 && score <= 1)) throw new DataError(`${file}: line ${text.slice(0, at + 1).split('\n').length}: not a score in [0, 1]: ${JSON.stringify(cell.slice(0, 80))}`);
  return score;
}
