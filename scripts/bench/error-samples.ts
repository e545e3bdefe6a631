/**
 * The error samples' share of the quickstart (issue 26: "writing the error samples adds at most
 * 5% to the quickstart"): `bench run configs/quickstart.yaml` as a user runs it, and the same
 * config with `evaluate.errors.sample: 0`, taking turns for ROUNDS rounds. A round's two runs
 * share the machine's state (its load, a neighbour's), so the share is the median of the rounds'
 * ratios less one, of wall time and of CPU time (the run's process with all its threads). On a
 * shared machine a single round's ratio moves by ±5% or more: read the spread printed with it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, type Section } from './context.ts';

const ROUNDS = 7;
const TARGET = 0.05;

/** CPU seconds of this process's waited-for children so far (Linux: /proc/self/stat cutime + cstime). */
function childrenCpuS(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[13]) + Number(f[14])) / 100;
}

/** One run of `config`: wall and CPU seconds. */
function timedRun(config: string, out: string): { wallS: number; cpuS: number } {
  const cpu0 = childrenCpuS();
  const t0 = performance.now();
  execFileSync(process.execPath, [join(ROOT, 'bin', 'bench.js'), 'run', config, '--out', out, '--force'], { stdio: 'ignore', env: { ...process.env, CI: 'true' } });
  return { wallS: (performance.now() - t0) / 1000, cpuS: childrenCpuS() - cpu0 };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
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
    // one of each first, not counted: the corpus cache and the stored values as a user's second run finds them
    timedRun(quickstart, join(dir, 'out'));
    timedRun(without, join(dir, 'out'));
    const wall: number[] = [];
    const cpu: number[] = [];
    const walls = { with: [] as number[], without: [] as number[] };
    for (let r = 0; r < ROUNDS; r++) {
      const a = timedRun(quickstart, join(dir, 'out'));
      const b = timedRun(without, join(dir, 'out'));
      walls.with.push(a.wallS);
      walls.without.push(b.wallS);
      wall.push(a.wallS / b.wallS - 1);
      cpu.push(a.cpuS / b.cpuS - 1);
      process.stdout.write(`  round ${r + 1}: ${a.wallS.toFixed(2)} s (${a.cpuS.toFixed(2)} CPU-s) with, ${b.wallS.toFixed(2)} s (${b.cpuS.toFixed(2)} CPU-s) without: ${(100 * (wall[r] as number)).toFixed(1)}% wall\n`);
    }
    rmSync(dir, { recursive: true, force: true });
    const share = median(wall);
    ctx.record('error_samples.with_wall_s', median(walls.with), 's');
    ctx.record('error_samples.without_wall_s', median(walls.without), 's');
    ctx.record('error_samples.wall_share', share, 'ratio');
    ctx.record('error_samples.cpu_share', median(cpu), 'ratio');
    const spread = `rounds ${(100 * Math.min(...wall)).toFixed(1)}% to ${(100 * Math.max(...wall)).toFixed(1)}%`;
    const verdict = share <= TARGET ? 'within' : 'OVER';
    process.stdout.write(`  the samples add ${(100 * share).toFixed(1)}% of wall time (${spread}), ${(100 * median(cpu)).toFixed(1)}% of CPU time: ${verdict} the target of ${100 * TARGET}%\n`);
    if (share > TARGET) process.exitCode = 1;
  },
};
