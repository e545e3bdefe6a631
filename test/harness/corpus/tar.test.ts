import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createGunzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { tarEntries, TarError, type TarEnd, type TarEntry } from '../../../harness/corpus/tar.ts';

const repo = new URL('../../../', import.meta.url);
const shared = (name: string) => fileURLToPath(new URL(`../shared/fixtures/${name}`, repo));
const own = (name: string) => fileURLToPath(new URL(`../../fixtures/html/${name}`, import.meta.url));

// ---- a tar writer for the tests, byte by byte (POSIX.1-1988 ustar layout) ------------------

interface HeaderSpec {
  name: string;
  size?: number;
  type?: string;
  prefix?: string;
}

function put(block: Buffer, at: number, len: number, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  expect(bytes.length).toBeLessThanOrEqual(len);
  bytes.copy(block, at);
}

function octal(n: number, len: number): string {
  return n.toString(8).padStart(len - 1, '0') + '\0';
}

/** One 512-byte header; the checksum is the byte sum with the checksum field as 8 spaces. */
function header(spec: HeaderSpec): Buffer {
  const b = Buffer.alloc(512);
  put(b, 0, 100, spec.name);
  put(b, 100, 8, octal(0o644, 8));
  put(b, 108, 8, octal(0, 8));
  put(b, 116, 8, octal(0, 8));
  put(b, 124, 12, octal(spec.size ?? 0, 12));
  put(b, 136, 12, octal(1_700_000_000, 12));
  b.fill(0x20, 148, 156);
  b[156] = (spec.type ?? '0').charCodeAt(0);
  put(b, 257, 6, 'ustar\0');
  put(b, 263, 2, '00');
  if (spec.prefix !== undefined) put(b, 345, 155, spec.prefix);
  let sum = 0;
  for (const byte of b) sum += byte;
  put(b, 148, 8, sum.toString(8).padStart(6, '0') + '\0 ');
  return b;
}

function padded(data: Buffer): Buffer {
  return Buffer.concat([data, Buffer.alloc((512 - (data.length % 512)) % 512)]);
}

/** A header and its padded data. */
function member(spec: Omit<HeaderSpec, 'size'>, data: string | Buffer = ''): Buffer {
  const bytes = Buffer.isBuffer(data) ? data : Buffer.from(data);
  return Buffer.concat([header({ ...spec, size: bytes.length }), padded(bytes)]);
}

function paxRecord(key: string, value: string): string {
  // The length is in bytes and counts its own digits: iterate to the fixed point.
  const body = Buffer.byteLength(` ${key}=${value}\n`);
  let len = body + 1;
  while (String(len).length + body !== len) len = String(len).length + body;
  return `${len} ${key}=${value}\n`;
}

const END = Buffer.alloc(1024);

/** Feeds bytes in chunks of `size` so that headers and data straddle chunk boundaries. */
async function* chunked(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<{ entries: TarEntry[]; end: TarEnd }> {
  const entries: TarEntry[] = [];
  const it = tarEntries(stream);
  for (;;) {
    const r = await it.next();
    if (r.done === true) return { entries, end: r.value };
    entries.push(r.value);
  }
}

const summary = (entries: TarEntry[]) => entries.map((e) => ({ path: e.path, size: e.size, offset: e.offset, data: e.data.toString() }));

describe('tarEntries on archives written by hand', () => {
  // a.html: header 0, data 512 (5 bytes, 1 block); dir/: header 1024; b.html: header 1536,
  // data 2048–2648 (600 bytes, 2 blocks); end blocks at 3072.
  const big = 'x'.repeat(600);
  const archive = Buffer.concat([member({ name: 'a.html' }, 'hello'), member({ name: 'dir/', type: '5' }), member({ name: 'dir/b.html' }, big), END]);

  it('passes over an entry larger than the limit without holding it, and reads on', async () => {
    for (const size of [7, 512, 1 << 16]) {
      const entries: TarEntry[] = [];
      const it = tarEntries(chunked(archive, size), 100);
      for (let r = await it.next(); r.done !== true; r = await it.next()) entries.push(r.value);
      expect(entries.map((e) => [e.path, e.size, e.offset, e.tooLarge ?? false, e.data.length])).toEqual([
        ['a.html', 5, 0, false, 5],
        ['dir/b.html', 600, 1536, true, 0],
      ]);
    }
  });

  it('refuses an extended header too large to be one', async () => {
    const bad = Buffer.concat([header({ name: 'x', type: 'x', size: 2 * 1024 * 1024 }), END]);
    await expect(readAll(chunked(bad, 4096))).rejects.toThrow(/^byte 0: extended header of 2097152 bytes, more than 1048576: a damaged archive$/);
  });

  it('yields the regular files with their size, header offset and bytes', async () => {
    const { entries, end } = await readAll(chunked(archive, 1 << 16));
    expect(summary(entries)).toEqual([
      { path: 'a.html', size: 5, offset: 0, data: 'hello' },
      { path: 'dir/b.html', size: 600, offset: 1536, data: big },
    ]);
    expect(end).toEqual({ kind: 'complete' });
  });

  it('gives the same entries when every chunk boundary falls inside a header or a file', async () => {
    const { entries } = await readAll(chunked(archive, 7));
    expect(summary(entries).map((e) => [e.path, e.offset, e.data.length])).toEqual([
      ['a.html', 0, 5],
      ['dir/b.html', 1536, 600],
    ]);
  });

  it('passes over symbolic and hard links', async () => {
    const tar = Buffer.concat([member({ name: 'link', type: '2' }), member({ name: 'hard', type: '1' }), member({ name: 'c.html' }, 'c'), END]);
    const { entries } = await readAll(chunked(tar, 512));
    expect(summary(entries)).toEqual([{ path: 'c.html', size: 1, offset: 1024, data: 'c' }]);
  });

  it('reads an old-style NUL typeflag as a regular file', async () => {
    const tar = Buffer.concat([member({ name: 'v7.html', type: '\0' }, 'old'), END]);
    expect(summary((await readAll(chunked(tar, 512))).entries)).toEqual([{ path: 'v7.html', size: 3, offset: 0, data: 'old' }]);
  });

  it('joins the ustar prefix and name', async () => {
    const tar = Buffer.concat([member({ name: 'page.html', prefix: 'deep/folder' }, 'p'), END]);
    expect((await readAll(chunked(tar, 512))).entries[0]?.path).toBe('deep/folder/page.html');
  });

  it('takes the name of a GNU long-name header and reports the entry at that header', async () => {
    const long = `${'n'.repeat(150)}.html`;
    const tar = Buffer.concat([member({ name: '././@LongLink', type: 'L' }, `${long}\0`), member({ name: long.slice(0, 99) }, 'long'), END]);
    const { entries } = await readAll(chunked(tar, 100));
    // the L header (0) and its 156-byte name (1 block) come before the file's own header (1024)
    expect(summary(entries)).toEqual([{ path: long, size: 4, offset: 0, data: 'long' }]);
  });

  it('takes path and size from a pax extended header, for the next entry only', async () => {
    const pax = paxRecord('path', 'from/pax/é.html') + paxRecord('mtime', '1700000000.5');
    const tar = Buffer.concat([
      member({ name: 'PaxHeaders/x', type: 'x' }, pax),
      member({ name: 'truncated-name.html' }, 'pax'),
      member({ name: 'next.html' }, 'n'),
      END,
    ]);
    const { entries } = await readAll(chunked(tar, 512));
    expect(summary(entries)).toEqual([
      { path: 'from/pax/é.html', size: 3, offset: 0, data: 'pax' },
      { path: 'next.html', size: 1, offset: 2048, data: 'n' },
    ]);
  });

  it('throws a TarError at the header whose checksum does not match', async () => {
    const bad = member({ name: 'b.html' }, 'b');
    bad[0] = 'c'.charCodeAt(0); // the name changes, the stored checksum does not
    const tar = Buffer.concat([member({ name: 'a.html' }, 'a'), bad, END]);
    const it = tarEntries(chunked(tar, 512));
    expect((await it.next()).value).toMatchObject({ path: 'a.html' });
    const err = await it.next().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TarError);
    expect((err as TarError).offset).toBe(1024);
    expect((err as TarError).message).toMatch(/^byte 1024: tar header checksum mismatch/);
  });

  it('throws on bytes that are not a tar archive at all', async () => {
    const html = Buffer.from('<html><body>not an archive</body></html>\n'.repeat(20));
    await expect(readAll(chunked(html, 512))).rejects.toThrow(/^byte 0: tar header checksum mismatch/);
  });

  it('returns the entries before a cut inside a file, and says where it was cut', async () => {
    const cut = archive.subarray(0, 2048 + 100); // inside b.html's data
    const { entries, end } = await readAll(chunked(cut, 512));
    expect(entries.map((e) => e.path)).toEqual(['a.html']);
    expect(end).toEqual({ kind: 'truncated', offset: 2148, problem: 'the archive ends inside dir/b.html (100 of 600 bytes)' });
  });

  it('counts an archive without its end blocks as truncated', async () => {
    const { entries, end } = await readAll(chunked(archive.subarray(0, 3072), 512));
    expect(entries).toHaveLength(2);
    expect(end).toMatchObject({ kind: 'truncated', offset: 3072 });
  });

  it('refuses a zero block followed by more headers rather than drop them', async () => {
    const tar = Buffer.concat([member({ name: 'a.html' }, 'a'), Buffer.alloc(512), member({ name: 'b.html' }, 'b'), END]);
    await expect(readAll(chunked(tar, 512))).rejects.toThrow(/^byte 1024: a zero block/);
  });
});

describe('tarEntries on archives written by GNU tar', () => {
  const longName = 'site/sub/deep/a-page-whose-file-name-is-longer-than-the-one-hundred-bytes-a-tar-header-has-room-for-in-its-name-field.html';
  // tar tf test/fixtures/html/site-pax.tar | grep -v '/$'  (the same list for site-gnu.tar.gz)
  const files = ['site/a.html', 'site/latin1.html', 'site/notes.txt', 'site/sub/B.HTM', longName];

  it('reads the long name of a GNU-format archive', async () => {
    const { entries, end } = await readAll(createReadStream(own('site-gnu.tar.gz')).pipe(createGunzip()));
    expect(entries.map((e) => e.path)).toEqual(files);
    expect(end).toEqual({ kind: 'complete' });
  });

  it('reads the pax path of a POSIX-format archive, with sizes as tar tvf lists them', async () => {
    const { entries } = await readAll(createReadStream(own('site-pax.tar')));
    expect(entries.map((e) => e.path)).toEqual(files);
    // tar tvf site-pax.tar: 86, 44, 30, 57, 36 bytes
    expect(entries.map((e) => e.size)).toEqual([86, 44, 30, 57, 36]);
    expect(entries[4]?.data.toString()).toBe('<html><body>Deep page</body></html>\n');
  });

  it('reads every file of the real CACM archive', async () => {
    const { entries, end } = await readAll(createReadStream(shared('anserini/cacm.tar.gz')).pipe(createGunzip()));
    // tar tzf cacm.tar.gz | grep -c html → 3204; tar tzf cacm.tar.gz | grep -vc html → 0
    expect(entries).toHaveLength(3204);
    expect(end).toEqual({ kind: 'complete' });
    // tar tzvf cacm.tar.gz | head -2 → CACM-0001.html 416 bytes, CACM-0002.html 186 bytes
    expect(entries.slice(0, 2).map((e) => [e.path, e.size])).toEqual([
      ['CACM-0001.html', 416],
      ['CACM-0002.html', 186],
    ]);
    // zcat cacm.tar.gz | head -c 528 | tail -c 16 → the first data block starts at byte 512
    expect(entries[0]?.data.subarray(0, 16).toString()).toBe('<html>\n<pre>\n\n\nP');
    expect(entries.at(-1)?.path).toBe('CACM-3204.html');
  });
});
