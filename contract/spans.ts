/**
 * Spans: where two documents share text (partial duplicates, PDC-MR). A span says that the
 * characters [aStart, aEnd) of document a match [bStart, bEnd) of document b; a detector that
 * works in larger units (sentences) also gives the span in those units.
 *
 * Text encoding (the plan's spans dataset), one record a span:
 *   key   `a:b`
 *   value `aStart aEnd bStart bEnd` or `aStart aEnd bStart bEnd uaStart ubStart uLength`
 * all non-negative integers separated by single spaces, a < b.
 */

export interface SpanUnits {
  /** first unit (sentence) of the span in document a, 0-based */
  readonly aStart: number;
  /** first unit in document b */
  readonly bStart: number;
  /** number of units matched */
  readonly length: number;
}

export interface Span {
  readonly a: number;
  readonly b: number;
  /** character offsets (UTF-16 code units) into each document's text, end exclusive */
  readonly aStart: number;
  readonly aEnd: number;
  readonly bStart: number;
  readonly bEnd: number;
  readonly units?: SpanUnits;
}

export function encodeSpanValue(s: Span): string {
  const chars = `${s.aStart} ${s.aEnd} ${s.bStart} ${s.bEnd}`;
  return s.units ? `${chars} ${s.units.aStart} ${s.units.bStart} ${s.units.length}` : chars;
}

const SPAN_KEY = /^(\d+):(\d+)$/;
const SPAN_VALUE = /^(\d+) (\d+) (\d+) (\d+)(?: (\d+) (\d+) (\d+))?$/;

/** Collects span records; a malformed record throws naming `where` (a detector bug). */
export class SpanCollector {
  private readonly spans: Span[] = [];

  constructor(private readonly documents: number) {}

  add(key: string, value: string, where: () => string): void {
    const k = SPAN_KEY.exec(key);
    const v = SPAN_VALUE.exec(value);
    const a = k ? Number(k[1]) : NaN;
    const b = k ? Number(k[2]) : NaN;
    const n = v ? v.slice(1).map((x) => (x === undefined ? undefined : Number(x))) : [];
    const [aStart, aEnd, bStart, bEnd, ua, ub, ul] = n as [number, number, number, number, number?, number?, number?];
    if (!(a < b && b < this.documents) || !v || !(aStart <= aEnd && bStart <= bEnd)) {
      const shown = JSON.stringify(`${key}\t${value}`.slice(0, 80));
      throw new Error(`${where()}: not a span record "a:b<TAB>aStart aEnd bStart bEnd[ uaStart ubStart uLength]" with a < b < ${this.documents}: ${shown}`);
    }
    this.spans.push({ a, b, aStart, aEnd, bStart, bEnd, ...(ua === undefined ? {} : { units: { aStart: ua, bStart: ub as number, length: ul as number } }) });
  }

  result(): Span[] {
    return this.spans;
  }
}
