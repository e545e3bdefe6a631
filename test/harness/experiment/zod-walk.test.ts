import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { broderParams } from '../../../algorithms/broder/params.ts';
import { isScalarSchema, knownKeys, literalValues, schemaAt, unwrap } from '../../../harness/experiment/zod-walk.ts';

describe('zod-walk', () => {
  it('unwraps defaults, optionals and nullables down to the checking schema', () => {
    const inner = z.number();
    expect(unwrap(inner.nullable().optional().default(3))).toBe(inner);
  });

  it('counts numbers, enums, literals and unions of them as scalars, not objects or arrays', () => {
    expect([z.number().int().nullable(), z.enum(['a', 'b']), z.literal('x'), z.union([z.number(), z.literal('auto')])].map(isScalarSchema)).toEqual([true, true, true, true]);
    expect([z.object({}), z.array(z.number()), z.record(z.string(), z.number())].map(isScalarSchema)).toEqual([false, false, false]);
  });

  it('resolves a discriminated union by the value in the data', () => {
    const at = schemaAt(broderParams, { sampling: { method: 'sct' } }, ['sampling', 'threshold']);
    expect(at !== undefined && isScalarSchema(at.schema)).toBe(true);
    expect(schemaAt(broderParams, { sampling: { method: 'mod' } }, ['sampling', 'threshold'])).toBeUndefined();
    expect(knownKeys(broderParams, { sampling: { method: 'mod' } }, ['sampling'])).toEqual(['method', 'm', 'residue', 'residues']);
  });

  it('reads the values of literals and enums', () => {
    expect(literalValues(z.enum(['rabin64', 'md5']).default('md5'))).toEqual(['rabin64', 'md5']);
    expect(literalValues(z.literal('sct'))).toEqual(['sct']);
    expect(literalValues(z.number())).toBeUndefined();
  });
});
