/**
 * The typed-array join (order.ts + join.ts) on integer token sets against brute force: every pair
 * with |x ∩ y| / |x ∪ y| >= t, counted with JavaScript Sets, for many t and every combination of
 * the five filters. Also what each filter buys: counters that can only shrink stage by stage, and
 * filters that do prune.
 */
import { describe, expect, it } from 'vitest';
import { joinRange, type JoinResult } from '../../../algorithms/ppjoin/join.ts';
import { buildIndex, processingOrder } from '../../../algorithms/ppjoin/order.ts';
import { rankTokens, signatures } from '../../../algorithms/ppjoin/tokens.ts';
import { mergeSlices, type DocumentFeatures } from '../../../algorithms/text/features.ts';
import type { JoinSettings } from '../../../algorithms/ppjoin/settings.ts';
import { allFilterSettings } from './support.ts';
import { mulberry32 } from '../text/random-text.ts';

/** Features of integer sets, as features.ts builds them from fingerprints (token v as fingerprint 0:v). */
function featuresOf(sets: readonly (readonly number[])[]): DocumentFeatures {
  const entries: [number, number][] = [];
  sets.forEach((s, d) => new Set(s).forEach((v) => entries.push([v, d])));
  entries.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  const keys = new Uint32Array(2 * entries.length);
  entries.forEach(([v], i) => (keys[2 * i + 1] = v));
  return mergeSlices([{ width: 2, firstDoc: 0, docs: sets.length, keys, owners: Uint32Array.from(entries.map((e) => e[1])) }]);
}

function settings(t: number, f: Record<string, boolean>, extra: Partial<JoinSettings> = {}): JoinSettings {
  return {
    t,
    length: f.length ?? true,
    prefix: f.prefix ?? true,
    position: f.position ?? true,
    suffix: f.suffix ?? false,
    signature: f.signature ?? true,
    suffixDepth: 2,
    signatureWords: 2,
    ...extra,
  };
}

function join(sets: readonly (readonly number[])[], s: JoinSettings, chunks = 1): { rows: string[]; counts: JoinResult['counts'] } {
  const f = featuresOf(sets);
  const ranked = rankTokens(f);
  const order = processingOrder(ranked);
  const { index } = buildIndex(ranked, order, s.signature ? signatures(f, s.signatureWords) : new Uint32Array(0), s);
  const rows: string[] = [];
  const counts = { prefixMatches: 0, afterPrefix: 0, afterPosition: 0, afterSuffix: 0, afterSignature: 0 };
  for (let c = 0; c < chunks; c++) {
    const from = Math.floor((c * sets.length) / chunks);
    const to = Math.floor(((c + 1) * sets.length) / chunks);
    const r = joinRange({ ...index, settings: s, from, to });
    for (let i = 0; i < r.a.length; i++) rows.push(`${r.a[i]} ${r.b[i]} ${r.score[i]}`);
    for (const k of Object.keys(counts) as (keyof typeof counts)[]) counts[k] += r.counts[k];
  }
  return { rows: rows.sort(), counts };
}

function brute(sets: readonly (readonly number[])[], t: number): string[] {
  const rows: string[] = [];
  for (let a = 0; a < sets.length; a++) {
    const A = new Set(sets[a]);
    for (let b = a + 1; b < sets.length; b++) {
      const B = new Set(sets[b]);
      if (A.size === 0 || B.size === 0) continue;
      let c = 0;
      for (const v of A) if (B.has(v)) c++;
      if (c / (A.size + B.size - c) >= t) rows.push(`${a} ${b} ${c / (A.size + B.size - c)}`);
    }
  }
  return rows.sort();
}

/** Families of sets around a few bases, skewed token frequencies, sizes 0 to 60. */
function randomFamilies(seed: number, families: number): number[][] {
  const random = mulberry32(seed);
  const token = (): number => Math.floor(300 * random() ** 2);
  const sets: number[][] = [];
  for (let f = 0; f < families; f++) {
    const base = Array.from({ length: Math.floor(random() * 60) }, token);
    sets.push(base);
    for (let v = Math.floor(random() * 5); v > 0; v--) sets.push(base.filter(() => random() < 0.9).concat(random() < 0.5 ? [token(), token()] : []));
  }
  return sets;
}

const thresholds = [0.1, 0.3, 0.5, 0.55, 0.7, 0.8, 0.9, 0.95, 1];

describe('PPJoin join over integer sets', () => {
  it('equals brute force for every filter combination and threshold', () => {
    const sets = randomFamilies(1, 40);
    for (const t of thresholds) {
      const expected = brute(sets, t);
      expect(expected.length).toBeGreaterThan(0);
      for (const f of allFilterSettings()) expect(join(sets, settings(t, f)).rows, `t=${t} ${JSON.stringify(f)}`).toEqual(expected);
    }
  });

  it('equals brute force on pairs sitting exactly at the threshold (J = 28/35 at t = 0.8, 7/10 at 0.7, 55/100 at 0.55)', () => {
    const run = (from: number, to: number): number[] => Array.from({ length: to - from }, (_, i) => from + i);
    // sizes 29 and 34 sharing 28; 8 and 9 sharing 7; 100 and 55 sharing 55
    const sets = [run(0, 29), run(1, 35), run(100, 108), run(101, 110), run(200, 300), run(200, 255)];
    expect(join(sets, settings(0.8, {})).rows).toEqual(['0 1 0.8']);
    expect(join(sets, settings(0.7, {})).rows).toEqual(['0 1 0.8', '2 3 0.7']);
    expect(join(sets, settings(0.55, {})).rows).toEqual(['0 1 0.8', '2 3 0.7', '4 5 0.55']);
    expect(brute(sets, 0.55)).toEqual(['0 1 0.8', '2 3 0.7', '4 5 0.55']);
  });

  it('gives the same pairs and counts however the probing documents are split', () => {
    const sets = randomFamilies(2, 60);
    for (const f of [{}, { suffix: true }, { prefix: false, length: false }] as Record<string, boolean>[]) {
      const one = join(sets, settings(0.6, f));
      expect(join(sets, settings(0.6, f), 7)).toEqual(one);
    }
  });

  it('counts fewer candidates at each stage, and each filter prunes some', () => {
    const sets = randomFamilies(3, 200);
    const t = 0.7;
    const none = join(sets, settings(t, { length: false, prefix: false, position: false, suffix: false, signature: false })).counts;
    const all = join(sets, settings(t, { suffix: true })).counts;
    for (const c of [none, all]) {
      expect(c.afterPrefix).toBeGreaterThanOrEqual(c.afterPosition);
      expect(c.afterPosition).toBeGreaterThanOrEqual(c.afterSuffix);
      expect(c.afterSuffix).toBeGreaterThanOrEqual(c.afterSignature);
    }
    // without any filter the candidates are all pairs sharing a token: count them directly
    let sharing = 0;
    for (let a = 0; a < sets.length; a++) {
      const A = new Set(sets[a]);
      for (let b = a + 1; b < sets.length; b++) if ((sets[b] as number[]).some((v) => A.has(v))) sharing++;
    }
    expect(none.afterSignature).toBe(sharing);
    const only = (f: Record<string, boolean>) =>
      join(sets, settings(t, { length: false, prefix: false, position: false, suffix: false, signature: false, ...f })).counts;
    expect(only({ length: true }).afterPrefix).toBeLessThan(sharing);
    expect(only({ prefix: true }).afterPrefix).toBeLessThan(sharing);
    expect(only({ position: true }).afterPosition).toBeLessThan(sharing);
    expect(only({ suffix: true }).afterSuffix).toBeLessThan(sharing);
    expect(only({ signature: true }).afterSignature).toBeLessThan(sharing);
    expect(all.afterSignature).toBeLessThan(none.afterSignature / 5);
  });

  it('handles empty sets and a corpus without pairs', () => {
    expect(join([[], [1, 2], [], [3]], settings(0.5, {})).rows).toEqual([]);
    expect(join([[1, 2, 3], [], [1, 2, 3]], settings(1, {})).rows).toEqual(['0 2 1']);
  });
});
