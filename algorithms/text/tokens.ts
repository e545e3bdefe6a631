/**
 * Words of a normalized text (see `normalize.ts`: words separated by single spaces).
 * Both functions treat any run of spaces as one separator and ignore leading and trailing
 * spaces, so they agree with each other even on text that is not quite normalized.
 */

const SPACE = 0x20;

/** The words of `normalized`, in order; [] for "". */
export function words(normalized: string): string[] {
  const starts = wordStarts(normalized);
  const result = new Array<string>(starts.length);
  for (let k = 0; k < starts.length; k++) {
    const start = starts[k]!;
    const end = normalized.indexOf(' ', start);
    result[k] = normalized.slice(start, end < 0 ? normalized.length : end);
  }
  return result;
}

/** Offsets (UTF-16 code units) of the first character of each word of `normalized`. */
export function wordStarts(normalized: string): Uint32Array {
  const len = normalized.length;
  let count = 0;
  let previous = SPACE;
  for (let i = 0; i < len; i++) {
    const c = normalized.charCodeAt(i);
    if (c !== SPACE && previous === SPACE) count++;
    previous = c;
  }
  const starts = new Uint32Array(count);
  let k = 0;
  previous = SPACE;
  for (let i = 0; i < len; i++) {
    const c = normalized.charCodeAt(i);
    if (c !== SPACE && previous === SPACE) starts[k++] = i;
    previous = c;
  }
  return starts;
}
