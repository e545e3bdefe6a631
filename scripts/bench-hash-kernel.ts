/**
 * The MinHash hash kernel alone (`algorithms/minhash/hash-kernel.ts`): nanoseconds a hash of the
 * k-permutation loop, scalar against SIMD, and of the one-permutation loop, on random residues
 * in sets of the sizes the 30,000-document synthetic corpus has (about 300 distinct fingerprints
 * a document), one thread. The loops alternate, `reps` rounds; each figure is the best round's
 * CPU time of this thread divided by the hashes it made (sets × elements × k, or elements for
 * one-permutation). Before timing, the scalar and SIMD signatures are compared word for word.
 *
 *   node --import tsx scripts/bench-hash-kernel.ts [--reps 7] [--k 128] [--elements 2000000]
 */
import { parseArgs } from 'node:util';
import { HashKernel, SIMD_AVAILABLE, type ResidueSets } from '../algorithms/minhash/hash-kernel.ts';
import { SplitMix64, permutationWords } from '../algorithms/minhash/permutations.ts';
import { MERSENNE_61 as P, fromBigInt } from '../algorithms/minhash/mersenne.ts';

const { values } = parseArgs({ options: { reps: { type: 'string', default: '7' }, k: { type: 'string', default: '128' }, elements: { type: 'string', default: '2000000' } } });
const reps = Number(values.reps);
const k = Number(values.k);
const wanted = Number(values.elements);

function randomSets(elements: number, seed: bigint): ResidueSets {
  const g = new SplitMix64(seed);
  const sizes: number[] = [];
  // sizes 1 … 600, mean about 300
  for (let total = 0; total < elements; ) {
    const n = Math.min(elements - total, 1 + Number(g.next() % 600n));
    sizes.push(n);
    total += n;
  }
  const residues = new Uint32Array(2 * elements);
  for (let e = 0; e < elements; e++) residues.set(fromBigInt(g.next() % P), 2 * e);
  const starts = new Uint32Array(sizes.length + 1);
  sizes.forEach((n, i) => (starts[i + 1] = (starts[i] as number) + n));
  return { residues, starts };
}

const sets = randomSets(wanted, 2026n);
const perms = permutationWords(1, k);
const scalar = new HashKernel({ simd: false });
const simd = SIMD_AVAILABLE ? new HashKernel({ simd: true }) : undefined;

if (simd) {
  const a = scalar.signatures(sets, perms, k, 'k-permutation');
  const b = simd.signatures(sets, perms, k, 'k-permutation');
  if (a.length !== b.length || a.some((w, i) => w !== b[i])) throw new Error('the SIMD signatures differ from the scalar ones');
}

const cpuNs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) * 1000;
};
const loops: { name: string; hashes: number; run: () => void }[] = [
  { name: 'k-permutation, scalar', hashes: wanted * k, run: () => scalar.signatures(sets, perms, k, 'k-permutation') },
  ...(simd ? [{ name: 'k-permutation, SIMD', hashes: wanted * k, run: () => simd.signatures(sets, perms, k, 'k-permutation') }] : []),
  { name: 'one-permutation', hashes: wanted, run: () => scalar.signatures(sets, perms, k, 'one-permutation') },
];
const best = new Map<string, number>();
for (let r = 0; r < reps; r++) {
  for (const loop of loops) {
    const t0 = cpuNs();
    loop.run();
    const ns = (cpuNs() - t0) / loop.hashes;
    best.set(loop.name, Math.min(best.get(loop.name) ?? Infinity, ns));
  }
}
const sizes = sets.starts.length - 1;
process.stdout.write(`${wanted.toLocaleString('en')} elements in ${sizes.toLocaleString('en')} sets, k = ${k}, best of ${reps} (CPU time, one thread):\n`);
for (const loop of loops) process.stdout.write(`  ${loop.name.padEnd(24)} ${(best.get(loop.name) as number).toFixed(2)} ns a hash\n`);
if (simd) process.stdout.write(`  SIMD speed-up ×${((best.get('k-permutation, scalar') as number) / (best.get('k-permutation, SIMD') as number)).toFixed(2)}\n`);
