/**
 * The error samples' share of the quickstart (issue 26: "writing the error samples adds at most
 * 5% to the quickstart"): `bench run configs/quickstart.yaml` as a user runs it, and the same
 * config with `evaluate.errors.sample: 0`, taking turns for ROUNDS rounds. A round's two runs
 * share the machine's state (its load, a neighbour's), so the share is the median of the rounds'
 * ratios less one, of wall time and of CPU time (the run's process with all its threads). On a
 * shared machine a single round's ratio moves by ±5% or more, and by ±20% when a neighbour's load
 * comes and goes: the median's 95% interval is printed with it (median-interval.ts, order
 * statistics, no assumption on the distribution), and says when the verdict is not settled.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from 'simple-statistics';
import { childrenCpuS, ROOT, type BenchContext, type Section } from './context.ts';
import { medianInterval } from './median-interval.ts';

// 12 rounds: the median's 95% interval is then the 3rd to the 10th ratio (with 7, the whole range).
const ROUNDS = 12;
const TARGET = 0.05;

/** One run of `config` as a user runs it: wall and CPU seconds (the run's process, all its threads). */
interface Timed {
  readonly wallS: number;
  readonly cpuS: number;
}

function timedRun(ctx: BenchContext, config: string, out: string): Timed {
  const cpu0 = childrenCpuS();
  const t0 = performance.now();
  ctx.cli(['run', config, '--out', out, '--force']);
  const wallS = (performance.now() - t0) / 1000;
  return { wallS, cpuS: childrenCpuS() - cpu0 };
}

export const errorSamplesSection: Section = {
  name: 'error-samples',
  describe: `the quickstart with its error samples and with evaluate.errors.sample: 0, taking turns ${ROUNDS} rounds: what the samples add, the median of the rounds' ratios (target: ${100 * TARGET}% of wall time; exit 1 over it)`,
  async run(ctx) {
    process.stdout.write(`the error samples' share of the quickstart (${ROUNDS} rounds, with and without, taking turns):\n`);
    const dir = mkdtempSync(join(tmpdir(), 'bench-error-samples-'));
    const quickstart = join(ROOT, 'configs', 'quickstart.yaml');
    // The bundled corpus needs no path: the copy reads the same documents from anywhere.
    const without = join(dir, 'quickstart-without-samples.yaml');
    const text = readFileSync(quickstart, 'utf8');
    if (!/^evaluate:\n/m.test(text)) throw new Error(`${quickstart}: no evaluate: section to add errors: { sample: 0 } to`);
    writeFileSync(without, text.replace(/^evaluate:\n/m, 'evaluate:\n  errors: { sample: 0 }\n'));
    const rounds: { readonly with: Timed; readonly without: Timed }[] = [];
    try {
      // one of each first, not counted: the corpus cache and the stored values as a user's second run finds them
      timedRun(ctx, quickstart, join(dir, 'out'));
      timedRun(ctx, without, join(dir, 'out'));
      for (let r = 0; r < ROUNDS; r++) {
        const round = { with: timedRun(ctx, quickstart, join(dir, 'out')), without: timedRun(ctx, without, join(dir, 'out')) };
        rounds.push(round);
        process.stdout.write(`  round ${r + 1}: ${round.with.wallS.toFixed(2)} s (${round.with.cpuS.toFixed(2)} CPU-s) with, ${round.without.wallS.toFixed(2)} s (${round.without.cpuS.toFixed(2)} CPU-s) without: ${(100 * (round.with.wallS / round.without.wallS - 1)).toFixed(1)}% wall
`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const wall = rounds.map((r) => r.with.wallS / r.without.wallS - 1);
    const cpu = rounds.map((r) => r.with.cpuS / r.without.cpuS - 1);
    const share = median(wall);
    ctx.record('error_samples.with_wall_s', median(rounds.map((r) => r.with.wallS)), 's');
    ctx.record('error_samples.without_wall_s', median(rounds.map((r) => r.without.wallS)), 's');
    ctx.record('error_samples.wall_share', share, 'ratio');
    ctx.record('error_samples.cpu_share', median(cpu), 'ratio');
    const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;
    const interval = medianInterval(wall);
    const spread = `rounds ${pct(Math.min(...wall))} to ${pct(Math.max(...wall))}` + (interval ? `; the median's ${pct(interval.coverage)} interval ${pct(interval.low)} to ${pct(interval.high)}` : '');
    const verdict = share <= TARGET ? 'within' : 'OVER';
    const unsettled = interval && interval.low <= TARGET && TARGET < interval.high ? ' (the interval holds the target on both sides: not settled on this machine now)' : '';
    process.stdout.write(`  the samples add ${pct(share)} of wall time (${spread}), ${pct(median(cpu))} of CPU time: ${verdict} the target of ${100 * TARGET}%${unsettled}\n`);
    if (share > TARGET) process.exitCode = 1;
  },
};
