/**
 * A toy span detector for the span contract: two documents that share a line (after trimming,
 * at least `min_chars` long) get a span per shared line, in characters and in line units, and a
 * pair scored by the share of the shorter document's lines that are shared.
 *
 *   lines  map: (doc, text) → (line, "doc lineIndex start end lines") per line; reduce: for each
 *          pair of documents holding the line → span record ("a:b", "aStart aEnd bStart bEnd ua ub 1")
 *   pairs  map: span records → ("a:b", "1 linesA linesB"); reduce: shared / min(lines) as the score
 */
import { z } from 'zod';
import { DOCUMENTS, encodeSpanValue, formatScore, pairKey, type AlgorithmAdapter, type Plan } from '../../../contract/index.ts';

export const sharedLinesParams = z.object({ min_chars: z.number().int().min(1).default(8) }).strict();
export type SharedLinesParams = z.output<typeof sharedLinesParams>;

export interface Line {
  readonly index: number;
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export function linesOf(text: string): Line[] {
  const out: Line[] = [];
  let start = 0;
  text.split('\n').forEach((raw, index) => {
    const lead = raw.length - raw.trimStart().length;
    const t = raw.trim();
    out.push({ index, start: start + lead, end: start + lead + t.length, text: t });
    start += raw.length + 1;
  });
  return out;
}

export function planSharedLines(params: SharedLinesParams): Plan {
  return {
    jobs: [
      {
        name: 'shared-lines',
        description: 'index lines; every pair of documents sharing a line gets a span',
        inputs: [DOCUMENTS],
        output: 'spans',
        mapper: (ctx) => ({
          map(doc, text) {
            const lines = linesOf(text);
            for (const l of lines) if (l.text.length >= params.min_chars) ctx.emit(l.text, `${doc} ${l.index} ${l.start} ${l.end} ${lines.length}`);
          },
        }),
        reducer: (ctx) => ({
          reduce(_line, values) {
            const at = values.map((v) => v.split(' ').map(Number) as [number, number, number, number, number]).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
            for (let i = 0; i < at.length; i++) {
              for (let j = i + 1; j < at.length; j++) {
                const [a, ua, as, ae, na] = at[i] as [number, number, number, number, number];
                const [b, ub, bs, be, nb] = at[j] as [number, number, number, number, number];
                if (a === b) continue;
                ctx.emit(pairKey(a, b), `${encodeSpanValue({ a, b, aStart: as, aEnd: ae, bStart: bs, bEnd: be, units: { aStart: ua, bStart: ub, length: 1 } })} ${na} ${nb}`);
              }
            }
          },
        }),
      },
      {
        name: 'span-records',
        description: 'the span records, without the line counts',
        inputs: ['spans'],
        output: 'span-records',
        mapper: (ctx) => ({ map: (k, v) => ctx.emit(k, v.split(' ').slice(0, 7).join(' ')) }),
      },
      {
        name: 'pair-scores',
        description: 'shared lines / lines of the shorter document',
        inputs: ['spans'],
        output: 'pairs',
        mapper: (ctx) => ({
          map(k, v) {
            const f = v.split(' ');
            ctx.emit(k, `${f[7]} ${f[8]}`);
          },
        }),
        reducer: (ctx) => ({
          reduce(k, values) {
            const [na, nb] = (values[0] as string).split(' ').map(Number) as [number, number];
            ctx.emit(k, formatScore(Math.min(1, values.length / Math.min(na, nb))));
          },
        }),
      },
    ],
    output: {
      pairs: 'pairs',
      spans: 'span-records',
      score: { kind: 'other', why: 'the share of lines shared, not the RR' },
      decisions: { kind: 'every-reported-pair' },
    },
  };
}

export const sharedLines: AlgorithmAdapter<typeof sharedLinesParams> = {
  name: 'shared-lines',
  description: 'test detector: documents sharing lines, with spans',
  citation: 'none',
  params: sharedLinesParams,
  plan: planSharedLines,
};
