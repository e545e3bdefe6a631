/**
 * The join's arithmetic. Expected values are worked by hand from the definitions (J = o / (a + b − o))
 * or enumerated: the smallest o for which the double predicate holds, found by trying every o.
 */
import { describe, expect, it } from 'vitest';
import {
  indexPrefix,
  minOverlap,
  minPartnerSize,
  positionBound,
  probePrefix,
  qualifies,
} from '../../../algorithms/ppjoin/bounds.ts';

const thresholds = [0.05, 0.1, 0.2, 0.25, 0.3, 1 / 3, 0.4, 0.5, 0.6, 2 / 3, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 0.99, 1];

describe('PPJoin bounds', () => {
  it('match hand-worked values, including where the closed forms go wrong in doubles', () => {
    // In doubles 0.8/1.8 · 63 is 28.000000000000004: the paper's α = ⌈t/(1+t)·(a+b)⌉ says 29 for
    // sizes 29 and 34, but 28 common tokens give J = 28/35 = 0.8, which the join must report at t = 0.8.
    expect(Math.ceil((0.8 / 1.8) * 63)).toBe(29);
    expect(minOverlap(29, 34, 0.8)).toBe(28);
    expect(qualifies(28, 29, 34, 0.8)).toBe(true);
    // Likewise 0.55 · 100 is 55.00000000000001: ⌈t·n⌉ says 56, but 55 of 100 tokens is J = 0.55.
    expect(Math.ceil(0.55 * 100)).toBe(56);
    expect(minPartnerSize(100, 0.55)).toBe(55);
    // sizes 8 and 9 with 7 in common: J = 7/10
    expect(minOverlap(8, 9, 0.7)).toBe(7);
    // t = 0.8, n = 10: partners of size >= 8; α(10, 8) = ⌈0.8/1.8 · 18⌉ = 8, probe prefix 10 − 8 + 1 = 3;
    // α(10, 10) = ⌈0.8/1.8 · 20⌉ = ⌈8.89⌉ = 9 (9/11 = 0.82, 8/12 = 0.67), index prefix 10 − 9 + 1 = 2.
    expect(minPartnerSize(10, 0.8)).toBe(8);
    expect(minOverlap(10, 8, 0.8)).toBe(8);
    expect(probePrefix(10, 0.8)).toBe(3);
    expect(minOverlap(10, 10, 0.8)).toBe(9);
    expect(indexPrefix(10, 0.8)).toBe(2);
    // t = 0.5, n = 100: partners >= 50, α(100, 50) = 50, probe 51; α(100, 100) = ⌈66.7⌉ = 67, index 34.
    expect(probePrefix(100, 0.5)).toBe(51);
    expect(indexPrefix(100, 0.5)).toBe(34);
    // t = 1: only equal sets; one token of prefix is enough.
    expect(probePrefix(57, 1)).toBe(1);
    expect(indexPrefix(57, 1)).toBe(1);
    // sizes too far apart: no overlap is enough
    expect(minOverlap(3, 10, 0.5)).toBe(4);
    // position filter: 2 common before, at positions 4 of 10 and 6 of 9: 2 + 1 + min(5, 2) = 5
    expect(positionBound(2, 4, 10, 6, 9)).toBe(5);
  });

  it('α(a, b) is the smallest overlap that qualifies, for every size up to 80 and many t', () => {
    const wrong: string[] = [];
    for (const t of thresholds) {
      for (let a = 1; a <= 80; a++) {
        for (let b = 1; b <= 80; b++) {
          let expected = Math.min(a, b) + 1;
          for (let o = 1; o <= Math.min(a, b); o++) {
            if (o / (a + b - o) >= t) {
              expected = o;
              break;
            }
          }
          if (minOverlap(a, b, t) !== expected) wrong.push(`t=${t} a=${a} b=${b}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('every qualifying pair passes the length filter and overlaps within both prefixes', () => {
    // The prefix filtering principle needs o >= |x| − probePrefix(|x|) + 1 for the larger set x
    // and o >= |y| − indexPrefix(|y|) + 1 for the smaller y.
    const wrong: string[] = [];
    for (const t of thresholds) {
      for (let nx = 1; nx <= 120; nx++) {
        for (let ny = 1; ny <= nx; ny++) {
          // the smallest qualifying overlap is the binding one
          for (let o = 1; o <= ny; o++) {
            if (o / (nx + ny - o) < t) continue;
            if (ny < minPartnerSize(nx, t) || o < nx - probePrefix(nx, t) + 1 || o < ny - indexPrefix(ny, t) + 1) {
              wrong.push(`t=${t} nx=${nx} ny=${ny} o=${o}`);
            }
            break;
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('prefixes are as short as the principle allows (a qualifying pair needs every token of them)', () => {
    for (const t of [0.5, 0.7, 0.8, 0.9]) {
      for (let n = 1; n <= 120; n++) {
        // a partner of the smallest size with the smallest α: o = n − probePrefix + 1 qualifies
        const s = minPartnerSize(n, t);
        expect(qualifies(n - probePrefix(n, t) + 1, n, s, t)).toBe(true);
        expect(qualifies(n - indexPrefix(n, t) + 1, n, n, t)).toBe(true);
      }
    }
  });
});
