/**
 * Loads an experiment config: parse (with positions), expand `${VAR}`s, validate the
 * config and each algorithm's params, check that named files exist, expand sweeps. Every
 * problem found is collected and thrown as one `ConfigError`, in document order.
 */
import { resolveStudyPaths, studyFileRefs } from './config/studies.ts';
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { isUtf8 } from 'node:buffer';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type YAMLError } from 'yaml';
import { findCorpusReader } from '../corpus/registry.ts';
import { sizeGroupGaps } from '../evaluate/size-groups.ts';
import { builtinDetectors, findDetector, knownDetectors, type DetectorCatalog } from '../detectors.ts';
import { clip, ConfigError, quote, QUOTE_MAX, UserError } from '../errors.ts';
import { expandVariables, type Env } from './env.ts';
import { expansionOf } from './expansion.ts';
import { addZodIssues, formatPath, IssueList, yamlLocator, type Locator } from './issues.ts';
import { experimentSchema, type ExperimentInput } from './schema.ts';
import { distinguishingName, expandSweeps, findSweeps, type Sweep } from './sweep.ts';
import type { BackendConfig, CorpusConfig, Experiment, Variant } from './types.ts';
import type { Path } from './zod-walk.ts';

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

/** A config larger than this is not a config (the shipped ones are 2 KB). */
const MAX_CONFIG_BYTES = 1 << 20;
/** Mappings and lists nested deeper than this are not a config (the shipped ones nest 5 deep). */
export const MAX_CONFIG_DEPTH = 64;
/** Alias expansions allowed when the YAML becomes values (yaml's own guard against alias bombs). */
const MAX_ALIAS_COUNT = 100;

async function readConfig(file: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = await readFile(file);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file or directory' : code === 'EISDIR' ? 'is a directory' : String(code);
    throw new ConfigError([`${file}: cannot read the config: ${why}`]);
  }
  if (bytes.length > MAX_CONFIG_BYTES) {
    throw new ConfigError([`${file}: not a config: ${bytes.length} bytes, more than ${MAX_CONFIG_BYTES} (is this the right file?)`]);
  }
  const bad = firstNonText(bytes);
  if (bad !== undefined) {
    const before = bytes.subarray(0, bad.offset);
    const line = before.filter((b) => b === 0x0a).length + 1;
    const col = bad.offset - (before.lastIndexOf(0x0a) + 1) + 1;
    throw new ConfigError([`${file}:${line}:${col}: not a YAML config: byte ${bad.offset} is ${bad.what} (a binary file?)`]);
  }
  return bytes.toString('utf8');
}

/**
 * The first byte that cannot be in a YAML file: a control character other than tab and line
 * ends, or bytes that are not UTF-8 (YAML 1.2, 5.1). Such a file is not shown to the parser,
 * whose messages would quote it.
 */
function firstNonText(bytes: Buffer): { offset: number; what: string } | undefined {
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      if ((b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d) || b === 0x7f) {
        return { offset: i, what: `the control character 0x${b.toString(16).padStart(2, '0')}` };
      }
      i++;
      continue;
    }
    const n = b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    const seq = n === 0 ? undefined : bytes.subarray(i, i + n);
    if (seq === undefined || seq.length < n || !isUtf8(seq)) return { offset: i, what: 'not UTF-8' };
    i += n;
  }
  return undefined;
}

/** How deep mappings and lists nest in `root` (a YAML node or a value), counted without recursion. */
function nestingDepth(root: unknown, children: (x: unknown) => readonly unknown[] | undefined): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [x, depth] = stack.pop() as [unknown, number];
    const kids = children(x);
    if (kids === undefined) continue;
    deepest = Math.max(deepest, depth + 1);
    if (deepest > MAX_CONFIG_DEPTH) return deepest;
    for (const k of kids) stack.push([k, depth + 1]);
  }
  return deepest;
}

const nodeChildren = (x: unknown): readonly unknown[] | undefined =>
  isMap(x) ? x.items.flatMap((p) => [p.key, p.value]) : isSeq(x) ? x.items : undefined;
const valueChildren = (x: unknown): readonly unknown[] | undefined =>
  Array.isArray(x) ? x : typeof x === 'object' && x !== null ? Object.values(x) : undefined;

function tooDeep(file: string): ConfigError {
  return new ConfigError([`${file}: not a config: mappings and lists nested more than ${MAX_CONFIG_DEPTH} deep`]);
}

/** The YAML as values; an alias bomb (aliases expanding into too many nodes) is a config error. */
function toValues(doc: Document, file: string, lineCounter: LineCounter): unknown {
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    if (!(e instanceof ReferenceError)) throw e;
    let at = 0;
    visit(doc, {
      Alias(_key, node) {
        at = node.range?.[0] ?? 0;
        return visit.BREAK;
      },
    });
    const { line, col } = lineCounter.linePos(at);
    throw new ConfigError([`${file}:${line}:${col}: YAML aliases expand into too many values (more than ${MAX_ALIAS_COUNT} each): an alias bomb?`]);
  }
}

function yamlProblem(file: string, lineCounter: LineCounter, error: YAMLError, text: string): string {
  const offset = error.pos[0];
  const { line, col } = lineCounter.linePos(offset);
  // The parser's message may quote the source: raw input, escaped and cut short.
  const message = clip(error.message.split('\n')[0] ?? error.message, 2 * QUOTE_MAX);
  // YAML ends a plain scalar at `{` inside a flow collection, so `{ qrels: ${X} }` breaks there.
  const hint = text.slice(Math.max(0, offset - 1), offset + 1).includes('${')
    ? ' (inside [ ] or { }, quote a value that uses a variable: "${VAR}")'
    : '';
  return `${file}:${line}:${col}: malformed YAML: ${message}${hint}`;
}

/**
 * Expands `${VAR}`s in every string value (keys are left alone), in place. Returns the
 * fields that could not be expanded, whose files are then not looked for.
 */
function expandScalars(node: unknown, path: Path, env: Env, issues: IssueList, missing: 'problem' | 'placeholder', failed = new Set<string>()): Set<string> {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key: unknown = isScalar(pair.key) ? pair.key.value : undefined;
      if (typeof key === 'string' || typeof key === 'number') {
        expandScalars(pair.value, [...path, String(key)], env, issues, missing, failed);
      }
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => expandScalars(item, [...path, i], env, issues, missing, failed));
  } else if (isScalar(node) && typeof node.value === 'string') {
    const { value, problems, placeholders } = expandVariables(node.value, env, missing);
    // A placeholder names a collection this machine does not have: its files are not looked for.
    if (problems.length > 0 || placeholders.length > 0) failed.add(formatPath(path));
    node.value = value;
    for (const p of problems) issues.add(node.range?.[0] ?? 0, path, p);
  }
  return failed;
}

interface FileRef {
  readonly path: Path;
  readonly value: string;
  readonly mustBeFile: boolean;
}

function fileRefs(raw: unknown): FileRef[] {
  const evaluate = isRecord(raw) ? raw.evaluate : undefined;
  const oracle: FileRef[] = isRecord(evaluate) && typeof evaluate.oracle === 'string' ? [{ path: ['evaluate', 'oracle'], value: evaluate.oracle, mustBeFile: true }] : [];
  const corpus = isRecord(raw) ? raw.corpus : undefined;
  if (!isRecord(corpus)) return oracle;
  const refs: FileRef[] = [...oracle];
  if (typeof corpus.path === 'string') refs.push({ path: ['corpus', 'path'], value: corpus.path, mustBeFile: false });
  const subset = corpus.subset;
  if (isRecord(subset)) {
    if (typeof subset.qrels === 'string') {
      refs.push({ path: ['corpus', 'subset', 'qrels'], value: subset.qrels, mustBeFile: true });
    }
    if (Array.isArray(subset.runs)) {
      // A runs entry may be a folder of run files (the Web09 runs come as one).
      subset.runs.forEach((r, i) => {
        if (typeof r === 'string') refs.push({ path: ['corpus', 'subset', 'runs', i], value: r, mustBeFile: false });
      });
    }
  }
  return [...refs, ...studyFileRefs(raw)];
}

async function checkFiles(refs: readonly FileRef[], dir: string, locate: Locator, issues: IssueList): Promise<void> {
  const problems = await Promise.all(
    refs.map(async (ref) => {
      const abs = resolve(dir, ref.value);
      try {
        const s = await stat(abs);
        return ref.mustBeFile && s.isDirectory() ? `expected a file, found a directory: ${abs}` : undefined;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        return code === 'ENOENT' || code === 'ENOTDIR' ? `no such file or directory: ${abs}` : `cannot read ${abs}: ${code}`;
      }
    }),
  );
  refs.forEach((ref, i) => {
    const problem = problems[i];
    if (problem !== undefined) issues.add(locate.value(ref.path), ref.path, problem);
  });
}

/** A variant as built from the YAML, with where it came from for duplicate-name messages. */
interface Built {
  readonly variant: Variant;
  readonly origin: Path;
  readonly namePath: Path;
}

interface EntryResult {
  readonly built: readonly Built[];
  /** The params with defaults, sweeps written back as lists (for `resolved`). */
  readonly resolvedParams: unknown;
}

/** A locator that points a swept field at this variant's item of the list. */
function variantLocator(locate: Locator, paramsPath: Path, sweeps: readonly Sweep[], choice: readonly number[]): Locator {
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
function expandEntry(
  detectors: DetectorCatalog,
  entry: unknown,
  path: Path,
  groundTruth: boolean,
  doc: Document,
  locate: Locator,
  issues: IssueList,
  dir: string,
): EntryResult | undefined {
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
      const at = variantLocator(locate, paramsPath, scan.sweeps, point.choice);
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

/**
 * A ground truth must score pairs by their resemblance, and report every pair from the lowest
 * score the evaluation looks at: the measures compare every variant with its scores.
 */
function groundTruthProblem(detectors: DetectorCatalog, gt: Variant, evaluate: Experiment['evaluate'], seed: number): string | undefined {
  const adapter = findDetector(detectors, gt.algorithm);
  if (!adapter) return undefined;
  if (expansionOf(adapter, { ...gt, groundTruth: false }, { evaluate })) {
    return `${gt.algorithm} as configured is several runs (trials averaged or calibration runs): the ground truth must be one run`;
  }
  const { score } = adapter.plan(gt.params, { minScore: Number.MIN_VALUE, seed }).output;
  if (score.kind !== 'resemblance') return `${gt.algorithm} cannot be the ground truth: its scores are not resemblances (${score.why})`;
  const lowest = Math.min(evaluate.min_score, evaluate.threshold);
  if (score.floor > lowest) {
    return `${gt.algorithm} as configured reports pairs from RR ${score.floor} up, but the evaluation needs every pair from ${lowest} (evaluate.min_score ${evaluate.min_score}, threshold ${evaluate.threshold}): lower its threshold or raise min_score`;
  }
  return undefined;
}

/**
 * A calibration (contract/derived.ts) judges its runs per size group and chooses the parameters
 * every document runs with: a document size in no group would run with parameters chosen on no
 * evidence about it. So a calibrated variant needs groups that cover every size, from 0 words
 * up, without gaps, the last unbounded.
 */
function calibrationGapProblem(detectors: DetectorCatalog, variants: readonly Variant[], evaluate: Experiment['evaluate']): string | undefined {
  const gaps = sizeGroupGaps(evaluate.size_groups);
  if (gaps.length === 0) return undefined;
  const calibrated = variants.filter((v) => {
    const adapter = findDetector(detectors, v.algorithm);
    return adapter !== undefined && expansionOf(adapter, { ...v, groundTruth: false }, { evaluate })?.kind === 'calibration';
  });
  if (calibrated.length === 0) return undefined;
  const names = calibrated.map((v) => quote(v.name)).join(', ');
  return `documents of ${gaps.join(', ')} words are in no size group, but ${names} chooses its parameters per size group (calibration): make the groups cover every size from 0 words, the last without max_words`;
}

/** A variant needing a `meta` field its corpus format never carries (adapter.metaFields) is a config error. */
function checkMetaFields(detectors: DetectorCatalog, format: string | undefined, built: readonly Built[], locate: Locator, issues: IssueList): void {
  const carried = format === undefined ? undefined : findCorpusReader(format)?.meta;
  if (carried === undefined || carried === 'any') return;
  const reported = new Set<string>();
  for (const b of built) {
    const needs = findDetector(detectors, b.variant.algorithm)?.metaFields?.(b.variant.params) ?? [];
    for (const field of needs) {
      const at: Path = [...b.origin, 'params'];
      const key = `${formatPath(at)}:${field}`;
      if (carried.includes(field) || reported.has(key)) continue;
      reported.add(key);
      const has = carried.length > 0 ? carried.join(', ') : 'none';
      issues.add(locate.value(at), at, `${b.variant.name} needs the meta field '${field}', which ${format} documents do not carry (they carry: ${has})`);
    }
  }
}

function checkNames(built: readonly Built[], locate: Locator, issues: IssueList): void {
  const seen = new Map<string, Built>();
  for (const b of built) {
    const earlier = seen.get(b.variant.name);
    if (earlier === undefined) seen.set(b.variant.name, b);
    else {
      issues.add(
        locate.value(b.namePath),
        b.namePath,
        `duplicate variant name ${quote(b.variant.name)} (${formatPath(earlier.origin)} has it too)`,
      );
    }
  }
}

/** JSON with object keys sorted, for a hash that does not depend on key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isRecord(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v,
  );
}

function absolutePaths(corpus: CorpusConfig, dir: string): CorpusConfig {
  const subset =
    corpus.subset === undefined
      ? undefined
      : 'qrels' in corpus.subset
        ? { ...corpus.subset, qrels: resolve(dir, corpus.subset.qrels) }
        : { ...corpus.subset, runs: corpus.subset.runs.map((r) => resolve(dir, r)) };
  return {
    ...corpus,
    ...(corpus.path === undefined ? {} : { path: resolve(dir, corpus.path) }),
    ...(subset === undefined ? {} : { subset }),
  } as CorpusConfig;
}

// Filled here, not in the schema: the number of CPUs must not end up in `resolved` or its hash.
function withDefaultWorkers(b: NonNullable<ExperimentInput['backend']>): BackendConfig {
  return (b.kind === 'local' ? { ...b, workers: b.workers ?? availableParallelism() } : b) as BackendConfig;
}

/** Reads, validates and expands `file`; throws one `ConfigError` listing every problem. */
export interface LoadOptions {
  /**
   * For a dry run: a missing `${VAR}` becomes `<VAR>` instead of an error, and the files it
   * names are not looked for, so that a config of a licensed collection plans anywhere.
   */
  readonly withoutCollection?: boolean;
}

/** The config's ground truth entry, or the default one (the schema's prefault). */
function groundTruthEntry(raw: unknown): unknown {
  return isRecord(raw) && raw.ground_truth !== undefined ? raw.ground_truth : { algorithm: 'broder' };
}

/** The algorithms a config names, read before it is validated: the built-in detectors loaded for it. */
export function configAlgorithms(raw: unknown): string[] {
  const algorithm = (entry: unknown): string | undefined => (isRecord(entry) && typeof entry.algorithm === 'string' ? entry.algorithm : undefined);
  const runs = isRecord(raw) && Array.isArray(raw.runs) ? raw.runs.map(algorithm) : [];
  return [...new Set([algorithm(groundTruthEntry(raw)), ...runs].filter((a): a is string => a !== undefined))];
}

/** Reads, expands and validates a config; `detectors` by default the built-in ones it names. */
export async function loadExperiment(file: string, env: Env = process.env, given?: DetectorCatalog, options: LoadOptions = {}): Promise<Experiment> {
  const text = await readConfig(file);
  const lineCounter = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter, prettyErrors: false });
  } catch (e) {
    // The parser recurses per level of flow nesting: `[[[[…` thousands deep exhausts the stack.
    if (e instanceof RangeError) throw tooDeep(file);
    throw e;
  }
  const yamlError = doc.errors[0];
  if (yamlError !== undefined && /Maximum call stack size exceeded/.test(yamlError.message)) throw tooDeep(file);
  // After the first syntax error the parser's further complaints are mostly echoes of it.
  if (yamlError !== undefined) throw new ConfigError([yamlProblem(file, lineCounter, yamlError, text)]);
  // Everything below walks the config recursively.
  if (nestingDepth(doc.contents, nodeChildren) > MAX_CONFIG_DEPTH) throw tooDeep(file);

  const issues = new IssueList(file, lineCounter);
  const unexpanded = expandScalars(doc.contents, [], env, issues, options.withoutCollection ? 'placeholder' : 'problem');
  const raw: unknown = toValues(doc, file, lineCounter);
  if (nestingDepth(raw, valueChildren) > MAX_CONFIG_DEPTH) throw tooDeep(file);
  const locate = yamlLocator(doc.contents);
  const dir = dirname(resolve(file));

  if (raw === null || raw === undefined) {
    throw new ConfigError([`${file}:1:1: config: the file is empty; an experiment needs at least 'experiment' and 'corpus'`]);
  }
  const top = experimentSchema.safeParse(raw, { reportInput: true });
  if (!top.success) addZodIssues({ issues, locate, base: [], schema: experimentSchema, data: raw }, top.error.issues);
  const refs = fileRefs(raw).filter((r) => !unexpanded.has(formatPath(r.path)));
  await checkFiles(refs, dir, locate, issues);

  const detectors = given ?? (await builtinDetectors(configAlgorithms(raw)));
  const gtEntry = groundTruthEntry(raw);
  const gt = expandEntry(detectors, gtEntry, ['ground_truth'], true, doc, locate, issues, dir);
  const rawRuns = isRecord(raw) && Array.isArray(raw.runs) ? raw.runs : [];
  const runs = rawRuns.map((r, i) => expandEntry(detectors, r, ['runs', i], false, doc, locate, issues, dir));
  checkNames([...(gt?.built ?? []), ...runs.flatMap((r) => r?.built ?? [])], locate, issues);
  const format = isRecord(raw) && isRecord(raw.corpus) && typeof raw.corpus.format === 'string' ? raw.corpus.format : undefined;
  checkMetaFields(detectors, format, [...(gt?.built ?? []), ...runs.flatMap((r) => r?.built ?? [])], locate, issues);

  if (!top.success || issues.size > 0 || gt === undefined || runs.some((r) => r === undefined)) {
    throw new ConfigError(issues.size > 0 ? issues.lines() : [`${file}: invalid config`]);
  }

  const cfg = top.data;
  const studies = cfg.studies === undefined ? undefined : resolveStudyPaths(cfg.studies, dir);
  const corpus = absolutePaths(cfg.corpus, dir);
  const groundTruth = gt.built[0]?.variant as Variant;
  const gtProblem = groundTruthProblem(detectors, groundTruth, cfg.evaluate, cfg.seed);
  if (gtProblem !== undefined) {
    const at: Path = ['ground_truth', 'algorithm'];
    issues.add(locate.value(at), at, gtProblem);
    throw new ConfigError(issues.lines());
  }
  const gaps = calibrationGapProblem(detectors, [groundTruth, ...runs.flatMap((r) => r?.built.map((b) => b.variant) ?? [])], cfg.evaluate);
  if (gaps !== undefined) {
    const at: Path = ['evaluate', 'size_groups'];
    issues.add(locate.value(at), at, gaps);
    throw new ConfigError(issues.lines());
  }
  const resolved: unknown = JSON.parse(
    JSON.stringify({
      ...cfg,
      corpus,
      ground_truth: { algorithm: groundTruth.algorithm, params: gt.resolvedParams },
      runs: cfg.runs.map((r, i) => ({ ...r, params: runs[i]?.resolvedParams })),
      ...(studies === undefined ? {} : { studies }),
    }),
  );
  const backend = withDefaultWorkers(cfg.backend);
  const alternativeBackends = (cfg.backends ?? []).map(withDefaultWorkers);
  return {
    file: resolve(file),
    name: cfg.experiment,
    ...(cfg.description === undefined ? {} : { description: cfg.description }),
    seed: cfg.seed,
    hash: createHash('sha256').update(canonicalJson(resolved)).digest('hex'),
    resolved,
    corpus,
    groundTruth,
    variants: runs.flatMap((r) => r?.built.map((b) => b.variant) ?? []),
    evaluate: cfg.evaluate.oracle === undefined ? cfg.evaluate : { ...cfg.evaluate, oracle: resolve(dir, cfg.evaluate.oracle) },
    backend,
    alternativeBackends,
    ...(studies === undefined ? {} : { studies }),
  };
}

/**
 * The experiment with `corpus.strict` on (`--strict`): every skipped record becomes an error.
 * The hash does not change: a strict run that completes has the results of a lenient one.
 */
export function strictly(exp: Experiment): Experiment {
  return { ...exp, corpus: { ...exp.corpus, strict: true } };
}

function globToRegExp(pattern: string): RegExp {
  const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${body}$`);
}

/**
 * The variants `bench run --only` keeps: exact names or globs (`*`, `?`). Naming the ground
 * truth is allowed (it always runs); a pattern that matches nothing is an error.
 */
export function filterVariants(exp: Experiment, only: readonly string[]): Variant[] {
  const patterns = only.map((p) => ({ p, re: globToRegExp(p) }));
  const all = [exp.groundTruth, ...exp.variants];
  const unmatched = patterns.filter(({ re }) => !all.some((v) => re.test(v.name)));
  if (unmatched.length > 0) {
    const which = unmatched.map(({ p }) => quote(p)).join(', ');
    const names = all.map((v) => v.name).join(', ');
    throw new UserError(`${exp.file}: --only ${which} matches no variant; the variants are: ${names}`);
  }
  return exp.variants.filter((v) => patterns.some(({ re }) => re.test(v.name)));
}
