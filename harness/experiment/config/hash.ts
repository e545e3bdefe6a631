/** An experiment's hash: of its resolved config, so that equal experiments hash alike however their YAML is written. */
import { createHash } from 'node:crypto';
import { isRecord } from './scope.ts';

/** JSON with object keys sorted, for a hash that does not depend on key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isRecord(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v,
  );
}

/** SHA-256 (hex) of the canonical JSON of `resolved`. */
export function configHash(resolved: unknown): string {
  return createHash('sha256').update(canonicalJson(resolved)).digest('hex');
}
