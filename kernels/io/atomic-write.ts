/**
 * Writes a file so that a reader sees the old content or the new, never part of the new: the
 * content goes to a temporary file beside the target (the same file system, so the rename is
 * atomic), which is renamed over it; a failed write removes the temporary file.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync, renameSync } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** What a file is written from: text (UTF-8), bytes, or a run of byte buffers written in order. */
export type FileContent = string | Uint8Array | readonly Uint8Array[];

export interface AtomicWriteOptions {
  /**
   * The temporary file's path, beside the target; it must not exist (it is created exclusively).
   * Default: `.<name>.<pid>.<random>.tmp` in the target's folder.
   */
  readonly temporary?: string;
}

/** The default temporary name: hidden, and unique to this process and call. */
export function temporaryBeside(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

export async function writeFileAtomic(file: string, content: FileContent, o: AtomicWriteOptions = {}): Promise<void> {
  const tmp = o.temporary ?? temporaryBeside(file);
  const fh = await open(tmp, 'wx');
  try {
    try {
      if (typeof content === 'string' || content instanceof Uint8Array) await fh.writeFile(content, typeof content === 'string' ? 'utf8' : undefined);
      else await writeAll(fh, content as readonly Uint8Array[]);
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

/** writev may write less than it is given (POSIX): the rest follows, a buffer at a time. */
async function writeAll(fh: FileHandle, buffers: readonly Uint8Array[]): Promise<void> {
  let { bytesWritten } = await fh.writev(buffers as Uint8Array[]);
  for (const b of buffers) {
    if (bytesWritten >= b.byteLength) {
      bytesWritten -= b.byteLength;
      continue;
    }
    let at = bytesWritten;
    bytesWritten = 0;
    while (at < b.byteLength) at += (await fh.write(b, at, b.byteLength - at)).bytesWritten;
  }
}

export function writeFileAtomicSync(file: string, content: FileContent, o: AtomicWriteOptions = {}): void {
  const tmp = o.temporary ?? temporaryBeside(file);
  try {
    writeFileSync(tmp, typeof content === 'string' || content instanceof Uint8Array ? content : Buffer.concat(content as Uint8Array[]), { flag: 'wx' });
    renameSync(tmp, file);
  } catch (e) {
    // Only a temporary file this call created: `wx` fails on one that was there.
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') rmSync(tmp, { force: true });
    throw e;
  }
}
