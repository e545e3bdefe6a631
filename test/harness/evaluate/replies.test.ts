/**
 * The reply-parent oracle of a mail corpus and the span kinds, on documents written here so that
 * every expected value can be counted by hand.
 */
import { describe, expect, it } from 'vitest';
import type { DocumentSet, PairList, Span } from '../../../contract/index.ts';
import { loadReplyOracle, replyParentPairs } from '../../../harness/evaluate/replies.ts';
import { signatureBlocks, spanKinds } from '../../../harness/evaluate/span-kinds.ts';

const pairList = (rows: [number, number, number][]): PairList => ({
  a: Uint32Array.from(rows.map((r) => r[0])),
  b: Uint32Array.from(rows.map((r) => r[1])),
  score: Float64Array.from(rows.map((r) => r[2])),
});

describe('reply-parent pairs', () => {
  it('pair a reply with every present message its In-Reply-To names, once, lower index first', () => {
    const docs: DocumentSet = {
      ids: ['p', 'r1', 'r2', 'x', 'self'],
      texts: ['', '', '', '', ''],
      meta: [
        { message_id: '<p@a>' },
        { message_id: '<r1@a>', in_reply_to: '<p@a>' },
        // replies to r1 and to p (both present), and to a message not in the corpus
        { message_id: '<r2@a>', in_reply_to: '<r1@a> <p@a> <gone@a>' },
        undefined,
        // a message naming itself is no pair
        { message_id: '<s@a>', in_reply_to: '<s@a>' },
      ],
    };
    expect([...replyParentPairs(docs)].sort()).toEqual(['0:1', '0:2', '1:2']);
  });

  it('a reply before its parent in reading order still pairs them, a < b', () => {
    const docs: DocumentSet = { ids: ['r', 'p'], texts: ['', ''], meta: [{ message_id: '<r@a>', in_reply_to: '<p@a>' }, { message_id: '<p@a>' }] };
    expect([...replyParentPairs(docs)]).toEqual(['0:1']);
  });

  it('a corpus without meta has none, and the oracle says so in a warning', () => {
    const o = loadReplyOracle({ ids: ['a'], texts: ['x'] }, { repeated_documents: 10 });
    expect(o.pairs.size).toBe(0);
    expect(o.warning).toMatch(/no document of the corpus replies to another/);
    expect(o.measures(pairList([]), () => true)).toEqual({ reply_pairs: 0, reply_recall: null });
  });
});

describe('span kinds', () => {
  it('signature blocks: the separator, two sign-off lines before it and up to ten lines after it, of its quote depth', () => {
    const text = ['Hello.', 'Thanks,', 'Ann', '-- ', 'Ann Smith', 'ann@x.org', '', 'after'].join('\n');
    // lines: "Hello."[0,6) "Thanks,"[7,14) "Ann"[15,18) "-- "[19,22) "Ann Smith"[23,32) "ann@x.org"[33,42) ""[43,43) "after"[44,49)
    expect(signatureBlocks(text)).toEqual([[7, 49]]);
    // a quoted signature stops at the first line of another depth; "--" without a space counts
    // lines: "> Bye"[0,5) "> --"[6,10) "> Bob"[11,16) "My answer."[17,27)
    const quoted = ['> Bye', '> --', '> Bob', 'My answer.'].join('\n');
    expect(signatureBlocks(quoted)).toEqual([[0, 16]]);
    // more dashes are a rule, not a separator
    expect(signatureBlocks('a\n---\nb')).toEqual([]);
    // at most ten lines after the separator
    const long = ['--', ...Array.from({ length: 12 }, (_, i) => `l${i}`)].join('\n');
    const [[, end]] = signatureBlocks(long) as [[number, number]];
    expect(long.slice(0, end).split('\n')).toHaveLength(11);
  });

  it('footer, signature and repeated, each by its rule, on either side', () => {
    const footer = 'To unsubscribe from this group, send an email to list-off@x.org.';
    const texts = [
      `Body one.\n${footer}`, // 0
      `Other body.\n${footer}`, // 1
      'Thanks,\nAnn\n-- \nAnn Smith, Example Corp.', // 2
      'I agree.\n> Ann Smith, Example Corp.', // 3
      'Shared plain text here.', // 4
      'Shared plain text here!', // 5
      'Shared plain text here.', // 6
    ];
    const f0 = texts[0]!.indexOf('To');
    const f1 = texts[1]!.indexOf('To');
    const spans: Span[] = [
      { a: 0, b: 1, aStart: f0, aEnd: texts[0]!.length, bStart: f1, bEnd: texts[1]!.length },
      // starts in doc 2's signature block, not in doc 3's quote
      { a: 2, b: 3, aStart: texts[2]!.indexOf('Ann Smith'), aEnd: texts[2]!.length, bStart: texts[3]!.indexOf('Ann Smith'), bEnd: texts[3]!.length },
      { a: 4, b: 5, aStart: 0, aEnd: 23, bStart: 0, bEnd: 23 },
      { a: 4, b: 6, aStart: 0, aEnd: 23, bStart: 0, bEnd: 23 },
      // the same body text twice is not a footer: the phrase is beyond the first 200 characters
      { a: 0, b: 1, aStart: 0, aEnd: 9, bStart: 0, bEnd: 11 },
    ];
    // normalized, docs 4, 5 and 6 hold "shared plain text here": 3 documents
    expect(spanKinds(spans, texts, 2).map((k) => [k.footer, k.signature, k.repeated])).toEqual([
      [true, false, false],
      [false, true, false],
      [false, false, true],
      [false, false, true],
      [false, false, false],
    ]);
    expect(spanKinds(spans, texts, 3).map((k) => k.repeated)).toEqual([false, false, false, false, false]);
  });
});

describe('reply measures', () => {
  // Reply-parent pairs 0:1 (a quoted reply), 2:3 (they share a footer only) and 4:5 (not found).
  const body = 'We should meet on Monday at noon in the hall.';
  const footer = 'List maintainer: listmaster@x.org and more text.';
  const docs: DocumentSet = {
    ids: ['p', 'r', 'q', 's', 't', 'u', 'v'],
    texts: [body, `> ${body}\nFine.`, `Hi.\n${footer}`, `Yo.\n${footer}`, 'alone', 'also alone', `Hey.\n${footer}`],
    meta: [
      { message_id: '<p@x>' },
      { message_id: '<r@x>', in_reply_to: '<p@x>' },
      { message_id: '<q@x>' },
      { message_id: '<s@x>', in_reply_to: '<q@x>' },
      { message_id: '<t@x>' },
      { message_id: '<u@x>', in_reply_to: '<t@x>' },
      { message_id: '<v@x>' },
    ],
  };
  const f = (d: number): number => docs.texts.at(d)!.indexOf('List');
  const spans: Span[] = [
    { a: 0, b: 1, aStart: 0, aEnd: body.length, bStart: 2, bEnd: 2 + body.length },
    { a: 2, b: 3, aStart: f(2), aEnd: docs.texts.at(2)!.length, bStart: f(3), bEnd: docs.texts.at(3)!.length },
    { a: 2, b: 6, aStart: f(2), aEnd: docs.texts.at(2)!.length, bStart: f(6), bEnd: docs.texts.at(6)!.length },
    { a: 3, b: 6, aStart: f(3), aEnd: docs.texts.at(3)!.length, bStart: f(6), bEnd: docs.texts.at(6)!.length },
  ];
  const oracle = loadReplyOracle(docs, { repeated_documents: 10 });

  it('counts reply pairs among the decisions, and spans by kind', () => {
    const kinds = oracle.kinds(spans);
    expect(kinds.map((k) => k.footer)).toEqual([false, true, true, true]);
    // pairs reported: 0:1 at 0.4 and 2:3 at 0.9, and 2:6; only those at >= 0.5 decided
    const pairs = pairList([[0, 1, 0.4], [2, 3, 0.9], [2, 6, 0.9]]);
    expect(oracle.measures(pairs, (i) => (pairs.score[i] as number) >= 0.5, { spans, kinds })).toEqual({
      reply_pairs: 3,
      reply_recall: 1 / 3, // 2:3 only
      reply_span_recall: 1 / 3, // 0:1 only: 2:3 shares a footer, which does not count
      spans: 4,
      span_reply_share: 1 / 4,
      span_footer_share: 3 / 4,
      span_signature_share: 0,
      span_repeated_share: 0,
      span_boilerplate_share: 3 / 4,
    });
    expect(oracle.measures(pairs, () => true).reply_recall).toBe(2 / 3);
  });
});
