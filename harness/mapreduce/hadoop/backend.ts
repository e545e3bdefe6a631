/**
 * The `hadoop` backend: every job of a plan is a `hadoop jar hadoop-streaming.jar …` run of
 * Apache Hadoop's own streaming runtime (PipeMapRed, spill and merge, the output committer,
 * counters from the tasks' `reporter:counter:` lines), its arguments from the builder the EMR
 * steps use (`streaming-args.ts`). On the user's installation the job script, spec and
 * documents are staged to `staging_dir` on its file system and the outputs read back with
 * `hadoop fs`, as the EMR backend does with S3; in local mode (the pinned jars) they are file://
 * folders of the run's work folder.
 *
 * A user's installation runs one `hadoop jar` process a job, as its launcher and cluster expect.
 * Local mode runs a run's jobs on one JVM, the job server (job-server.ts): the same StreamJob
 * with the same arguments, without a JVM's start and Hadoop's class loading a job.
 *
 * A run is complete or refused: a job that fails fails the variant with the tail of Hadoop's
 * log (a task that stopped at a bad input file is a one-line DataError, exit 2). The counters
 * are Hadoop's own Counters block: the jobs' groups summed as on every backend, Hadoop's
 * framework groups kept per job in run.json. An abort kills the JVM's process group (the task
 * processes with it); the run's folders, local and staged, are removed whatever the outcome (the
 * job server's when the backend closes, or at once when it failed a job or was aborted).
 */
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createGunzip } from 'node:zlib';
import { DOCUMENTS, DOCUMENTS_META, readsDataset, type Counters, type JobSpec } from '../../../contract/index.ts';
import { clip, DataError, InterruptedError } from '../../errors.ts';
import type { Backend, BackendContext, BackendRunResult, VariantJob } from '../backend.ts';
import { OutputCollector, outputDatasets, type PlanOutputs } from '../outputs.ts';
import { decodeRecord } from '../records.ts';
import { reapedChildrenCpuS } from '../streaming/cpu.ts';
import { writeDocumentMeta, writeDocuments } from '../streaming/datasets.ts';
import { forEachLine } from '../streaming/line-reader.ts';
import { EXIT_INPUT_FILE, type JobScriptSpec } from '../streaming/task-cli.ts';
import type { HadoopConfig } from './config.ts';
import { runInGroup } from './process-group.ts';
import { jobSettings } from './dry-run.ts';
import { hadoopRuntime, type HadoopCommand, type HadoopRuntime, type InstalledHadoop } from './runtime.ts';
import { JobServer, processCpuS } from './job-server.ts';
import { HADOOP_GROUPS, parseCountersBlock } from './counters.ts';
import { JOB_SCRIPT_NAME, safeName, sideDatasetsOf, SPEC_NAME, streamingArgs } from './streaming-args.ts';

export interface HadoopBackendOptions {
  /** Path of the bundled job script, or how to get it. */
  readonly jobScript: string | (() => Promise<string>);
  /** USD per vCPU-hour that CPU-seconds are priced at (default 0). */
  readonly pricePerVcpuHour?: number;
  /** Which Hadoop (default: the config's `installation`, found when the first variant runs). */
  readonly runtime?: HadoopRuntime;
  /** Where HADOOP_HOME, PATH and JAVA_HOME are read (default process.env). */
  readonly env?: NodeJS.ProcessEnv;
}

interface JobReport {
  readonly name: string;
  readonly map_tasks: number | null;
  readonly reduce_tasks: number;
  readonly runtime_s: number;
  /** Hadoop's framework counters of this job (records, bytes, spills, GC time) */
  readonly hadoop_counters: Counters;
}

/** Local mode's map-side sort buffer, MB (`mapreduce.task.io.sort.mb`; Hadoop's default 100). */
export const LOCAL_SORT_MB = 16;

/** The lines of Hadoop's log quoted in an error. */
const TAIL_LINES = 12;

export function createHadoopBackend(config: HadoopConfig, options: HadoopBackendOptions): Backend {
  let runtime = options.runtime;
  let server: JobServer | undefined;
  // Without /proc a live JVM's CPU cannot be read: each variant then gets a server of its own,
  // whose CPU is counted when it is reaped at the variant's end.
  const serverPerRun = processCpuS(process.pid) !== undefined;
  return {
    kind: 'hadoop',
    async run(variant: VariantJob, ctx: BackendContext): Promise<BackendRunResult> {
      runtime ??= hadoopRuntime(config, (line) => ctx.progress(line), options.env);
      const script = typeof options.jobScript === 'string' ? options.jobScript : await options.jobScript();
      ctx.signal.throwIfAborted();
      await mkdir(ctx.workDir, { recursive: true });
      const root = await mkdtemp(join(ctx.workDir, 'hadoop-'));
      const childCpu0 = reapedChildrenCpuS() ?? 0;
      const ownCpu0 = process.cpuUsage();
      const t0 = performance.now();
      // The run's job server (local mode), started anew when the last one failed a job or died;
      // its start overlaps the staging of the variant's documents.
      if (server && !server.alive) await server.kill();
      if (runtime.pinned && !server?.alive) server = await JobServer.start(runtime.jobServer, ctx.workDir);
      const serverCpu0 = server?.cpuS() ?? 0;
      const run = new HadoopRun(config, runtime, root, ctx, server);
      let ok = false;
      try {
        const { outputs, counters, jobs } = await run.execute(variant, script);
        if (server && !serverPerRun) await server.close();
        const runtimeS = (performance.now() - t0) / 1000;
        const childCpuS = (reapedChildrenCpuS() ?? 0) - childCpu0 + (server?.alive ? (server.cpuS() ?? 0) - serverCpu0 : 0);
        const own = process.cpuUsage(ownCpu0);
        const cpuS = childCpuS + (own.user + own.system) / 1e6;
        ok = true;
        return {
          outputs,
          counters,
          runtimeS,
          cpuS,
          costUsd: (cpuS / 3600) * (options.pricePerVcpuHour ?? 0),
          extra: {
            hadoop: runtime.description,
            ...(server ? { job_server: serverPerRun ? 'one JVM for the run' : 'one JVM for the variant' } : {}),
            map_tasks_hint: config.map_tasks,
            reduce_tasks: config.reduce_tasks,
            jvm_and_task_cpu_s: childCpuS,
            jobs,
          },
        };
      } catch (e) {
        if (ctx.signal.aborted) throw new InterruptedError('hadoop run interrupted', { cause: ctx.signal.reason });
        throw e;
      } finally {
        // A server that failed a job, or was stopped by an abort, is not trusted with the next one.
        if (server && !ok) {
          await server.kill();
          server = undefined;
        }
        await run.cleanUp();
      }
    },
    async close() {
      await server?.close();
      server = undefined;
    },
  };
}

/** One variant's run: its staged files, its jobs one after another, its outputs read back. */
class HadoopRun {
  private readonly stage: string;
  /** the staged folder as Hadoop names it (file:// in local mode) */
  private base = '';
  private staged = false;

  constructor(
    private readonly config: HadoopConfig,
    private readonly runtime: HadoopRuntime,
    private readonly root: string,
    private readonly ctx: BackendContext,
    /** the run's job server (local mode), else one `hadoop jar` process a job */
    private readonly server: JobServer | undefined,
  ) {
    this.stage = join(root, 'stage');
  }

  async execute(variant: VariantJob, script: string): Promise<{ outputs: PlanOutputs; counters: Counters; jobs: JobReport[] }> {
    await this.writeStage(variant, script);
    this.base = this.runtime.pinned ? pathToFileURL(this.stage).href : `${this.config.staging_dir.replace(/\/+$/, '')}/${basename(this.root)}`;
    if (!this.runtime.pinned) {
      this.ctx.progress(`hadoop: staging to ${this.base}`);
      this.staged = true;
      await this.fs(['-mkdir', '-p', this.base], 'stage');
      const entries = (await readdir(this.stage)).map((n) => join(this.stage, n));
      await this.fs(['-put', ...entries, `${this.base}/`], 'stage');
    }
    const side = sideDatasetsOf(variant.plan.jobs);
    const counters: Counters = {};
    const jobs: JobReport[] = [];
    for (const [j, job] of variant.plan.jobs.entries()) {
      jobs.push(await this.runJob(variant, job, j, !side.has(job.output), counters));
    }
    return { outputs: await this.readOutputs(variant), counters, jobs };
  }

  private async writeStage(variant: VariantJob, script: string): Promise<void> {
    await mkdir(this.stage);
    await copyFile(script, join(this.stage, JOB_SCRIPT_NAME));
    const spec: JobScriptSpec = { algorithm: variant.algorithm, params: variant.params, minScore: variant.minScore, seed: variant.seed };
    await writeFile(join(this.stage, SPEC_NAME), JSON.stringify(spec));
    if (readsDataset(variant.plan.jobs, DOCUMENTS)) {
      await mkdir(join(this.stage, DOCUMENTS));
      this.ctx.progress('hadoop: writing documents');
      await writeDocuments(join(this.stage, DOCUMENTS, 'part-00000'), this.ctx.docs, this.ctx.signal);
    }
    if (readsDataset(variant.plan.jobs, DOCUMENTS_META)) {
      await mkdir(join(this.stage, DOCUMENTS_META));
      await writeDocumentMeta(join(this.stage, DOCUMENTS_META, 'part-00000'), this.ctx.docs);
    }
  }

  private dataset(name: string): string {
    return `${this.base}/${name === DOCUMENTS || name === DOCUMENTS_META ? name : safeName(name)}`;
  }

  private async settings(job: JobSpec): Promise<[string, string][]> {
    const s: [string, string][] = jobSettings(this.config);
    if (this.runtime.pinned) {
      // Local mode sets mapreduce.job.maps to 1 whatever it is told (LocalClientProtocolProvider):
      // the split size follows the block size, so the block is made a map_tasks-th of the input.
      const bytes = await inputBytes(job.inputs.map((d) => fileURLToPath(this.dataset(d))));
      s.push(
        ['fs.local.block.size', String(Math.max(1, Math.ceil(bytes / this.config.map_tasks)))],
        ['mapreduce.framework.name', 'local'],
        ['fs.defaultFS', 'file:///'],
        ['hadoop.tmp.dir', join(this.root, 'hadoop-tmp')],
        // LocalJobRunner's staging folders default to /tmp/hadoop/mapred/staging, not under
        // hadoop.tmp.dir, and it leaves an empty `<user><random>/.staging` there after every job.
        ['mapreduce.jobtracker.staging.root.dir', join(this.root, 'hadoop-tmp', 'staging')],
        // LocalJobRunner runs the map tasks inside the job server's JVM, where Hadoop's default
        // sort buffer (100 MB, sized for a task JVM of its own) is a fresh old-generation array
        // per map task: 21 full collections in 22 jobs of the quickstart's slice, 8 of its 33
        // CPU-s in the JVM (docs/performance.md). A map output beyond 16 MB spills and merges
        // more often, which is Hadoop's ordinary path.
        ['mapreduce.task.io.sort.mb', String(LOCAL_SORT_MB)],
        // LocalJobRunner runs one map and one reduce at a time unless told otherwise.
        ['mapreduce.local.map.tasks.maximum', '2'],
        ['mapreduce.local.reduce.tasks.maximum', '2'],
        // The job client looks at a job's state once a second by default: a local job of a
        // few seconds would wait half a second on average after it has finished.
        ['mapreduce.client.progressmonitor.pollinterval', '100'],
      );
    }
    return s;
  }

  private async runJob(variant: VariantJob, job: JobSpec, j: number, compressOutput: boolean, counters: Counters): Promise<JobReport> {
    const t0 = performance.now();
    this.ctx.progress(`hadoop: ${job.name}`);
    const args = streamingArgs(
      {
        jobName: `ndd-bench ${variant.variant} ${job.name}`,
        reduceTasks: this.config.reduce_tasks,
        node: this.config.node ?? (this.runtime.pinned ? process.execPath : 'node'),
        jobScript: `${this.base}/${JOB_SCRIPT_NAME}`,
        spec: `${this.base}/${SPEC_NAME}`,
        dataset: (d) => this.dataset(d),
        compressOutput,
        settings: await this.settings(job),
      },
      job,
    );
    const log = await this.runStreaming(args, `job-${j}`);
    const block = parseCountersBlock(log);
    if (!block) throw new Error(`hadoop: job ${job.name} printed no Counters block; end of its log:\n${tail(log)}`);
    const own: Counters = {};
    for (const [group, names] of Object.entries(block)) {
      const into = HADOOP_GROUPS.has(group) ? (own[group] ??= {}) : (counters[group] ??= {});
      for (const [name, n] of Object.entries(names)) into[name] = (into[name] ?? 0) + n;
    }
    const splits = /number of splits:(\d+)/.exec(log);
    return {
      name: job.name,
      map_tasks: splits ? Number(splits[1]) : null,
      reduce_tasks: job.reducer ? this.config.reduce_tasks : 0,
      runtime_s: (performance.now() - t0) / 1000,
      hadoop_counters: own,
    };
  }

  /** Runs one streaming job on the job server (local mode), or as its own `hadoop jar` process; returns its log. */
  private async runStreaming(args: readonly string[], what: string): Promise<string> {
    if (!this.runtime.pinned) {
      // An unconfigured installation runs local mode, which links the -files into the JVM's
      // working folder: one folder a job.
      await mkdir(join(this.root, what));
      return await this.exec(this.runtime.streaming(args), what);
    }
    if (!this.server) throw new Error('hadoop backend: local mode runs its jobs on a job server');
    const logFile = join(this.root, `${what}.log`);
    const exit = await this.server.run(args, logFile, this.ctx.signal);
    this.ctx.signal.throwIfAborted();
    const log = await readFile(logFile, 'utf8').catch(() => '');
    if (exit.spawnError !== undefined) throw new Error(`hadoop: the job server's JVM could not be started: ${exit.spawnError}`);
    if (exit.died !== undefined) {
      const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
      throw new Error(`hadoop: ${what}: the job server's JVM ${how}; end of its log:\n${tail(exit.died)}\nend of the job's log:\n${tail(log)}`);
    }
    if (exit.code === 0) return log;
    throw this.failure(log, `${what}: the streaming job ended with code ${exit.code}`);
  }

  /** Runs a Hadoop command to its end; returns its log, or throws with the log's tail. */
  private async exec(cmd: HadoopCommand, what: string): Promise<string> {
    const logFile = join(this.root, `${what}.log`);
    const exit = await runInGroup(cmd, { cwd: join(this.root, what.startsWith('job-') ? what : ''), logFile, signal: this.ctx.signal });
    this.ctx.signal.throwIfAborted();
    const log = await readFile(logFile, 'utf8').catch(() => '');
    if (exit.code === 0) return log;
    if (exit.spawnError !== undefined) throw new Error(`hadoop: ${cmd.file} could not be started: ${exit.spawnError}`);
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    throw this.failure(log, `${what}: ${basename(cmd.file)} ${cmd.args[0] === 'fs' ? 'fs ' : ''}${how}`);
  }

  /** The error of a failed Hadoop command: a bad input file a task named is a DataError. */
  private failure(log: string, what: string): Error {
    // A task that stopped at a bad input file a parameter names says which and why on its last line.
    const badInput = new RegExp(`subprocess failed with code ${EXIT_INPUT_FILE}\\b`).test(log) ? lastTaskLine(log) : undefined;
    if (badInput !== undefined) return new DataError(`hadoop: ${clip(badInput, 300)}`);
    const task = lastTaskLine(log);
    return new Error(`hadoop: ${what}${task ? `; the task said: ${clip(task, 300)}` : ''}; end of its log:\n${tail(log)}`);
  }

  private async fs(args: readonly string[], what: string): Promise<void> {
    await this.exec(this.installed().fs(args), `fs-${what}`);
  }

  /** The user's installation, which alone has a file system to stage to. */
  private installed(): InstalledHadoop {
    if (this.runtime.pinned) throw new Error('hadoop backend: local mode reads and writes the run folder directly');
    return this.runtime;
  }

  private async readOutputs(variant: VariantJob): Promise<PlanOutputs> {
    const collector = new OutputCollector(variant.plan.output, this.ctx.docs.texts.length);
    for (const name of outputDatasets(variant.plan.output)) {
      let dir: string;
      if (this.runtime.pinned) {
        dir = fileURLToPath(this.dataset(name));
      } else {
        dir = join(this.root, 'out', safeName(name));
        await mkdir(join(this.root, 'out'), { recursive: true });
        await this.fs(['-get', this.dataset(name), dir], 'get');
      }
      const parts = (await readdir(dir)).filter((n) => n.startsWith('part-')).sort();
      for (const part of parts) {
        const file = join(dir, part);
        const raw = createReadStream(file, { highWaterMark: 1 << 20 });
        let lineNo = 0;
        await forEachLine(part.endsWith('.gz') ? raw.pipe(createGunzip()) : raw, (line) => {
          lineNo++;
          const [key, value] = decodeRecord(line);
          collector.add(name, key, value, () => `${file}: line ${lineNo}`);
        });
      }
    }
    return collector.result();
  }

  /** Removes the staged folder (an installation's) and the local one; never throws. */
  async cleanUp(): Promise<void> {
    if (this.staged) {
      // An abort has fired the run's signal: the removal gets a signal of its own.
      await runInGroup(this.installed().fs(['-rm', '-r', '-f', '-skipTrash', this.base]), {
        cwd: this.root,
        logFile: join(this.root, 'fs-clean.log'),
        signal: AbortSignal.timeout(120_000),
      }).catch(() => undefined);
    }
    await rm(this.root, { recursive: true, force: true });
  }
}

/** Bytes of the part files of local datasets (a gzip'd part is one split whatever its size). */
async function inputBytes(dirs: readonly string[]): Promise<number> {
  let total = 0;
  for (const dir of dirs) {
    for (const name of await readdir(dir)) if (name.startsWith('part-')) total += (await stat(join(dir, name))).size;
  }
  return total;
}

function tail(log: string): string {
  return log
    .trimEnd()
    .split('\n')
    .slice(-TAIL_LINES)
    .map((l) => `  ${clip(l, 300)}`)
    .join('\n');
}

/** The job script's own last word (`ndd-job <job> <phase>: …`), which Hadoop copies from the task's stderr. */
function lastTaskLine(log: string): string | undefined {
  return log
    .split('\n')
    .filter((l) => l.startsWith('ndd-job '))
    .at(-1);
}
