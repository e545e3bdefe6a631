/**
 * The command line of the job script (see `bundle.ts` for the contract): parses the arguments,
 * rebuilds the plan from spec.json, loads side datasets and runs one task over stdin/stdout.
 * The adapter lookup is a parameter so that tests can bundle a script around a toy algorithm.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createGunzip } from 'node:zlib';
import type { Readable, Writable } from 'node:stream';
import { InputFileError, type PlanFunction } from '../../../contract/index.ts';

/** What the job script needs of an algorithm: its plan function (not its parameter schema). */
export type PlanLookup = (name: string) => Promise<PlanFunction | undefined>;
import type { JobSpec, SideRecord } from '../../../contract/index.ts';
import { decodeRecord } from '../records.ts';
import { forEachLine } from './line-reader.ts';
import { PHASES, RecordError, runTask, type Phase } from './task.ts';

export interface JobScriptSpec {
  readonly algorithm: string;
  readonly params: unknown;
  readonly minScore: number;
  readonly seed: number;
}

export interface TaskArgs {
  readonly spec: string;
  readonly job: string;
  readonly phase: Phase;
  /** dataset → files, in the order given (a dataset may be given as several part files). */
  readonly side: ReadonlyMap<string, readonly string[]>;
}

/** The exit code of a task that stopped at a bad input file a parameter names (contract `InputFileError`): its last stderr line says which and why. */
export const EXIT_INPUT_FILE = 4;

/** A usage or setup mistake: reported as one line, exit 2. */
class UsageError extends Error {}

export function parseTaskArgs(argv: readonly string[]): TaskArgs {
  let spec: string | undefined;
  let job: string | undefined;
  let phase: Phase | undefined;
  const side = new Map<string, string[]>();
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (value === undefined) throw new UsageError(`${flag} needs a value`);
    i++;
    switch (flag) {
      case '--spec':
        spec = value;
        break;
      case '--job':
        job = value;
        break;
      case '--phase':
        if (!(PHASES as readonly string[]).includes(value)) throw new UsageError(`--phase must be map, combine or reduce, got "${value}"`);
        phase = value as Phase;
        break;
      case '--side': {
        const eq = value.indexOf('=');
        if (eq <= 0 || eq === value.length - 1) throw new UsageError(`--side must be <dataset>=<file>, got "${value}"`);
        const name = value.slice(0, eq);
        side.set(name, [...(side.get(name) ?? []), value.slice(eq + 1)]);
        break;
      }
      default:
        throw new UsageError(`unknown argument "${flag}"`);
    }
  }
  if (spec === undefined || job === undefined || phase === undefined) {
    throw new UsageError('usage: node ndd-job.js --spec spec.json --job <job-name> --phase map|combine|reduce [--side <dataset>=<file> ...]');
  }
  return { spec, job, phase, side };
}

export async function findJob(specFile: string, jobName: string, lookup: PlanLookup): Promise<JobSpec> {
  let spec: JobScriptSpec;
  try {
    spec = JSON.parse(readFileSync(specFile, 'utf8')) as JobScriptSpec;
  } catch (e) {
    throw new UsageError(`${specFile}: ${(e as Error).message}`);
  }
  if (typeof spec?.algorithm !== 'string' || typeof spec.minScore !== 'number' || typeof spec.seed !== 'number') {
    throw new UsageError(`${specFile}: expected { "algorithm": string, "params": ..., "minScore": number, "seed": number }`);
  }
  const planFn = await lookup(spec.algorithm);
  if (!planFn) throw new UsageError(`${specFile}: unknown algorithm "${spec.algorithm}"`);
  // spec.json carries parameters the adapter's schema validated before the run was staged.
  const plan = planFn(spec.params as never, { minScore: spec.minScore, seed: spec.seed });
  const job = plan.jobs.find((j) => j.name === jobName);
  if (!job) {
    throw new UsageError(`${specFile}: algorithm ${spec.algorithm} has no job "${jobName}" (jobs: ${plan.jobs.map((j) => j.name).join(', ')})`);
  }
  return job;
}

/**
 * A side dataset given as files, or as a folder of `part-*` files (what Hadoop's `-files` puts in
 * the task's working directory for an output folder on EMR), plain or gzip'd.
 */
async function loadSide(paths: readonly string[]): Promise<SideRecord[]> {
  const records: SideRecord[] = [];
  for (const path of paths) {
    for (const file of await sideFiles(path)) {
      let lineNo = 0;
      try {
        const raw = createReadStream(file, { highWaterMark: 1 << 20 });
        const stream = file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
        await forEachLine(stream, (line) => {
          lineNo++;
          records.push(decodeRecord(line));
        });
      } catch (e) {
        throw new RecordError(`${file}: line ${lineNo}: ${(e as Error).message}`);
      }
    }
  }
  return records;
}

async function sideFiles(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  const names = (await readdir(path)).filter((n) => n.startsWith('part-')).sort();
  return names.map((n) => join(path, n));
}

/**
 * Runs one task and returns the exit code. Failures are one line on stderr, last, so that the
 * backend can quote the last stderr line: 2 for usage, 3 for a bad record, 1 for anything else.
 */
export async function runJobScript(
  argv: readonly string[],
  lookup: PlanLookup,
  stdio: { stdin: Readable; stdout: Writable; stderr: Writable } = process,
): Promise<number> {
  let where = 'ndd-job';
  const stderrLines: string[] = [];
  try {
    const args = parseTaskArgs(argv);
    where = `ndd-job ${args.job} ${args.phase}`;
    const job = await findJob(args.spec, args.job, lookup);
    const missing = (job.side ?? []).filter((name) => !args.side.has(name));
    if (missing.length > 0) throw new UsageError(`job ${job.name} needs side dataset(s) ${missing.map((n) => `--side ${n}=<file>`).join(' ')}`);
    const side = new Map<string, SideRecord[]>();
    for (const [name, files] of args.side) side.set(name, await loadSide(files));
    await runTask(job, args.phase, side, {
      input: stdio.stdin,
      output: stdio.stdout,
      report: (line) => stderrLines.push(line),
    });
    if (stderrLines.length > 0) stdio.stderr.write(stderrLines.join('\n') + '\n');
    return 0;
  } catch (e) {
    const err = e as Error;
    if (err instanceof UsageError) {
      stdio.stderr.write(`${where}: ${err.message}\n`);
      return 2;
    }
    if (err instanceof RecordError) {
      stdio.stderr.write(`${where}: bad record: ${err.message}\n`);
      return 3;
    }
    if (err instanceof InputFileError) {
      stdio.stderr.write(`${where}: ${err.message}\n`);
      return EXIT_INPUT_FILE;
    }
    // A bug in job code: keep the stack for whoever reads the task log, but end with one line.
    stdio.stderr.write(`${err.stack ?? String(err)}\n${where}: ${err.message.split('\n')[0]}\n`);
    return 1;
  }
}

/** Ends the process with `code`: naturally on success (stdout drains), at once on failure (stdin may still be open). */
export function exitWith(code: number): void {
  if (code === 0) process.exitCode = 0;
  else process.stderr.write('', () => process.exit(code));
}
