/**
 * A config's `backend` section: one schema a backend kind (local/config.ts, streaming/config.ts,
 * emr/config.ts), united here, where backends.ts turns the parsed section into a backend.
 */
import { z } from 'zod';
import { emrBackendSchema } from './emr/config.ts';
import { hadoopBackendSchema } from './hadoop/config.ts';
import { localBackendSchema } from './local/config.ts';
import { sparkBackendSchema } from './spark/config.ts';
import { streamingBackendSchema } from './streaming/config.ts';

/** Builds the `backend` union from its kinds; each kind is a strict object with a literal `kind`. */
export function backendUnion<const T extends readonly [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]]>(
  kinds: T,
) {
  return z.discriminatedUnion('kind', kinds);
}

/** The backend kinds a config may name; add a kind's schema here. */
export const backendKinds = [localBackendSchema, streamingBackendSchema, hadoopBackendSchema, sparkBackendSchema, emrBackendSchema] as const;
export const backendSchema = backendUnion(backendKinds).prefault({ kind: 'local' }).describe('where the jobs run');

type WithWorkers<B> = B extends { readonly kind: 'local' } ? Omit<B, 'workers'> & { readonly workers: number } : B;

/** The backend section; a local backend's `workers` defaults to the number of CPUs. */
export type BackendConfig = WithWorkers<z.output<typeof backendSchema>>;
