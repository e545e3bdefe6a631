import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adapter as broder } from '../../../../algorithms/broder/index.ts';
import { normalize } from '../../../../algorithms/text/normalize.ts';
import { charShingles } from '../../../../algorithms/text/shingles.ts';
import { sharedText } from '../../../../harness/evaluate/explain/shared-text.ts';

const spec = broder.params.parse({ shingle: { unit: 'char', size: 8 } });
const features = (t: string) => broder.explain!.features!(spec, t);

describe('sharedText', () => {
  it('merges the shared shingles of each document into spans of its original text, worked by hand', () => {
    // n = 8. "Aa bb, cc dd ee" normalizes to "aa bb cc dd ee": shingles at 0, 3, 6 ("dd ee" at 9 runs past 14)
    //   {"aa bb cc", "bb cc dd", "cc dd ee"}; "xx bb cc dd ee": {"xx bb cc", "bb cc dd", "cc dd ee"}.
    // Shared: "bb cc dd", "cc dd ee"; RR 2 / 4.
    const a = 'Aa bb, cc dd ee';
    const b = 'xx bb cc dd ee';
    const s = sharedText(features(a), features(b));
    expect([s.featuresA, s.featuresB, s.shared, s.resemblance]).toEqual([3, 3, 2, 0.5]);
    // in a, "bb, cc dd" is [3, 12) and "cc dd ee" [7, 15): one span [3, 15)
    expect(s.spansA).toEqual([{ start: 3, end: 15, occurrences: 2 }]);
    expect(s.spansB).toEqual([{ start: 3, end: 14, occurrences: 2 }]);
    expect(a.slice(3, 15)).toBe('bb, cc dd ee');
  });

  it('has no resemblance for two documents without a shingle', () => {
    expect(sharedText(features('...'), features('!')).resemblance).toBeNull();
  });

  it('gives spans that reproduce the exact resemblance they explain, for any pair of texts', () => {
    const word = fc.constantFrom('aa', 'bb', 'cc', 'dd', 'ee', 'Ff', 'ß', 'İx');
    const sep = fc.constantFrom(' ', ', ', '\n', '  -- ');
    const text = fc.array(fc.tuple(word, sep), { maxLength: 14 }).map((ps) => ps.map(([w, s]) => w + s).join(''));
    fc.assert(
      fc.property(text, text, (a, b) => {
        const fa = features(a);
        const fb = features(b);
        const s = sharedText(fa, fb);
        // The shingles lying wholly inside the spans of each document, by their keys: their
        // intersection must be the shared set, and the Jaccard over it the resemblance.
        const inside = (occ: typeof fa, spans: typeof s.spansA): Set<string> =>
          new Set(occ.keys.filter((_, i) => spans.some((sp) => sp.start <= (occ.starts[i] as number) && (occ.ends[i] as number) <= sp.end)));
        const ia = inside(fa, s.spansA);
        const ib = inside(fb, s.spansB);
        const both = [...ia].filter((k) => ib.has(k)).length;
        // a second method: the shingles as strings (shingles.ts), not fingerprints
        const sa = new Set(charShingles(normalize(a), 8));
        const sb = new Set(charShingles(normalize(b), 8));
        const common = [...sa].filter((x) => sb.has(x)).length;
        const union = sa.size + sb.size - common;
        expect(both).toBe(common);
        expect(s.resemblance).toBe(union === 0 ? null : common / union);
        expect(union === 0 ? null : both / (s.featuresA + s.featuresB - both)).toBe(s.resemblance);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same text for features numbered by large ids, by keys, or by small ids', () => {
    // occurrences k of A and B by hand: A = x y x z, B = z w x; shared {x, z}, RR 2 / 4
    const occ = (keys: string[], ids?: number[]) => ({ keys, starts: Uint32Array.from(keys, (_, i) => 2 * i), ends: Uint32Array.from(keys, (_, i) => 2 * i + 3), ...(ids ? { ids: Uint32Array.from(ids) } : {}) });
    const big = { x: 4e9, y: 3e9, z: 2 ** 31, w: 7 };
    const small = { x: 0, y: 1, z: 2, w: 3 };
    const [ka, kb] = [['x', 'y', 'x', 'z'], ['z', 'w', 'x']] as const;
    const texts = [big, small].map((n) => sharedText(occ([...ka], ka.map((k) => n[k])), occ([...kb], kb.map((k) => n[k]))));
    const byKeys = sharedText(occ([...ka]), occ([...kb]));
    for (const t of texts) expect(t).toEqual(byKeys);
    expect([byKeys.shared, byKeys.resemblance]).toEqual([2, 0.5]);
    // A: x [0,3) and x [4,7) and z [6,9) merge into [4, 9) after [0, 3); B: z [0, 3), x [4, 7)
    expect(byKeys.spansA).toEqual([{ start: 0, end: 3, occurrences: 1 }, { start: 4, end: 9, occurrences: 2 }]);
    expect(byKeys.spansB).toEqual([{ start: 0, end: 3, occurrences: 1 }, { start: 4, end: 7, occurrences: 1 }]);
  });
});
