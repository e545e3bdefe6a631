/**
 * The run report's "Shared text" section: for each variant that wrote spans, a few matched
 * document pairs side by side with the shared text highlighted, from the excerpts the runner
 * wrote to `span-examples/<variant>.json` (harness/results/span-examples.ts). Every character
 * of a text is escaped; a span gets one of four colours, the same on both sides, and its number.
 */
import type { ExampleSpan, ExcerptSide, SpanExample, SpanExamplesFile } from '../results/span-examples.ts';
import { escapeHtml } from './escape.ts';

export const SHARED_TEXT_STYLE = `
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; margin: 6px 0 18px; }
.pair pre.text { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 460px; overflow-y: auto; margin: 4px 0 0; }
.pair .side-head { font-size: 12.5px; color: var(--muted); overflow-wrap: anywhere; }
mark.s0 { background: #ffe08a; } mark.s1 { background: #b8e0ff; } mark.s2 { background: #c8f0c0; } mark.s3 { background: #f5c6e8; }
mark sup { font-size: 9px; color: var(--muted); margin-right: 1px; }
.pair .note { color: var(--muted); }
`;

/** The excerpt's text with the spans' ranges on this side marked; `side` picks a span's range. */
export function highlight(ex: ExcerptSide, spans: readonly ExampleSpan[], side: 'a' | 'b'): string {
  const from = ex.offset;
  const to = ex.offset + ex.text.length;
  const ranges = spans
    .map((s, k) => ({ k, start: Math.max(from, s[side][0]), end: Math.min(to, s[side][1]) }))
    .filter((r) => r.start < r.end);
  const cuts = [...new Set([from, to, ...ranges.flatMap((r) => [r.start, r.end])])].sort((x, y) => x - y);
  let html = '';
  const opened = new Set<number>();
  for (let i = 0; i + 1 < cuts.length; i++) {
    const s = cuts[i] as number;
    const e = cuts[i + 1] as number;
    const covering = ranges.filter((r) => r.start <= s && r.end >= e);
    const text = escapeHtml(ex.text.slice(s - from, e - from));
    if (covering.length === 0) {
      html += text;
      continue;
    }
    const first = covering[0] as { k: number };
    // The span's number where it starts, so that a reader can pair the two sides.
    const numbers = covering.filter((r) => r.start === s && !opened.has(r.k));
    for (const r of numbers) opened.add(r.k);
    const sup = numbers.map((r) => `<sup>${r.k + 1}</sup>`).join('');
    html += `<mark class="s${first.k % 4}" data-span="${covering.map((r) => r.k + 1).join(' ')}">${sup}${text}</mark>`;
  }
  const before = from > 0 ? `<span class="note">[… ${from} characters]</span>\n` : '';
  const after = to < ex.length ? `\n<span class="note">[… ${ex.length - to} characters]</span>` : '';
  return before + html + after;
}

function spanLine(s: ExampleSpan, k: number): string {
  const size = s.sentences === null ? `${s.a[1] - s.a[0]} characters` : `${s.sentences} sentence${s.sentences === 1 ? '' : 's'}`;
  return `${k + 1}: ${size}${s.kind ? `, ${s.kind}` : ''}`;
}

function renderExample(ex: SpanExample): string {
  const side = (x: ExcerptSide, which: 'a' | 'b'): string =>
    `<div><div class="side-head">${escapeHtml(x.id)} · characters ${x.offset}–${x.offset + x.text.length} of ${x.length}</div><pre class="text">${highlight(x, ex.spans, which)}</pre></div>`;
  return `<div class="example"><p class="note">${escapeHtml(ex.note)} · spans ${escapeHtml(ex.spans.map(spanLine).join('; '))}</p>
<div class="pair">${side(ex.a, 'a')}${side(ex.b, 'b')}</div></div>`;
}

/** The section, or '' when no variant of the run wrote spans. */
export function renderSharedText(files: readonly SpanExamplesFile[]): string {
  const shown = files.filter((f) => f.examples.length > 0);
  if (shown.length === 0) return '';
  return `<section id="shared-text"><h2>Shared text</h2>
<p class="note">For each detector that locates shared text: a few matched document pairs side by side, the spans it found highlighted (the same colour and number on both sides). Excerpts from span-examples/&lt;variant&gt;.json; every span is in spans/&lt;variant&gt;.csv.gz.</p>
${shown.map((f) => `<h3>${escapeHtml(f.variant)}</h3><p class="note">Spans found: ${f.spans}; pairs shown: ${f.examples.length}.</p>${f.examples.map(renderExample).join('\n')}`).join('\n')}
</section>`;
}
