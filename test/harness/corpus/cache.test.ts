/**
 * The corpus cache replays exactly what reading gives (documents, skips, the same error at the
 * same place), keys entries by the inputs, the reader and its options, and never gives a wrong
 * document from a corrupt, truncated or half-written entry. The expected values are the reads
 * without a cache.
 */
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheDir, clearCache, listEntries, type CorpusCacheOptions } from '../../../harness/corpus/cache.ts';
import { newCorpusStats, readCorpus, type ReadOptions } from '../../../harness/corpus/read.ts';
import type { Document } from '../../../harness/corpus/types.ts';

const here = (p: string): string => fileURLToPath(new URL(`../../fixtures/${p}`, import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'corpus-cache-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A fresh cache folder; small frames, so that entries have several; no size floor. */
function newCache(over: Partial<CorpusCacheOptions> = {}): CorpusCacheOptions & { notices: string[] } {
  const notices: string[] = [];
  return { dir: join(root, `cache-${n++}`), maxBytes: 2 ** 30, method: 'stat', minBytes: 0, frameBytes: 200, notice: (l) => notices.push(l), notices, ...over };
}

interface Outcome {
  docs: Document[];
  stats: ReturnType<typeof newCorpusStats>;
  error?: string;
}

async function read(opts: ReadOptions): Promise<Outcome> {
  const stats = newCorpusStats();
  const docs: Document[] = [];
  try {
    for await (const d of readCorpus(opts, stats)) docs.push(d);
  } catch (e) {
    return { docs, stats, error: `${(e as Error).name}: ${(e as Error).message}` };
  }
  return { docs, stats };
}

/** The outcome without the cache's own field, to compare with a read without cache. */
const plain = (o: Outcome): Outcome => ({ ...o, stats: { ...o.stats, cache: 'off' } });

function entryFiles(cache: CorpusCacheOptions): string[] {
  return readdirSync(cache.dir)
    .filter((f) => f.endsWith('.corpus'))
    .map((f) => join(cache.dir, f));
}

describe('the corpus cache', () => {
  const cases: [string, string][] = [
    ['spamassassin', here('mail')],
    ['trecweb', here('trec/broken.trecweb')],
    ['warc', here('trec/clueweb09-style.warc.gz')],
    ['html', here('html/site-gnu.tar.gz')],
    ['jsonl', here('jsonl/bad.jsonl')],
  ];

  it.each(cases)('%s %s: written on the first read, replayed on the second, both as reading gives', async (format, path) => {
    const cache = newCache();
    const reference = await read({ format, path });
    const first = await read({ format, path, cache });
    const second = await read({ format, path, cache });
    expect(first.stats.cache).toBe('written');
    expect(second.stats.cache).toBe('hit');
    expect(plain(first)).toEqual(reference);
    expect(plain(second)).toEqual(reference);
    expect(cache.notices).toEqual([]);
  });

  it('replays a strict read to the same error, and a limited read to the same documents and counts', async () => {
    const cache = newCache();
    const path = here('trec/broken.trecweb');
    await read({ format: 'trecweb', path, cache });
    for (const extra of [{ strict: true }, { limit: 2 }]) {
      const reference = await read({ format: 'trecweb', path, ...extra });
      const replayed = await read({ format: 'trecweb', path, cache, ...extra });
      expect(replayed.stats.cache).toBe('hit');
      expect(plain(replayed)).toEqual(reference);
    }
  });

  it('writes nothing for a read that stops early (a limit) or fails, and says so', async () => {
    const cache = newCache();
    const limited = await read({ format: 'trecweb', path: here('trec/broken.trecweb'), limit: 1, cache });
    expect(limited.stats.cache).toBe('not-written');
    const failed = await read({ format: 'jsonl', path: here('jsonl/corrupt.jsonl.gz'), cache });
    expect(failed.error).toMatch(/corrupt or truncated gzip/);
    expect(failed.stats.cache).toBe('not-written');
    expect(existsSync(cache.dir) ? readdirSync(cache.dir) : []).toEqual([]);
  });

  it('is keyed by the input files, the options and the path as given', async () => {
    const cache = newCache();
    const dir = join(root, 'keyed');
    cpSync(here('mail'), dir, { recursive: true });
    await read({ format: 'spamassassin', path: dir, cache });
    expect((await read({ format: 'spamassassin', path: dir, cache })).stats.cache).toBe('hit');
    expect((await read({ format: 'spamassassin', path: dir, options: { groups: ['spam-1'] }, cache })).stats.cache).toBe('written');
    expect((await read({ format: 'spamassassin', path: `${dir}/`, cache })).stats.cache).toBe('written');
    // A message rewritten (same size, another time): a new entry, with the new text.
    const file = join(dir, 'data', 'easy-ham-1', '00001.1542a7b2703ec609ec7455bd102f83a9.txt');
    const before = readFileSync(file, 'latin1');
    writeFileSync(file, before.replace('ligne.', 'lampe.'), 'latin1');
    expect(statSync(file).size).toBe(before.length);
    utimesSync(file, new Date(2001, 1, 1), new Date(2001, 1, 1));
    const changed = await read({ format: 'spamassassin', path: dir, cache });
    expect(changed.stats.cache).toBe('written');
    expect(changed.docs.find((d) => d.id === 'easy-ham-1/00001')?.text).toContain('Une lampe.');
    expect(entryFiles(cache)).toHaveLength(4);
  });

  describe('never gives a wrong or repeated document from a damaged entry', () => {
    const path = here('mail');

    async function damaged(damage: (file: string) => void): Promise<{ cache: ReturnType<typeof newCache>; again: Outcome; reference: Outcome }> {
      const cache = newCache();
      const reference = await read({ format: 'spamassassin', path });
      await read({ format: 'spamassassin', path, cache });
      const [file] = entryFiles(cache);
      damage(file!);
      const again = await read({ format: 'spamassassin', path, cache });
      return { cache, again, reference };
    }

    it('a byte changed in a later frame: the frames before it are replayed, the rest read', async () => {
      const { cache, again, reference } = await damaged((file) => {
        const bytes = readFileSync(file);
        const at = Math.floor(bytes.length * 0.7);
        bytes[at] = bytes[at]! ^ 0x20;
        writeFileSync(file, bytes);
      });
      expect(plain(again)).toEqual(reference);
      expect(cache.notices).toHaveLength(1);
      expect(cache.notices[0]).toMatch(/fails its SHA-256 check: removed; reading the collection \(the \d+ records already read/);
      // The entry was written again, whole.
      expect((await read({ format: 'spamassassin', path, cache })).stats.cache).toBe('hit');
    });

    it('an entry cut short', async () => {
      const { cache, again, reference } = await damaged((file) => writeFileSync(file, readFileSync(file).subarray(0, statSync(file).size - 100)));
      expect(plain(again)).toEqual(reference);
      expect(cache.notices[0]).toMatch(/inside a frame: removed/);
    });

    it('an entry with bytes after its end, or of another format', async () => {
      const extra = await damaged((file) => appendFileSync(file, 'x'));
      // Bytes after the trailer are never read: the entry is whole.
      expect(extra.again.stats.cache).toBe('hit');
      const other = await damaged((file) => writeFileSync(file, 'not an entry'));
      expect(plain(other.again)).toEqual(other.reference);
      expect(other.cache.notices[0]).toMatch(/not a corpus cache entry/);
    });
  });

  it('two reads writing the same entry at once leave one whole entry; a dead process’s temporary file is removed', async () => {
    const cache = newCache();
    mkdirSync(cache.dir, { recursive: true });
    const stale = join(cache.dir, `${'a'.repeat(64)}.999999999.0.tmp`);
    writeFileSync(stale, 'half an entry');
    const path = here('mail');
    const [a, b] = await Promise.all([read({ format: 'spamassassin', path, cache }), read({ format: 'spamassassin', path, cache })]);
    expect(plain(a)).toEqual(plain(b));
    expect(existsSync(stale)).toBe(false);
    expect(readdirSync(cache.dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(entryFiles(cache)).toHaveLength(1);
    const c = await read({ format: 'spamassassin', path, cache });
    expect(c.stats.cache).toBe('hit');
    expect(plain(c)).toEqual(plain(a));
  });

  it('keeps to its size: the least recently used entries go first, an entry larger than the limit is not kept', async () => {
    const cache = newCache();
    const at = (format: string): string => listEntries(cache.dir).find((e) => e.format === format)!.file;
    await read({ format: 'trecweb', path: here('trec/broken.trecweb'), cache });
    await read({ format: 'warc', path: here('trec/clueweb09-style.warc.gz'), cache });
    await read({ format: 'spamassassin', path: here('mail'), cache });
    // Last used: the WARC entry longest ago, then the mail, then the TREC-web one.
    for (const [format, s] of [['warc', 1000], ['spamassassin', 2000], ['trecweb', 3000]] as const) utimesSync(at(format), s, s);
    const html = await read({ format: 'html', path: here('html/site-gnu.tar.gz'), cache: { ...cache, maxBytes: 2 ** 30 } });
    expect(html.stats.cache).toBe('written');
    const size = (format: string): number => statSync(at(format)).size;
    // Room for all but the WARC entry: writing one more (the same HTML under a path a few bytes
    // longer) removes it alone.
    const room = size('html') * 2 + size('spamassassin') + size('trecweb') + Math.floor(size('warc') / 2);
    utimesSync(at('html'), 4000, 4000);
    const again = await read({ format: 'html', path: `${here('html')}/./site-gnu.tar.gz`, cache: { ...cache, maxBytes: room } });
    expect(again.stats.cache).toBe('written');
    expect(listEntries(cache.dir).map((e) => e.format)).toEqual(['spamassassin', 'trecweb', 'html', 'html']);
    const tiny = newCache({ maxBytes: 1000 });
    const big = await read({ format: 'spamassassin', path: here('mail'), cache: tiny });
    expect(big.stats.cache).toBe('not-written');
    expect(tiny.notices[0]).toMatch(/larger than the cache's/);
    expect(readdirSync(tiny.dir)).toEqual([]);
  });

  it('a cache that cannot be written costs only the speed-up', async () => {
    const blocker = join(root, 'a-file');
    writeFileSync(blocker, '');
    const cache = newCache({ dir: join(blocker, 'corpus') });
    const r = await read({ format: 'trecweb', path: here('trec/broken.trecweb'), cache });
    expect(plain(r)).toEqual(await read({ format: 'trecweb', path: here('trec/broken.trecweb') }));
    expect(r.stats.cache).toBe('not-written');
    expect(cache.notices[0]).toMatch(/^corpus cache: not written/);
  });

  it('is not used for corpora under its size floor', async () => {
    const cache = newCache({ minBytes: 1 << 20 });
    const r = await read({ format: 'trecweb', path: here('trec/broken.trecweb'), cache });
    expect(r.stats.cache).toBe('off');
    expect(existsSync(cache.dir)).toBe(false);
  });

  it('clears', async () => {
    const cache = newCache();
    await read({ format: 'trecweb', path: here('trec/broken.trecweb'), cache });
    expect(clearCache(cache.dir).entries).toBe(1);
    expect(readdirSync(cache.dir)).toEqual([]);
  });
});

describe('where the cache is', () => {
  it('NDD_BENCH_CACHE_DIR, else the platform’s cache folder; off when asked', () => {
    expect(cacheDir({ NDD_BENCH_CACHE_DIR: '/x/y' }, 'linux', '/home/u')).toBe('/x/y');
    expect(cacheDir({ NDD_BENCH_CACHE_DIR: 'off' }, 'linux', '/home/u')).toBeUndefined();
    expect(cacheDir({ XDG_CACHE_HOME: '/xdg' }, 'linux', '/home/u')).toBe('/xdg/ndd-bench');
    expect(cacheDir({}, 'linux', '/home/u')).toBe('/home/u/.cache/ndd-bench');
    expect(cacheDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Caches/ndd-bench');
    expect(cacheDir({ LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local' }, 'win32', 'C:\\Users\\u')).toBe(join('C:\\Users\\u\\AppData\\Local', 'ndd-bench', 'Cache'));
  });
});
