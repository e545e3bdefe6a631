/** The report's shared-text section and the examples the runner picks for it, by hand. */
import { describe, expect, it } from 'vitest';
import type { DocumentSet, Span } from '../../../contract/index.ts';
import type { SpanKind } from '../../../harness/evaluate/span-kinds.ts';
import { highlight, renderSharedText } from '../../../harness/report/shared-text.ts';
import { spanExamples } from '../../../harness/results/span-examples.ts';
import { parsePage } from './html-parse.ts';
import { HOSTILE } from './fixture-runs.ts';

describe('highlight', () => {
  it('marks each span on its side, escapes every character, and numbers a span where it starts', () => {
    // excerpt "x<b>yz&w" at offset 10 of a 30-character document
    const ex = { id: 'd', offset: 10, text: 'x<b>yz&w', length: 30 };
    // span 1 covers "<b>y" (11-15), span 2 "yz&" (14-17): they overlap on "y"; span 3 lies outside
    const spans = [
      { a: [11, 15], b: [0, 4], sentences: 1, kind: null },
      { a: [14, 17], b: [4, 7], sentences: 2, kind: 'footer' },
      { a: [25, 28], b: [7, 8], sentences: 1, kind: null },
    ] as const;
    expect(highlight(ex, spans, 'a')).toBe(
      '<span class="note">[… 10 characters]</span>\n' +
        'x<mark class="s0" data-span="1"><sup>1</sup>&lt;b&gt;</mark>' +
        '<mark class="s0" data-span="1 2"><sup>2</sup>y</mark>' +
        '<mark class="s1" data-span="2">z&amp;</mark>w' +
        '\n<span class="note">[… 12 characters]</span>',
    );
  });

  it('renders nothing for runs without examples, and names hostile ids and texts as text', () => {
    expect(renderSharedText([])).toBe('');
    const html = renderSharedText([
      {
        variant: HOSTILE,
        spans: 1,
        examples: [
          {
            note: 'n',
            a: { id: HOSTILE, offset: 0, text: `${HOSTILE} said</pre><script>alert(3)</script>`, length: 60 },
            b: { id: 'b', offset: 0, text: HOSTILE, length: 28 },
            spans: [{ a: [0, HOSTILE.length], b: [0, HOSTILE.length], sentences: 1, kind: 'other' }],
          },
        ],
      },
    ]);
    const page = parsePage(html);
    expect(page.tags).not.toContain('img');
    expect(page.tags).not.toContain('script');
    expect(page.text).toContain(`${HOSTILE} said</pre><script>alert(3)</script>`);
  });
});

describe('span examples', () => {
  const texts = ['0123456789'.repeat(100), 'abcdefghij'.repeat(100), 'A'.repeat(50), 'B'.repeat(50), 'C'.repeat(50)];
  const docs: DocumentSet = { ids: ['d0', 'd1', 'd2', 'd3', 'd4'], texts };
  const span = (a: number, b: number, aStart: number, len: number, units: number): Span => ({
    a,
    b,
    aStart,
    aEnd: aStart + len,
    bStart: 0,
    bEnd: len,
    units: { aStart: 0, bStart: 0, length: units },
  });
  const spans = [span(0, 1, 500, 20, 2), span(2, 3, 0, 10, 5), span(0, 1, 600, 10, 1), span(3, 4, 0, 10, 1)];

  it('without an oracle: the pairs with the most matched sentences, excerpts around their spans', () => {
    const f = spanExamples('v', spans, docs, { count: 2 });
    expect(f.spans).toBe(4);
    // 2:3 has 5 sentences, 0:1 has 2 + 1
    expect(f.examples.map((e) => [e.a.id, e.b.id])).toEqual([['d2', 'd3'], ['d0', 'd1']]);
    const e = f.examples[1]!;
    // a: spans at 500-520 and 600-610 with 300 characters either side: 200-910
    expect([e.a.offset, e.a.offset + e.a.text.length, e.a.length]).toEqual([200, 910, 1000]);
    expect(e.a.text).toBe(texts[0]!.slice(200, 910));
    expect(e.spans.map((s) => [s.a, s.sentences, s.kind])).toEqual([[[500, 520], 2, null], [[600, 610], 1, null]]);
  });

  it('with a reply oracle: reply pairs quoted, then a boilerplate one, then the rest', () => {
    const kinds: SpanKind[] = [
      { footer: false, signature: false, repeated: false },
      { footer: true, signature: false, repeated: false },
      { footer: false, signature: false, repeated: false },
      { footer: false, signature: false, repeated: false },
    ];
    // 3:4 is a reply pair with a quote; 0:1 is one too; 2:3 shares a footer only
    const f = spanExamples('v', spans, docs, { kinds, replyPairs: new Set(['0:1', '3:4']), count: 3 });
    expect(f.examples.map((e) => [e.a.id, e.b.id, e.note.split(':')[0]])).toEqual([
      ['d0', 'd1', 'a reply and its parent (In-Reply-To)'],
      ['d3', 'd4', 'a reply and its parent (In-Reply-To)'],
      ['d2', 'd3', 'boilerplate shared by two mails (footer)'],
    ]);
    expect(f.examples[2]!.spans[0]!.kind).toBe('footer');
  });
});
