/**
 * Which fields of a structured record (a JSON object) hold a document's id, text and metadata,
 * as a config names them: `id_field: doc.id`, `text_field: content`, `meta_fields: [url, source.lang]`.
 * Data as people have it (Hugging Face and datasketch dumps) keeps the text under `content` and
 * numbers its records, so both are a choice and integer ids are read as their decimal strings.
 */
import { clip, quote } from '../errors.ts';

/** A dotted path split into its keys: `source.lang` → ['source', 'lang']. */
export type FieldPath = readonly string[];

export interface RecordFields {
  readonly id: FieldPath;
  readonly text: FieldPath;
  /** the fields copied into `meta` under their dotted names; absent: the record's `meta` object as it is */
  readonly meta?: readonly FieldPath[];
}

export const DEFAULT_RECORD_FIELDS: RecordFields = { id: ['id'], text: ['text'] };

/** `a.b.c` → ['a', 'b', 'c']; an empty key (`a..b`, `.a`) is a config error, reported by the caller. */
export function parseFieldPath(path: string): FieldPath | undefined {
  const keys = path.split('.');
  return keys.every((k) => k !== '') ? keys : undefined;
}

export function showPath(path: FieldPath): string {
  return path.join('.');
}

/** The value at `path` in `record`, or undefined when a key on the way is missing or not an object. */
export function valueAt(record: Readonly<Record<string, unknown>>, path: FieldPath): unknown {
  let at: unknown = record;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** An id as a string: a non-empty string as it is, an integer (JSON number) as its decimal digits. */
export function idOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** The scalar fields a `meta_fields` entry may name, as strings. */
function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'boolean') return String(value);
  return undefined;
}

/** A record's own keys, for a message that says what the record has instead of what was asked for. */
export function keysOf(record: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(record);
  if (keys.length === 0) return 'the record has no fields';
  const shown = keys.slice(0, 8).map((k) => clip(k, 40));
  return `the record's fields: ${shown.join(', ')}${keys.length > 8 ? `, … (${keys.length})` : ''}`;
}

export type FieldsOutcome =
  | { readonly ok: true; readonly id: string; readonly text: string; readonly meta?: Record<string, string> }
  | { readonly ok: false; readonly problem: string; readonly id?: string };

/**
 * A document's parts from a record, or the one problem that keeps it from being one. `option`
 * names the config key for each part, so that the message tells the user what to set.
 */
export function documentParts(record: Readonly<Record<string, unknown>>, fields: RecordFields, option: { readonly id: string; readonly text: string }): FieldsOutcome {
  const rawId = valueAt(record, fields.id);
  const id = idOf(rawId);
  if (id === undefined) {
    const what = rawId === undefined ? 'missing' : 'not a non-empty string or an integer';
    return { ok: false, problem: `id field ${quote(showPath(fields.id))} ${what} (${keysOf(record)}; corpus.${option.id} chooses the field)` };
  }
  const text = valueAt(record, fields.text);
  if (typeof text !== 'string') {
    const what = text === undefined ? 'missing' : 'not a string';
    return { ok: false, id, problem: `text field ${quote(showPath(fields.text))} ${what} (${keysOf(record)}; corpus.${option.text} chooses the field)` };
  }
  if (fields.meta !== undefined) {
    const meta: Record<string, string> = {};
    let any = false;
    for (const path of fields.meta) {
      const v = scalarText(valueAt(record, path));
      if (v === undefined) continue;
      meta[showPath(path)] = v;
      any = true;
    }
    return any ? { ok: true, id, text, meta } : { ok: true, id, text };
  }
  const meta = record['meta'];
  if (meta === undefined) return { ok: true, id, text };
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta) || !Object.values(meta).every((v) => typeof v === 'string')) {
    return { ok: false, id, problem: 'meta is not an object of strings (corpus.meta_fields picks fields of other types)' };
  }
  return { ok: true, id, text, meta: meta as Record<string, string> };
}
