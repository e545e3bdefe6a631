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

/** Dollars and cents, as people read a price: `$1.23`, `$1,234.50`, `$0.00`, and `under $0.01` for a local run's fraction of a cent. */
export function usd(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x < 0) return `-${usd(-x)}`;
  if (x === 0) return '$0.00';
  if (x < 0.005) return 'under $0.01';
  const cents = Math.round(x * 100);
  return `$${grouped(Math.floor(cents / 100))}.${String(cents % 100).padStart(2, '0')}`;
}

/**
 * A measure's value for a table cell: integers grouped (`28,744`), other numbers to three
 * significant figures without an exponent (`0.000123`, `0.957`, `15.0`), money by `usd`.
 */
export function human(x: number, unit?: 'usd'): string {
  if (unit === 'usd') return usd(x);
  if (Number.isInteger(x)) return grouped(x);
  if (!Number.isFinite(x)) return String(x);
  if (Math.abs(x) >= 1000) return grouped(Math.round(x));
  // toPrecision writes 1.23e-7 below 1e-6: fixed notation with as many decimals as three figures need.
  const decimals = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(x))));
  return x.toFixed(Math.min(decimals, 20));
}

/** A word as a POSIX shell reads it back unchanged (quoted unless it holds only characters no shell treats specially). */
export function shellWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** A command line a POSIX shell splits back into `argv`. */
export function shellLine(argv: readonly string[]): string {
  return argv.map(shellWord).join(' ');
}
