/** The ArrayBuffers of the typed arrays in a result (one level deep), minus shared ones, for postMessage transfer. */
export function transferables(value: unknown): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const visit = (v: unknown): void => {
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer && v.byteLength === v.buffer.byteLength) out.add(v.buffer);
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
