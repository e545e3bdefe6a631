/**
 * Walks a zod 4 schema alongside the data it will validate, to answer "what does the schema
 * want at this path?": the sweep finder asks whether a field is a scalar, the error messages
 * ask which keys an object knows. Unions are resolved the way zod itself would: by the
 * discriminator value present in the data.
 */
import type { z } from 'zod';

export type Schema = z.core.$ZodType;
export type Path = readonly (string | number)[];

type Def = z.core.$ZodTypeDef;

const wrappers = new Set(['default', 'optional', 'nullable', 'prefault', 'readonly', 'catch', 'nonoptional']);
const scalarTypes = new Set([
  'string', 'number', 'int', 'boolean', 'bigint', 'literal', 'enum', 'null', 'nan', 'date', 'template_literal',
]);

function def(schema: Schema): Def {
  return schema._zod.def;
}

/** Strips defaults, optionals, nullables and the like down to the schema that checks the value. */
export function unwrap(schema: Schema): Schema {
  let s = schema;
  for (;;) {
    const d = def(s);
    if (wrappers.has(d.type)) s = (d as z.core.$ZodDefaultDef).innerType;
    else if (d.type === 'pipe') s = (d as z.core.$ZodPipeDef).in;
    else if (d.type === 'lazy') s = (d as z.core.$ZodLazyDef).getter();
    else return s;
  }
}

/** The values a literal or enum accepts; undefined for anything else. */
export function literalValues(schema: Schema): readonly unknown[] | undefined {
  const d = def(unwrap(schema));
  if (d.type === 'literal') return (d as z.core.$ZodLiteralDef<z.core.util.Literal>).values;
  if (d.type === 'enum') return Object.values((d as z.core.$ZodEnumDef).entries);
  return undefined;
}

export function isScalarSchema(schema: Schema): boolean {
  const d = def(unwrap(schema));
  if (d.type === 'union') return (d as z.core.$ZodUnionDef).options.every(isScalarSchema);
  return scalarTypes.has(d.type);
}

export interface ObjectView {
  readonly shape: Readonly<Record<string, Schema>>;
  /** Set when the object was chosen from a discriminated union by the value in the data. */
  readonly discriminator?: { readonly key: string; readonly value: unknown };
}

function isPlainObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** The object schema that applies to `data`, resolving unions; undefined if none can be chosen. */
export function objectView(schema: Schema, data: unknown): ObjectView | undefined {
  const s = unwrap(schema);
  const d = def(s);
  if (d.type === 'object') return { shape: (d as z.core.$ZodObjectDef).shape };
  if (d.type !== 'union') return undefined;
  const options = (d as z.core.$ZodUnionDef).options;
  const key = (d as Partial<z.core.$ZodDiscriminatedUnionDef>).discriminator;
  if (key !== undefined) {
    if (!isPlainObject(data)) return undefined;
    const value = data[key];
    for (const option of options) {
      const view = objectView(option, data);
      const tag = view?.shape[key];
      if (view !== undefined && tag !== undefined && literalValues(tag)?.includes(value)) {
        return { shape: view.shape, discriminator: { key, value } };
      }
    }
    return undefined;
  }
  // A plain union of objects: the branch that knows most of the keys present.
  const keys = isPlainObject(data) ? Object.keys(data) : [];
  let best: ObjectView | undefined;
  let bestScore = -1;
  for (const option of options) {
    const view = objectView(option, data);
    if (view === undefined) continue;
    const score = keys.filter((k) => k in view.shape).length;
    if (score > bestScore) [best, bestScore] = [view, score];
  }
  return best;
}

/** The discriminator key when the schema is a discriminated union. */
export function discriminatorOf(schema: Schema): string | undefined {
  const d = def(unwrap(schema));
  return d.type === 'union' ? (d as Partial<z.core.$ZodDiscriminatedUnionDef>).discriminator : undefined;
}

/** The schema of `data[segment]`, or undefined when the schema says nothing about it. */
export function childSchema(schema: Schema, data: unknown, segment: string | number): Schema | undefined {
  const s = unwrap(schema);
  const d = def(s);
  if (typeof segment === 'number') {
    if (d.type === 'array') return (d as z.core.$ZodArrayDef).element;
    if (d.type === 'tuple') return (d as z.core.$ZodTupleDef).items[segment] ?? (d as z.core.$ZodTupleDef).rest ?? undefined;
    return undefined;
  }
  if (d.type === 'record') return (d as z.core.$ZodRecordDef).valueType;
  return objectView(s, data)?.shape[segment];
}

function step(data: unknown, segment: string | number): unknown {
  if (typeof segment === 'number') return Array.isArray(data) ? data[segment] : undefined;
  return isPlainObject(data) ? data[segment] : undefined;
}

/** Follows `path` through schema and data together. */
export function schemaAt(schema: Schema, data: unknown, path: Path): { schema: Schema; data: unknown } | undefined {
  let s: Schema | undefined = schema;
  let x = data;
  for (const segment of path) {
    s = childSchema(s, x, segment);
    if (s === undefined) return undefined;
    x = step(x, segment);
  }
  return { schema: s, data: x };
}

/** The keys an object at `path` accepts (for "did you mean"). */
export function knownKeys(schema: Schema, data: unknown, path: Path): readonly string[] {
  const at = schemaAt(schema, data, path);
  if (at === undefined) return [];
  const view = objectView(at.schema, at.data);
  return view === undefined ? [] : Object.keys(view.shape);
}

export function valueAt(data: unknown, path: Path): unknown {
  let x = data;
  for (const segment of path) x = step(x, segment);
  return x;
}
