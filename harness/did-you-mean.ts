/**
 * "Did you mean" for names a user typed: config keys, enum values, EMR regions. One place, so
 * every message guesses the same way.
 */

/** Levenshtein distance (insertions, deletions, substitutions). */
export function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

function commonPrefix(a: string, b: string): number {
  let n = 0;
  while (n < a.length && n < b.length && a[n] === b[n]) n++;
  return n;
}

/**
 * The known word closest to `word`, if it is close enough to be a typo of it (`treshold`) or
 * another form of it (`evaluation` for `evaluate`: the same first six letters or more, most of
 * the shorter word); undefined otherwise.
 */
export function didYouMean(word: string, known: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const k of known) {
    const d = editDistance(w, k.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [k, d];
  }
  // A word rewritten from scratch ('x' for 'm') is not a typo of it.
  const close = bestDistance <= Math.min(2, Math.max(1, Math.floor(word.length / 3)));
  if (close && best !== undefined && bestDistance < Math.min(word.length, best.length)) return best;
  let stem: string | undefined;
  let stemLength = 0;
  for (const k of known) {
    const p = commonPrefix(w, k.toLowerCase());
    if (p >= 6 && p >= 0.75 * Math.min(w.length, k.length) && p > stemLength) [stem, stemLength] = [k, p];
  }
  return stem;
}

/** The closest known name within `maxDistance` edits, for names that are mostly typed by hand (regions). */
export function closestName(input: string, known: readonly string[], maxDistance = 3): string | undefined {
  let best: string | undefined;
  let bestD = maxDistance + 1;
  for (const k of known) {
    const d = editDistance(input.toLowerCase(), k);
    if (d < bestD) [best, bestD] = [k, d];
  }
  return best;
}
