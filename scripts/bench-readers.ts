/**
 * Reader throughput (issue 3, "Speed and memory"; issue 13): reading must not be the bottleneck,
 * i.e. a gzip'd file of at least 200 MB (uncompressed) of every collection format — TREC-web,
 * WARC, JSONL, TREC disks SGML and a tar.gz of HTML files — is read at 50 MB/s or more of
 * uncompressed input per CPU-second, with flat memory.
 *
 *   node --import tsx scripts/bench-readers.ts [--target-mb 200] [--dir DIR] [--formats trecweb,warc,…]
 *
 * The files are generated from the bundled SpamAssassin corpus: every message becomes a small
 * HTML page (a JSON record, a TREC disks story), repeated under new ids until the target size
 * is reached, and streamed through gzip to disk (never held whole). Each file is then read with `readCorpus`
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

export const BENCH_FORMATS = ['trecweb', 'warc', 'jsonl', 'trec', 'html'] as const;
export type Format = (typeof BENCH_FORMATS)[number];

export interface GeneratedFile {
  readonly path: string;
  /** Uncompressed bytes. */
  readonly bytes: number;
  readonly docs: number;
}

export type Manifest = { readonly targetMb: number } & Record<Format, GeneratedFile>;

/** The file name of each format's generated file. */
const FILE_NAMES: Record<Format, string> = {
  trecweb: 'bench.trecweb.gz',
  warc: 'bench.warc.gz',
  jsonl: 'bench.jsonl.gz',
  trec: 'bench.trec.gz',
  html: 'bench.html.tar.gz',
};

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

/** A JSONL record: the message's text and subject as they are (JSON escapes included). */
function jsonlRecord(n: number, doc: SourceDocument): string {
  return `${JSON.stringify({ id: `doc-${pad(n, 8)}`, text: doc.text, ...(doc.subject === undefined ? {} : { meta: { subject: doc.subject } }) })}\n`;
}

/** A TREC disks story in the Financial Times' layout: bibliographic fields, HEADLINE, TEXT of paragraphs. */
function trecRecord(n: number, doc: SourceDocument): string {
  const paragraphs = doc.text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .map((p) => `<P>\n${escapeHtml(p)}\n</P>\n`);
  return (
    `<DOC>\n<DOCNO>FT${pad(Math.floor(n / 10_000) % 1000, 3)}-${pad(n, 7)}</DOCNO>\n<PROFILE>_AN-BENCH${pad(n, 7)}</PROFILE>\n` +
    `<DATE>911019\n</DATE>\n<HEADLINE>\n${escapeHtml(doc.subject ?? doc.id)}\n</HEADLINE>\n<BYLINE>\nBy BENCH\n</BYLINE>\n` +
    `<TEXT>\n${paragraphs.join('')}</TEXT>\n<PUB>The Financial Times\n</PUB>\n</DOC>\n`
  );
}

/** A ustar header for a regular file (names here are ASCII and shorter than 100 bytes). */
function tarHeader(name: string, size: number): Buffer {
  const h = Buffer.alloc(512);
  h.write(name, 0, 'latin1');
  h.write('0000644\0', 100, 'latin1');
  h.write('0000000\0', 108, 'latin1');
  h.write('0000000\0', 116, 'latin1');
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
  h.write('14011234500\0', 136, 'latin1');
  h.write('        ', 148, 'latin1');
  h.write('0', 156, 'latin1');
  h.write('ustar\u000000', 257, 'latin1');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
  return h;
}

/** One HTML file of a tar archive: its header, the page, the padding to a 512-byte block. */
function tarEntry(n: number, page: Page): string {
  const name = `pages/${pad(Math.floor(n / 1000), 4)}/PAGE-${pad(n, 7)}.html`;
  return tarHeader(name, page.bytes).toString('latin1') + Buffer.from(page.html).toString('latin1') + '\0'.repeat((512 - (page.bytes % 512)) % 512);
}

const WARCINFO_BODY = 'software: ndd-bench scripts/bench-readers.ts\r\nformat: WARC File Format 1.0\r\n';
const WARCINFO =
  'WARC/1.0\r\nWARC-Type: warcinfo\r\nWARC-Date: 2012-02-10T21:51:20Z\r\n' +
  'WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-ffffffffffff>\r\nContent-Type: application/warc-fields\r\n' +
  `Content-Length: ${Buffer.byteLength(WARCINFO_BODY)}\r\n\r\n${WARCINFO_BODY}\r\n\r\n`;

/** Streams records through gzip to `path` until `targetBytes` uncompressed bytes are written. */
async function writeGzip(
  path: string,
  targetBytes: number,
  preamble: string,
  record: (n: number) => string,
  opts: { encoding?: BufferEncoding; trailer?: string } = {},
): Promise<GeneratedFile> {
  const encoding = opts.encoding ?? 'utf8';
  const gzip = createGzip();
  const out = createWriteStream(path);
  gzip.pipe(out);
  let batch: string[] = [preamble];
  let batchBytes = Buffer.byteLength(preamble, encoding);
  let bytes = batchBytes;
  let docs = 0;
  const flush = async (): Promise<void> => {
    if (!gzip.write(Buffer.from(batch.join(''), encoding))) await once(gzip, 'drain');
    batch = [];
    batchBytes = 0;
  };
  while (bytes < targetBytes) {
    const r = record(docs++);
    const size = Buffer.byteLength(r, encoding);
    batch.push(r);
    batchBytes += size;
    bytes += size;
    if (batchBytes >= BATCH_BYTES) await flush();
  }
  if (opts.trailer !== undefined) {
    batch.push(opts.trailer);
    bytes += Buffer.byteLength(opts.trailer, encoding);
  }
  await flush();
  gzip.end();
  await once(out, 'finish');
  return { path, bytes, docs };
}

/**
 * Writes one gzip'd file a format to `dir` (FILE_NAMES), each of at least `targetMb` MB
 * uncompressed: the pages (records, stories) of `docs` over and over, each time under new ids.
 */
export async function writeBenchFiles(dir: string, docs: readonly SourceDocument[], targetMb: number): Promise<Manifest> {
  if (docs.length === 0) throw new Error('bench-readers: no documents to make pages of');
  const pages = docs.map(toPage);
  const page = (n: number): Page => pages[n % pages.length]!;
  const doc = (n: number): SourceDocument => docs[n % docs.length]!;
  const target = targetMb * MB;
  const at = (format: Format): string => join(dir, FILE_NAMES[format]);
  const trecweb = await writeGzip(at('trecweb'), target, '', (n) => trecWebRecord(n, page(n)));
  const warc = await writeGzip(at('warc'), target, WARCINFO, (n) => warcRecord(n, page(n)));
  const jsonl = await writeGzip(at('jsonl'), target, '', (n) => jsonlRecord(n, doc(n)));
  const trec = await writeGzip(at('trec'), target, '', (n) => trecRecord(n, doc(n)));
  // Two zero blocks end a tar archive.
  const html = await writeGzip(at('html'), target, '', (n) => tarEntry(n, page(n)), { encoding: 'latin1', trailer: '\0'.repeat(1024) });
  return { targetMb, trecweb, warc, jsonl, trec, html };
}

/** The files of an earlier run with `--dir`, when they are for the same target and still there. */
function reusable(dir: string, targetMb: number): Manifest | undefined {
  const file = join(dir, 'manifest.json');
  if (!existsSync(file)) return undefined;
  const m = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  return m.targetMb === targetMb && BENCH_FORMATS.every((f) => m[f] !== undefined && existsSync(m[f].path)) ? m : undefined;
}

const rssMb = (): number => process.memoryUsage.rss() / MB;

/** Reads `file` with `readCorpus` on `workers` threads (1: the calling thread only, the per-core figure). */
export async function measureRead(format: Format | 'spamassassin', file: GeneratedFile, workers = 1): Promise<ReaderFigures> {
  (globalThis as { gc?: () => void }).gc?.(); // with --expose-gc: start from a collected heap
  const rssBeforeMb = rssMb();
  let peakRssMb = rssBeforeMb;
  let rssAt10PctMb = 0;
  const tenth = Math.ceil(file.docs / 10);
  const stats = newCorpusStats();
  let docs = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for await (const _ of readCorpus({ format, ...(file.path === '' ? {} : { path: file.path }), workers }, stats)) {
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
 * Generates (or, with `dir`, reuses) the files and reads each of `formats` (default: all) once
 * with `readCorpus`. Without `dir` the files go to a temporary folder that is removed afterwards.
 */
export async function benchReaders(
  opts: { targetMb?: number; dir?: string; formats?: readonly Format[] } = {},
): Promise<Partial<Record<Format, ReaderFigures>>> {
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
    const figures: Partial<Record<Format, ReaderFigures>> = {};
    for (const format of opts.formats ?? BENCH_FORMATS) figures[format] = await measureRead(format, manifest[format]);
    return figures;
  } finally {
    if (opts.dir === undefined) rmSync(dir, { recursive: true, force: true });
  }
}

export function formatTable(figures: Partial<Record<string, ReaderFigures>>): string {
  const head = ['reader', 'docs', 'MB', 'wall s', 'CPU s', 'MB/CPU-s', 'RSS before', 'RSS @10%', 'RSS end', 'RSS peak'];
  const present = Object.entries(figures).filter((e): e is [string, ReaderFigures] => e[1] !== undefined);
  const rows = present.map(([name, f]) => [
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
  const { values } = parseArgs({ options: { 'target-mb': { type: 'string' }, dir: { type: 'string' }, formats: { type: 'string' } } });
  const targetMb = values['target-mb'] === undefined ? undefined : Number(values['target-mb']);
  const formats = values.formats?.split(',') as Format[] | undefined;
  const unknown = formats?.find((f) => !(BENCH_FORMATS as readonly string[]).includes(f));
  if (unknown !== undefined) throw new Error(`bench-readers: unknown format ${unknown} (known: ${BENCH_FORMATS.join(', ')})`);
  const figures = await benchReaders({ targetMb, dir: values.dir, ...(formats ? { formats } : {}) });
  process.stdout.write(`${formatTable(figures)}\n`);
}
