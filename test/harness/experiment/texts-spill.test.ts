import { describe, expect, it } from 'vitest';
import { textsSpill } from '../../../harness/experiment/texts-spill.ts';

const MIB = 2 ** 20;
const GIB = 2 ** 30;

describe('textsSpill', () => {
  it('holds half of memory_mb when V8 allows more', () => {
    // 8192 MB of budget, a 16 GiB heap: 4096 MiB of characters, under 60% of the heap's 16384 MiB.
    expect(textsSpill({ workDir: '/w', budgetMb: 8192, heapLimitBytes: 16 * GIB }).aboveChars).toBe(4096 * MIB);
  });

  it("holds 60% of V8's heap when the budget would allow more", () => {
    // 16000 MB of budget, the default 4144 MiB heap: 0.6 × 4144 = 2486.4 MiB, not 8000.
    expect(textsSpill({ workDir: '/w', budgetMb: 16000, heapLimitBytes: 4144 * MIB }).aboveChars).toBe(Math.floor(2486.4 * MIB));
  });

  it("bounds the texts by V8's heap without a budget, and takes texts_mb as given", () => {
    expect(textsSpill({ workDir: '/w', heapLimitBytes: 1000 * MIB }).aboveChars).toBe(600 * MIB);
    expect(textsSpill({ workDir: '/w', textsMb: 0, budgetMb: 8192, heapLimitBytes: 4 * GIB })).toEqual({ dir: '/w/texts', aboveChars: 0 });
    expect(textsSpill({ workDir: '/w', textsMb: 9000, budgetMb: 100, heapLimitBytes: 4 * GIB }).aboveChars).toBe(9000 * MIB);
  });
});
