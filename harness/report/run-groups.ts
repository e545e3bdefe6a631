/**
 * Which variants of a run belong together on a chart. A run group is what one `runs:` entry of
 * the config expands into: the same algorithm, the same swept parameters and the same fixed
 * parameters. run.json does not record the entry index, so the group is recovered from those.
 */
import type { VariantRecord } from '../results/types.ts';

export type SweptValue = string | number | boolean;

export interface RunGroup {
  readonly label: string;
  readonly algorithm: string;
  readonly sweptKeys: readonly string[];
  readonly variants: readonly VariantRecord[];
}

export interface SweepLine {
  readonly label: string;
  /** variants in sweep order: ascending by the swept value */
  readonly variants: readonly VariantRecord[];
}

/** JSON with sorted keys and the swept dotted paths left out: equal for variants of one `runs:` entry. */
function fixedParamsKey(value: unknown, swept: ReadonlySet<string>, path = ''): string {
  if (Array.isArray(value)) return `[${value.map((v, i) => fixedParamsKey(v, swept, `${path}${path ? '.' : ''}${i}`)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([k]) => !swept.has(path ? `${path}.${k}` : k))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${fixedParamsKey(v, swept, path ? `${path}.${k}` : k)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'undefined';
}

/** Groups the non-ground-truth variants, in order of first appearance. */
export function runGroups(variants: readonly VariantRecord[]): RunGroup[] {
  const groups = new Map<string, { algorithm: string; sweptKeys: string[]; variants: VariantRecord[] }>();
  for (const v of variants) {
    if (v.ground_truth) continue;
    const sweptKeys = Object.keys(v.swept).sort();
    const key = `${v.algorithm}\u0000${sweptKeys.join('\u0001')}\u0000${fixedParamsKey(v.params, new Set(sweptKeys))}`;
    const g = groups.get(key);
    if (g) g.variants.push(v);
    else groups.set(key, { algorithm: v.algorithm, sweptKeys, variants: [v] });
  }
  const list = [...groups.values()];
  const base = list.map((g) => (g.sweptKeys.length ? `${g.algorithm} by ${g.sweptKeys.join(', ')}` : g.algorithm));
  return list.map((g, i) => {
    const label = base[i] ?? g.algorithm;
    const same = base.filter((b) => b === label).length;
    // Two entries sweeping the same parameter with different fixed parameters: number them in config order.
    const nth = base.slice(0, i + 1).filter((b) => b === label).length;
    return { ...g, label: same > 1 ? `${label} (${nth})` : label };
  });
}

/** Every swept parameter path, in order of first appearance. */
export function sweptParameters(variants: readonly VariantRecord[]): string[] {
  const seen: string[] = [];
  for (const v of variants) for (const k of Object.keys(v.swept)) if (!seen.includes(k)) seen.push(k);
  return seen;
}

function compareSwept(a: SweptValue | undefined, b: SweptValue | undefined): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

/**
 * The lines of a "measure against `param`" chart: one a group that sweeps `param`, split further
 * by the values of the group's other swept parameters (a cross-product sweep gives several).
 */
export function sweepLines(groups: readonly RunGroup[], param: string): SweepLine[] {
  const lines: SweepLine[] = [];
  for (const g of groups) {
    if (!g.sweptKeys.includes(param)) continue;
    const others = g.sweptKeys.filter((k) => k !== param);
    const byOthers = new Map<string, VariantRecord[]>();
    for (const v of g.variants) {
      const key = others.map((k) => `${k}=${String(v.swept[k])}`).join(', ');
      byOthers.set(key, [...(byOthers.get(key) ?? []), v]);
    }
    for (const [key, vs] of byOthers) {
      lines.push({
        label: key ? `${g.label} [${key}]` : g.label,
        variants: [...vs].sort((a, b) => compareSwept(a.swept[param], b.swept[param])),
      });
    }
  }
  return lines;
}
