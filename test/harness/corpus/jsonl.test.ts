import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DataError, UserError } from '../../../harness/errors.ts';
import { jsonlReader, readJsonlFile } from '../../../harness/corpus/jsonl.ts';
import type { Document, Skip } from '../../../harness/corpus/types.ts';

const DIR = fileURLToPath(new URL('../../fixtures/jsonl', import.meta.url));
const at = (name: string): string => join(DIR, name);

async function readAll(path: string, options: Record<string, unknown> = {}): Promise<{ docs: Document[]; skips: Skip[] }> {
  const docs: Document[] = [];
  const skips: Skip[] = [];
  for await (const doc of jsonlReader.read(path, options, { skip: (s) => skips.push(s) })) docs.push(doc);
  return { docs, skips };
}

/** Byte offset of each 1-based line, by summing the UTF-8 lengths of the lines before it. */
function lineOffsets(file: string): number[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const offsets = [0];
  let sum = 0;
  for (const line of lines) {
    sum += Buffer.byteLength(line, 'utf8') + 1;
    offsets.push(sum);
  }
  return [NaN, ...offsets];
}

const GOOD: Document[] = [
  { id: 'd1', text: 'The first document.' },
  { id: 'd2', text: 'Second, with meta.', meta: { source: 'web', lang: 'en' } },
  { id: 'd3', text: 'Café and café ☃' },
];

describe('jsonl reader', () => {
  it('reads one document a line, ignoring blank lines and a CRLF line end', async () => {
    const { docs, skips } = await readAll(at('good.jsonl'));
    expect(docs).toEqual(GOOD);
    expect(skips).toEqual([]);
  });

  it('gunzips .gz files', async () => {
    expect((await readAll(at('good.jsonl.gz'))).docs).toEqual(GOOD);
  });

  it('skips bad lines with file, line number and byte offset, and keeps the good ones', async () => {
    const file = at('bad.jsonl');
    const off = lineOffsets(file);
    const { docs, skips } = await readAll(file);
    expect(docs.map((d) => d.id)).toEqual(['b1', 'b7']);
    expect(skips.map((s) => [s.file, s.offset, s.reason, s.id, s.detail.split(':')[0]])).toEqual([
      [file, off[2], 'invalid-json', undefined, 'line 2'],
      [file, off[3], 'bad-record', undefined, 'line 3'],
      [file, off[4], 'bad-record', 'b4', 'line 4'],
      [file, off[6], 'bad-record', undefined, 'line 6'],
      [file, off[7], 'bad-record', 'b6', 'line 7'],
    ]);
    expect(skips.every((s) => s.kind === 'skipped')).toBe(true);
  });

  it('escapes the control characters of a bad line it quotes in a skip (found by fuzzing)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ndd-jsonl-'));
    try {
      const file = join(dir, 'x.jsonl');
      writeFileSync(file, '{"id": "a", "text": "ok"}\n\u001b[2J\u0000{"id"\n');
      const { docs, skips } = await readAll(file);
      expect(docs.map((d) => d.id)).toEqual(['a']);
      expect(skips.map((s) => [s.reason, s.detail])).toEqual([['invalid-json', 'line 2: Unexpected token \'\\e\', "\\e[2J\\x00{"id"" is not valid JSON']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['one JSON array', '[{"id": "a", "text": "x"},\n{"id": "b", "text": "y"}]\n', "the file begins with '[': one JSON array is not JSON Lines"],
    ['a pretty-printed object', '{\n  "id": "a",\n  "text": "x"\n}\n', 'a record spread over several lines? JSON Lines wants each object on one line'],
  ])('says why when line 1 of %s is not JSON', async (_, text, hint) => {
    const dir = mkdtempSync(join(tmpdir(), 'ndd-jsonl-'));
    try {
      const file = join(dir, 'x.jsonl');
      writeFileSync(file, text);
      const { skips } = await readAll(file);
      expect(skips[0]?.detail).toContain(hint);
      // Only the first line gets the hint: the others are the same mistake.
      expect(skips.slice(1).every((s) => !s.detail.includes('JSON Lines'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('passes over a line longer than the limit without holding it, and reads on', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ndd-jsonl-'));
    try {
      const file = join(dir, 'x.jsonl');
      const long = `{"id": "b", "text": "${'x'.repeat(300_000)}"}`;
      writeFileSync(file, `{"id": "a", "text": "ok"}\n${long}\n{"id": "c", "text": "ok"}\n${long}`);
      const docs: Document[] = [];
      const skips: Skip[] = [];
      for await (const d of readJsonlFile(file, { skip: (s) => skips.push(s) }, 100_000)) docs.push(d);
      expect(docs.map((d) => d.id)).toEqual(['a', 'c']);
      const second = 26;
      expect(skips.map((s) => [s.reason, s.offset, s.detail])).toEqual([
        ['line-too-long', second, 'line 2: longer than 100000 bytes; passed over'],
        ['line-too-long', second + long.length + 1 + 26, 'line 4: longer than 100000 bytes; passed over'],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('strips a UTF-8 byte order mark and recovers a line with invalid UTF-8', async () => {
    const { docs, skips } = await readAll(at('latin1.jsonl'));
    expect(docs).toEqual([
      { id: 'l1', text: 'plain' },
      { id: 'l2', text: 'cr\uFFFDme' },
    ]);
    // Line 1 is 3 BOM bytes + 29 bytes of JSON + LF.
    expect(skips).toMatchObject([{ id: 'l2', offset: 33, reason: 'invalid-utf8', kind: 'recovered' }]);
  });

  it('reads every .jsonl and .jsonl.gz file under a folder in path order, ignoring others', async () => {
    const { docs } = await readAll(at('folder'));
    expect(docs).toEqual([
      { id: 'a1', text: 'from a' },
      { id: 'c1', text: 'from c' },
    ]);
  });

  it('fails with a DataError naming a truncated gzip file', async () => {
    const file = at('truncated.jsonl.gz');
    const err = await readAll(file).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    expect((err as Error).message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: corrupt or truncated gzip`));
  });

  it('fails with a DataError naming a corrupt gzip file', async () => {
    const file = at('corrupt.jsonl.gz');
    await expect(readAll(file)).rejects.toThrow(DataError);
    await expect(readAll(file)).rejects.toThrow(file);
  });

  it('names a path that does not exist', async () => {
    const missing = at('missing.jsonl');
    await expect(readAll(missing)).rejects.toThrow(new UserError(`${missing}: no such file or directory`));
  });

  it('requires a path and takes no options', async () => {
    await expect(readAll('')).rejects.toBeInstanceOf(UserError);
    await expect(readAll(at('good.jsonl'), { compression: 'gzip' })).rejects.toBeInstanceOf(UserError);
  });

  it('stops reading when the consumer stops', async () => {
    const seen: string[] = [];
    for await (const doc of jsonlReader.read(at('good.jsonl.gz'), {}, { skip: () => {} })) {
      seen.push(doc.id);
      break;
    }
    expect(seen).toEqual(['d1']);
  });
});

describe('jsonl reader: the fields a config chooses (fields.jsonl)', () => {
  it('reads integer ids as their decimal digits and skips a fractional one', async () => {
    const { docs, skips } = await readAll(at('fields.jsonl'), { text_field: 'content' });
    expect(docs.map((d) => [d.id, d.text])).toEqual([
      ['7', 'seven'],
      ['8', 'eight'],
    ]);
    // Line 3's id is 9.5; line 4's content is an array.
    expect(skips.map((s) => [s.reason, s.id, s.detail.split(' (')[0]])).toEqual([
      ['bad-record', undefined, "line 3: id field 'id' not a non-empty string or an integer"],
      ['bad-record', 'ten', "line 4: text field 'content' not a string"],
    ]);
  });

  it('takes the id and meta from dotted paths, and copies only the scalar fields that are there', async () => {
    const { docs } = await readAll(at('fields.jsonl'), { id_field: 'doc.id', text_field: 'content', meta_fields: ['doc.lang', 'score', 'flag'] });
    expect(docs).toEqual([
      { id: 'n7', text: 'seven', meta: { 'doc.lang': 'en', score: '0.5' } },
      { id: 'n8', text: 'eight', meta: { flag: 'true' } },
    ]);
  });

  it('says which fields a record has and which key chooses the field, when the text is elsewhere', async () => {
    const { skips } = await readAll(at('fields.jsonl'));
    expect(skips[0]?.detail).toBe("line 1: text field 'text' missing (the record's fields: id, content, doc, score; corpus.text_field chooses the field)");
  });

  it('refuses an unknown option and a path with an empty key', async () => {
    await expect(readAll(at('fields.jsonl'), { txt_field: 'x' })).rejects.toThrow("jsonl: unknown option 'txt_field' (known: id_field, text_field, meta_fields)");
    await expect(readAll(at('fields.jsonl'), { id_field: 'doc..id' })).rejects.toThrow(UserError);
  });
});
