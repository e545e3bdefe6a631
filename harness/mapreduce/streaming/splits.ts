/**
 * Input splits as Hadoop's (old-API) `FileInputFormat` and `LineRecordReader` make them: the
 * number of map tasks is a hint, each file is cut separately into pieces of
 * `splitSize = min(totalSize / numSplits, blockSize)` (the last piece may be up to 10% larger),
 * and a split owns the lines that *start* inside it (after its first byte), so a line cut by a
 * boundary belongs to the split where it starts.
 */
import { open } from 'node:fs/promises';

export interface InputFile {
  readonly path: string;
  readonly size: number;
}

export interface Split {
  readonly path: string;
  /** Byte range [start, end) of the file. */
  readonly start: number;
  readonly end: number;
}

/** Hadoop's SPLIT_SLOP: a remainder up to 10% of a split rides along with the last split. */
const SPLIT_SLOP = 1.1;

/** Byte splits before line alignment. Empty files get no split (they hold no record). */
export function planSplits(files: readonly InputFile[], numSplits: number, maxSplitBytes = Infinity): Split[] {
  const total = files.reduce((s, f) => s + f.size, 0);
  const goal = Math.floor(total / Math.max(1, numSplits));
  const splitSize = Math.max(1, Math.min(goal, maxSplitBytes));
  const splits: Split[] = [];
  for (const f of files) {
    let remaining = f.size;
    while (remaining / splitSize > SPLIT_SLOP) {
      const start = f.size - remaining;
      splits.push({ path: f.path, start, end: start + splitSize });
      remaining -= splitSize;
    }
    if (remaining > 0) splits.push({ path: f.path, start: f.size - remaining, end: f.size });
  }
  return splits;
}

/**
 * Moves every split boundary to just after the first LF at or after it, which gives each line
 * to the split in which it starts; splits left empty are dropped.
 */
export async function alignSplits(splits: readonly Split[]): Promise<Split[]> {
  const out: Split[] = [];
  const byFile = new Map<string, Split[]>();
  for (const s of splits) byFile.set(s.path, [...(byFile.get(s.path) ?? []), s]);
  for (const [path, parts] of byFile) {
    const fh = await open(path, 'r');
    try {
      const size = (await fh.stat()).size;
      const bounds = [0];
      for (const p of parts.slice(1)) bounds.push(await afterNextLf(fh, p.start, size));
      bounds.push(size);
      for (let i = 0; i + 1 < bounds.length; i++) {
        const start = bounds[i] as number;
        const end = Math.max(start, bounds[i + 1] as number);
        if (end > start) out.push({ path, start, end });
        bounds[i + 1] = end;
      }
    } finally {
      await fh.close();
    }
  }
  return out;
}

async function afterNextLf(fh: import('node:fs/promises').FileHandle, from: number, size: number): Promise<number> {
  const buf = Buffer.allocUnsafe(1 << 16);
  for (let pos = from; pos < size; ) {
    const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
    if (bytesRead === 0) break;
    const lf = buf.subarray(0, bytesRead).indexOf(10);
    if (lf >= 0) return pos + lf + 1;
    pos += bytesRead;
  }
  return size;
}
