/**
 * The external adapter's own overhead (issue 24, "Speed"): on the bundled mail, datasketch's
 * MinHash-LSH wrapper (configs/peers.yaml's `datasketch` variant, 128 permutations, t = 0.5) run
 * by the harness; the adapter's overhead is the variant's runtime less the command's own wall
 * time (`backend_extra.process_tree.wall_s`): writing the corpus out, starting the command,
 * reading and checking its output. Target: at most 10% of the command's whole run.
 *
 *   node --import tsx scripts/bench-external.ts [--reps 3]     (needs .venv/peers: npm run peers:install)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { runExperiment } from '../harness/experiment/runner.ts';
import { ensurePythonSet } from './ensure-python.ts';

const ROOT = new URL('..', import.meta.url).pathname;

export interface ExternalOverhead {
  /** the variant's runtime, s (best of the repetitions) */
  readonly variantS: number;
  /** the command's own wall time in that repetition, s */
  readonly commandS: number;
  readonly overheadS: number;
  /** overhead / command */
  readonly share: number;
}

export async function benchExternal(reps = 3): Promise<ExternalOverhead> {
  const quiet = { update() {}, log() {}, done() {} };
  let best: ExternalOverhead | undefined;
  for (let r = 0; r < reps; r++) {
    const out = mkdtempSync(join(tmpdir(), 'bench-external-'));
    try {
      const run = await runExperiment({
        configFile: join(ROOT, 'configs', 'peers.yaml'),
        outRoot: out,
        only: ['datasketch'],
        env: process.env,
        progress: quiet,
        signal: new AbortController().signal,
      });
      if (run.kind !== 'completed') throw new Error(`bench-external: the run ended ${run.kind}`);
      const v = run.record.variants.find((x) => x.name === 'datasketch');
      const tree = v?.backend_extra?.process_tree as { wall_s: number } | undefined;
      if (!v || !tree) throw new Error('bench-external: no datasketch variant with a process tree');
      const variantS = v.measures.runtime_s as number;
      const overheadS = variantS - tree.wall_s;
      const figures = { variantS, commandS: tree.wall_s, overheadS, share: overheadS / tree.wall_s };
      if (!best || figures.variantS < best.variantS) best = figures;
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
  return best as ExternalOverhead;
}

export function printExternalBench(f: ExternalOverhead, write: (s: string) => void): boolean {
  const ok = f.share <= 0.1;
  write(
    `  datasketch through the external adapter: variant ${f.variantS.toFixed(2)} s, its command ${f.commandS.toFixed(2)} s, ` +
      `adapter overhead ${f.overheadS.toFixed(2)} s = ${(100 * f.share).toFixed(1)}% of the command (target 10%): ${ok ? 'target met' : 'TARGET MISSED'}\n`,
  );
  return ok;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { reps: { type: 'string', default: '3' } } });
  const peers = ensurePythonSet('peers', (line) => process.stderr.write(`${line}\n`));
  if (!peers.found) {
    process.stderr.write(`bench-external: ${peers.reason}\n`);
    process.exitCode = 1;
  } else if (!printExternalBench(await benchExternal(Number(values.reps)), (s) => process.stdout.write(s))) {
    process.exitCode = 1;
  }
}
