/**
 * Sweeps (docs/design.md §7.3): in a run's params, a YAML list where the
 * adapter's schema wants a single value lists the values to try. A run expands into the
 * cross product of its sweeps, in the document order of the swept fields, each variant
 * named `run/k=v[,k2=v2]` so that names stay stable across edits of other runs.
 */
import { createHash } from 'node:crypto';
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

/**
 * The name of a run without sweeps: `base/` and the parameters that set it apart from the
 * adapter's defaults, labelled as sweeps are (`broder/sct=70`, `broder/mod=64`), so that two
 * such runs collide only when they are the same run. A parameter sets the run apart when the
 * schema, given the params without it, does not give it back (it is required, or its value is
 * not the default); a `method` is left out when the fields it labels are named. A non-scalar
 * value (a list of size groups) is named by a short hash of its JSON.
 */
export function distinguishingName(base: string, params: unknown, schema: { safeParse(x: unknown): { success: boolean; data?: unknown } }): string {
  const found: Sweep[] = [];
  const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);
  const givesBack = (path: Path, value: unknown): boolean => {
    const without = structuredClone(params) as Record<string | number, unknown>;
    let x = without;
    for (const seg of path.slice(0, -1)) x = x[seg] as Record<string | number, unknown>;
    delete x[path[path.length - 1] as string | number];
    const r = schema.safeParse(without);
    return r.success && same(valueAt(r.data, path), value);
  };
  const walk = (x: unknown, path: Path, method: string | undefined): void => {
    if (isRecord(x) && !(path.length > 0 && givesBack(path, x))) {
      const m = typeof x.method === 'string' ? x.method : undefined;
      const before = found.length;
      for (const [k, v] of Object.entries(x)) if (!(k === 'method' && m !== undefined)) walk(v, [...path, k], m ?? method);
      if (m !== undefined && found.length === before && !givesBack([...path, 'method'], m)) {
        found.push(leaf([...path, 'method'], path.length > 0 ? String(path[path.length - 1]) : 'method', m));
      }
      return;
    }
    if (isRecord(x) || givesBack(path, x)) return;
    const key = path[path.length - 1];
    found.push(leaf(path, method ?? (typeof key === 'string' ? key : formatPath(path)), x));
  };
  walk(params, [], undefined);
  if (found.length === 0) return base;
  const labels = sweepLabels(found);
  return `${base}/${found.map((s, i) => `${labels[i]}=${String(s.values[0]?.value)}`).join(',')}`;
}

function valueAt(x: unknown, path: Path): unknown {
  let v = x;
  for (const seg of path) v = isRecord(v) || Array.isArray(v) ? (v as Record<string | number, unknown>)[seg] : undefined;
  return v;
}

function leaf(path: Path, label: string, value: unknown): Sweep {
  const shown: SweepValue =
    typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
      ? value
      : `h${createHash('sha256').update(JSON.stringify(value) ?? 'null').digest('hex').slice(0, 8)}`;
  return { path, label, values: [{ value: shown, offset: 0 }] };
}
