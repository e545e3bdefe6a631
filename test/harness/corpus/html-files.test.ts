import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DataError } from '../../../harness/errors.ts';
import { htmlDocumentId, htmlFilesReader } from '../../../harness/corpus/html-files.ts';
import { findCorpusReader } from '../../../harness/corpus/registry.ts';
import type { Document, Skip } from '../../../harness/corpus/types.ts';

const repo = new URL('../../../', import.meta.url);
const cacm = fileURLToPath(new URL('../shared/fixtures/anserini/cacm.tar.gz', repo));
const own = (name: string) => fileURLToPath(new URL(`../../fixtures/html/${name}`, import.meta.url));

const tmp = mkdtempSync(join(tmpdir(), 'html-files-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function read(path: string): Promise<{ docs: Document[]; skips: Skip[] }> {
  const docs: Document[] = [];
  const skips: Skip[] = [];
  for await (const d of htmlFilesReader.read(path, {}, { skip: (s) => skips.push(s) })) docs.push(d);
  return { docs, skips };
}

const LONG = 'a-page-whose-file-name-is-longer-than-the-one-hundred-bytes-a-tar-header-has-room-for-in-its-name-field';
// find test/fixtures/html/site -type f | LC_ALL=C sort, less notes.txt
const SITE_IDS = ['a', 'latin1', 'B', LONG];
const words = (s: string) => s.split(/\s+/).filter(Boolean).join(' ');

describe('the html reader on the CACM collection', () => {
  it('reads the 3,204 documents CACM-0001 … CACM-3204 in archive order, without a skip', async () => {
    const { docs, skips } = await read(cacm);
    // diff <(tar tzf cacm.tar.gz | sed 's/\.html$//') <(seq -f 'CACM-%04g' 1 3204) → no difference
    const expected = Array.from({ length: 3204 }, (_, i) => `CACM-${String(i + 1).padStart(4, '0')}`);
    expect(docs.map((d) => d.id)).toEqual(expected);
    expect(skips).toEqual([]);
    expect(docs[0]?.meta).toEqual({ file: 'CACM-0001.html' });
  });

  it('takes the text inside <pre>, without the tags', async () => {
    const first = (await read(cacm)).docs[0]!;
    // tar xzOf cacm.tar.gz CACM-0001.html | sed -n 5p → Preliminary Report-International Algebraic Language
    expect(first.text).toContain('Preliminary Report-International Algebraic Language');
    expect(first.text).not.toMatch(/<|pre>/);
  });

  it('keeps the documents before a cut in the gzip stream and counts both losses', async () => {
    const cut = join(tmp, 'cut.tar.gz');
    writeFileSync(cut, readFileSync(cacm).subarray(0, 400_000));
    const { docs, skips } = await read(cut);
    // head -c 400000 cacm.tar.gz | zcat | wc -c → 2649711 bytes; python3 tarfile: the last member whose
    // header and data end by then is CACM-1972 (CACM-1973's header is there, its data is not)
    expect(docs).toHaveLength(1972);
    expect(docs.at(-1)?.id).toBe('CACM-1972');
    expect(skips.map((s) => [s.reason, s.kind, s.offset])).toEqual([
      ['truncated-gzip', 'skipped', 2649711],
      ['truncated-tar', 'skipped', 2649711],
    ]);
  });
});

describe('the html reader on a folder', () => {
  it('reads .html and .htm files in byte order of their paths, with the file name as id', async () => {
    const { docs } = await read(own('site'));
    expect(docs.map((d) => d.id)).toEqual(SITE_IDS);
    expect(docs.map((d) => d.meta?.file)).toEqual(['a.html', 'latin1.html', 'sub/B.HTM', `sub/deep/${LONG}.html`]);
  });

  it('counts a file that is not HTML as a skip', async () => {
    const { skips } = await read(own('site'));
    expect(skips.filter((s) => s.reason === 'not-html')).toEqual([
      { file: join(own('site'), 'notes.txt'), reason: 'not-html', kind: 'skipped', detail: "'notes.txt' is not an .html or .htm file" },
    ]);
  });

  it('reads bytes that are not UTF-8 as windows-1252 and counts the document as recovered', async () => {
    const { docs, skips } = await read(own('site'));
    // latin1.html holds "Caf\xe9 cr\xe8me" (printf in the fixture's making)
    expect(words(docs[1]!.text)).toBe('Café crème');
    expect(skips.filter((s) => s.kind === 'recovered').map((s) => [s.id, s.reason, s.offset])).toEqual([['latin1', 'invalid-utf8', 0]]);
  });

  it('leaves out the head and decodes entities', async () => {
    const { docs } = await read(own('site'));
    expect(words(docs[0]!.text)).toBe('Alpha & beta');
  });

  it('reads a single HTML file as a one-document corpus', async () => {
    const { docs, skips } = await read(own('site/sub/B.HTM'));
    expect(docs.map((d) => [d.id, d.meta?.file, words(d.text)])).toEqual([['B', 'B.HTM', 'Upper case name second line']]);
    expect(skips).toEqual([]);
  });
});

describe('the html reader on archives written by GNU tar', () => {
  for (const name of ['site-gnu.tar.gz', 'site-pax.tar']) {
    it(`reads ${name} as the folder it was made from`, async () => {
      const archived = await read(own(name));
      const folder = await read(own('site'));
      expect(archived.docs.map((d) => d.id)).toEqual(SITE_IDS);
      expect(archived.docs.map((d) => d.text)).toEqual(folder.docs.map((d) => d.text));
      expect(archived.docs[3]?.meta).toEqual({ file: `site/sub/deep/${LONG}.html` });
    });

    it(`counts the skips of ${name} at their header offsets`, async () => {
      const { skips } = await read(own(name));
      // python3 -c "import tarfile; [print(m.name, m.offset) for m in tarfile.open(NAME)]":
      // site/latin1.html 1536, site/notes.txt 2560
      expect(skips.map((s) => [s.reason, s.offset, s.id])).toEqual([
        ['invalid-utf8', 1536, 'latin1'],
        ['not-html', 2560, undefined],
      ]);
      expect(skips.every((s) => s.file === own(name))).toBe(true);
    });
  }

  it('reports a damaged header as a DataError naming the file and the byte', async () => {
    const bad = join(tmp, 'bad.tar');
    const bytes = Buffer.from(readFileSync(own('site-pax.tar')));
    bytes[2560 + 5] = 0x58; // a letter of site/notes.txt's name; its checksum stays
    writeFileSync(bad, bytes);
    const err = await read(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DataError);
    expect((err as Error).message).toMatch(new RegExp(`^${bad.replaceAll('.', '\\.')}: byte 2560: tar header checksum mismatch`));
  });

  it('quotes an entry name it cannot read escaped and cut short (found by fuzzing)', async () => {
    const odd = join(tmp, 'odd.tar');
    const bytes = Buffer.from(readFileSync(own('site-pax.tar')));
    const header = bytes.subarray(2560, 3072); // site/notes.txt
    header.write('site/\u001b[2J\u0007notes.txt\u0000', 0, 'latin1');
    header.fill(0x20, 148, 156);
    const sum = header.reduce((a, b) => a + b, 0);
    header.write(`${sum.toString(8).padStart(6, '0')}\u0000 `, 148, 'latin1');
    writeFileSync(odd, bytes);
    const { skips } = await read(odd);
    expect(skips.find((s) => s.reason === 'not-html')?.detail).toBe("'site/\\e[2J\\x07notes.txt' is not an .html or .htm file");
  });

  it('keeps the entries before a cut in a plain tar and counts a truncated-tar skip', async () => {
    const cut = join(tmp, 'cut.tar');
    writeFileSync(cut, readFileSync(own('site-pax.tar')).subarray(0, 4096 + 512 + 20)); // inside B.HTM's data
    const { docs, skips } = await read(cut);
    expect(docs.map((d) => d.id)).toEqual(['a', 'latin1']);
    expect(skips.at(-1)).toMatchObject({ reason: 'truncated-tar', offset: 4096 + 512 + 20, kind: 'skipped' });
  });
});

describe('htmlDocumentId', () => {
  it('drops the folders and a .html or .htm extension in any case', () => {
    expect(['CACM-0001.html', 'a/b/Page.HTM', 'x.Html', 'y.htm.html', 'dir\\win.htm'].map(htmlDocumentId)).toEqual([
      'CACM-0001',
      'Page',
      'x',
      'y.htm',
      'win',
    ]);
  });

  it('is the reader of the html format in the registry', () => {
    expect(findCorpusReader('html')).toBe(htmlFilesReader);
  });
});
