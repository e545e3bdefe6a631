/** Figures rounded for people (summaries and reports; the CSV and JSON files keep every digit). */

/**
 * An integer with its thousands separated by commas, as `toLocaleString('en-US')` writes it,
 * without ICU's number formatter, whose first use costs 20 to 30 ms (at the end of every run).
 */
export function grouped(n: number): string {
  if (!Number.isSafeInteger(n) || Object.is(n, -0)) return n.toLocaleString('en-US');
  const digits = String(Math.abs(n));
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return n < 0 ? `-${out}` : out;
}

/** Three significant figures: 15.0, 4.56, 0.0812; integers of four digits or more as they are. */
export function sig3(x: number): string {
  if (x === 0 || !Number.isFinite(x)) return String(x);
  if (Math.abs(x) >= 1000) return grouped(Math.round(x));
  return Number(x.toPrecision(3)).toString();
}

/** Seconds with three significant figures: `15.0 s`, `0.812 s`. */
export function seconds(x: number): string {
  return `${x >= 1000 ? sig3(x) : x.toPrecision(3)} s`;
}

/** Dollars to the cent from a cent up, below that in scientific notation with two figures: `$1.23`, `$7.4e-5`. */
export function usd(x: number): string {
  if (x === 0) return '$0';
  if (Math.abs(x) >= 0.01) return `$${x.toFixed(2)}`;
  const [m, e] = x.toExponential(1).split('e') as [string, string];
  return `$${m}e${e.startsWith('+') ? e.slice(1) : e}`;
}
