/**
 * The ArrayBuffers of the typed arrays in a result (one level deep), minus shared and empty ones,
 * for postMessage transfer. An empty buffer gains nothing by moving, and a detached one (an array
 * already moved elsewhere) in a transfer list is dropped by postMessage without a word, where
 * copying it throws a DataCloneError that names the mistake.
 */
export function transferables(value: unknown): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const visit = (v: unknown): void => {
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer && v.byteLength > 0 && v.byteLength === v.buffer.byteLength) out.add(v.buffer);
    } else if (Array.isArray(v)) {
      for (const x of v) if (ArrayBuffer.isView(x)) visit(x);
    }
  };
  if (value && typeof value === 'object') {
    if (ArrayBuffer.isView(value) || Array.isArray(value)) visit(value);
    else for (const v of Object.values(value)) visit(v);
  }
  return [...out];
}
