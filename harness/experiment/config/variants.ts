/**
 * The `ground_truth` and `runs` entries of a config turned into variants: each entry's algorithm
 * found, its sweeps expanded, every sweep point's parameters validated by the adapter and named.
 */
import { resolve } from 'node:path';
import { findDetector, knownDetectors } from '../../detectors.ts';
import { quote } from '../../errors.ts';
import { addZodIssues, formatPath, type Locator } from '../issues.ts';
import { distinguishingName, expandSweeps, findSweeps, type Sweep } from '../sweep.ts';
import type { Variant } from '../types.ts';
import type { Path } from '../zod-walk.ts';
import { isRecord, type ConfigScope } from './scope.ts';

/** A variant as built from the YAML, with where it came from for duplicate-name messages. */
export interface Built {
  readonly variant: Variant;
  readonly origin: Path;
  readonly namePath: Path;
}

export interface EntryResult {
  readonly built: readonly Built[];
  /** The params with defaults, sweeps written back as lists (for `resolved`). */
  readonly resolvedParams: unknown;
}

/** One `ground_truth` or `runs[i]` entry of the raw config. */
export interface Entry {
  readonly value: unknown;
  /** where it is in the config: `['ground_truth']` or `['runs', i]` */
  readonly path: Path;
  /** the ground truth: named `ground-truth`, never swept */
  readonly groundTruth: boolean;
}

/** Which sweep point a variant is: its swept fields located at that point's item of each list. */
interface SweepPointAt {
  readonly paramsPath: Path;
  readonly sweeps: readonly Sweep[];
  readonly choice: readonly number[];
}

/** A locator that points a swept field at this variant's item of the list. */
function variantLocator(locate: Locator, { paramsPath, sweeps, choice }: SweepPointAt): Locator {
  const swept = new Map(
    sweeps.map((s, j) => [formatPath([...paramsPath, ...s.path]), s.values[choice[j] as number]?.offset ?? 0]),
  );
  return {
    value: (p) => swept.get(formatPath(p)) ?? locate.value(p),
    key: (p) => swept.get(formatPath(p)) ?? locate.key(p),
  };
}

function setAt(target: unknown, path: Path, value: unknown): void {
  let x = target as Record<string | number, unknown>;
  for (const seg of path.slice(0, -1)) x = x[seg] as Record<string | number, unknown>;
  x[path[path.length - 1] as string | number] = value;
}

/**
 * `params` with the relative file paths the adapter names (`fileParams`) resolved against the
 * config file's directory, as the corpus path is; a copy, the sweep point's own params untouched.
 */
function withAbsoluteFiles(params: unknown, fileParams: readonly (readonly string[])[] | undefined, dir: string): unknown {
  if (fileParams === undefined || fileParams.length === 0) return params;
  const out = structuredClone(params);
  for (const at of fileParams) {
    let x: unknown = out;
    for (const seg of at.slice(0, -1)) x = isRecord(x) ? x[seg] : undefined;
    const last = at[at.length - 1] as string;
    if (isRecord(x) && typeof x[last] === 'string' && x[last] !== '') x[last] = resolve(dir, x[last]);
  }
  return out;
}

/** `parsed` with the file paths as the config wrote them: a variant's name must not depend on where the config lies. */
function withFilesAsWritten(parsed: unknown, written: unknown, fileParams: readonly (readonly string[])[] | undefined): unknown {
  if (fileParams === undefined || fileParams.length === 0) return parsed;
  const out = structuredClone(parsed);
  for (const at of fileParams) {
    let x: unknown = out;
    let w: unknown = written;
    for (const seg of at.slice(0, -1)) {
      x = isRecord(x) ? x[seg] : undefined;
      w = isRecord(w) ? w[seg] : undefined;
    }
    const last = at[at.length - 1] as string;
    if (isRecord(x) && isRecord(w) && typeof w[last] === 'string') x[last] = w[last];
  }
  return out;
}

/** Validates one `ground_truth` or `runs[i]` entry and expands it into variants. */
export function expandEntry({ value: entry, path, groundTruth }: Entry, { detectors, doc, locate, issues, dir }: ConfigScope): EntryResult | undefined {
  if (!isRecord(entry) || typeof entry.algorithm !== 'string') return undefined; // the config schema reports it
  const adapter = findDetector(detectors, entry.algorithm);
  if (adapter === undefined) {
    const known = knownDetectors(detectors).join(', ');
    issues.add(locate.value([...path, 'algorithm']), [...path, 'algorithm'], `unknown algorithm ${quote(entry.algorithm)} (known: ${known})`);
    return undefined;
  }
  const params = entry.params ?? {};
  if (!isRecord(params)) return undefined;
  const paramsPath: Path = [...path, 'params'];
  const scan = findSweeps(doc.getIn(paramsPath, true), adapter.params, params);
  for (const p of scan.problems) issues.add(p.offset, [...paramsPath, ...p.path], p.problem);
  if (scan.problems.length > 0) return undefined;
  if (groundTruth && scan.sweeps.length > 0) {
    for (const s of scan.sweeps) {
      issues.add(locate.value([...paramsPath, ...s.path]), [...paramsPath, ...s.path], 'the ground truth cannot be swept: give a single value');
    }
    return undefined;
  }
  const name = groundTruth ? 'ground-truth' : typeof entry.name === 'string' ? entry.name : entry.algorithm;
  const namePath: Path = [...path, !groundTruth && typeof entry.name === 'string' ? 'name' : 'algorithm'];
  const built: Built[] = [];
  let first: unknown;
  const named = typeof entry.name === 'string';
  for (const point of expandSweeps(name, params, scan.sweeps)) {
    const data = withAbsoluteFiles(point.params, adapter.fileParams, dir);
    const parsed = adapter.params.safeParse(data, { reportInput: true });
    if (!parsed.success) {
      const at = variantLocator(locate, { paramsPath, sweeps: scan.sweeps, choice: point.choice });
      addZodIssues({ issues, locate: at, base: paramsPath, schema: adapter.params, data }, parsed.error.issues);
      continue;
    }
    first ??= parsed.data;
    // A run without sweeps or a name of its own is named by what sets it apart from the defaults.
    const variantName =
      groundTruth || named || scan.sweeps.length > 0
        ? point.name
        : distinguishingName(name, withFilesAsWritten(parsed.data, point.params, adapter.fileParams), {
            safeParse: (x: unknown) => adapter.params.safeParse(withAbsoluteFiles(x, adapter.fileParams, dir)),
          });
    built.push({
      variant: { name: variantName, algorithm: adapter.name, params: parsed.data, swept: point.swept, groundTruth },
      origin: path,
      namePath,
    });
  }
  if (built.length < Math.max(1, scan.sweeps.reduce((n, s) => n * s.values.length, 1))) return undefined;
  const resolvedParams = structuredClone(first);
  for (const s of scan.sweeps) setAt(resolvedParams, s.path, s.values.map((v) => v.value));
  return { built, resolvedParams };
}

/** The config's ground truth entry, or the default one (the schema's prefault). */
export function groundTruthEntry(raw: unknown): unknown {
  return isRecord(raw) && raw.ground_truth !== undefined ? raw.ground_truth : { algorithm: 'broder' };
}

/** The algorithms a config names, read before it is validated: the built-in detectors loaded for it. */
export function configAlgorithms(raw: unknown): string[] {
  const algorithm = (entry: unknown): string | undefined => (isRecord(entry) && typeof entry.algorithm === 'string' ? entry.algorithm : undefined);
  const runs = isRecord(raw) && Array.isArray(raw.runs) ? raw.runs.map(algorithm) : [];
  return [...new Set([algorithm(groundTruthEntry(raw)), ...runs].filter((a): a is string => a !== undefined))];
}
