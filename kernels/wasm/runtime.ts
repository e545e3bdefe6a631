/**
 * The part of the WebAssembly JavaScript API the project's modules use (Node's type declarations
 * leave it out), and the two things each of them did with it: grow a memory to hold a call's
 * data, and place that data at aligned offsets. MinHash's hash kernel and Rabin's roll use it.
 */

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}

interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { readonly exports: unknown };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  validate(bytes: Uint8Array): boolean;
}

export const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** Grows `memory` (pages of 64 KiB) to at least `bytes`; returns its buffer, new when it grew. */
export function growTo(memory: WasmMemory, bytes: number): ArrayBuffer {
  const pages = Math.ceil(bytes / 65536);
  const have = memory.buffer.byteLength / 65536;
  if (pages > have) memory.grow(pages - have);
  return memory.buffer;
}

/** `n` rounded up to a multiple of `to`. */
export function align(n: number, to: number): number {
  return Math.ceil(n / to) * to;
}
