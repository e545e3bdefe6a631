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

/**
 * The stored values a variant computed itself, sorted. In a run of several variants the first
 * that needs a value computes it and the others reuse it, so a variant resumed from a checkpoint
 * leaves that work to the next one: its time is then not the same kind of sample.
 */
export function computedValues(v: Pick<VariantRecord, 'backend_extra'>): string[] {
  const r = v.backend_extra?.['computed'];
  return Array.isArray(r) ? r.filter((x): x is string => typeof x === 'string').sort() : [];
}

/** What a variant did of the shared work, as `bench check` compares it. */
export interface VariantWork {
  readonly replayed: readonly string[];
  readonly computed: readonly string[];
}

export function workOf(v: Pick<VariantRecord, 'backend_extra'>): VariantWork {
  return { replayed: replayedValues(v), computed: computedValues(v) };
}

export function sameWork(a: VariantWork, b: VariantWork): boolean {
  return JSON.stringify(a.replayed) === JSON.stringify(b.replayed) && JSON.stringify(a.computed) === JSON.stringify(b.computed);
}

/** `replayed a; computed b`, or `neither replayed nor computed a stored value`, for a message. */
export function describeWork(w: VariantWork): string {
  const parts = [...(w.replayed.length > 0 ? [`replayed ${w.replayed.join(', ')}`] : []), ...(w.computed.length > 0 ? [`computed ${w.computed.join(', ')}`] : [])];
  return parts.length > 0 ? parts.join('; ') : 'neither replayed nor computed a stored value';
}
