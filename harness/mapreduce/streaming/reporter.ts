/**
 * Hadoop Streaming's stderr protocol: `reporter:counter:<group>,<name>,<amount>` adds to a
 * counter, `reporter:status:<message>` sets the task status; anything else is a log line.
 */
import type { Counters } from '../../../contract/index.ts';

export interface CounterLine {
  readonly group: string;
  readonly name: string;
  readonly amount: number;
}

const COUNTER = 'reporter:counter:';
const STATUS = 'reporter:status:';

/** A counter, `'status'` for a status line, undefined for a log line (or a malformed counter line). */
export function parseReporterLine(line: string): CounterLine | 'status' | undefined {
  if (line.startsWith(STATUS)) return 'status';
  if (!line.startsWith(COUNTER)) return undefined;
  const parts = line.slice(COUNTER.length).split(',');
  if (parts.length !== 3) return undefined;
  const [group, name, amountText] = parts as [string, string, string];
  if (!/^-?\d+$/.test(amountText)) return undefined;
  return { group, name, amount: Number(amountText) };
}

export function addCounterLines(into: Counters, lines: readonly CounterLine[]): void {
  for (const c of lines) {
    const g = (into[c.group] ??= {});
    g[c.name] = (g[c.name] ?? 0) + c.amount;
  }
}
