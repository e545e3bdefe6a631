/**
 * MinHash-LSH at scale beside the peers (issue 23, "Peers at scale"): on a `bench synth scale`
 * corpus, the built-in `minhash` detector at 128 permutations and t = 0.5, datasketch's MinHash +
 * MinHashLSH and text-dedup's MinHash command (their PyPI releases, python/requirements-*.txt),
 * each one whole process from the same file, with wall time, CPU seconds, peak memory and recall
 * of the planted copies (oracle-pairs.csv). A long benchmark (an hour at a million documents), so
 * not part of `bench:ci`; figures go to docs/performance.md.
 *
 *   node --import tsx scripts/bench-scale-peers.ts --corpus DIR [--sides ndd,datasketch,textdedup]
 *        [--textdedup-procs 1] [--json FILE]
 *
 * The file every side reads is the corpus' documents in order as corpus lines {"id", "text"}
 * (python/peers/ndd_input.py), each text normalized as the harness normalizes it, so the
 * built-in and datasketch cut the same char-64 shingles (both report how many); text-dedup cuts
 * its own word 5-grams, as its users run it. Each side is measured by scripts/measure_process.py
 * (wall, CPU of the process and its children, the largest process's peak RSS). A planted pair is
 * recalled when a pairs side reports it, or when text-dedup puts both documents in one cluster.
 */
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { normalize } from '../algorithms/text/normalize.ts';
import { newCorpusStats, readCorpus } from '../harness/corpus/read.ts';
import { ensurePythonSet } from './ensure-python.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const SIDES = ['ndd', 'datasketch', 'textdedup'] as const;
type Side = (typeof SIDES)[number];

interface Measured {
  readonly wall_s: number;
  readonly cpu_s: number;
  readonly peak_rss_mb: number;
}

interface SideFigures extends Measured {
  readonly side: Side;
  /** pairs reported, or pairs induced by the clusters */
  readonly pairs: number;
  readonly recall: number;
  /** recall of the planted pairs whose larger edit rate is this one */
  readonly recall_by_edit_rate: Record<string, number>;
  readonly report: string;
}

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    sides: { type: 'string', default: SIDES.join(',') },
    'textdedup-procs': { type: 'string', default: '1' },
    json: { type: 'string' },
  },
});
if (!values.corpus) {
  process.stderr.write('usage: node --import tsx scripts/bench-scale-peers.ts --corpus DIR [--sides ndd,datasketch,textdedup] [--textdedup-procs N] [--json FILE]\n');
  process.exit(2);
}
const corpusDir = resolve(values.corpus);
const sides = values.sides.split(',').map((s) => {
  if (!(SIDES as readonly string[]).includes(s)) {
    process.stderr.write(`bench-scale-peers: unknown side "${s}" (sides: ${SIDES.join(', ')})\n`);
    process.exit(2);
  }
  return s as Side;
});

/** The corpus' documents as corpus lines of normalized text; their ids in order. */
async function writeTexts(path: string): Promise<string[]> {
  const ids: string[] = [];
  const out = createWriteStream(path);
  for await (const d of readCorpus({ format: 'jsonl', path: join(corpusDir, 'corpus.jsonl.gz') }, newCorpusStats())) {
    ids.push(d.id);
    if (!out.write(JSON.stringify({ id: d.id, text: normalize(d.text) }) + '\n')) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return ids;
}

interface Planted {
  readonly a: number;
  readonly b: number;
  readonly editRate: string;
}

function plantedPairs(index: Map<string, number>): Planted[] {
  const rows = parse(readFileSync(join(corpusDir, 'oracle-pairs.csv')), { columns: true }) as Record<string, string>[];
  return rows.map((r) => {
    const a = index.get(r['doc_a'] as string);
    const b = index.get(r['doc_b'] as string);
    if (a === undefined || b === undefined) throw new Error(`oracle-pairs.csv names a document the corpus lacks: ${r['doc_a']}, ${r['doc_b']}`);
    return { a: Math.min(a, b), b: Math.max(a, b), editRate: String(Math.max(Number(r['edit_rate_a']), Number(r['edit_rate_b']))) };
  });
}

/** Runs a command whole under scripts/measure_process.py, in `cwd`; its stdout's last line and its measures. */
function measured(python: string, cmd: string[], o: { readonly dir: string; readonly cwd: string }): Measured & { readonly stdout: string } {
  const figures = join(o.dir, 'measured.json');
  const r = spawnSync(python, [join(ROOT, 'scripts', 'measure_process.py'), figures, ...cmd], { cwd: o.cwd, encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed (exit ${r.status})`);
  const m = JSON.parse(readFileSync(figures, 'utf8')) as Measured;
  return { ...m, stdout: r.stdout.trim().split('\n').pop() ?? '' };
}

function recallOf(planted: readonly Planted[], has: (a: number, b: number) => boolean): Pick<SideFigures, 'recall' | 'recall_by_edit_rate'> {
  const hit = new Map<string, [number, number]>();
  let found = 0;
  for (const p of planted) {
    const ok = has(p.a, p.b);
    if (ok) found++;
    const h = hit.get(p.editRate) ?? [0, 0];
    hit.set(p.editRate, [h[0] + (ok ? 1 : 0), h[1] + 1]);
  }
  const byRate: Record<string, number> = {};
  for (const [rate, [f, n]] of [...hit].sort((x, y) => Number(x[0]) - Number(y[0]))) byRate[rate] = f / n;
  return { recall: found / planted.length, recall_by_edit_rate: byRate };
}

const pairKey = (a: number, b: number): number => a * 2 ** 21 + b;

/** The pairs of "a b" lines of document indexes (the pairs files of minhash-lsh-run.ts and datasketch_minhash_lsh.py), as pairKey. */
function indexPairs(path: string): Set<number> {
  const keys = new Set<number>();
  for (const line of readFileSync(path, 'latin1').split('\n')) {
    if (line === '') continue;
    const [a, b] = line.split(' ');
    keys.add(pairKey(Number(a), Number(b)));
  }
  return keys;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-scale-peers-'));
  try {
    const texts = join(dir, 'texts.jsonl');
    const t0 = performance.now();
    const ids = await writeTexts(texts);
    if (ids.length >= 2 ** 21) throw new Error('more than 2^21 documents: widen the pair keys');
    const index = new Map(ids.map((id, i) => [id, i]));
    const planted = plantedPairs(index);
    process.stderr.write(`${ids.length} documents, ${planted.length} planted pairs; texts written in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const peers = sides.some((s) => s !== 'ndd') ? ensurePythonSet('peers', (l) => process.stderr.write(`${l}\n`)) : undefined;
    const python = peers?.found ? peers.python : 'python3';
    const out: SideFigures[] = [];
    for (const side of sides) {
      process.stderr.write(`${side}…\n`);
      if (side === 'ndd' || side === 'datasketch') {
        const pairsFile = join(dir, `${side}-pairs.txt`);
        const cmd =
          side === 'ndd'
            ? [process.execPath, '--import', 'tsx', join(ROOT, 'scripts', 'minhash-lsh-run.ts'), texts, pairsFile, '128', '0.5']
            : [python, join(ROOT, 'scripts', 'datasketch_minhash_lsh.py'), texts, pairsFile, '128', '0.5'];
        if (side === 'datasketch' && !peers?.found) throw new Error('the peers environment could not be made (npm run peers:install says why)');
        // from the project's folder, where Node finds tsx
        const m = measured(python, cmd, { dir, cwd: ROOT });
        const pairs = indexPairs(pairsFile);
        out.push({ side, wall_s: m.wall_s, cpu_s: m.cpu_s, peak_rss_mb: m.peak_rss_mb, pairs: pairs.size, ...recallOf(planted, (a, b) => pairs.has(pairKey(a, b))), report: m.stdout });
        rmSync(pairsFile);
      } else {
        const td = ensurePythonSet('textdedup', (l) => process.stderr.write(`${l}\n`));
        if (!td.found) throw new Error(`the textdedup environment could not be made: ${td.reason}`);
        const clustersFile = join(dir, 'textdedup-clusters.csv');
        const cmd = [td.python, join(ROOT, 'python', 'peers', 'textdedup_clusters.py'), '--corpus', texts, '--output', clustersFile, '--algorithm', 'minhash', '--num_perm', '128', '--threshold', '0.5', '--num_proc', values['textdedup-procs']];
        // text-dedup's scratch files go under its working folder: ours, removed at the end
        const m = measured(python, cmd, { dir, cwd: dir });
        const cluster = new Int32Array(ids.length).fill(-1);
        const sizes = new Map<string, number>();
        const roots = new Map<string, number>();
        for (const r of parse(readFileSync(clustersFile), { columns: true }) as { doc: string; cluster: string }[]) {
          const root = roots.get(r.cluster) ?? roots.size;
          roots.set(r.cluster, root);
          cluster[index.get(r.doc) as number] = root;
          sizes.set(r.cluster, (sizes.get(r.cluster) ?? 0) + 1);
        }
        let induced = 0;
        for (const n of sizes.values()) induced += (n * (n - 1)) / 2;
        out.push({ side, wall_s: m.wall_s, cpu_s: m.cpu_s, peak_rss_mb: m.peak_rss_mb, pairs: induced, ...recallOf(planted, (a, b) => cluster[a] !== -1 && cluster[a] === cluster[b]), report: m.stdout });
        rmSync(clustersFile);
      }
      const f = out[out.length - 1] as SideFigures;
      process.stdout.write(
        `  ${f.side.padEnd(11)} ${f.wall_s.toFixed(1).padStart(8)} s  ${f.cpu_s.toFixed(1).padStart(8)} CPU-s  ${f.peak_rss_mb.toFixed(0).padStart(6)} MB peak  ` +
          `recall ${f.recall.toFixed(4)}  ${f.pairs} pairs  by edit rate ${JSON.stringify(f.recall_by_edit_rate)}\n`,
      );
    }
    if (values.json) writeFileSync(values.json, JSON.stringify({ corpus: corpusDir, documents: ids.length, planted: planted.length, sides: out }, null, 2) + '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!existsSync(join(corpusDir, 'corpus.jsonl.gz'))) {
  process.stderr.write(`bench-scale-peers: ${corpusDir} has no corpus.jsonl.gz (make one with ./bench synth scale)\n`);
  process.exit(2);
}
await main();
