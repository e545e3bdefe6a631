/**
 * Row order of the study tables. TREC topics are numbers written as text ("2" before "10"),
 * so numeric ids compare as numbers; anything else (and ties such as "07" and "7") falls back
 * to byte order, which keeps the order total and the same on every machine.
 */
const NUMERIC = /^\d+$/;

function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}

export function compareTopics(a: string, b: string): number {
  const an = NUMERIC.test(a);
  const bn = NUMERIC.test(b);
  if (an && bn) {
    const diff = BigInt(a) - BigInt(b);
    if (diff !== 0n) return diff < 0n ? -1 : 1;
    return byteOrder(a, b);
  }
  if (an !== bn) return an ? -1 : 1;
  return byteOrder(a, b);
}

export { byteOrder };
