/** Figures rounded for people (summaries and reports; the CSV and JSON files keep every digit). */

/** Three significant figures: 15.0, 4.56, 0.0812; integers of four digits or more as they are. */
export function sig3(x: number): string {
  if (x === 0 || !Number.isFinite(x)) return String(x);
  if (Math.abs(x) >= 1000) return Math.round(x).toLocaleString('en-US');
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
