/**
 * `npm run fuzz [-- SEED] [--seconds N]`: the property-based corpus reader tests
 * (test/harness/corpus/fuzz/) for ten minutes in all (or N seconds), from a random seed that is
 * printed first, or from SEED to replay a run. `npm test` runs the same properties with a fixed
 * seed and a few cases each (test/support/fuzz/settings.ts).
 */
import { spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { fileURLToPath } from 'node:url';

function usage(problem: string): never {
  process.stderr.write(`fuzz: ${problem}\nusage: npm run fuzz [-- SEED] [--seconds N]\n`);
  process.exit(2);
}

let seed: number | undefined;
let seconds = 600;
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const a = args[i] as string;
  if (a === '--seconds') {
    seconds = Number(args[++i]);
    if (!(seconds > 0)) usage(`--seconds must be a positive number, got ${args[i]}`);
  } else if (/^-?\d+$/.test(a) && seed === undefined) {
    seed = Number(a);
    if (!Number.isSafeInteger(seed)) usage(`the seed must be an integer, got ${a}`);
  } else {
    usage(`unknown argument ${JSON.stringify(a)}`);
  }
}
seed ??= randomInt(0, 2 ** 31);

process.stdout.write(`fuzz: seed ${seed}, ${seconds} s (replay with: npm run fuzz -- ${seed} --seconds ${seconds})\n`);
const repo = fileURLToPath(new URL('../', import.meta.url));
const vitest = fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url));
const r = spawnSync(process.execPath, [vitest, 'run', 'test/harness/corpus/fuzz/'], {
  cwd: repo,
  stdio: 'inherit',
  env: { ...process.env, FUZZ_SEED: String(seed), FUZZ_SECONDS: String(seconds) },
});
process.stdout.write(`fuzz: seed ${seed} ${r.status === 0 ? 'found nothing' : 'found a failure (above)'}; replay with: npm run fuzz -- ${seed} --seconds ${seconds}\n`);
process.exit(r.status ?? 1);
