/** The out-of-core Broder kernel against the in-memory one, on a `bench synth scale` corpus. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { ROOT, type Section } from './context.ts';

const DOCUMENTS = 30_000;
const BUDGET_MB = 768;

interface Variant {
  readonly name: string;
  readonly measures: Record<string, number>;
  readonly backend_extra?: Record<string, unknown>;
}

export const outOfCoreSection: Section = {
  name: 'out-of-core',
  describe: `configs/scale.yaml (ground truth, SCT 70, mod 64) on ${DOCUMENTS} documents of \`bench synth scale\`, memory_mb ${BUDGET_MB} (out of core) against 8192 (in memory): runtimes, CPU, peak RSS against the budget, spill; identical pairs or exit 1 (the million-document run is \`npm run bench:scale\`)`,
  async run(ctx) {
    process.stdout.write(`out of core (configs/scale.yaml on ${DOCUMENTS} synthetic documents, memory_mb ${BUDGET_MB} against 8192):\n`);
    const dir = mkdtempSync(join(tmpdir(), 'bench-ci-scale-'));
    try {
      ctx.cli(['synth', 'scale', '--documents', String(DOCUMENTS), '--out', join(dir, 'corpus')]);
      const config = (memoryMb: number): string => {
        const file = join(dir, `scale-${memoryMb}.yaml`);
        writeFileSync(file, readFileSync(join(ROOT, 'configs', 'scale.yaml'), 'utf8').replace(/memory_mb: \d+/, `memory_mb: ${memoryMb}`));
        return file;
      };
      const env = { SCALE_DIR: join(dir, 'corpus') };
      ctx.cli(['run', config(BUDGET_MB), '--out', dir, '--run-id', 'out-of-core'], 'ignore', env);
      ctx.cli(['run', config(8192), '--out', dir, '--run-id', 'in-memory'], 'ignore', env);
      const load = (id: string): Variant[] => (JSON.parse(readFileSync(join(dir, 'scale', id, 'run.json'), 'utf8')) as { variants: Variant[] }).variants;
      const external = load('out-of-core');
      const inMemory = load('in-memory');
      const short = (name: string): string => name.replace(/^broder\//, '');
      for (const v of external) {
        ctx.record(`out_of_core.${short(v.name)}_s`, v.measures['runtime_s'] as number, 's');
        ctx.record(`out_of_core.${short(v.name)}_cpu_s`, v.measures['cpu_s'] as number, 's');
      }
      const peak = Math.max(...external.map((v) => v.measures['peak_rss_mb'] as number));
      ctx.record('out_of_core.peak_rss_mb', peak, 'MB');
      ctx.record('out_of_core.spill_mb', external.reduce((s, v) => s + (v.measures['spill_mb'] as number), 0), 'MB');
      for (const v of inMemory) ctx.record(`in_memory.${short(v.name)}_s`, v.measures['runtime_s'] as number, 's');
      ctx.record('in_memory.peak_rss_mb', Math.max(...inMemory.map((v) => v.measures['peak_rss_mb'] as number)), 'MB');
      if (peak > BUDGET_MB) {
        process.stdout.write(`  FAILED: a variant's peak RSS ${peak.toFixed(0)} MB is over memory_mb ${BUDGET_MB}\n`);
        process.exitCode = 1;
      }
      for (const v of external) {
        const pairs = (id: string): Buffer => gunzipSync(readFileSync(join(dir, 'scale', id, 'pairs', `${v.name}.csv.gz`)));
        const tookPaths = v.backend_extra?.['out_of_core'] !== undefined && inMemory.find((x) => x.name === v.name)?.backend_extra?.['out_of_core'] === undefined;
        if (!tookPaths || !pairs('out-of-core').equals(pairs('in-memory'))) {
          process.stdout.write(`  FAILED: ${v.name}: the out-of-core pairs differ from the in-memory ones (or a run did not take the path it should)\n`);
          process.exitCode = 1;
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
