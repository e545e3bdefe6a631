/** `bench corpus` as users run it, on the real-format fixtures of ../shared/fixtures. */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runBench } from '../../support/cli.ts';

const repo = new URL('../../../', import.meta.url);
const fixture = (name: string) => fileURLToPath(new URL(`../shared/fixtures/anserini/${name}`, repo));

const dir = mkdtempSync(join(tmpdir(), 'bench-corpus-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A config in the temp folder; the ground truth and runs are not needed to read a corpus. */
function config(name: string, format: string, path: string, subset = ''): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(file, `experiment: ${name}\ncorpus:\n  format: ${format}\n  path: ${path}\n${subset}`);
  return file;
}

const bench = (...args: string[]) => runBench(args);

const runsFolder = join(dir, 'runs');
mkdirSync(runsFolder);
copyFileSync(fixture('run.cacm-bm25.txt'), join(runsFolder, 'run.cacm-bm25.txt'));

interface Case {
  name: string;
  format: string;
  file: string;
  subset?: string;
  count: number;
  /** what --count prints on stderr: the skip counters, then the first skips */
  stderr: string;
}

const cases: Case[] = [
  // grep -bo '<DOC>' → 0, 223, 404; grep -c '<DOCNO>' → 2: the <DOC> at byte 223 has none
  {
    name: 'trecweb-segment1',
    format: 'trecweb',
    file: 'trecweb-segment1.txt',
    count: 2,
    stderr: `skipped: missing-docno 1; read with a fallback: none\n  ${fixture('trecweb-segment1.txt')}: byte 223: missing-docno: <DOC> without <DOCNO>\n`,
  },
  // awk '{print $1,$5,$3}' run.cacm-bm25.txt | LC_ALL=C sort -k1,1 -k2,2gr -k3,3r
  //   | awk '{n[$1]++} n[$1]<=10 {print $3}' | sort -u | wc -l → 435
  {
    name: 'cacm-runs-folder',
    format: 'html',
    file: 'cacm.tar.gz',
    subset: `  subset:\n    runs: [${runsFolder}]\n    top: 10\n`,
    count: 435,
    stderr: '',
  },
];

// Each spawn costs a second of start-up: the cases run side by side.
describe.concurrent('bench corpus --count', () => {
  for (const c of cases) {
    it(`counts ${c.count} documents in ${c.name}`, async () => {
      const r = await bench('corpus', config(c.name, c.format, fixture(c.file), c.subset), '--count');
      expect(r).toEqual({ code: 0, stdout: `${c.count}\n`, stderr: c.stderr });
    });
  }
});

describe.concurrent('bench corpus --ids', () => {
  const ids = async (name: string, format: string, file: string): Promise<string[]> => {
    const r = await bench('corpus', config(`${name}-ids`, format, fixture(file)), '--ids');
    expect(r.code).toBe(0);
    return r.stdout.split('\n').slice(0, -1);
  };

  it('prints the DOCNO and the NTCIR id attribute of TREC disks records', async () => {
    // grep -c '</DOC>' → 2; grep -o '<DOCNO>[^<]*\|<DOC id="[^"]*"' trec-disks-segment1.txt → AP-0001, doc2
    expect(await ids('trec', 'trec', 'trec-disks-segment1.txt')).toEqual(['AP-0001', 'doc2']);
  });

  // zcat … | grep -ac 'WARC-Type: response' → 1 in each; zcat … | grep -a WARC-TREC-ID →
  // clueweb09-az0000-00-00000 in both ClueWeb files (Anserini's ClueWeb12 sample reuses the id)
  for (const name of ['clueweb09-segment1', 'clueweb12-segment1']) {
    it(`prints the WARC-TREC-ID of the response in ${name}`, async () => {
      expect(await ids(name, 'warc', `${name}.warc.gz`)).toEqual(['clueweb09-az0000-00-00000']);
    });
  }

  it('prints the WARC-Record-ID of a Common Crawl response, which has no TREC id', async () => {
    // zcat commoncrawl-segment1.warc.gz | grep -a -A3 'WARC-Type: response' | grep Record-ID
    expect(await ids('commoncrawl', 'warc', 'commoncrawl-segment1.warc.gz')).toEqual(['urn:uuid:b92fd779-f40f-4edc-8332-ffddbdbce74b']);
  });

  it('prints CACM-0001 … CACM-3204, the file names of cacm.tar.gz', async () => {
    // diff <(tar tzf cacm.tar.gz | sed 's/\.html$//') <(seq -f 'CACM-%04g' 1 3204) → no difference
    const expected = Array.from({ length: 3204 }, (_, i) => `CACM-${String(i + 1).padStart(4, '0')}`);
    expect(await ids('cacm', 'html', 'cacm.tar.gz')).toEqual(expected);
  });
});

describe('bench corpus on a qrels subset of CACM', () => {
  it('keeps the judged documents and reports those no file holds', async () => {
    const file = config('cacm-qrels', 'html', fixture('cacm.tar.gz'), `  subset: { qrels: ${fixture('qrels.cacm.txt')}, relevant_only: true }\n`);
    const r = await bench('corpus', file);
    expect(r.code).toBe(0);
    // comm -12 <(awk '$4>0{print $3}' qrels.cacm.txt | sort -u) <(tar tzf cacm.tar.gz | sed 's/\.html$//' | sort)
    //   | wc -l → 509; awk '{print $3}' qrels.cacm.txt | sort -u | wc -l → 555 judged (all grade 1),
    // of which grep -vc '^CACM-[0-9]\{4\}$' → 46 are written unpadded (CACM-115) and match no
    // file; 3204 - 509 = 2695 documents not judged
    expect(r.stdout).toContain('documents: 509\nrecords read: 3204\nsubset: 555 selected, 2695 read but not selected, 46 selected but not found\n');
  });
});
