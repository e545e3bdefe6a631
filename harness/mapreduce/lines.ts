/**
 * Synchronous line files for the in-process engine: a buffered writer and a chunked reader.
 * Records are written already encoded (`records.ts`), one a line.
 */
import { closeSync, openSync, readSync, writeSync } from 'node:fs';

export class LineWriter {
  private readonly fd: number;
  private chunks: string[] = [];
  private pending = 0;
  lines = 0;
  bytes = 0;

  constructor(readonly path: string) {
    this.fd = openSync(path, 'w');
  }

  write(line: string): void {
    this.chunks.push(line, '\n');
    this.pending += line.length + 1;
    this.lines++;
    if (this.pending >= 1 << 20) this.flush();
  }

  private flush(): void {
    if (this.chunks.length === 0) return;
    const buf = Buffer.from(this.chunks.join(''), 'utf8');
    writeSync(this.fd, buf);
    this.bytes += buf.length;
    this.chunks = [];
    this.pending = 0;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** Lines of a UTF-8 file, without their newline; reads 1 MiB at a time. */
export function* readLines(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let carry: Buffer = Buffer.alloc(0);
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      const chunk = carry.length > 0 ? Buffer.concat([carry, buf.subarray(0, n)]) : buf.subarray(0, n);
      let start = 0;
      for (let i = chunk.indexOf(10, start); i >= 0; i = chunk.indexOf(10, start)) {
        yield chunk.toString('utf8', start, i);
        start = i + 1;
      }
      carry = Buffer.from(chunk.subarray(start));
    }
    if (carry.length > 0) yield carry.toString('utf8');
  } finally {
    closeSync(fd);
  }
}
