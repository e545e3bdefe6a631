import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../../algorithms/text/sentences.ts';
import { normalize } from '../../../algorithms/text/normalize.ts';
import { synthPartial } from '../../../harness/synth/partial.ts';

const corpus = [
  { id: 'a', text: 'Alpha one is here. Alpha two follows it. Alpha three ends it.\n> Alpha four is quoted\n> over two lines. Alpha five.' },
  { id: 'b', text: 'Beta one starts. Beta two goes on.' },
  { id: 'c', text: 'Gamma one is short. Gamma two as well. Gamma three too.' },
  { id: 'd', text: 'Delta one shares. Alpha one is here.' },
  { id: 'e', text: '... --- !!!' },
  { id: 'f', text: 'Epsilon one. Epsilon two words here.' },
];
const options = { plants: 2, documents: 10, minRun: 2, maxRun: 3, editRate: 0, minWords: 3 };

describe('synth partial', () => {
  it('is deterministic from the seed, and another seed plants elsewhere', () => {
    const one = synthPartial(corpus, { ...options, seed: 5 });
    expect(synthPartial(corpus, { ...options, seed: 5 })).toEqual(one);
    const others = [6, 7, 8, 9].map((seed) => JSON.stringify(synthPartial(corpus, { ...options, seed }).oracle));
    expect(others.some((o) => o !== JSON.stringify(one.oracle))).toBe(true);
  });

  it('keeps a base whose distinctive sentences are unique, and counts what it leaves out', () => {
    for (const seed of [1, 2, 3, 4]) {
      const r = synthPartial(corpus, { ...options, seed });
      // "d" shares "Alpha one is here." (4 words) with "a": one of them is left out; "e" has no sentence
      expect(r.withoutSentences).toBe(1);
      expect(r.sharing).toBe(1);
      expect(r.docs.map((d) => d.id).filter((id) => id === 'a' || id === 'd')).toHaveLength(1);
    }
  });

  it('copies whole sentences: the oracle ranges hold the same sentences in both documents', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const r = synthPartial(corpus, { ...options, seed });
      expect(r.oracle.length).toBe(2);
      const text = (id: string): string => (r.docs.find((d) => d.id === id) ?? { text: '' }).text;
      for (const o of r.oracle) {
        const inRange = (t: string, s: number, e: number) => splitSentences(t).filter((x) => x.start >= s && x.end <= e).map((x) => normalize(t.slice(x.start, x.end)));
        const a = inRange(text(o.a), o.aStart, o.aEnd);
        const b = inRange(text(o.b), o.bStart, o.bEnd);
        expect(a).toHaveLength(o.sentences);
        expect(b).toEqual(a);
        // the host's sentences are split so that the run is sentences of its own
        expect(splitSentences(text(o.b)).some((x) => x.start === o.bStart)).toBe(true);
        expect(splitSentences(text(o.b)).some((x) => x.end === o.bEnd)).toBe(true);
      }
    }
  });

  it('an edit rate of 1 changes one word in every copied sentence', () => {
    const r = synthPartial(corpus, { ...options, editRate: 1, seed: 3 });
    const text = (id: string): string => (r.docs.find((d) => d.id === id) ?? { text: '' }).text;
    let total = 0;
    for (const o of r.oracle) {
      const a = normalize(text(o.a).slice(o.aStart, o.aEnd)).split(' ');
      const b = normalize(text(o.b).slice(o.bStart, o.bEnd)).split(' ');
      // a word for a word: same length, at most one difference a sentence (none if the donor word is the same)
      expect(b).toHaveLength(a.length);
      const changed = a.filter((w, i) => b[i] !== w).length;
      expect(changed).toBeLessThanOrEqual(o.sentences);
      total += changed;
    }
    expect(total).toBeGreaterThan(0);
  });

  it('refuses a run range that cannot be', () => {
    expect(() => synthPartial(corpus, { ...options, minRun: 4, maxRun: 3, seed: 1 })).toThrow(/min-run <= max-run/);
  });
});
