/** PPJoin's parameters: Broder's defaults for the tokens, every filter on but the suffix filter, and one-line errors. */
import { describe, expect, it } from 'vitest';
import { ppjoinParams } from '../../../algorithms/ppjoin/params.ts';

function problems(raw: unknown): string[] {
  const r = ppjoinParams.safeParse(raw);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('PPJoin parameters', () => {
  it("default to Broder's shingling, so `threshold` alone joins the ground truth's sets", () => {
    expect(ppjoinParams.parse({ threshold: 0.5 })).toEqual({
      threshold: 0.5,
      shingle: { unit: 'char', size: 64, start: 'word' },
      fingerprint: 'rabin64',
      filters: { length: true, prefix: true, position: true, suffix: false, signature: true },
      suffix_depth: 2,
      signature_bits: 256,
    });
    expect(ppjoinParams.parse({ threshold: 1, filters: { suffix: true } }).filters.suffix).toBe(true);
  });

  it('refuses a threshold outside (0, 1] in one line naming the field', () => {
    for (const t of [0, -0.5, 1.01, 7]) {
      const p = problems({ threshold: t });
      expect(p).toHaveLength(1);
      expect(p[0]).toBe('threshold: threshold must be in (0, 1]');
    }
    expect(problems({})).toEqual(['threshold: Invalid input: expected number, received undefined']);
  });

  it('refuses an unknown token kind, an unknown filter and a signature size that is not a power of two', () => {
    const kind = problems({ threshold: 0.5, shingle: { unit: 'sentence', size: 3 } });
    expect(kind).toHaveLength(1);
    expect(kind[0]).toMatch(/^shingle\.unit: /);
    expect(problems({ threshold: 0.5, filters: { bloom: true } })).toEqual(['filters: Unrecognized key: "bloom"']);
    expect(problems({ threshold: 0.5, signature_bits: 100 })).toEqual(['signature_bits: signature_bits must be a power of two']);
    for (const p of [...kind, ...problems({ threshold: 2 })]) expect(p).not.toContain('\n');
  });
});
