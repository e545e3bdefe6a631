/**
 * Config problems as the lines of one `ConfigError`: `file:line:col: field: problem`. The
 * position comes from the YAML node the problem is about; zod issues are reworded for
 * someone editing YAML ("expected a number, got string 'abc'").
 */
import { isMap, isPair, isScalar, isSeq, type LineCounter } from 'yaml';
import type { z } from 'zod';
import { clip, quote, QUOTE_MAX } from '../errors.ts';
import { knownKeys, valueAt, type Path, type Schema } from './zod-walk.ts';
import { didYouMean, editDistance } from '../did-you-mean.ts';

/** `runs[0].params.sampling.m`; the whole document is `config`. */
export function formatPath(path: Path): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out === '' ? seg : `.${seg}`;
  return out === '' ? 'config' : out;
}

interface Located {
  readonly offset: number;
  readonly text: string;
}

/** Collects problems and sorts them into document order. */
export class IssueList {
  private readonly items: Located[] = [];
  constructor(
    readonly file: string,
    private readonly lineCounter: LineCounter,
  ) {}

  add(offset: number, path: Path | string, problem: string): void {
    // A field's path is made of the YAML's own keys: raw input, shown escaped and cut short.
    const field = clip(typeof path === 'string' ? path : formatPath(path), 2 * QUOTE_MAX);
    this.items.push({ offset, text: `${field}: ${problem}` });
  }

  get size(): number {
    return this.items.length;
  }

  lines(): string[] {
    const seen = new Set<string>();
    const out: string[] = [];
    const sorted = this.items.map((x, i) => ({ ...x, i })).sort((a, b) => a.offset - b.offset || a.i - b.i);
    for (const { offset, text } of sorted) {
      const { line, col } = this.lineCounter.linePos(offset);
      const full = `${this.file}:${line}:${col}: ${text}`;
      // Variants of one sweep share most of their params, hence most of their problems.
      if (!seen.has(full)) out.push(full);
      seen.add(full);
    }
    return out;
  }
}

/** Finds where a path's value, or its key, starts in the YAML document. */
export interface Locator {
  /** Offset of the value at `path`, or of its nearest ancestor present in the YAML. */
  value(path: Path): number;
  /** Offset of the key of the entry at `path`, or `value(path)` for list items. */
  key(path: Path): number;
}

function start(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null)?.range;
  return range?.[0];
}

function child(node: unknown, seg: string | number): { key?: unknown; value: unknown } | undefined {
  if (isMap(node)) {
    const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === seg);
    return pair === undefined ? undefined : { key: pair.key, value: pair.value };
  }
  if (isSeq(node) && typeof seg === 'number') {
    const item = node.items[seg];
    return item === undefined ? undefined : { value: item };
  }
  return undefined;
}

export function yamlLocator(root: unknown): Locator {
  const walk = (path: Path): { node: unknown; key?: unknown; exact: boolean } => {
    let node = root;
    let key: unknown;
    for (const seg of path) {
      const next = child(node, seg);
      // An entry written with no value (`limit:`) still has a key to point at.
      if (next === undefined || (next.value === null && next.key === undefined)) return { node, exact: false };
      if (next.value === null) return { node: next.key, key: next.key, exact: true };
      [node, key] = [next.value, next.key];
    }
    return { node, key, exact: true };
  };
  return {
    value: (path) => start(walk(path).node) ?? 0,
    key: (path) => {
      const w = walk(path);
      return start(w.exact && w.key !== undefined ? w.key : w.node) ?? 0;
    },
  };
}

/** How a YAML value reads in a message: `string 'abc'`, `number 1.5`, `a list`. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (typeof v === 'string') return `string ${quote(v)}`;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return `${typeof v} ${String(v)}`;
  if (Array.isArray(v)) return 'a list';
  return 'a mapping';
}

const typeNames: Record<string, string> = {
  object: 'a mapping',
  record: 'a mapping',
  array: 'a list',
  tuple: 'a list',
  number: 'a number',
  int: 'an integer',
  string: 'a string',
  boolean: 'a boolean (true or false)',
  null: 'null',
};

function quoteValue(v: unknown): string {
  return typeof v === 'string' ? quote(v) : String(v);
}

function boundProblem(issue: z.core.$ZodIssueTooBig | z.core.$ZodIssueTooSmall, value: unknown): string {
  const small = issue.code === 'too_small';
  const bound = small ? (issue as z.core.$ZodIssueTooSmall).minimum : (issue as z.core.$ZodIssueTooBig).maximum;
  const inclusive = issue.inclusive !== false;
  const word = small ? (inclusive ? 'at least' : 'more than') : inclusive ? 'at most' : 'less than';
  switch (issue.origin) {
    case 'array':
    case 'set':
      return `must have ${word} ${String(bound)} item${Number(bound) === 1 ? '' : 's'}`;
    case 'string':
      return Number(bound) === 1 && small ? 'must not be empty' : `must be ${word} ${String(bound)} characters long`;
    default:
      return `must be ${word} ${String(bound)}, got ${typeof value === 'string' ? quote(value) : String(value)}`;
  }
}

/** The branch of a failed plain union that came closest: the one with the fewest problems. */
function closestBranch(branches: readonly (readonly z.core.$ZodIssue[])[]): readonly z.core.$ZodIssue[] {
  let best = branches[0] ?? [];
  for (const b of branches) if (b.length < best.length) best = b;
  return best;
}

export interface ZodContext {
  readonly issues: IssueList;
  readonly locate: Locator;
  /** Where `data` sits in the document: prefixes every field and position. */
  readonly base: Path;
  readonly schema: Schema;
  readonly data: unknown;
}

/** The required fields that are missing, by the path of the object that lacks them (JSON of the path). */
function missingFields(ctx: ZodContext, zodIssues: readonly z.core.$ZodIssue[], prefix: Path): Map<string, string[]> {
  const byParent = new Map<string, string[]>();
  for (const issue of zodIssues) {
    if (issue.code !== 'invalid_type') continue;
    const rel: Path = [...prefix, ...(issue.path as (string | number)[])];
    const field = rel.at(-1);
    if (typeof field !== 'string' || valueAt(ctx.data, rel) !== undefined) continue;
    const parent = JSON.stringify([...ctx.base, ...rel.slice(0, -1)]);
    byParent.set(parent, [...(byParent.get(parent) ?? []), field]);
  }
  return byParent;
}

/** Adds each zod issue as a config problem at the node it is about. */
export function addZodIssues(ctx: ZodContext, zodIssues: readonly z.core.$ZodIssue[], prefix: Path = []): void {
  const missing = missingFields(ctx, zodIssues, prefix);
  for (const issue of zodIssues) {
    const rel: Path = [...prefix, ...(issue.path as (string | number)[])];
    const path: Path = [...ctx.base, ...rel];
    const value = valueAt(ctx.data, rel);
    const at = ctx.locate.value(path);
    switch (issue.code) {
      case 'unrecognized_keys': {
        const known = knownKeys(ctx.schema, ctx.data, rel);
        for (const key of issue.keys) {
          // A short key is too short for a guess from the known keys alone ('mm' for 'm'), but a
          // required key missing beside it, a typo or two away, is what was meant.
          const guess = didYouMean(key, known) ?? (missing.get(JSON.stringify(path)) ?? []).find((m) => editDistance(key, m) <= 2);
          const hint = guess === undefined ? '' : `; did you mean '${guess}'?`;
          ctx.issues.add(ctx.locate.key([...path, key]), [...path, key], `unknown key ${quote(key)}${hint}`);
        }
        break;
      }
      case 'invalid_type':
        if (value === undefined) ctx.issues.add(at, path, 'missing required field');
        else ctx.issues.add(at, path, `expected ${typeNames[issue.expected] ?? issue.expected}, got ${describeValue(value)}`);
        break;
      case 'invalid_union': {
        const disc = (issue as { discriminator?: string }).discriminator;
        if (disc !== undefined) {
          // zod reports the discriminator's path; its value is what the user typed.
          if (value === undefined) ctx.issues.add(at, path, 'missing required field');
          else {
            const known = (issue as { options?: unknown[] }).options ?? [];
            const what = typeof value === 'string' ? quote(value) : describeValue(value);
            ctx.issues.add(at, path, `unknown ${disc} ${what} (known: ${known.map(String).join(', ')})`);
          }
        } else {
          addZodIssues(ctx, closestBranch(issue.errors), rel);
        }
        break;
      }
      case 'invalid_value': {
        const allowed = issue.values.map(quoteValue);
        const expected = allowed.length === 1 ? allowed[0] : `one of ${allowed.join(', ')}`;
        ctx.issues.add(at, path, `expected ${expected}, got ${typeof value === 'string' ? quoteValue(value) : describeValue(value)}`);
        break;
      }
      case 'too_small':
      case 'too_big':
        ctx.issues.add(at, path, boundProblem(issue, value));
        break;
      default:
        ctx.issues.add(at, path, clip(issue.message, 2 * QUOTE_MAX));
    }
  }
}
