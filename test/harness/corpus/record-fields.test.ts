import { describe, expect, it } from 'vitest';
import { documentParts, idOf, parseFieldPath, valueAt } from '../../../harness/corpus/record-fields.ts';

const OPTION = { id: 'id_field', text: 'text_field' };

describe('record fields', () => {
  it('splits a dotted path and refuses an empty key', () => {
    expect(parseFieldPath('a.b.c')).toEqual(['a', 'b', 'c']);
    expect(parseFieldPath('text')).toEqual(['text']);
    for (const bad of ['', '.a', 'a.', 'a..b']) expect(parseFieldPath(bad)).toBeUndefined();
  });

  it('finds a nested value, and nothing through an array, a scalar or an inherited key', () => {
    const record = { a: { b: { c: 1 } }, list: [{ x: 1 }], s: 'str' };
    expect(valueAt(record, ['a', 'b', 'c'])).toBe(1);
    expect(valueAt(record, ['list', '0', 'x'])).toBeUndefined();
    expect(valueAt(record, ['s', 'length'])).toBeUndefined();
    expect(valueAt(record, ['toString'])).toBeUndefined();
  });

  it('reads an id from a non-empty string or a safe integer only', () => {
    expect([idOf('x'), idOf(0), idOf(-12), idOf(2 ** 53 - 1)]).toEqual(['x', '0', '-12', '9007199254740991']);
    for (const bad of ['', 1.5, 2 ** 53, Number.NaN, null, true, {}]) expect(idOf(bad)).toBeUndefined();
  });

  it('keeps the record\'s meta object by default, and the named scalar fields when meta_fields is given', () => {
    const record = { id: 'd', text: 't', meta: { url: 'u' }, n: 3, nested: { ok: false, obj: {} } };
    expect(documentParts(record, { id: ['id'], text: ['text'] }, OPTION)).toEqual({ ok: true, id: 'd', text: 't', meta: { url: 'u' } });
    expect(documentParts(record, { id: ['id'], text: ['text'], meta: [['n'], ['nested', 'ok'], ['nested', 'obj'], ['absent']] }, OPTION)).toEqual({
      ok: true,
      id: 'd',
      text: 't',
      meta: { n: '3', 'nested.ok': 'false' },
    });
  });

  it('names the missing field, the record\'s fields and the key that chooses it', () => {
    expect(documentParts({ id: 1, body: 'x' }, { id: ['id'], text: ['text'] }, OPTION)).toEqual({
      ok: false,
      id: '1',
      problem: "text field 'text' missing (the record's fields: id, body; corpus.text_field chooses the field)",
    });
    expect(documentParts({ key: 'k' }, { id: ['doc', 'id'], text: ['text'] }, OPTION)).toEqual({
      ok: false,
      problem: "id field 'doc.id' missing (the record's fields: key; corpus.id_field chooses the field)",
    });
  });
});
