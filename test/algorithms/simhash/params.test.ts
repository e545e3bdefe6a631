import { describe, expect, it } from 'vitest';
import { simhashParams } from '../../../algorithms/simhash/params.ts';

/** The first issue's path and message, as a config error would show it. */
function problem(raw: unknown): string {
  const r = simhashParams.safeParse(raw);
  if (r.success) return 'ok';
  const i = r.error.issues[0]!;
  return `${i.path.join('.')}: ${i.message}`;
}

describe('simhash parameters', () => {
  it('default to the original simhash over words at k = 3', () => {
    expect(simhashParams.parse({})).toEqual({
      k: 3,
      blocks: 'auto',
      features: { unit: 'word', size: 1 },
      idf: 'inverse',
      document_frequencies: { from: 'corpus' },
      strip_numbers_dates: false,
      low_threshold: false,
      high_threshold: false,
      top_features: false,
      position: 'none',
      tag_boost: false,
    });
  });

  it('refuse bad values with one line naming the field', () => {
    expect(problem({ k: 65 })).toBe('k: k must be at most 64: fingerprints have 64 bits');
    expect(problem({ k: -1 })).toBe('k: k must be 0 or more');
    expect(problem({ k: 3, blocks: 3 })).toMatch(/^blocks: blocks must exceed k \(3\)/);
    expect(problem({ k: 10, blocks: 20 })).toMatch(/^blocks: blocks = 20 with k = 10 makes 184756 tables, more than 256/);
    expect(problem({ low_threshold: 1.5 })).toMatch(/^low_threshold: /);
    expect(problem({ metadata: { fields: [] } })).toMatch(/^metadata.fields: /);
    expect(problem({ metadata: { fields: ['Subject'] } })).toBe('metadata.fields.0: a meta field name: lower-case letters, digits and _');
    expect(problem({ position: 'sqrt' })).toMatch(/^position: /);
    expect(problem({ document_frequencies: { from: 'file' } })).toMatch(/^document_frequencies.path: /);
    expect(problem({ shingle: 3 })).toMatch(/Unrecognized key/);
    expect(problem({ document_frequencies: { from: 'file', path: '/no/such/df.tsv' } })).toBe(
      "document_frequencies.path: no such file: /no/such/df.tsv (absolute, or relative to the config file's directory)",
    );
  });

  it('accept k up to 64 with the automatic layout', () => {
    expect(problem({ k: 64 })).toBe('ok');
    expect(problem({ k: 0, blocks: 1 })).toBe('ok');
  });
});
