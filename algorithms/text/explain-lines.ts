/**
 * Small helpers the detectors' evidence (contract/explain.ts) is written with: one quoted
 * excerpt of a text that fits a line, and numbers as people read them.
 */

/** `text` with white space collapsed, quoted, cut with … to at most `max` columns. */
export function quoted(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const room = Math.max(3, max - 2);
  return `"${flat.length <= room ? flat : `${flat.slice(0, room - 1)}…`}"`;
}

/** A ratio with at most 4 significant digits, "–" for an undefined one. */
export function ratio(x: number | null): string {
  return x === null || !Number.isFinite(x) ? '–' : String(Number(x.toPrecision(4)));
}

/** A line cut to `width` columns. */
export function fit(line: string, width: number): string {
  return line.length <= width ? line : `${line.slice(0, width - 1)}…`;
}
