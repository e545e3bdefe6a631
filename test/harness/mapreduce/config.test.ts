import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { backendUnion } from '../../../harness/mapreduce/config.ts';
import { localBackendSchema, PRICE_PER_VCPU_HOUR_USD } from '../../../harness/mapreduce/local/config.ts';

describe('the backend section', () => {
  it('builds a backend union that a new kind extends', () => {
    const other = z.object({ kind: z.literal('other'), nodes: z.number() }).strict();
    const union = backendUnion([localBackendSchema, other]);
    expect(union.parse({ kind: 'other', nodes: 3 })).toEqual({ kind: 'other', nodes: 3 });
    expect(union.parse({ kind: 'local' })).toEqual({ kind: 'local', engine: 'auto', memory_mb: 2048, price_per_vcpu_hour: PRICE_PER_VCPU_HOUR_USD });
    expect(union.safeParse({ kind: 'emr' }).success).toBe(false);
  });
});
