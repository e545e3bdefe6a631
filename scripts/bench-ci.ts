/**
 * `npm run bench:ci`: the performance figures of the project, measured on the bundled corpus,
 * section by section (scripts/bench/*.ts; `--only=SECTION,…` runs some of them):
 *
 *   kernels       the detectors' inner loops, one thread (tinybench)
 *   ground-truth  the full-shingle Broder ground truth on the local backend
 *   ppjoin, simhash, imatch, trials, minhash, pdc-mr   each detector's targets (see each section)
 *   out-of-core   configs/scale.yaml on 30,000 synthetic documents out of core (memory_mb 768) and in memory:
 *                 peak RSS within the budget, identical pairs (exit 1 otherwise); the million is `npm run bench:scale`
 *   scale-io      start-up, the mail reader, the corpus cache, the quickstart with a warm cache, the ground
 *                 truth against scipy (scripts/bench-scale-io.ts)
 *   readers       the TREC-web and WARC readers on 200 MB of generated input
 *   quickstart    `bench run configs/quickstart.yaml --no-corpus-cache` three times, then `bench check` (exit 1 on a regression)
 *   error-samples the quickstart with and without its error samples, taking turns: what they add (issue 26's 5%)
 *
 * The figures are compared with results/baselines/bench-ci.json (a factor per line, printed).
 * `--update` (or a missing baseline) writes the baselines; with `--only` it replaces only those
 * sections' figures and keeps the others.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { machine } from '../harness/results/environment.ts';
import { BenchContext, ROOT, type Figure, type Section } from './bench/context.ts';
import { groundTruth, imatchSection, ppjoinSection, simhashSection, trialsSection } from './bench/detectors.ts';
import { errorSamplesSection } from './bench/error-samples.ts';
import { kernels } from './bench/kernels.ts';
import { outOfCoreSection } from './bench/out-of-core.ts';
import { externalSection, minhashSection, pdcMrSection, quickstartSection, readersSection, scaleIoSection } from './bench/runs.ts';

// simhash before ppjoin: its peak RSS is the process's, and ppjoin's 100,000-document runs would set it.
const SECTIONS: readonly Section[] = [kernels, groundTruth, simhashSection, ppjoinSection, imatchSection, trialsSection, minhashSection, externalSection, pdcMrSection, outOfCoreSection, readersSection, scaleIoSection, quickstartSection, errorSamplesSection];

const BASELINE = join(ROOT, 'results', 'baselines', 'bench-ci.json');
const update = process.argv.includes('--update');
const onlyArg = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const only = onlyArg === undefined ? undefined : onlyArg.split(',');
const names = SECTIONS.map((s) => s.name);
for (const s of only ?? []) if (!names.includes(s)) throw new Error(`--only: unknown section ${s} (sections: ${names.join(', ')})`);

// The figures are those of the CLI as `npm install` builds it (scripts/build.mjs), not of the sources through tsx.
execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { stdio: ['ignore', 'inherit', 'inherit'] });

const ctx = new BenchContext(update);
for (const s of SECTIONS) if (only === undefined || only.includes(s.name)) await s.run(ctx);

interface Baseline {
  readonly date: string;
  readonly machine: unknown;
  readonly sections_updated?: Record<string, string>;
  readonly figures: Record<string, Figure>;
}
const previous = existsSync(BASELINE) ? (JSON.parse(readFileSync(BASELINE, 'utf8')) as Baseline) : undefined;
if (previous) {
  process.stdout.write(`\ncompared with ${BASELINE} (${previous.date}):\n`);
  for (const [name, f] of Object.entries(ctx.figures)) {
    const b = previous.figures[name];
    if (!b) continue;
    const factor = f.better === 'lower' ? f.value / b.value : b.value / f.value;
    const flag = factor > 1.5 ? '  slower' : factor < 1 / 1.5 ? '  faster' : '';
    process.stdout.write(`  ${name.padEnd(40)} ${b.value.toFixed(3).padStart(10)} → ${f.value.toFixed(3).padStart(10)} ${f.unit.padEnd(4)} ×${factor.toFixed(2)}${flag}\n`);
  }
}
if (update || !previous) {
  // With --only, the other sections' figures (and the date they were measured) stay as they were.
  const current: Baseline =
    only && previous
      ? {
          date: previous.date,
          machine: previous.machine,
          sections_updated: { ...previous.sections_updated, ...Object.fromEntries(only.map((s) => [s, new Date().toISOString()])) },
          figures: { ...previous.figures, ...ctx.figures },
        }
      : { date: new Date().toISOString(), machine: machine(), figures: ctx.figures };
  mkdirSync(join(ROOT, 'results', 'baselines'), { recursive: true });
  writeFileSync(BASELINE, JSON.stringify(current, null, 2) + '\n');
  process.stdout.write(`\nwrote ${BASELINE}\n`);
}
