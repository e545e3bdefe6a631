/**
 * What every section of `npm run bench:ci` shares: the bundled corpus (read once, when a section
 * asks for it), a place to record figures, and a way to run the CLI as a user does.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { DocumentSet } from '../../contract/index.ts';
import { newCorpusStats, readCorpus } from '../../harness/corpus/read.ts';
import { reapedChildrenCpuS } from '../../harness/mapreduce/streaming/cpu.ts';

export const ROOT = new URL('../..', import.meta.url).pathname;

/** CPU seconds of the child processes waited for so far (their threads too); a benchmark cannot go on without them. */
export function childrenCpuS(): number {
  const s = reapedChildrenCpuS();
  if (s === undefined) throw new Error('bench: the CPU time of a child process is read from /proc, which this system lacks');
  return s;
}

export interface Figure {
  readonly value: number;
  readonly unit: string;
  /** which way is better, for the factor column */
  readonly better: 'lower' | 'higher';
}

export class BenchContext {
  readonly figures: Record<string, Figure> = {};
  private corpus: { texts: string[]; readS: number } | undefined;

  constructor(readonly update: boolean) {}

  record(name: string, value: number, unit: string, better: 'lower' | 'higher' = 'lower'): void {
    this.figures[name] = { value, unit, better };
    process.stdout.write(`  ${name}: ${value.toFixed(unit === 'MB/s' ? 1 : 3)} ${unit}\n`);
  }

  figure(name: string): number {
    const f = this.figures[name];
    if (!f) throw new Error(`bench: no figure ${name} recorded yet`);
    return f.value;
  }

  /** The bundled corpus's texts, read on first use, and how long reading took. */
  async texts(): Promise<{ readonly texts: readonly string[]; readonly readS: number }> {
    if (!this.corpus) {
      process.stdout.write('reading the bundled corpus…\n');
      const t0 = performance.now();
      const texts: string[] = [];
      for await (const d of readCorpus({ format: 'spamassassin' }, newCorpusStats())) texts.push(d.text);
      this.corpus = { texts, readS: (performance.now() - t0) / 1000 };
      process.stdout.write(`  ${texts.length} documents, ${(Buffer.byteLength(texts.join('')) / 1e6).toFixed(1)} MB of text\n`);
    }
    return this.corpus;
  }

  async docs(): Promise<DocumentSet> {
    const { texts } = await this.texts();
    return { ids: texts.map((_, i) => String(i)), texts };
  }

  /** `bench …` as a user runs it, quiet (CI=true). */
  cli(args: readonly string[], stdio: 'inherit' | 'ignore' = 'ignore', env: NodeJS.ProcessEnv = {}): void {
    execFileSync(process.execPath, [join(ROOT, 'bin', 'bench.js'), ...args], {
      stdio: ['ignore', stdio, 'inherit'],
      env: { ...process.env, CI: 'true', ...env },
    });
  }
}

export interface Section {
  readonly name: string;
  /** one line for the script's header */
  readonly describe: string;
  run(ctx: BenchContext): Promise<void>;
}
