/**
 * A larger collection made from the bundled corpus, for benchmarks that need more documents than
 * it has: the corpus's texts first, then copies of them in turn, each with a share of its words
 * (uniform in [0, `maxEditRate`)) replaced by random ones, like the mirrored and lightly edited
 * pages of a crawl. Seeded, so every run benchmarks the same documents.
 */
import { generator } from '../harness/synth/random.ts';

export function syntheticCorpus(texts: readonly string[], documents: number, seed = 1, maxEditRate = 0.03): string[] {
  const random = generator(seed);
  const out: string[] = [];
  for (let i = 0; i < documents; i++) {
    const source = texts[i % texts.length] as string;
    if (i < texts.length) {
      out.push(source);
      continue;
    }
    const words = source.split(/\s+/);
    const rate = random() * maxEditRate;
    for (let k = 0; k < words.length; k++) if (random() < rate) words[k] = `x${Math.floor(random() * 1e6).toString(36)}`;
    out.push(words.join(' '));
  }
  return out;
}
