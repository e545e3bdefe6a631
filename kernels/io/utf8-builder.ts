/**
 * A file's UTF-8 bytes assembled in one growing buffer from text and from pieces encoded
 * before: a run's error files splice the same documents' texts into hundreds of lines, and
 * encoding each text once a run, then copying its bytes, costs less than joining the lines into
 * one string of megabytes and encoding all of it again for every file (docs/performance.md).
 */
export class Utf8Builder {
  private buf: Buffer;
  private at = 0;

  constructor(initialBytes = 1 << 16) {
    this.buf = Buffer.allocUnsafe(Math.max(16, initialBytes));
  }

  /** Appends `text` encoded as UTF-8 (a lone surrogate as U+FFFD, as Buffer.from does). */
  text(text: string): this {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8 (a surrogate pair, 2 units, takes 4).
    this.room(3 * text.length);
    this.at += this.buf.write(text, this.at, 'utf8');
    return this;
  }

  /** Appends bytes as they are. */
  bytes(bytes: Uint8Array): this {
    this.room(bytes.length);
    this.buf.set(bytes, this.at);
    this.at += bytes.length;
    return this;
  }

  /** The bytes appended so far: a view, which later appends leave as it is. */
  result(): Buffer {
    return this.buf.subarray(0, this.at);
  }

  private room(n: number): void {
    if (this.at + n <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(2 * this.buf.length, this.at + n));
    this.buf.copy(grown, 0, 0, this.at);
    this.buf = grown;
  }
}
