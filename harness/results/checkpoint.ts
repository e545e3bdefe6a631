/**
 * What `bench run --resume` resumes from: `<results>/<experiment>/.resume-<run-id>/`, where each
 * variant is saved as it completes (its record and files; the ground truth's pairs too, which
 * every later variant is compared with). The folder is written only under the run id's lock,
 * kept when a run fails or is interrupted, and removed when the run completes. A saved variant
 * is reused only when the run's inputs (config, package version, input files) and the variant's
 * algorithm and parameters are those it was saved with.
 *
 * A variant's folder holds `variant.json` (its record, and its files' names and lengths) and
 * `files.bin` (the files' bytes one after another): one file for all, not a folder for each of
 * their paths (`errors/broder/…`), because making a directory cost the quickstart a millisecond
 * or more under load, several a variant (docs/performance.md). A folder of an older version
 * (`record.json` and `files/`) is not restored: its variant runs again.
 */
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PairList } from '../../contract/index.ts';
import { writeFileAtomicSync } from '../../kernels/io/atomic-write.ts';
import { byteLengthOf, piecesOf, readInto, readRangePieces, writeFileInPieces, type FileBytes, type PieceOptions } from '../../kernels/io/pieces.ts';
import type { VariantRecord } from './types.ts';

export interface SavedVariant {
  readonly record: VariantRecord;
  readonly files: readonly { readonly file: string; readonly bytes: FileBytes }[];
  /** the ground truth's sorted pairs */
  readonly truth?: PairList;
}

/**
 * What a variant's run gave before it was evaluated (the backend's result, pairs only): the
 * ground truth's is saved as soon as it exists, so that a failure in its evaluation or files
 * does not lose its join. `facts` is the rest of the result (counters, times, cost), as JSON.
 */
export interface SavedResult {
  readonly pairs: PairList;
  readonly facts: Readonly<Record<string, unknown>>;
}

/** `variant.json`: a saved variant's record, and its files in the order `files.bin` holds them. */
interface SavedIndex {
  readonly record: VariantRecord;
  readonly files: readonly { readonly file: string; readonly bytes: number }[];
}

interface Manifest {
  readonly inputs_digest: string;
  /** variant name → its identity and folder */
  readonly variants: Record<string, { readonly identity: string; readonly dir: string }>;
  /** variant name → the identity and folder of its result saved before its evaluation (SavedResult) */
  readonly results?: Record<string, { readonly identity: string; readonly dir: string }>;
  /**
   * The number of the next variant folder. It only grows: a folder name is never given twice,
   * so saving a variant again, or after a resume, cannot overwrite another variant's folder.
   */
  readonly next_slot: number;
}

const SLOT = /^v(\d+)$/;

function slotName(n: number): string {
  return `v${String(n).padStart(3, '0')}`;
}

/** For a manifest written before `next_slot`: past every folder it names. */
function nextSlotAfter(variants: Manifest['variants']): number {
  let next = 0;
  for (const { dir } of Object.values(variants)) {
    const m = SLOT.exec(dir);
    if (m) next = Math.max(next, Number(m[1]) + 1);
  }
  return next;
}

export function checkpointDir(experimentDir: string, runId: string): string {
  return join(experimentDir, `.resume-${runId}`);
}

/** The identity a saved variant must match: its algorithm and validated parameters. */
export function variantIdentity(algorithm: string, params: unknown): string {
  return JSON.stringify([algorithm, params]);
}

export class Checkpoint {
  private manifest: Manifest;

  private constructor(
    readonly dir: string,
    inputsDigest: string,
    manifest: Manifest | undefined,
    /** the bound on one read or write of a saved file (kernels/io/pieces.ts; tests make it tiny) */
    private readonly pieces: PieceOptions = {},
  ) {
    this.manifest = manifest ?? { inputs_digest: inputsDigest, variants: {}, next_slot: 0 };
  }

  /**
   * Opens the run id's checkpoint. With `resume`, one saved with the same inputs is kept (and
   * `reason` is undefined); otherwise, or when the inputs differ, it is emptied and `reason` says why.
   */
  /** How many finished variants an earlier run left in `dir` (0: none, or no checkpoint). */
  static savedCount(dir: string): number {
    const m = readManifest(dir);
    return Object.keys(m?.variants ?? {}).length + Object.keys(m?.results ?? {}).length;
  }

  static open(dir: string, inputsDigest: string, resume: boolean, pieces: PieceOptions = {}): { checkpoint: Checkpoint; saved: number; discarded?: string } {
    const old = readManifest(dir);
    if (old && resume && old.inputs_digest === inputsDigest) {
      return { checkpoint: new Checkpoint(dir, inputsDigest, old, pieces), saved: Object.keys(old.variants).length };
    }
    const discarded = old === undefined ? undefined : resume ? 'its inputs differ from this run’s' : 'this run was not asked to resume (--resume)';
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const c = new Checkpoint(dir, inputsDigest, undefined, pieces);
    c.writeManifest();
    return { checkpoint: c, saved: 0, ...(discarded && Object.keys(old?.variants ?? {}).length > 0 ? { discarded } : {}) };
  }

  restore(name: string, identity: string): SavedVariant | undefined {
    const entry = this.manifest.variants[name];
    if (!entry || entry.identity !== identity) return undefined;
    const dir = join(this.dir, entry.dir);
    try {
      const { record, files: index } = JSON.parse(readFileSync(join(dir, 'variant.json'), 'utf8')) as SavedIndex;
      // A folder holding another variant's record (a checkpoint written by an older version
      // could reuse folders) is not this variant's: it runs again.
      if (record.name !== name) return undefined;
      const files = this.readFiles(join(dir, 'files.bin'), index);
      const truthFile = join(dir, 'truth.bin');
      return { record, files, ...(existsSync(truthFile) ? { truth: readPairs(truthFile, this.pieces) } : {}) };
    } catch {
      // A variant whose files are not all there is run again.
      return undefined;
    }
  }

  /** Saves what a variant's run gave, before its evaluation; `save` of the variant drops it. */
  saveResult(name: string, identity: string, r: SavedResult): void {
    const slot = slotName(this.manifest.next_slot);
    const tmp = join(this.dir, `${slot}.tmp`);
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    writeFileInPieces(join(tmp, 'pairs.bin'), pairsParts(r.pairs), this.pieces);
    writeFileSync(join(tmp, 'facts.json'), JSON.stringify(r.facts));
    rmSync(join(this.dir, slot), { recursive: true, force: true });
    renameSync(tmp, join(this.dir, slot));
    const previous = this.manifest.results?.[name]?.dir;
    this.manifest = { ...this.manifest, results: { ...this.manifest.results, [name]: { identity, dir: slot } }, next_slot: this.manifest.next_slot + 1 };
    this.writeManifest();
    if (previous !== undefined && previous !== slot) rmSync(join(this.dir, previous), { recursive: true, force: true });
  }

  /** What `saveResult` saved for `name` under `identity`, or undefined. */
  restoreResult(name: string, identity: string): SavedResult | undefined {
    const entry = this.manifest.results?.[name];
    if (!entry || entry.identity !== identity) return undefined;
    const dir = join(this.dir, entry.dir);
    try {
      const facts = JSON.parse(readFileSync(join(dir, 'facts.json'), 'utf8')) as Record<string, unknown>;
      return { pairs: readPairs(join(dir, 'pairs.bin'), this.pieces), facts };
    } catch {
      return undefined;
    }
  }

  save(name: string, identity: string, v: SavedVariant): void {
    const slot = slotName(this.manifest.next_slot);
    const tmp = join(this.dir, `${slot}.tmp`);
    rmSync(tmp, { recursive: true, force: true });
    mkdirSync(tmp, { recursive: true });
    writeFileInPieces(join(tmp, 'files.bin'), v.files.flatMap((f) => piecesOf(f.bytes)), this.pieces);
    if (v.truth) writeFileInPieces(join(tmp, 'truth.bin'), pairsParts(v.truth), this.pieces);
    const index: SavedIndex = { record: v.record, files: v.files.map((f) => ({ file: f.file, bytes: byteLengthOf(f.bytes) })) };
    writeFileSync(join(tmp, 'variant.json'), JSON.stringify(index));
    rmSync(join(this.dir, slot), { recursive: true, force: true });
    // A folder renamed into place, not a file: kernels/io/atomic-write.ts writes files only.
    renameSync(tmp, join(this.dir, slot));
    const previous = this.manifest.variants[name]?.dir;
    // The variant saved whole, the result saved before its evaluation is not needed.
    const { [name]: result, ...results } = this.manifest.results ?? {};
    this.manifest = { ...this.manifest, variants: { ...this.manifest.variants, [name]: { identity, dir: slot } }, results, next_slot: this.manifest.next_slot + 1 };
    this.writeManifest();
    // The manifest no longer names the variant's previous folder.
    for (const old of [previous, result?.dir]) if (old !== undefined && old !== slot) rmSync(join(this.dir, old), { recursive: true, force: true });
  }

  get savedVariants(): number {
    return Object.keys(this.manifest.variants).length;
  }

  /** Variants whose run is saved without their evaluation (saveResult). */
  get savedResults(): number {
    return Object.keys(this.manifest.results ?? {}).length;
  }

  remove(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** The files of `files.bin`, each as pieces (kernels/io/pieces.ts); throws when it is not exactly their lengths long. */
  private readFiles(file: string, index: SavedIndex['files']): SavedVariant['files'] {
    const fd = openSync(file, 'r');
    try {
      let at = 0;
      const files = index.map((f) => {
        const bytes = readRangePieces(fd, { at, bytes: f.bytes }, this.pieces);
        at += f.bytes;
        return { file: f.file, bytes };
      });
      const size = fstatSync(fd).size;
      if (size !== at) throw new Error(`${file}: ${size} bytes, its index says ${at}`);
      return files;
    } finally {
      closeSync(fd);
    }
  }

  private writeManifest(): void {
    writeFileAtomicSync(join(this.dir, 'manifest.json'), JSON.stringify(this.manifest));
  }
}

function readManifest(dir: string): Manifest | undefined {
  try {
    const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Omit<Manifest, 'next_slot'> & { next_slot?: unknown };
    if (typeof m.inputs_digest !== 'string' || typeof m.variants !== 'object' || m.variants === null) return undefined;
    const results = typeof m.results === 'object' && m.results !== null ? m.results : {};
    const after = Math.max(nextSlotAfter(m.variants), nextSlotAfter(results));
    const next = typeof m.next_slot === 'number' && Number.isSafeInteger(m.next_slot) && m.next_slot >= after ? m.next_slot : after;
    return { inputs_digest: m.inputs_digest, variants: m.variants, results, next_slot: next };
  } catch {
    return existsSync(dir) && readdirSync(dir).length > 0 ? { inputs_digest: '', variants: {}, next_slot: 0 } : undefined;
  }
}

/** n, then the a, b and score arrays, little-endian as the machine writes them: parts written in turn, never joined. */
function pairsParts(p: PairList): ArrayBufferView[] {
  const head = Buffer.alloc(8);
  head.writeBigUInt64LE(BigInt(p.a.length));
  return [head, p.a, p.b, p.score];
}

function readPairs(file: string, pieces: PieceOptions): PairList {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(8);
    readInto(fd, head, 0, pieces);
    const n = Number(head.readBigUInt64LE(0));
    const p = { a: new Uint32Array(n), b: new Uint32Array(n), score: new Float64Array(n) };
    readInto(fd, p.a, 8, pieces);
    readInto(fd, p.b, 8 + 4 * n, pieces);
    readInto(fd, p.score, 8 + 8 * n, pieces);
    return p;
  } finally {
    closeSync(fd);
  }
}
