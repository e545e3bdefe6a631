/**
 * Sweeps (DESIGN.md "Experiment config"): in a run's params, a YAML list where the
 * adapter's schema wants a single value lists the values to try. A run expands into the
 * cross product of its sweeps, in the document order of the swept fields, each variant
 * named `run/k=v[,k2=v2]` so that names stay stable across edits of other runs.
 */
import { isMap, isScalar, isSeq } from 'yaml';
import { formatPath } from './issues.ts';
import { childSchema, discriminatorOf, isScalarSchema, objectView, type Path, type Schema } from './zod-walk.ts';

export type SweepValue = string | number | boolean;

export interface Sweep {
  /** Where the list sits within the params. */
  readonly path: Path;
  /** The name's `k`: the field's key, or the `method` of the object it sits in. */
  readonly label: string;
  /** The values, with the offset of each in the YAML source (for error positions). */
  readonly values: readonly { readonly value: SweepValue; readonly offset: number }[];
}

export interface SweepProblem {
  readonly path: Path;
  readonly offset: number;
  readonly problem: string;
}

export interface SweepScan {
  readonly sweeps: readonly Sweep[];
  readonly problems: readonly SweepProblem[];
}

function offsetOf(node: unknown): number {
  return (node as { range?: [number, number, number] }).range?.[0] ?? 0;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/**
 * Finds the sweeps in a params node. `data` is the node as plain JS: discriminated unions
 * are resolved by the discriminator value written in it.
 */
export function findSweeps(node: unknown, schema: Schema, data: unknown): SweepScan {
  const sweeps: Sweep[] = [];
  const problems: SweepProblem[] = [];

  const sweepOf = (seq: { items: unknown[] }, path: Path, label: string): void => {
    if (seq.items.length === 0) {
      problems.push({ path, offset: offsetOf(seq), problem: 'an empty list sweeps nothing: give at least one value' });
      return;
    }
    const values: { value: SweepValue; offset: number }[] = [];
    for (const item of seq.items) {
      const v: unknown = isScalar(item) ? item.value : undefined;
      if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') {
        values.push({ value: v, offset: offsetOf(item) });
      } else {
        const what = v === null ? 'null' : 'a list or mapping';
        problems.push({ path, offset: offsetOf(item), problem: `a sweep lists strings, numbers or booleans, not ${what}` });
      }
    }
    if (values.length === seq.items.length) sweeps.push({ path, label, values });
  };

  const visit = (n: unknown, x: unknown, s: Schema, path: Path, method: string | undefined): void => {
    if (isSeq(n)) {
      if (isScalarSchema(s)) {
        const key = path[path.length - 1];
        sweepOf(n, path, method ?? (typeof key === 'string' ? key : formatPath(path)));
        return;
      }
      const items = Array.isArray(x) ? x : [];
      n.items.forEach((item, i) => {
        const el = childSchema(s, x, i);
        if (el !== undefined) visit(item, items[i], el, [...path, i], undefined);
      });
      return;
    }
    if (!isMap(n) || !isRecord(x)) return;
    const disc = discriminatorOf(s);
    if (disc !== undefined && Array.isArray(x[disc])) {
      const tag = n.items.find((p) => isScalar(p.key) && p.key.value === disc);
      problems.push({
        path: [...path, disc],
        offset: offsetOf(tag?.value ?? n),
        problem: `${disc} cannot be swept: write one run per ${disc}`,
      });
      return;
    }
    const view = objectView(s, x);
    const inMethod = view?.discriminator?.key === 'method' ? String(view.discriminator.value) : undefined;
    for (const pair of n.items) {
      const key: unknown = isScalar(pair.key) ? pair.key.value : undefined;
      if (typeof key !== 'string') continue;
      const c = childSchema(s, x, key);
      // Unknown keys are left for validation to report.
      if (c !== undefined) visit(pair.value, x[key], c, [...path, key], inMethod);
    }
  };

  visit(node, data, schema, [], undefined);
  return { sweeps, problems };
}

/** The `k` of each sweep in names: its label, or its dotted path where two labels collide. */
export function sweepLabels(sweeps: readonly Sweep[]): string[] {
  const count = new Map<string, number>();
  for (const s of sweeps) count.set(s.label, (count.get(s.label) ?? 0) + 1);
  return sweeps.map((s) => ((count.get(s.label) ?? 0) > 1 ? formatPath(s.path) : s.label));
}

export interface SweepPoint {
  readonly name: string;
  /** Dotted path within the params → the value of this point. */
  readonly swept: Record<string, SweepValue>;
  /** The params with every sweep replaced by this point's value. */
  readonly params: unknown;
  /** Index into each sweep's values. */
  readonly choice: readonly number[];
}

function setAt(target: unknown, path: Path, value: unknown): void {
  let x = target as Record<string | number, unknown>;
  for (const seg of path.slice(0, -1)) x = x[seg] as Record<string | number, unknown>;
  x[path[path.length - 1] as string | number] = value;
}

/** The cross product, first swept field outermost; a run without sweeps is one point named `base`. */
export function expandSweeps(base: string, params: unknown, sweeps: readonly Sweep[]): SweepPoint[] {
  const labels = sweepLabels(sweeps);
  const total = sweeps.reduce((n, s) => n * s.values.length, 1);
  const points: SweepPoint[] = [];
  for (let index = 0; index < total; index++) {
    const choice: number[] = new Array<number>(sweeps.length).fill(0);
    let rest = index;
    for (let j = sweeps.length - 1; j >= 0; j--) {
      const n = (sweeps[j] as Sweep).values.length;
      choice[j] = rest % n;
      rest = Math.floor(rest / n);
    }
    const copy: unknown = structuredClone(params);
    const swept: Record<string, SweepValue> = {};
    const parts: string[] = [];
    sweeps.forEach((s, j) => {
      const { value } = s.values[choice[j] as number] as { value: SweepValue };
      setAt(copy, s.path, value);
      swept[formatPath(s.path)] = value;
      parts.push(`${labels[j]}=${String(value)}`);
    });
    points.push({ name: parts.length === 0 ? base : `${base}/${parts.join(',')}`, swept, params: copy, choice });
  }
  return points;
}
