/**
 * The external detector's local kernel: the corpus written once a run as JSONL (shared by the
 * variants of a sweep), the command run as a process tree in a folder of its own, its output
 * read back as pairs or clusters.
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { basename, join } from 'node:path';
import type { KernelContext, KernelResult, LocalKernel } from '../../contract/index.ts';
import { commandLine } from './argv.ts';
import { writeCorpusJsonl } from './corpus-file.ts';
import type { ExternalParams } from './params.ts';
import { OUTPUT_GROUP, readOutput, type OutputOptions, type OutputReading } from './read-output.ts';
import { runCommand } from './run-command.ts';

export const CLUSTERS = 'external-clusters';

export interface KernelSettings {
  readonly params: ExternalParams;
  readonly seed: number;
  readonly strict: boolean;
}

export function externalKernel(s: KernelSettings): LocalKernel {
  return {
    // The harness holds nothing beyond the corpus; the command's memory is its own process tree's.
    memoryBytes: () => 0,
    async run(ctx: KernelContext): Promise<KernelResult> {
      const { params } = s;
      const outputOptions = (where: string): OutputOptions => ({
        ids: ctx.docs.ids,
        format: params.output,
        scored: params.output === 'pairs' && params.score !== 'none',
        strict: s.strict,
        where,
      });
      if (params.file !== undefined) {
        // Produced elsewhere: only read, and named by its own path.
        ctx.progress(`reading ${basename(params.file)}`);
        const read = await readOutput(params.file, outputOptions(params.file));
        return { ...counted(ctx, read), warnings: read.warnings };
      }
      const root = join(ctx.workDir, 'external');
      mkdirSync(root, { recursive: true });
      const corpus = await ctx.cached(`external-corpus:${params.text}`, async () => {
        const path = join(root, `corpus-${params.text}.jsonl`);
        ctx.progress(`writing the corpus (${params.text} text) for the command`);
        writeCorpusJsonl(ctx.docs, params.text, path);
        return path;
      });
      // A folder of the variant's own, the command's working directory: what it leaves goes with the run.
      const dir = mkdtempSync(join(root, 'run-'));
      const output = join(dir, `output.${params.output}.csv`);
      const cmd = commandLine(params, { ...(params.program ? { program: params.program } : {}), ...(params.interpreter ? { interpreter: params.interpreter } : {}), corpus, output, seed: s.seed });
      const program = basename(params.program ?? '');
      ctx.progress(`running ${program}`);
      const usage = await runCommand(cmd, { cwd: dir, timeoutS: params.timeout_s, signal: ctx.signal, label: program });
      ctx.progress(`reading its ${params.output}`);
      const read = await readOutput(output, outputOptions(`${program}'s ${params.output}`));
      // The work folder goes with the run: the output is kept with the results, compressed, so
      // that an explanation can show the command's own line for a pair (explain.ts).
      const kept = { name: keptOutputName(params), bytes: gzipSync(readFileSync(output)), description: `what ${program} wrote (${params.output}), as it wrote it, compressed: the lines its explanations show` };
      return { ...counted(ctx, read), processTree: usage, warnings: read.warnings, kept: [kept] };
    },
  };
}

/** The name a command's output is kept under (KernelResult.kept). */
export function keptOutputName(params: Pick<ExternalParams, 'output'>): string {
  return `output.${params.output}.csv.gz`;
}

/** The pairs and clusters read, with their counters counted. */
function counted(ctx: KernelContext, read: OutputReading): KernelResult {
  for (const [name, n] of Object.entries(read.counters)) ctx.count(OUTPUT_GROUP, name, n);
  return { pairs: read.pairs, ...(read.clusters ? { tables: { [CLUSTERS]: read.clusters } } : {}) };
}
