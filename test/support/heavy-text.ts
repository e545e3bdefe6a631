/**
 * Small corpora with heavy shared text, and every pair's RR from the definition: the brute
 * force the prefix joins (in memory and out of core) are checked against.
 */
import { normalize } from '../../algorithms/text/normalize.ts';
import { charShingles } from '../../algorithms/text/shingles.ts';

export const SHINGLE = { unit: 'char', size: 8, start: 'word' } as const;

/** A small seeded generator (mulberry32): the corpora are the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * Documents from a few words with heavy shared text: a boilerplate block most documents carry,
 * exact copies, edited copies, short and empty documents.
 */
export function corpus(seed: number, n: number): string[] {
  const rnd = random(seed);
  const words = ['ab', 'cd', 'ef', 'gh', 'ij', 'kl', 'mn', 'op', 'qr', 'st', 'uv', 'wx'];
  const pick = (): string => words[Math.floor(rnd() * words.length)] as string;
  const walk = (len: number): string => Array.from({ length: len }, pick).join(' ');
  const boiler = walk(12);
  const docs: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.1 || docs.length === 0) docs.push(walk(Math.floor(rnd() * 30)));
    else if (r < 0.2) docs.push(docs[Math.floor(rnd() * docs.length)] as string);
    else if (r < 0.35) {
      const src = (docs[Math.floor(rnd() * docs.length)] as string).split(' ');
      for (let k = 0; k < 3; k++) src[Math.floor(rnd() * src.length)] = pick();
      docs.push(src.join(' '));
    } else if (r < 0.4) docs.push(['', 'ab', 'x'][Math.floor(rnd() * 3)] as string);
    else docs.push(`${rnd() < 0.7 ? boiler : ''} ${walk(Math.floor(rnd() * 25))} ${rnd() < 0.5 ? boiler : ''}`);
  }
  return docs;
}

/** Every pair's RR from the definition: sets of shingle strings, |A ∩ B| / (|A| + |B| − |A ∩ B|). */
export function bruteForce(texts: string[]): { a: number; b: number; rr: number }[] {
  const sets = texts.map((t) => new Set(charShingles(normalize(t), SHINGLE.size)));
  const out: { a: number; b: number; rr: number }[] = [];
  for (let a = 0; a < sets.length; a++) {
    for (let b = a + 1; b < sets.length; b++) {
      const [x, y] = [sets[a] as Set<string>, sets[b] as Set<string>];
      let c = 0;
      for (const s of x) if (y.has(s)) c++;
      out.push({ a, b, rr: c === 0 ? 0 : c / (x.size + y.size - c) });
    }
  }
  return out;
}
