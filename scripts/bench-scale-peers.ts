/**
 * The detectors at scale beside the peers (issue 23, "Peers at scale"): on a `bench synth scale`
 * corpus, each side one whole process reading the same file, with wall time, CPU seconds, peak
 * memory and recall of the planted copies (oracle-pairs.csv). A long benchmark (an hour at a
 * million documents), so not part of `bench:ci`; figures go to docs/performance.md.
 *
 *   node --import tsx scripts/bench-scale-peers.ts --corpus DIR [--sides ndd,datasketch,textdedup]
 *        [--textdedup-procs 1] [--json FILE]
 *
 * Sides:
 *   ndd         the built-in `minhash` at 128 permutations and t = 0.5 (scripts/minhash-lsh-run.ts)
 *   datasketch  datasketch's MinHash + MinHashLSH, same shingles (scripts/datasketch_minhash_lsh.py)
 *   textdedup   text-dedup's MinHash command, 128 permutations, t = 0.5, its own word 5-grams
 *               (python/peers/textdedup_clusters.py; its clusters)
 *   exact       the built-in ground truth (Broder, every fingerprint) at RR >= 0.5 (scripts/detector-run.ts)
 *   setsim      SetSimilaritySearch's all-pairs join at Jaccard >= 0.5, same shingles
 *               (python/peers/setsim_all_pairs.py); it holds every shingle set, so it runs only
 *               where they fit
 * The peers are their PyPI releases (python/requirements-*.txt). The file every side reads is the
 * corpus' documents in order as corpus lines {"id", "text"} (python/peers/ndd_input.py), each
 * text normalized as the harness normalizes it, so the built-in sides, datasketch and
 * SetSimilaritySearch cut the same char-64 shingles. Each side is measured by
 * scripts/measure_process.py (wall, CPU of the process and its children, the largest process's
 * peak RSS). A planted pair is recalled when a side reports it, or puts both documents in one
 * cluster. The exact sides must report the same pairs; the table says whether they do.
 */
import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'csv-parse/sync';
import { normalize } from '../algorithms/text/normalize.ts';
import { newCorpusStats, readCorpus } from '../harness/corpus/read.ts';
import { ensurePythonSet } from './ensure-python.ts';

const ROOT = new URL('..', import.meta.url).pathname;

/** What a side writes: "a b score" by document index, doc_a,doc_b[,score] by id, or doc,cluster by id. */
type Output = 'index pairs' | 'id pairs' | 'clusters';

interface SideSpec {
  /** the Python environment its command runs in (scripts/ensure-python.ts); none for Node */
  readonly env?: 'peers' | 'textdedup';
  readonly output: Output;
  /** its command, given its environment's interpreter, the texts file and the output file */
  command(python: string, texts: string, out: string): string[];
}

const script = (name: string): string => join(ROOT, 'scripts', name);
const peer = (name: string): string => join(ROOT, 'python', 'peers', name);
const tsx = [process.execPath, '--import', 'tsx'];

const SIDES = {
  ndd: { output: 'index pairs', command: (_, texts, out) => [...tsx, script('minhash-lsh-run.ts'), texts, out, '128', '0.5'] },
  datasketch: { env: 'peers', output: 'index pairs', command: (py, texts, out) => [py, script('datasketch_minhash_lsh.py'), texts, out, '128', '0.5'] },
  textdedup: {
    env: 'textdedup',
    output: 'clusters',
    command: (py, texts, out) => [py, peer('textdedup_clusters.py'), '--corpus', texts, '--output', out, '--algorithm', 'minhash', '--num_perm', '128', '--threshold', '0.5', '--num_proc', textdedupProcs],
  },
  exact: { output: 'index pairs', command: (_, texts, out) => [...tsx, script('detector-run.ts'), 'broder', '{}', '0.5', texts, out] },
  setsim: { env: 'peers', output: 'id pairs', command: (py, texts, out) => [py, peer('setsim_all_pairs.py'), '--corpus', texts, '--output', out, '--threshold', '0.5', '--shingle', '64'] },
} satisfies Record<string, SideSpec>;
type Side = keyof typeof SIDES;

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
  /** its stdout's last line (the side's own report) */
  readonly report: string;
}

const { values } = parseArgs({
  options: {
    corpus: { type: 'string' },
    sides: { type: 'string', default: 'ndd,datasketch,textdedup' },
    'textdedup-procs': { type: 'string', default: '1' },
    json: { type: 'string' },
  },
});
const usage = `usage: node --import tsx scripts/bench-scale-peers.ts --corpus DIR [--sides ${Object.keys(SIDES).join(',')}] [--textdedup-procs N] [--json FILE]\n`;
if (!values.corpus) {
  process.stderr.write(usage);
  process.exit(2);
}
const corpusDir = resolve(values.corpus);
const textdedupProcs = values['textdedup-procs'];
const sides = values.sides.split(',').map((s) => {
  if (!Object.hasOwn(SIDES, s)) {
    process.stderr.write(`bench-scale-peers: unknown side "${s}"\n${usage}`);
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

function plantedPairs(index: ReadonlyMap<string, number>): Planted[] {
  const rows = parse(readFileSync(join(corpusDir, 'oracle-pairs.csv')), { columns: true }) as Record<string, string>[];
  return rows.map((r) => {
    const a = index.get(r['doc_a'] as string);
    const b = index.get(r['doc_b'] as string);
    if (a === undefined || b === undefined) throw new Error(`oracle-pairs.csv names a document the corpus lacks: ${r['doc_a']}, ${r['doc_b']}`);
    return { a: Math.min(a, b), b: Math.max(a, b), editRate: String(Math.max(Number(r['edit_rate_a']), Number(r['edit_rate_b']))) };
  });
}

/** Runs a command whole under scripts/measure_process.py, in `cwd`; its measures and its stdout's last line. */
function measured(cmd: readonly string[], o: { readonly dir: string; readonly cwd: string }): Measured & { readonly stdout: string } {
  const figures = join(o.dir, 'measured.json');
  const r = spawnSync('python3', [script('measure_process.py'), figures, ...cmd], { cwd: o.cwd, encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd.join(' ')} failed (exit ${r.status})`);
  const m = JSON.parse(readFileSync(figures, 'utf8')) as Measured;
  return { wall_s: m.wall_s, cpu_s: m.cpu_s, peak_rss_mb: m.peak_rss_mb, stdout: r.stdout.trim().split('\n').pop() ?? '' };
}

const DOC_BITS = 2 ** 21;
const pairKey = (a: number, b: number): number => Math.min(a, b) * DOC_BITS + Math.max(a, b);

/** A side's output as a test of "are these two documents reported together", and how many pairs that is. */
function readOutput(path: string, output: Output, index: ReadonlyMap<string, number>): { readonly together: (a: number, b: number) => boolean; readonly pairs: number; readonly keys?: ReadonlySet<number> } {
  const at = (id: string): number => {
    const i = index.get(id);
    if (i === undefined) throw new Error(`${path} names a document the corpus lacks: ${id}`);
    return i;
  };
  if (output === 'clusters') {
    const cluster = new Int32Array(index.size).fill(-1);
    const sizes = new Map<string, number>();
    const roots = new Map<string, number>();
    for (const r of parse(readFileSync(path), { columns: true }) as { doc: string; cluster: string }[]) {
      const root = roots.get(r.cluster) ?? roots.size;
      roots.set(r.cluster, root);
      cluster[at(r.doc)] = root;
      sizes.set(r.cluster, (sizes.get(r.cluster) ?? 0) + 1);
    }
    let induced = 0;
    for (const n of sizes.values()) induced += (n * (n - 1)) / 2;
    return { together: (a, b) => cluster[a] !== -1 && cluster[a] === cluster[b], pairs: induced };
  }
  const keys = new Set<number>();
  if (output === 'index pairs') {
    for (const line of readFileSync(path, 'latin1').split('\n')) {
      if (line === '') continue;
      const [a, b] = line.split(' ');
      keys.add(pairKey(Number(a), Number(b)));
    }
  } else {
    for (const r of parse(readFileSync(path), { columns: true }) as { doc_a: string; doc_b: string }[]) keys.add(pairKey(at(r.doc_a), at(r.doc_b)));
  }
  return { together: (a, b) => keys.has(pairKey(a, b)), pairs: keys.size, keys };
}

function recallOf(planted: readonly Planted[], together: (a: number, b: number) => boolean): Pick<SideFigures, 'recall' | 'recall_by_edit_rate'> {
  const hit = new Map<string, [number, number]>();
  let found = 0;
  for (const p of planted) {
    const ok = together(p.a, p.b);
    if (ok) found++;
    const h = hit.get(p.editRate) ?? [0, 0];
    hit.set(p.editRate, [h[0] + (ok ? 1 : 0), h[1] + 1]);
  }
  const byRate: Record<string, number> = {};
  for (const [rate, [f, n]] of [...hit].sort((x, y) => Number(x[0]) - Number(y[0]))) byRate[rate] = f / n;
  return { recall: found / planted.length, recall_by_edit_rate: byRate };
}

function sameKeys(x: ReadonlySet<number>, y: ReadonlySet<number>): boolean {
  if (x.size !== y.size) return false;
  for (const k of x) if (!y.has(k)) return false;
  return true;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-scale-peers-'));
  try {
    const texts = join(dir, 'texts.jsonl');
    const t0 = performance.now();
    const ids = await writeTexts(texts);
    if (ids.length >= DOC_BITS) throw new Error(`more than ${DOC_BITS} documents: widen the pair keys`);
    const index = new Map(ids.map((id, i) => [id, i]));
    const planted = plantedPairs(index);
    process.stderr.write(`${ids.length} documents, ${planted.length} planted pairs; texts written in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    const out: SideFigures[] = [];
    const exactKeys = new Map<Side, ReadonlySet<number>>();
    for (const side of sides) {
      const spec: SideSpec = SIDES[side];
      let python = '';
      if (spec.env) {
        const env = ensurePythonSet(spec.env, (l) => process.stderr.write(`${l}\n`));
        if (!env.found) throw new Error(`the ${spec.env} environment could not be made: ${env.reason}`);
        python = env.python;
      }
      process.stderr.write(`${side}…\n`);
      const result = join(dir, `${side}.out`);
      // Node finds tsx from the project's folder; text-dedup's scratch files go under its working folder: ours, removed at the end
      const m = measured(spec.command(python, texts, result), { dir, cwd: spec.env === 'textdedup' ? dir : ROOT });
      const o = readOutput(result, spec.output, index);
      rmSync(result);
      if ((side === 'exact' || side === 'setsim') && o.keys) exactKeys.set(side, o.keys);
      const f: SideFigures = { side, wall_s: m.wall_s, cpu_s: m.cpu_s, peak_rss_mb: m.peak_rss_mb, pairs: o.pairs, ...recallOf(planted, o.together), report: m.stdout };
      out.push(f);
      process.stdout.write(
        `  ${f.side.padEnd(11)} ${f.wall_s.toFixed(1).padStart(8)} s  ${f.cpu_s.toFixed(1).padStart(8)} CPU-s  ${f.peak_rss_mb.toFixed(0).padStart(6)} MB peak  ` +
          `recall ${f.recall.toFixed(4)}  ${f.pairs} pairs  by edit rate ${JSON.stringify(f.recall_by_edit_rate)}\n`,
      );
    }
    const exact = exactKeys.get('exact');
    const setsim = exactKeys.get('setsim');
    const agree = exact && setsim ? sameKeys(exact, setsim) : undefined;
    if (agree !== undefined) process.stdout.write(`  exact and setsim report ${agree ? 'the same pairs' : 'DIFFERENT pairs'}\n`);
    if (values.json) writeFileSync(values.json, JSON.stringify({ corpus: corpusDir, documents: ids.length, planted: planted.length, sides: out, ...(agree !== undefined ? { exact_joins_agree: agree } : {}) }, null, 2) + '\n');
    if (agree === false) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (!existsSync(join(corpusDir, 'corpus.jsonl.gz'))) {
  process.stderr.write(`bench-scale-peers: ${corpusDir} has no corpus.jsonl.gz (make one with ./bench synth scale)\n`);
  process.exit(2);
}
await main();
