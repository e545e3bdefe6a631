import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adapter as broder } from '../../../../algorithms/broder/index.ts';
import type { DocumentSet } from '../../../../contract/index.ts';
import { createLocalBackend } from '../../../../harness/mapreduce/local/backend.ts';
import { docSet } from '../../../support/corpus.ts';
import { rowsOf } from '../../../support/run-plan.ts';

describe('local backend', () => {
  it('shares kernel work between variants of one document set only', async () => {
    const backend = createLocalBackend({ workers: 1, memoryMb: 512, pricePerVcpuHour: 0, engine: 'auto' });
    const work = mkdtempSync(join(tmpdir(), 'local-'));
    const params = broder.params.parse({ shingle: { unit: 'char', size: 5 } });
    const run = async (docs: DocumentSet): Promise<string[]> => {
      const r = await backend.run(
        { variant: 'v', algorithm: 'broder', params, minScore: Number.MIN_VALUE, seed: 0, plan: broder.plan(params, { minScore: Number.MIN_VALUE, seed: 0 }) },
        { docs, workDir: work, signal: new AbortController().signal, progress() {} },
      );
      return rowsOf(r.outputs.pairs);
    };
    try {
      // "ab cd ef gh" / "ab cd ef xy": 2 of 4 shingles shared (RR 0.5); then a set where the
      // first two documents are identical (RR 1): fingerprints of the first set must not be reused.
      expect(await run(docSet(['ab cd ef gh', 'ab cd ef xy']))).toEqual(['0 1 0.5']);
      expect(await run(docSet(['zz yy xx', 'zz yy xx', 'qq rr']))).toEqual(['0 1 1']);
    } finally {
      await backend.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});

describe('local backend memory budget', () => {
  it('runs the spilling text jobs instead of an in-memory kernel that would not fit', async () => {
    const docs = docSet(['ab cd ef gh '.repeat(20_000), 'ab cd ef xy '.repeat(20_000)]);
    // 128 MiB + 2 × 240,000 characters × 14 bytes ≈ 141 MB of kernel estimate: over 1 MB, under 512 MB
    const run = async (memoryMb: number) => {
      const backend = createLocalBackend({ workers: 1, memoryMb, pricePerVcpuHour: 0, engine: 'auto' });
      const work = mkdtempSync(join(tmpdir(), 'budget-'));
      const params = broder.params.parse({ shingle: { unit: 'char', size: 5 } });
      const plan = broder.plan(params, { minScore: Number.MIN_VALUE, seed: 0 });
      // The same kernel, declared in-memory only: an out-of-core kernel is never replaced by the jobs.
      const inMemoryOnly = { ...plan, local: { ...(plan.local as NonNullable<typeof plan.local>), outOfCore: false } };
      try {
        return await backend.run(
          { variant: 'v', algorithm: 'broder', params, minScore: Number.MIN_VALUE, seed: 0, plan: inMemoryOnly },
          { docs, workDir: work, signal: new AbortController().signal, progress() {} },
        );
      } finally {
        await backend.close();
        rmSync(work, { recursive: true, force: true });
      }
    };
    const roomy = await run(512);
    const tight = await run(1);
    expect(roomy.extra?.engine).toBe('kernel');
    expect(tight.extra?.engine).toBe('jobs');
    expect(String(tight.extra?.why)).toMatch(/over memory_mb 1/);
    // {ab cd, cd ef, ef gh, gh ab} vs {ab cd, cd ef, ef xy, xy ab}: 2 shared of 6 → 1/3, either way
    expect(rowsOf(tight.outputs.pairs)).toEqual(rowsOf(roomy.outputs.pairs));
    expect(rowsOf(tight.outputs.pairs)).toEqual([`0 1 ${2 / 6}`]);
  });
});
