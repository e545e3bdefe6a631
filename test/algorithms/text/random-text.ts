/** Deterministic random text for property tests (a test helper, not a test file). */

/** mulberry32, the corpus builders' own seeded generator of floats in [0, 1). */
export { generator as mulberry32 } from '../../../harness/synth/random.ts';

/**
 * Mostly letters, with punctuation, white space, digits, Latin-1 and other scripts, marks,
 * astral characters and lone surrogates mixed in: `length` UTF-16 code units at most.
 */
export function randomText(random: () => number, length: number): string {
  const pools = [
    'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
    '     ,.;:!?-_()\'"\t\n\r',
    '0123456789',
    'àéîõüßÀÉÎÕÜÿµª²½×÷«»¡¿',
    'αβγΔΘЖжЯ中文ĳİΣ\u0301\u0308\u2014\u2026\u00a0\u3000',
    '\u{1D400}\u{1F600}\u{20000}',
    '\uD800\uDC00\uDBFF',
  ];
  const weights = [0.55, 0.2, 0.07, 0.08, 0.06, 0.02, 0.02];
  let text = '';
  while (text.length < length) {
    let r = random();
    let p = 0;
    while (p < pools.length - 1 && r >= weights[p]!) r -= weights[p++]!;
    const chars = [...pools[p]!];
    text += chars[Math.floor(random() * chars.length)]!;
  }
  return text;
}

/** Random normalized-looking text: lowercase ASCII words of 1..12 letters, single spaces. */
export function randomWords(random: () => number, count: number): string {
  const words: string[] = [];
  for (let k = 0; k < count; k++) {
    const len = 1 + Math.floor(random() * 12);
    let word = '';
    for (let i = 0; i < len; i++) word += String.fromCharCode(0x61 + Math.floor(random() * 26));
    words.push(word);
  }
  return words.join(' ');
}
