import { describe, expect, it } from 'vitest';
import { readerOptionsOf } from '../../../harness/corpus/registry.ts';

describe('readerOptionsOf', () => {
  it('passes the JSONL field choices a config makes, and only those', () => {
    expect(readerOptionsOf({ format: 'jsonl' })).toEqual({});
    expect(readerOptionsOf({ format: 'jsonl', id_field: 'doc.id', text_field: 'content', meta_fields: ['url'] })).toEqual({
      id_field: 'doc.id',
      text_field: 'content',
      meta_fields: ['url'],
    });
  });

  it('passes WARC\'s id header and the mail corpus\'s groups', () => {
    expect(readerOptionsOf({ format: 'warc', id_field: 'WARC-Record-ID' })).toEqual({ id_field: 'WARC-Record-ID' });
    expect(readerOptionsOf({ format: 'spamassassin', groups: ['ham'] })).toEqual({ groups: ['ham'] });
    expect(readerOptionsOf({ format: 'spamassassin' })).toEqual({});
  });
});
