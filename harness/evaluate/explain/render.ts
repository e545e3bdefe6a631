/**
 * An explanation (pair.ts) as text for a terminal: every line at most `width` columns, the
 * shared text quoted from both documents, then the detector's own lines.
 */
import { grouped } from '../../format.ts';
import type { DocumentSide, PairExplanation } from './pair.ts';

/** Spans of each document shown with their text; the rest are counted. */
const SPANS_SHOWN = 4;

function fit(line: string, width: number): string {
  return line.length <= width ? line : `${line.slice(0, width - 1)}…`;
}

function ratio(x: number | null): string {
  return x === null ? '–' : String(Number(x.toPrecision(4)));
}

/** The text of [start, end), white space collapsed and control characters shown escaped, cut to `room` columns with the middle left out. */
function excerpt(text: string, start: number, end: number, room: number): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.slice(start, end).replace(/\s+/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  const inner = Math.max(5, room - 2);
  if (flat.length <= inner) return `"${flat}"`;
  const half = Math.floor((inner - 3) / 2);
  return `"${flat.slice(0, half)} … ${flat.slice(flat.length - (inner - 3 - half))}"`;
}

function sideLines(label: string, s: DocumentSide, text: string, width: number): string[] {
  const covered = s.spans.reduce((n, [a, b]) => n + (b - a), 0);
  const lines = [`${label} ${s.id}: ${grouped(s.chars)} characters, ${grouped(s.words)} words, ${grouped(s.features)} features; shared text: ${s.spans.length} span${s.spans.length === 1 ? '' : 's'}, ${grouped(covered)} characters`];
  for (const [a, b, n] of s.spans.slice(0, SPANS_SHOWN)) {
    const head = `  [${a}, ${b}) ${n} shared: `;
    lines.push(head + excerpt(text, a, b, width - head.length));
  }
  if (s.spans.length > SPANS_SHOWN) lines.push(`  … and ${s.spans.length - SPANS_SHOWN} more spans (--json lists them all)`);
  return lines;
}

/** Links of a chain shown; the rest are counted. */
const LINKS_SHOWN = 8;

function chainLines(c: NonNullable<PairExplanation['chain']>): string[] {
  const of = c.made_of === 'decided pairs' ? 'its decided pairs' : 'the pairs inside it';
  const which = c.bounded ? 'the chain of fewest links' : 'the strongest chain';
  const lines = [`one cluster of ${grouped(c.cluster_size)} documents; ${which} of ${of}, weakest link first:`];
  for (const l of c.links.slice(0, LINKS_SHOWN)) lines.push(`  ${ratio(l.resemblance)}  ${l.from} – ${l.to}  (link ${l.step} from A)`);
  if (c.links.length > LINKS_SHOWN) lines.push(`  … and ${c.links.length - LINKS_SHOWN} more links (--json lists them all)`);
  if (c.made_of === 'induced pairs') lines.push('  (its links before closure are not known: every pair inside the cluster is one)');
  // The note is "why: what it means"; one line each.
  if (c.bounded) lines.push(...c.bounded.split(/(?<=:) /).map((part) => `  ${part}`));
  return lines;
}

function clusterLine(c: NonNullable<PairExplanation['clusters']>): string {
  const where = (n: number): string => (n > 1 ? `in one of ${grouped(n)}` : 'in none');
  const how = c.together ? `both in one of ${grouped(c.size_a)}` : `A ${where(c.size_a)}, B ${where(c.size_b)}`;
  return `read as clusters (a pair inside one decided): ${how}: ${c.verdict.toUpperCase()}`;
}

export function renderExplanation(e: PairExplanation, texts: { readonly a: string; readonly b: string }, width: number): string {
  const ex = e.exact;
  const decided = e.run.decided ? 'a near-duplicate' : 'not a near-duplicate';
  const score = e.run.score === null ? 'not reported (scores 0)' : `score ${ratio(e.run.score)}`;
  const lines = [
    `${e.variant} on ${e.a.id} and ${e.b.id}: ${e.verdict.toUpperCase()}`,
    `exact resemblance ${ratio(ex.resemblance)} (${ex.variant}: ${grouped(ex.shared)} shared of ${grouped(e.a.features + e.b.features - ex.shared)} features); ` +
      `near-duplicates from ${e.threshold}: ${ex.near_duplicate ? 'yes' : 'no'}`,
    `${e.variant} (${e.algorithm}): ${score}; decides ${e.run.rule}: ${decided}`,
    ...(e.clusters ? [clusterLine(e.clusters)] : []),
    '',
    ...sideLines('A', e.a, texts.a, width),
    ...sideLines('B', e.b, texts.b, width),
    '',
  ];
  if (e.chain) lines.push(...chainLines(e.chain), '');
  if (e.evidence) {
    lines.push(`why (${e.algorithm}): ${e.evidence.summary}`);
    for (const l of e.evidence.lines) lines.push(`  ${l}`);
  } else {
    lines.push(`${e.algorithm} gives no evidence of its own (its adapter has no explain hook)`);
  }
  return lines.map((l) => fit(l, width)).join('\n') + '\n';
}
