import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { broder } from '../../../../algorithms/broder/index.ts';
import type { DocumentSet } from '../../../../algorithms/types.ts';
import { createLocalBackend } from '../../../../harness/mapreduce/local/backend.ts';
import { docSet } from '../../../support/corpus.ts';
import { rowsOf } from '../../../support/run-plan.ts';

describe('local backend', () => {
  it('shares kernel work between variants of one document set only', async () => {
    const backend = createLocalBackend({ workers: 1, memoryMb: 16, pricePerVcpuHour: 0, engine: 'auto' });
    const work = mkdtempSync(join(tmpdir(), 'local-'));
    const params = broder.params.parse({ shingle: { unit: 'char', size: 5 } });
    const run = async (docs: DocumentSet): Promise<string[]> => {
      const r = await backend.run(
        { variant: 'v', algorithm: 'broder', params, minScore: Number.MIN_VALUE, plan: broder.plan(params, { minScore: Number.MIN_VALUE }) },
        { docs, workDir: work, signal: new AbortController().signal, progress() {} },
      );
      return rowsOf(r.pairs);
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
