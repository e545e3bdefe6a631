/** `bench cache [--clear]`: where the corpus cache and the stored values are, what they hold, and emptying them. */
import type { CommandModule } from 'yargs';
import { clearCache, corpusCacheFromEnv, listEntries } from '../corpus/cache.ts';
import { clearStoredValues, listStoredValues, storeBesideCorpusCache } from '../experiment/stored-values.ts';
import { grouped } from '../format.ts';

const mb = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MB`;

export const cacheCommand: CommandModule<object, { clear: boolean }> = {
  command: 'cache',
  describe: 'the cache of read collections and their fingerprints, replayed by later runs: where, what, --clear to empty it',
  builder: (y) => y.option('clear', { type: 'boolean', default: false, describe: 'remove every entry' }),
  handler: (args) => {
    const cache = corpusCacheFromEnv(process.env);
    const out = process.stdout;
    if (!cache) {
      out.write('corpus cache: off (NDD_BENCH_CACHE_DIR=off)\n');
      return;
    }
    const store = storeBesideCorpusCache(cache);
    if (args.clear) {
      const freed = clearCache(cache.dir);
      out.write(`corpus cache ${cache.dir}: removed ${freed.entries} entr${freed.entries === 1 ? 'y' : 'ies'}, ${mb(freed.bytes)}\n`);
      const values = clearStoredValues(store.dir);
      out.write(`stored values ${store.dir}: removed ${values.entries} entr${values.entries === 1 ? 'y' : 'ies'}, ${mb(values.bytes)}\n`);
      return;
    }
    const entries = listEntries(cache.dir);
    const total = entries.reduce((s, e) => s + e.bytes, 0);
    out.write(`corpus cache ${cache.dir}: ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}, ${mb(total)} of at most ${mb(cache.maxBytes)} (NDD_BENCH_CACHE_MAX_MB)\n`);
    for (const e of [...entries].reverse()) {
      out.write(`  ${e.format} ${e.location}  ${mb(e.bytes)}  written ${e.created.slice(0, 19)}Z, last used ${e.used.toISOString().slice(0, 19)}Z\n`);
    }
    const values = listStoredValues(store.dir);
    const valueBytes = values.reduce((s, e) => s + e.bytes, 0);
    out.write(`stored values ${store.dir}: ${values.length} entr${values.length === 1 ? 'y' : 'ies'}, ${mb(valueBytes)} of at most ${mb(store.maxBytes)} (NDD_BENCH_CACHE_MAX_MB)\n`);
    for (const e of [...values].reverse()) {
      out.write(`  ${e.describe} of ${grouped(e.documents)} documents  ${mb(e.bytes)}  written ${e.created.slice(0, 19)}Z, last used ${e.used.toISOString().slice(0, 19)}Z\n`);
    }
  },
};
