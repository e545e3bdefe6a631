/**
 * The planted copies of a synthetic corpus as a second truth (`evaluate.planted`: the
 * `oracle-pairs.csv` that `bench synth scale` writes: `doc_a, doc_b, edit_rate_a, edit_rate_b`,
 * a source's rate 0). A pair is a near-duplicate by construction; how many of them a variant
 * decides is its recall of the planted copies, reported in all and per edit rate, the rate of a
 * pair being the sum of its two documents' (a copy at 0.1 and its source: 0.1; two copies at
 * 0.05 and 0.1 of one source: 0.15, about the share of words edited between them).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { DocumentSet, PairList } from '../../contract/index.ts';
import { clip, DataError, UserError } from '../errors.ts';

export interface PlantedRate {
  /** the pair's edit rate (the two documents' summed) */
  readonly rate: number;
  /** planted pairs of this rate with both documents in the corpus */
  readonly pairs: number;
  /** of them, those the variant decided are near-duplicates */
  readonly found: number;
}

export interface PlantedOracle {
  /** `a:b` (document indexes, a < b) → the pair's edit rate */
  readonly rates: ReadonlyMap<string, number>;
  /** planted pairs naming a document the corpus does not have (a subset, a limit): left out, and said */
  readonly warning?: string;
  /** `planted_pairs` and `planted_recall` of a variant, and its recall per edit rate */
  measure(pairs: PairList, decided: (i: number) => boolean): { readonly measures: Record<string, number | null>; readonly byRate: readonly PlantedRate[] };
}

const HEADER = ['doc_a', 'doc_b', 'edit_rate_a', 'edit_rate_b'];

/** Rates rounded as the file writes them, so that 0.1 + 0.05 and 0.15 are one group. */
const rateKey = (x: number): number => Math.round(x * 1e9) / 1e9;

export function loadPlantedOracle(file: string, docs: DocumentSet): PlantedOracle {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UserError(`${file}: cannot read the planted pairs (${(e as NodeJS.ErrnoException).code ?? String(e)})`);
  }
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true }) as string[][];
  } catch (e) {
    const err = e as { lines?: number; message?: string };
    throw new DataError(`${file}: line ${err.lines ?? '?'}: ${(err.message ?? String(e)).split('\n')[0]}`);
  }
  const [header, ...body] = rows;
  if (!header || header.join(',') !== HEADER.join(',')) {
    throw new DataError(`${file}: line 1: expected the header ${HEADER.join(',')} (bench synth scale's oracle-pairs.csv), got ${clip((header ?? []).join(','))}`);
  }
  const index = new Map(docs.ids.map((id, i) => [id, i]));
  const rates = new Map<string, number>();
  let missing = 0;
  body.forEach((row, i) => {
    const [a, b, ra, rb] = row;
    const rateA = Number(ra);
    const rateB = Number(rb);
    if (a === undefined || b === undefined || row.length !== 4 || !(rateA >= 0 && rateA < 1) || !(rateB >= 0 && rateB < 1) || a === b) {
      throw new DataError(`${file}: line ${i + 2}: expected two different document ids and two edit rates in [0, 1), got ${clip(row.join(','))}`);
    }
    const x = index.get(a);
    const y = index.get(b);
    if (x === undefined || y === undefined) {
      missing++;
      return;
    }
    rates.set(x < y ? `${x}:${y}` : `${y}:${x}`, rateKey(rateA + rateB));
  });
  const warning = missing > 0 ? `evaluate.planted: ${missing} of ${body.length} planted pairs name a document the corpus does not have (a subset or a limit): left out of the planted recall` : undefined;
  return {
    rates,
    ...(warning ? { warning } : {}),
    measure(pairs, decided) {
      const total = new Map<number, number>();
      for (const r of rates.values()) total.set(r, (total.get(r) ?? 0) + 1);
      const found = new Map<number, number>();
      for (let i = 0; i < pairs.a.length; i++) {
        if (!decided(i)) continue;
        const a = pairs.a[i] as number;
        const b = pairs.b[i] as number;
        const r = rates.get(a < b ? `${a}:${b}` : `${b}:${a}`);
        if (r !== undefined) found.set(r, (found.get(r) ?? 0) + 1);
      }
      const byRate = [...total].sort(([x], [y]) => x - y).map(([rate, n]) => ({ rate, pairs: n, found: found.get(rate) ?? 0 }));
      const all = byRate.reduce((s, r) => s + r.found, 0);
      return { measures: { planted_pairs: rates.size, planted_recall: rates.size === 0 ? null : all / rates.size }, byRate };
    },
  };
}
