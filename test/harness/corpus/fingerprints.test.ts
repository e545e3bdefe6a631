import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listInputFiles } from '../../../harness/corpus/files.ts';
import { spamAssassinReader } from '../../../harness/corpus/spamassassin.ts';
import { fingerprintCorpus, fingerprintPath } from '../../../harness/corpus/fingerprints.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'inputs-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function file(path: string, text: string, mtimeS = 1_700_000_000): string {
  writeFileSync(path, text);
  utimesSync(path, mtimeS, mtimeS);
  return path;
}

describe('fingerprintPath', () => {
  it('covers the files the readers read: through symbolic links, without dot files', async () => {
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(join(elsewhere, 'sub'), { recursive: true });
    const corpus = join(dir, 'corpus');
    mkdirSync(corpus);
    file(join(corpus, 'a.txt'), 'aaa');
    file(join(elsewhere, 'b.txt'), 'bbbb');
    file(join(elsewhere, 'sub', 'c.txt'), 'cc');
    file(join(corpus, '.hidden'), 'not data');
    symlinkSync(join(elsewhere, 'b.txt'), join(corpus, 'b.txt'));
    symlinkSync(join(elsewhere, 'sub'), join(corpus, 'sub'));

    const fp = await fingerprintPath(corpus, 'stat');
    // What the readers list, and the digest computed here from its definition.
    expect(await listInputFiles(corpus)).toEqual([join(corpus, 'a.txt'), join(corpus, 'b.txt'), join(corpus, 'sub', 'c.txt')]);
    expect(fp.files).toBe(3);
    expect(fp.bytes).toBe(3 + 4 + 2);
    const mtime = statSync(join(corpus, 'a.txt')).mtimeMs;
    const h = createHash('sha256');
    for (const [rel, size] of [['a.txt', 3], ['b.txt', 4], [join('sub', 'c.txt'), 2]] as const) h.update(`${rel}\u0000${size}\u0000${mtime}\n`);
    expect(fp.digest).toBe(h.digest('hex'));
  });

  it('changes when a file behind a symbolic link changes', async () => {
    const target = file(join(dir, 'target.txt'), 'one');
    const corpus = join(dir, 'corpus');
    mkdirSync(corpus);
    symlinkSync(target, join(corpus, 'linked.txt'));
    const before = await fingerprintPath(corpus, 'content');
    file(target, 'two');
    const after = await fingerprintPath(corpus, 'content');
    expect(before.files).toBe(1);
    expect(after.digest).not.toBe(before.digest);
  });

  it('says missing for a path that does not exist', async () => {
    expect((await fingerprintPath(join(dir, 'nope'), 'stat')).digest).toBe('missing');
  });
});

describe('fingerprintCorpus', () => {
  /** A SpamAssassin-layout folder: two groups listed, a metadata file beside each message, one unlisted message. */
  function mailFolder(): string {
    const root = join(dir, 'mail');
    for (const g of ['easy-ham-1', 'spam-1']) mkdirSync(join(root, 'data', g), { recursive: true });
    file(join(root, 'data', 'file_list.json'), JSON.stringify(['easy-ham-1/00001.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.txt', 'spam-1/00001.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.txt', 'bad name']));
    file(join(root, 'data', 'easy-ham-1', '00001.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.txt'), 'one');
    file(join(root, 'data', 'spam-1', '00001.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.txt'), 'three');
    file(join(root, 'data', 'easy-ham-1', '00001.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.json'), '{}');
    file(join(root, 'data', 'easy-ham-1', '00002.cccccccccccccccccccccccccccccccc.txt'), 'not listed');
    return root;
  }

  it('covers the files a listing reader reads (the list and its messages), by their definition', async () => {
    const root = mailFolder();
    const fp = await fingerprintCorpus(spamAssassinReader, root, {}, 'stat');
    const h = createHash('sha256');
    const rels = [join('data', 'file_list.json'), join('data', 'easy-ham-1', '00001.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.txt'), join('data', 'spam-1', '00001.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.txt')];
    for (const rel of rels) h.update(`${rel}\u0000${statSync(join(root, rel)).size}\u0000${statSync(join(root, rel)).mtimeMs}\n`);
    expect({ path: fp.path, files: fp.files, bytes: fp.bytes, digest: fp.digest }).toEqual({
      path: root,
      files: 3,
      bytes: statSync(join(root, rels[0] as string)).size + 3 + 5,
      digest: h.digest('hex'),
    });
  });

  it('does not change with a file the reader never reads, and changes with one it reads', async () => {
    const root = mailFolder();
    const before = await fingerprintCorpus(spamAssassinReader, root, {}, 'stat');
    file(join(root, 'data', 'easy-ham-1', '00001.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.json'), '{"changed": true}', 1_700_000_100);
    file(join(root, 'data', 'easy-ham-1', '00002.cccccccccccccccccccccccccccccccc.txt'), 'still not listed', 1_700_000_100);
    expect((await fingerprintCorpus(spamAssassinReader, root, {}, 'stat')).digest).toBe(before.digest);
    file(join(root, 'data', 'spam-1', '00001.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb.txt'), 'THREE', 1_700_000_100);
    expect((await fingerprintCorpus(spamAssassinReader, root, {}, 'stat')).digest).not.toBe(before.digest);
  });

  it('covers only the groups asked for, and says missing for a listed message that is not on disk', async () => {
    const root = mailFolder();
    const spamOnly = await fingerprintCorpus(spamAssassinReader, root, { groups: ['spam-1'] }, 'stat');
    expect(spamOnly.files).toBe(2);
    const before = await fingerprintCorpus(spamAssassinReader, root, {}, 'stat');
    rmSync(join(root, 'data', 'easy-ham-1', '00001.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.txt'));
    const after = await fingerprintCorpus(spamAssassinReader, root, {}, 'stat');
    expect(after.files).toBe(2);
    expect(after.digest).not.toBe(before.digest);
  });

  it('falls back to every file under the folder when the list cannot be read', async () => {
    const root = mailFolder();
    rmSync(join(root, 'data', 'file_list.json'));
    expect(await fingerprintCorpus(spamAssassinReader, root, {}, 'stat')).toEqual(await fingerprintPath(root, 'stat'));
  });
});
