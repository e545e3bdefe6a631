/**
 * Property-based tests of a corpus reader (fast-check): every fixture of the reader, truncated
 * at arbitrary byte offsets, with random bytes changed, with its records out of order, and all
 * of these at once, must read as documents plus counted skips, or fail with a one-line user
 * error (exit 2) that names the file and the place; never an internal error, never a hang.
 * Each read runs in a worker thread with a time bound (`sandbox.ts`).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ReaderSandbox, type ReadOutcome, type ReadResult } from './sandbox.ts';
import { fuzzSettings, LARGE_RUNS } from './settings.ts';
import type { FuzzFile, FuzzTarget } from './targets.ts';

/** How one case changes one file of a target. */
export interface Mutation {
  /** which mutable file (modulo their number) */
  readonly file: number;
  /** change the bytes as stored (gzip'd fixtures: the compressed bytes) or as read */
  readonly layer: 'content' | 'stored';
  /** sort keys of the records: their new order (absent: records stay in order) */
  readonly order?: readonly number[];
  /** cut the file at this offset (modulo its length + 1) */
  readonly truncate?: number;
  /** set the byte at `at` (modulo the length) to `byte` */
  readonly flips?: readonly { readonly at: number; readonly byte: number }[];
  /** the `length` bytes at `at` (modulo the length) repeated `times` times in place (at most 2 MB in all, 512 KB in `npm test`) */
  readonly repeat?: { readonly at: number; readonly length: number; readonly times: number };
}

/** Bytes that mean something to some format: line ends, tag and JSON punctuation, UTF-8 lead bytes, NUL. */
const SPECIAL = [0x00, 0x09, 0x0a, 0x0d, 0x20, 0x22, 0x2c, 0x2f, 0x30, 0x39, 0x3a, 0x3c, 0x3d, 0x3e, 0x5c, 0x7b, 0x7d, 0x1b, 0x7f, 0x80, 0xc3, 0xe2, 0xef, 0xff];
const byteArb = fc.oneof(fc.constantFrom(...SPECIAL), fc.integer({ min: 0, max: 255 }));
const flipsArb = fc.array(fc.record({ at: fc.nat(), byte: byteArb }), { minLength: 1, maxLength: 16 });
const layerArb = fc.constantFrom<Mutation['layer']>('content', 'stored');
const orderArb = fc.array(fc.nat({ max: 1000 }), { minLength: 2, maxLength: 64 });

export const mutationArbs = {
  truncation: fc.record({ file: fc.nat(), layer: layerArb, truncate: fc.nat() }),
  flips: fc.record({ file: fc.nat(), layer: layerArb, flips: flipsArb }),
  order: fc.record({ file: fc.nat(), layer: fc.constant<Mutation['layer']>('content'), order: orderArb }),
  all: fc.record({ file: fc.nat(), layer: layerArb, order: orderArb, truncate: fc.nat(), flips: flipsArb }),
  // Work a reader does again for every record of a run of broken ones shows only in large inputs.
  repeat: fc.record({
    file: fc.nat(),
    layer: fc.constant<Mutation['layer']>('content'),
    repeat: fc.record({ at: fc.nat(), length: fc.integer({ min: 1, max: 48 }), times: fc.integer({ min: 1000, max: 100_000 }) }),
  }),
} satisfies Record<string, fc.Arbitrary<Mutation>>;

/** A stable shuffle: records sorted by their key (a missing key is its index). */
function shuffleBy(keys: readonly number[]) {
  return <T>(xs: readonly T[]): T[] =>
    xs
      .map((x, i) => ({ x, k: keys[i % keys.length]! * 1_000_000 + i }))
      .sort((a, b) => a.k - b.k)
      .map((e) => e.x);
}

/**
 * Repeated input stays under this size: a linear reader reads it in well under a second, a
 * quadratic one (the trecweb framing before its fix) needs minutes for 2 MB and half a minute for
 * 512 KB. `npm test` (shared, loaded machines) uses the smaller size, `npm run fuzz` the larger.
 */
const MAX_REPEATED_BYTES = fuzzSettings().fuzzing ? 2 << 20 : 512 << 10;

function repeatSlice(bytes: Buffer, r: NonNullable<Mutation['repeat']>): Buffer {
  if (bytes.length === 0) return bytes;
  const at = r.at % bytes.length;
  const slice = bytes.subarray(at, at + r.length);
  const times = Math.max(1, Math.min(r.times, Math.floor(MAX_REPEATED_BYTES / slice.length)));
  return Buffer.concat([bytes.subarray(0, at), Buffer.alloc(slice.length * times, slice), bytes.subarray(at)]);
}

function mutateBytes(bytes: Buffer, m: Mutation): Buffer {
  let out = m.repeat ? repeatSlice(bytes, m.repeat) : Buffer.from(bytes);
  if (m.truncate !== undefined) out = out.subarray(0, m.truncate % (out.length + 1));
  for (const f of m.flips ?? []) if (out.length > 0) out[f.at % out.length] = f.byte;
  return out;
}

/** The bytes to write for `file` under mutation `m` (or unchanged when `m` is not about it). */
export function stored(file: FuzzFile, m: Mutation | undefined): Buffer {
  let content = file.content;
  if (m?.order && file.reorder) content = file.reorder(content, shuffleBy(m.order));
  if (!file.gzip) return m ? mutateBytes(content, m) : content;
  if (m?.layer === 'content') return gzipSync(mutateBytes(content, m));
  const gz = gzipSync(content);
  return m ? mutateBytes(gz, m) : gz;
}

function mutableFiles(t: FuzzTarget): FuzzFile[] {
  return t.files.filter((f) => f.mutable !== false);
}

/** Writes the target's files into `dir` with `m` applied to one of them; returns the file mutated. */
export function writeCase(dir: string, t: FuzzTarget, m: Mutation | undefined): FuzzFile | undefined {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const candidates = mutableFiles(t);
  const target = m && candidates.length > 0 ? candidates[m.file % candidates.length] : undefined;
  for (const f of t.files) {
    const path = join(dir, f.rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, stored(f, f === target ? m : undefined));
  }
  return target;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** A message longer than this echoes too much of the input. */
const MAX_MESSAGE = 600;
const MAX_DETAIL = 400;

/** Throws (with what went wrong) unless `o` is documents plus counted skips, or a one-line user error naming the file and place. */
export function checkOutcome(o: ReadOutcome, dir: string): ReadResult {
  if (o.kind === 'hang') throw new Error(`the read did not end within ${o.ms} ms (a hang; the reader's state: ${o.state})`);
  const problems: string[] = [];
  if (o.error) {
    const { name, message, userError, stack } = o.error;
    if (!userError) throw new Error(`internal error ${name}: ${message}\n${stack}`);
    if (message.includes('\n')) problems.push('error message is more than one line');
    if (CONTROL.test(message)) problems.push('error message holds control characters');
    if (message.length > MAX_MESSAGE) problems.push(`error message is ${message.length} characters long`);
    if (!message.includes(dir)) problems.push('error message does not name the file');
    if (!/\b(byte|line|position|offset) \d+|no documents read|holds no files|no \.jsonl/.test(message)) problems.push('error message names no place in the file');
    if (problems.length > 0) throw new Error(`${problems.join('; ')}: ${name}: ${message}`);
  }
  for (const d of o.docs) {
    if (typeof d.id !== 'string' || d.id === '') problems.push(`document with id ${JSON.stringify(d.id)}`);
    if (typeof d.text !== 'string') problems.push(`document ${d.id}: text is ${typeof d.text}`);
    for (const [k, v] of Object.entries(d.meta ?? {})) if (typeof v !== 'string') problems.push(`document ${d.id}: meta.${k} is ${typeof v}`);
  }
  if (!o.error && o.stats.kept !== o.docs.length) problems.push(`stats.kept ${o.stats.kept} but ${o.docs.length} documents`);
  for (const s of o.stats.skips) {
    const where = `skip ${s.reason} at ${s.file}:${s.offset ?? '-'}`;
    if (!/^[a-z0-9-]+$/.test(s.reason)) problems.push(`${where}: reason is not a code`);
    if (typeof s.detail !== 'string' || CONTROL.test(s.detail)) problems.push(`${where}: detail holds control characters: ${JSON.stringify(s.detail)}`);
    else if (s.detail.length > MAX_DETAIL) problems.push(`${where}: detail is ${s.detail.length} characters long`);
    if (!s.file.startsWith(dir)) problems.push(`${where}: does not name the file`);
    if (s.offset !== undefined && !(Number.isSafeInteger(s.offset) && s.offset >= 0)) problems.push(`${where}: offset is not a byte offset`);
  }
  if (problems.length > 0) throw new Error(problems.slice(0, 5).join('\n'));
  return o;
}

const docKey = (d: { id: string; text: string; meta?: Record<string, string> }) => JSON.stringify([d.id, d.text, d.meta ?? {}]);
const docSet = (r: ReadResult) => r.docs.map(docKey).sort();

/**
 * The four properties of a reader over `targets` (see the module comment), plus the clean
 * read of every target (which must succeed). `npm run fuzz` runs the same with a random seed for
 * longer (settings.ts).
 */
export function fuzzReader(title: string, targets: readonly FuzzTarget[]): void {
  const settings = fuzzSettings();
  const sandbox = new ReaderSandbox();
  let root = '';
  const clean = new Map<FuzzTarget, ReadResult>();

  const readCase = async (t: FuzzTarget, m: Mutation | undefined): Promise<{ result: ReadResult; file: FuzzFile | undefined }> => {
    const dir = join(root, 'case');
    const file = writeCase(dir, t, m);
    const outcome = await sandbox.read(t.format, join(dir, t.path), settings.caseTimeoutMs, t.options);
    return { result: checkOutcome(outcome, dir), file };
  };

  describe(`${title} reader under fuzzing (seed ${settings.seed})`, () => {
    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'ndd-fuzz-'));
      for (const t of targets) {
        // A fixture may hold no document at all (warcio's bad-length example): its one-line error is its clean outcome.
        const { result } = await readCase(t, undefined).catch((e: unknown) => {
          throw new Error(`${t.name}: the clean fixture: ${(e as Error).message}`, { cause: e });
        });
        clean.set(t, result);
      }
    }, 120_000);
    afterAll(async () => {
      await sandbox.close();
      if (root) rmSync(root, { recursive: true, force: true });
    });

    // Targets by index: a counterexample then prints as `[2, {…mutation}]`, not as the fixture's bytes.
    const targetArb = fc.integer({ min: 0, max: targets.length - 1 });
    const params = (): fc.Parameters<unknown> => ({
      seed: settings.seed,
      numRuns: settings.numRuns,
      ...(settings.timeLimitMs === undefined ? {} : { interruptAfterTimeLimit: settings.timeLimitMs, markInterruptAsFailure: false }),
    });
    const property = (
      name: string,
      arb: fc.Arbitrary<Mutation>,
      extra?: (t: FuzzTarget, m: Mutation, r: ReadResult, f: FuzzFile | undefined) => void,
      large = false,
    ) =>
      it(
        name,
        async () => {
          await fc.assert(
            fc.asyncProperty(targetArb, arb, async (i, m) => {
              const t = targets[i] as FuzzTarget;
              try {
                const { result, file } = await readCase(t, m);
                extra?.(t, m, result, file);
              } catch (e) {
                const replay = settings.fuzzing ? `npm run fuzz -- ${settings.seed}` : 'npm test';
                throw new Error(`${t.name}, mutation ${JSON.stringify(m)} (replay: ${replay}): ${(e as Error).message}`, { cause: e });
              }
            }),
            { ...params(), ...(large && !settings.fuzzing ? { numRuns: LARGE_RUNS } : {}) } as fc.Parameters<[number, Mutation]>,
          );
        },
        settings.testTimeoutMs,
      );

    property('truncated at any byte offset: documents and counted skips, or a one-line error', mutationArbs.truncation);
    property('with random bytes changed: documents and counted skips, or a one-line error', mutationArbs.flips);
    property('with its records out of order: the same documents', mutationArbs.order, (t, _m, r, file) => {
      const before = clean.get(t) as ReadResult;
      if (!file?.reorderKeepsDocs || before.error || before.stats.skipped['duplicate-id']) return;
      if (r.error) throw new Error(`reordered records do not read: ${r.error.message}`);
      const got = docSet(r);
      const want = docSet(before);
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        const missing = want.filter((k) => !got.includes(k)).slice(0, 3);
        const extra = got.filter((k) => !want.includes(k)).slice(0, 3);
        throw new Error(`reordered records read as other documents: missing ${missing.join(' | ')}; extra ${extra.join(' | ')}`);
      }
    });
    property('reordered, truncated and with bytes changed at once: documents and counted skips, or a one-line error', mutationArbs.all);
    property('with a slice repeated up to 100,000 times: documents and counted skips, or a one-line error, in linear time', mutationArbs.repeat, undefined, true);
  });
}
