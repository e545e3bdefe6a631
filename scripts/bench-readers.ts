/**
 * Reader throughput (issue 3, "Speed and memory"): reading must not be the bottleneck, i.e. a
 * gzip'd TREC-web file and a gzip'd WARC file of at least 200 MB (uncompressed) are each read at
 * 50 MB/s or more of uncompressed input per CPU-second, on one thread, with flat memory.
 *
 *   node --import tsx scripts/bench-readers.ts [--target-mb 200] [--dir DIR]
 *
 * The files are generated from the bundled SpamAssassin corpus: every message becomes a small
 * HTML page, repeated under new DOCNOs / WARC-TREC-IDs until the target size is reached, and
 * streamed through gzip to disk (never held whole). Each file is then read with `readCorpus`
 * in this process, without workers. CPU time is `process.cpuUsage()`, which also counts the
 * libuv thread that gunzips: the figure is the cost of reading, whichever thread pays it.
 * RSS is sampled while reading; flat memory shows as the same RSS after the first 10% of the
 * documents as at the end. With `--dir`, the files are kept there and reused by later runs
 * of the same target size.
 */
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createGzip } from 'node:zlib';
import { newCorpusStats, readCorpus } from '../harness/corpus/read.ts';

export interface ReaderFigures {
  /** Uncompressed input, in MB (10^6 bytes). */
  readonly mb: number;
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly mbPerCpuSecond: number;
  readonly peakRssMb: number;
  /** RSS just before the read began: what the process held already. */
  readonly rssBeforeMb: number;
  /** RSS once 10% of the documents were read, and at the end: equal when memory is flat. */
  readonly rssAt10PctMb: number;
  readonly rssAtEndMb: number;
  readonly docs: number;
}

type Format = 'trecweb' | 'warc';

export interface GeneratedFile {
  readonly path: string;
  /** Uncompressed bytes. */
  readonly bytes: number;
  readonly docs: number;
}

export type Manifest = { readonly targetMb: number } & Record<Format, GeneratedFile>;

const MB = 1e6;
const DEFAULT_TARGET_MB = 200;
/** Writes go to gzip in batches of about this size: one call per page would dominate. */
const BATCH_BYTES = 1 << 20;
/** RSS is sampled every this many documents (a sample costs microseconds; a document, tens). */
const SAMPLE_EVERY = 64;

/** A message of the bundled corpus, the raw material of the pages. */
export interface SourceDocument {
  readonly id: string;
  readonly subject?: string;
  readonly text: string;
}

/** A page as the readers will see it; the body text is the message's, paragraph by paragraph. */
interface Page {
  readonly url: string;
  readonly html: string;
  readonly bytes: number;
}

const escapeHtml = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function toPage(doc: SourceDocument, n: number): Page {
  const paragraphs = doc.text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${escapeHtml(p)}</p>\n`);
  // A script with '<' and '&&' in it, as real pages have: the reader must not take it for text.
  const script = `var page = ${n}; if (page < 10 && window.track) { track("${escapeHtml(doc.id)}"); }`;
  const html =
    `<html><head><meta charset="utf-8"><title>${escapeHtml(doc.subject ?? doc.id)}</title>` +
    `<script>${script}</script></head>\n<body>\n${paragraphs.join('')}</body></html>\n`;
  return { url: `http://www.example.gov/${encodeURI(doc.id)}.html`, html, bytes: Buffer.byteLength(html) };
}

async function bundledDocuments(): Promise<SourceDocument[]> {
  const docs: SourceDocument[] = [];
  for await (const d of readCorpus({ format: 'spamassassin' }, newCorpusStats())) {
    docs.push({ id: d.id, subject: d.meta?.['subject'], text: d.text });
  }
  return docs;
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** GOV2's DOCNO shape, GX###-##-#######, unique for n < 10^7. */
const docno = (n: number): string => `GX${pad(Math.floor(n / 100_000), 3)}-${pad(Math.floor(n / 1000) % 100, 2)}-${pad(n, 7)}`;

/** ClueWeb12's WARC-TREC-ID shape. */
const trecId = (n: number): string => `clueweb12-${pad(Math.floor(n / 100_000), 4)}tw-${pad(Math.floor(n / 1000) % 100, 2)}-${pad(n % 100_000, 5)}`;

function trecWebRecord(n: number, page: Page): string {
  const header = `${page.url}\nHTTP/1.1 200 OK\nContent-Type: text/html; charset=UTF-8\nContent-Length: ${page.bytes}\n`;
  return `<DOC>\n<DOCNO>${docno(n)}</DOCNO>\n<DOCHDR>\n${header}</DOCHDR>\n${page.html}</DOC>\n`;
}

function warcRecord(n: number, page: Page): string {
  const http = `HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=UTF-8\r\nContent-Length: ${page.bytes}\r\n\r\n${page.html}`;
  const headers = [
    'WARC/1.0',
    'WARC-Type: response',
    `WARC-Target-URI: ${page.url}`,
    'WARC-Date: 2012-02-10T21:51:20Z',
    `WARC-TREC-ID: ${trecId(n)}`,
    `WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-${pad(n, 12)}>`,
    'Content-Type: application/http; msgtype=response',
    `Content-Length: ${Buffer.byteLength(http)}`,
  ];
  return `${headers.join('\r\n')}\r\n\r\n${http}\r\n\r\n`;
}

const WARCINFO_BODY = 'software: ndd-bench scripts/bench-readers.ts\r\nformat: WARC File Format 1.0\r\n';
const WARCINFO =
  'WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Date: 2012-02-10T21:51:20Z\r\n' +
  'WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-ffffffffffff>\r\nContent-Type: application/warc-fields\r\n' +
  `Content-Length: ${Buffer.byteLength(WARCINFO_BODY)}\r\n\r\n${WARCINFO_BODY}\r\n\r\n`;

/** Streams records through gzip to `path` until `targetBytes` uncompressed bytes are written. */
async function writeGzip(path: string, targetBytes: number, preamble: string, record: (n: number) => string): Promise<GeneratedFile> {
  const gzip = createGzip();
  const out = createWriteStream(path);
  gzip.pipe(out);
  let batch: string[] = [preamble];
  let batchBytes = Buffer.byteLength(preamble);
  let bytes = batchBytes;
  let docs = 0;
  const flush = async (): Promise<void> => {
    if (!gzip.write(batch.join(''))) await once(gzip, 'drain');
    batch = [];
    batchBytes = 0;
  };
  while (bytes < targetBytes) {
    const r = record(docs++);
    const size = Buffer.byteLength(r);
    batch.push(r);
    batchBytes += size;
    bytes += size;
    if (batchBytes >= BATCH_BYTES) await flush();
  }
  await flush();
  gzip.end();
  await once(out, 'finish');
  return { path, bytes, docs };
}

/**
 * Writes `bench.trecweb.gz` and `bench.warc.gz` to `dir`, each of at least `targetMb` MB
 * uncompressed: the pages of `docs` over and over, each time under new ids.
 */
export async function writeBenchFiles(dir: string, docs: readonly SourceDocument[], targetMb: number): Promise<Manifest> {
  if (docs.length === 0) throw new Error('bench-readers: no documents to make pages of');
  const pages = docs.map(toPage);
  const page = (n: number): Page => pages[n % pages.length]!;
  const target = targetMb * MB;
  const trecweb = await writeGzip(join(dir, 'bench.trecweb.gz'), target, '', (n) => trecWebRecord(n, page(n)));
  const warc = await writeGzip(join(dir, 'bench.warc.gz'), target, WARCINFO, (n) => warcRecord(n, page(n)));
  return { targetMb, trecweb, warc };
}

/** The files of an earlier run with `--dir`, when they are for the same target and still there. */
function reusable(dir: string, targetMb: number): Manifest | undefined {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) return undefined;
  const m = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  return m.targetMb === targetMb && existsSync(m.trecweb.path) && existsSync(m.warc.path) ? m : undefined;
}

const rssMb = (): number => process.memoryUsage.rss() / MB;

async function measureRead(format: Format, file: GeneratedFile): Promise<ReaderFigures> {
  (globalThis as { gc?: () => void }).gc?.(); // with --expose-gc: start from a collected heap
  const rssBeforeMb = rssMb();
  let peakRssMb = rssBeforeMb;
  let rssAt10PctMb = 0;
  const tenth = Math.ceil(file.docs / 10);
  const stats = newCorpusStats();
  let docs = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for await (const _ of readCorpus({ format, path: file.path }, stats)) {
    docs++;
    if (docs % SAMPLE_EVERY === 0 || docs === tenth) {
      const rss = rssMb();
      if (rss > peakRssMb) peakRssMb = rss;
      if (docs === tenth) rssAt10PctMb = rss;
    }
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const rssAtEndMb = rssMb();
  peakRssMb = Math.max(peakRssMb, rssAtEndMb);
  // A benchmark that silently read less than it wrote would measure nothing.
  if (docs !== file.docs) {
    throw new Error(`${file.path}: read ${docs} documents of ${file.docs} written (skips: ${JSON.stringify(stats.skipped)})`);
  }
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const mb = file.bytes / MB;
  return { mb, seconds, cpuSeconds, mbPerCpuSecond: mb / cpuSeconds, peakRssMb, rssBeforeMb, rssAt10PctMb, rssAtEndMb, docs };
}

/**
 * Generates (or, with `dir`, reuses) the two files and reads each once with `readCorpus`.
 * Without `dir` the files go to a temporary folder that is removed afterwards.
 */
export async function benchReaders(opts: { targetMb?: number; dir?: string } = {}): Promise<Record<Format, ReaderFigures>> {
  const targetMb = opts.targetMb ?? DEFAULT_TARGET_MB;
  if (!(targetMb > 0)) throw new Error(`bench-readers: targetMb must be positive, got ${targetMb}`);
  const dir = opts.dir ?? mkdtempSync(join(tmpdir(), 'ndd-bench-readers-'));
  try {
    mkdirSync(dir, { recursive: true });
    let manifest = opts.dir === undefined ? undefined : reusable(dir, targetMb);
    if (!manifest) {
      manifest = await writeBenchFiles(dir, await bundledDocuments(), targetMb);
      writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
    }
    return { trecweb: await measureRead('trecweb', manifest.trecweb), warc: await measureRead('warc', manifest.warc) };
  } finally {
    if (opts.dir === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

export function formatTable(figures: Record<string, ReaderFigures>): string {
  const head = ['reader', 'docs', 'MB', 'wall s', 'CPU s', 'MB/CPU-s', 'RSS before', 'RSS @10%', 'RSS end', 'RSS peak'];
  const rows = Object.entries(figures).map(([name, f]) => [
    name,
    String(f.docs),
    f.mb.toFixed(1),
    f.seconds.toFixed(2),
    f.cpuSeconds.toFixed(2),
    f.mbPerCpuSecond.toFixed(1),
    f.rssBeforeMb.toFixed(0),
    f.rssAt10PctMb.toFixed(0),
    f.rssAtEndMb.toFixed(0),
    f.peakRssMb.toFixed(0),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), ...rows.map(line), '(MB = 10^6 bytes of uncompressed input; RSS in MB)'].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({ options: { 'target-mb': { type: 'string' }, dir: { type: 'string' } } });
  const targetMb = values['target-mb'] === undefined ? undefined : Number(values['target-mb']);
  const figures = await benchReaders({ targetMb, dir: values.dir });
  process.stdout.write(`${formatTable(figures)}\n`);
}
