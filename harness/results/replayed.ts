/**
 * What a variant took from an earlier run instead of computing it (stored values: fingerprints,
 * entry orders), as its run.json records it. Its runtime leaves that work out, so two runs of a
 * variant are timed alike only when they replayed the same values.
 */
import type { VariantRecord } from './types.ts';

/** The values a variant replayed, sorted; empty when it computed everything it used. */
export function replayedValues(v: Pick<VariantRecord, 'backend_extra'>): string[] {
  const r = v.backend_extra?.['replayed'];
  return Array.isArray(r) ? r.filter((x): x is string => typeof x === 'string').sort() : [];
}

/** `replayed a, b` or `computed everything`, for a message. */
export function describeWork(replayed: readonly string[]): string {
  return replayed.length > 0 ? `replayed ${replayed.join(', ')}` : 'computed everything it used';
}
