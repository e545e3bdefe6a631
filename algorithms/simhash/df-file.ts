/**
 * A document-frequency file (`document_frequencies: { from: file }`): one `feature<TAB>df` line
 * per feature and one `<TAB>N` line (empty feature) with the number of documents counted, the
 * df job's output format; gzip when the name ends in .gz. Everything a user can get wrong in it
 * is an `InputFileError` naming the file and line (exit 2, one line), never a stack trace: the
 * weights would silently be wrong otherwise.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { InputFileError } from '../../contract/errors.ts';
import type { SideRecord } from '../../contract/jobs.ts';

const POSITIVE = /^[1-9]\d*$/;

function shown(line: string): string {
  return JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line);
}

export function readDfFile(path: string): SideRecord[] {
  const fail = (where: string, problem: string): never => {
    throw new InputFileError(`document frequencies ${where}: ${problem}`);
  };
  let raw: Buffer;
  try {
    raw = readFileSync(path);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return fail(path, `cannot read it (${err.code ?? err.message})`);
  }
  let bytes = raw;
  if (path.endsWith('.gz')) {
    try {
      bytes = gunzipSync(raw);
    } catch (e) {
      return fail(path, `not gzip data, as its name says (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
  }
  const text = bytes.toString('utf8');
  const records: SideRecord[] = [];
  let documents = 0;
  let nLine = 0;
  let largest = { df: 0, line: 0 };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (line === '') continue;
    const at = `${path}:${i + 1}`;
    const tab = line.indexOf('\t');
    const value = tab < 0 ? '' : line.slice(tab + 1);
    if (tab < 0 || !POSITIVE.test(value) || !Number.isSafeInteger(Number(value))) {
      fail(at, `not "feature<TAB>df" with df a positive integer: ${shown(line)}`);
    }
    const n = Number(value);
    if (tab === 0) {
      if (nLine > 0) fail(at, `a second "<TAB>N" line (the first is line ${nLine}): one file is one table`);
      nLine = i + 1;
      documents = n;
    } else if (n > largest.df) largest = { df: n, line: i + 1 };
    records.push([line.slice(0, tab), value]);
  }
  if (nLine === 0) fail(path, 'no "<TAB>N" line giving the number of documents counted');
  if (largest.df > documents) {
    fail(`${path}:${largest.line}`, `df ${largest.df} is more than the ${documents} documents counted (line ${nLine})`);
  }
  return records;
}
