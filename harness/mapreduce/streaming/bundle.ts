/**
 * The job script: ONE self-contained .js file (esbuild bundle of `task-main.ts` with every
 * detector's plan function, `algorithms/plans.ts`, and what they import inlined; only Node
 * built-ins are required at run time) that Hadoop Streaming runs as mapper, combiner or reducer.
 * The streaming backend runs it locally; the EMR backend uploads this very file and ships it to
 * the tasks with `-files`. It holds no parameter schema and no zod (a plan.ts imports only
 * types from its params.ts), so that each of a run's many task processes starts fast;
 * test/harness/mapreduce/streaming/bundle.test.ts holds it to that.
 *
 * CLI contract (Node >= 20, any working directory, no node_modules):
 *
 *   node ndd-job.js --spec spec.json --job <job-name> --phase map|combine|reduce
 *                   [--side <dataset>=<file> ...]
 *
 * - spec.json: `{ "algorithm": string, "params": <validated params>, "minScore": number,
 *   "seed": number }`; the script rebuilds the plan with `findPlan(algorithm)(params, { minScore,
 *   seed })` and runs the job named by `--job`. Params must survive JSON (they are the schema's
 *   output, validated before the run was staged; the script does not validate them again).
 * - stdin: text records (`records.ts`: `key<TAB>value`, escaped, one a line). For `combine`
 *   and `reduce` the input must be sorted so equal keys are adjacent
 *   (`LC_ALL=C sort -t$'\t' -k1,1 -s`, or Hadoop's shuffle).
 * - stdout: the output records, same encoding.
 * - stderr: `reporter:counter:<group>,<name>,<amount>` lines, totals emitted once at the end
 *   (commas and line breaks in names become `_`).
 * - `--side name=file`: the records of an earlier dataset served by `ctx.side(name)`; repeat it
 *   to give a dataset as several part files (read in the order given).
 * - exit 0 on success; on failure the LAST stderr line is one line saying why:
 *   2 usage/spec error, 3 bad input record (`stdin line N: ...`), 4 a bad input file a
 *   parameter names (contract `InputFileError`: `path:line: ...`), 1 any other error.
 *
 * The bundle is CommonJS (named `.js`, so it must not sit under a `"type": "module"`
 * package.json: a `package.json` saying `commonjs` is written next to it) because a lone ESM
 * `.js` file is not runnable by every Node 20 on a cluster. `import.meta.url` is mapped to the
 * bundle's own file URL.
 */
import { build } from 'esbuild';
import { mkdir, readFile, rename, stat, utimes, writeFile } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../../../kernels/io/atomic-write.ts';

export const JOB_SCRIPT_NAME = 'ndd-job.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const DEFAULT_ENTRY = fileURLToPath(new URL('./task-main.ts', import.meta.url));
const THIS_FILE = fileURLToPath(import.meta.url);

export interface BundleOptions {
  /** Another entry point built on `runJobScript` (tests bundle a toy registry this way). */
  readonly entry?: string;
}

const inFlight = new Map<string, Promise<string>>();

/**
 * Builds the job script into `outDir` (default `<repo>/dist`) unless an up-to-date build is
 * there already (every bundled source, package-lock.json and this file older than the bundle),
 * and returns its absolute path. Safe to call concurrently, also from several processes (the
 * file is written under a temporary name and renamed into place).
 */
export function bundleJobScript(outDir: string = join(REPO_ROOT, 'dist'), options: BundleOptions = {}): Promise<string> {
  const entry = resolve(options.entry ?? DEFAULT_ENTRY);
  const name = options.entry ? `${basename(entry, extname(entry))}.js` : JOB_SCRIPT_NAME;
  const outFile = resolve(outDir, name);
  let pending = inFlight.get(outFile);
  if (!pending) {
    pending = ensureBundle(entry, outFile).finally(() => inFlight.delete(outFile));
    inFlight.set(outFile, pending);
  }
  return pending;
}

async function ensureBundle(entry: string, outFile: string): Promise<string> {
  const inputsFile = `${outFile}.inputs.json`;
  if (await isFresh(outFile, inputsFile)) return outFile;
  const dir = resolve(outFile, '..');
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), '{ "type": "commonjs" }\n');
  const tmp = `${outFile}.${process.pid}.${Date.now()}.tmp`;
  // Stamped with the build's start, so a source saved during the build still counts as newer.
  const started = new Date();
  const result = await build({
    entryPoints: [entry],
    outfile: tmp,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    metafile: true,
    logLevel: 'silent',
    absWorkingDir: REPO_ROOT,
    define: { 'import.meta.url': '__nddImportMetaUrl' },
    banner: { js: 'var __nddImportMetaUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
  const inputs = Object.keys(result.metafile.inputs).map((p) => resolve(REPO_ROOT, p));
  await utimes(tmp, started, started);
  // esbuild wrote the bundle's temporary file itself: only the rename is left to do.
  await rename(tmp, outFile);
  await writeFileAtomic(inputsFile, JSON.stringify(inputs));
  return outFile;
}

async function mtimeMs(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).mtimeMs;
  } catch {
    return undefined;
  }
}

async function isFresh(outFile: string, inputsFile: string): Promise<boolean> {
  const built = await mtimeMs(outFile);
  if (built === undefined) return false;
  let inputs: string[];
  try {
    inputs = JSON.parse(await readFile(inputsFile, 'utf8')) as string[];
  } catch {
    return false;
  }
  const checks = [...inputs, THIS_FILE, join(REPO_ROOT, 'package-lock.json')];
  const times = await Promise.all(checks.map(mtimeMs));
  // A vanished input means the import graph changed: rebuild.
  return times.every((t, i) => (t === undefined ? checks[i]!.endsWith('package-lock.json') : t <= built));
}
