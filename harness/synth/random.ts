/**
 * Seeded random numbers for the corpus builders (`bench synth`): everything they choose derives
 * from the seed, so the same seed gives the same corpus on every machine.
 */

/** mulberry32: a small seeded generator of floats in [0, 1). */
export function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A generator of its own for item `index` of stream `stream`: items can be generated in any
 * order, or again, and come out the same (a document's text is a function of the seed and its index).
 */
export function itemGenerator(seed: number, stream: number, index: number): () => number {
  // murmur3's finalizer over the three numbers: nearby indexes get unrelated states.
  let h = (seed ^ Math.imul(stream + 1, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  h ^= h >>> 16;
  return generator(h);
}

/** An integer in [0, n). */
export function below(random: () => number, n: number): number {
  return Math.floor(random() * n);
}

/** Shuffles `items` in place (Fisher–Yates). */
export function shuffle<T extends { length: number; [i: number]: unknown }>(items: T, random: () => number): T {
  for (let i = items.length - 1; i > 0; i--) {
    const j = below(random, i + 1);
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
  return items;
}
