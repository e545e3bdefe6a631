/**
 * The df file loader: a good file gives its records; every malformed one is an InputFileError
 * (exit 2 through the harness' isUserError) whose one line names the file and line. The
 * expected messages are written out by hand from the files below.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { InputFileError } from '../../../contract/errors.ts';
import { readDfFile } from '../../../algorithms/simhash/df-file.ts';
import { isUserError } from '../../../harness/errors.ts';

const dir = mkdtempSync(join(tmpdir(), 'simhash-df-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

/** The error readDfFile throws for `content`, as its class and message. */
function failure(name: string, content: string | Buffer): string {
  const p = file(name, content);
  try {
    readDfFile(p);
  } catch (e) {
    expect(e).toBeInstanceOf(InputFileError);
    expect(isUserError(e)).toBe(true);
    expect((e as Error).message).not.toContain('\n');
    return (e as Error).message.replace(p, 'FILE');
  }
  return 'no error';
}

describe('readDfFile', () => {
  it('reads features and the <TAB>N line, plain or gzip', () => {
    const text = 'the\t3\nfox\t1\n\t3\n';
    const want = [['the', '3'], ['fox', '1'], ['', '3']];
    expect(readDfFile(file('ok.tsv', text))).toEqual(want);
    expect(readDfFile(file('ok.tsv.gz', gzipSync(text)))).toEqual(want);
  });

  it('names the file and line of a line that is not feature<TAB>df', () => {
    expect(failure('a.tsv', 'the\t2\nfox\tx\n\t3\n')).toBe('document frequencies FILE:2: not "feature<TAB>df" with df a positive integer: "fox\\tx"');
    expect(failure('b.tsv', 'the\t2\n\nno tab here\n\t3\n')).toBe('document frequencies FILE:3: not "feature<TAB>df" with df a positive integer: "no tab here"');
    expect(failure('c.tsv', '\t3\nthe\t0\n')).toBe('document frequencies FILE:2: not "feature<TAB>df" with df a positive integer: "the\\t0"');
    expect(failure('d.tsv', 'the\t2\r\n\t3\r\n')).toBe('document frequencies FILE:1: not "feature<TAB>df" with df a positive integer: "the\\t2\\r"');
    expect(failure('e.tsv', '\t3\nthe\t99999999999999999999\n')).toMatch(/^document frequencies FILE:2: not "feature<TAB>df"/);
  });

  it('refuses a file without, or with two, <TAB>N lines, and a df above N', () => {
    expect(failure('f.tsv', 'the\t2\n')).toBe('document frequencies FILE: no "<TAB>N" line giving the number of documents counted');
    expect(failure('g.tsv', '')).toBe('document frequencies FILE: no "<TAB>N" line giving the number of documents counted');
    expect(failure('h.tsv', '\t3\nthe\t2\n\t4\n')).toBe('document frequencies FILE:3: a second "<TAB>N" line (the first is line 1): one file is one table');
    expect(failure('i.tsv', 'a\t1\nthe\t5\nfox\t4\n\t3\n')).toBe('document frequencies FILE:2: df 5 is more than the 3 documents counted (line 4)');
  });

  it('refuses a .gz file that is not gzip, a folder and a missing file', () => {
    expect(failure('j.tsv.gz', 'the\t2\n\t3\n')).toBe('document frequencies FILE: not gzip data, as its name says (Z_DATA_ERROR)');
    const missing = join(dir, 'none.tsv');
    expect(() => readDfFile(missing)).toThrow(new InputFileError(`document frequencies ${missing}: cannot read it (ENOENT)`));
    expect(() => readDfFile(dir)).toThrow(new InputFileError(`document frequencies ${dir}: cannot read it (EISDIR)`));
  });
});
