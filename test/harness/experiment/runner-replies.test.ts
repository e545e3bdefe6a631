/**
 * `evaluate.replies` through the runner: four mails written here, whose sentences are distinct
 * but for a quoted reply and a list footer, so that PDC-MR's spans, the reply measures and the
 * examples the report shows can be counted by hand.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../harness/experiment/runner.ts';
import { writeRunReport } from '../../../harness/report/write.ts';
import type { SpanExamplesFile } from '../../../harness/results/span-examples.ts';
import { runOptions } from '../../support/run-options.ts';
import { parsePage } from '../report/html-parse.ts';

const P = 'The quarterly report is due on Friday morning. Please send your figures to Maria before noon. We will review everything in the Monday meeting.';
const FOOTER = 'To unsubscribe from this list send mail to list-off at example dot org.\nList archives live at the example dot org web site.';
const quoted = P.replace(/\. /g, '.\n> ');
const MAILS = [
  // 0: the parent (sentences P1 P2 P3, then the footer's F1 F2)
  { id: 'parent', text: `${P}\n\n${FOOTER}\n`, meta: { message_id: '<p@x>' } },
  // 1: its reply: R1, the quote P1 P2 P3, R2, F1 F2
  { id: 'reply', text: `Sounds good to me, thanks a lot.\n\n> ${quoted}\n\nSee you on Monday then.\n\n${FOOTER}\n`, meta: { message_id: '<r@x>', in_reply_to: '<p@x>' } },
  // 2: another thread on the list: Q1, F1 F2
  { id: 'question', text: `Does anybody have a spare projector cable?\n\n${FOOTER}\n`, meta: { message_id: '<q@x>' } },
  // 3: its answer, quoting nothing
  { id: 'answer', text: 'Yes, I have one in the top office drawer.\n', meta: { message_id: '<a@x>', in_reply_to: 'Your message of Monday <q@x>' } },
];

let root: string;
let dir: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'runner-replies-'));
  writeFileSync(join(root, 'mail.jsonl'), MAILS.map((m) => JSON.stringify(m)).join('\n') + '\n');
  writeFileSync(
    join(root, 'replies.yaml'),
    `experiment: replies
corpus: { format: jsonl, path: mail.jsonl }
ground_truth: { algorithm: broder, params: { shingle: { unit: char, size: 16 } } }
runs:
  - { algorithm: pdc-mr, name: pdc, params: { signature: { method: shingles, n: 2 }, tau: 0.8, gamma: 2 } }
evaluate: { threshold: 0.5, min_score: 0.1, replies: { repeated_documents: 10 } }
backend: { kind: local, workers: 1 }
`,
  );
  const r = await runExperiment(runOptions(join(root, 'replies.yaml'), join(root, 'results'), { writeReport: writeRunReport }));
  if (r.kind !== 'completed') throw new Error('expected a completed run');
  dir = r.dir;
}, 60_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Row = Record<string, string>;

describe('a run with evaluate.replies', () => {
  it('finds the quote and the footers, and scores them on the two reply-parent pairs', () => {
    const spans = parse(gunzipSync(readFileSync(join(dir, 'spans', 'pdc.csv.gz'))).toString(), { columns: true }) as Row[];
    // parent-reply: P1-P3 (sentences 0-2 of the parent, 1-3 of the reply) and F1-F2 (3-4, 5-6);
    // the footer again between parent-question and reply-question
    expect(spans.map((s) => [s.doc_a, s.doc_b, s.unit_start_a, s.unit_start_b, s.unit_length]).sort()).toEqual([
      ['parent', 'question', '3', '1', '2'],
      ['parent', 'reply', '0', '1', '3'],
      ['parent', 'reply', '3', '5', '2'],
      // spans files name the pair's ids in sorted order
      ['question', 'reply', '1', '5', '2'],
    ]);
    const rows = parse(readFileSync(join(dir, 'metrics.csv'), 'utf8'), { columns: true }) as Row[];
    const pdc = rows.find((r) => r.variant === 'pdc') as Row;
    // reply pairs: parent-reply and question-answer; PDC-MR reports parent-reply (and the two
    // footer pairs); the quote span is the one span of a reply pair that is not boilerplate
    expect([pdc.reply_pairs, pdc.reply_recall, pdc.reply_span_recall, pdc.spans]).toEqual(['2', '0.5', '0.5', '4']);
    expect([pdc.span_reply_share, pdc.span_footer_share, pdc.span_signature_share, pdc.span_repeated_share, pdc.span_boilerplate_share]).toEqual(['0.25', '0.75', '0', '0', '0.75']);
    // the ground truth is scored on the reply pairs too, by its decisions (RR >= 0.5), no span cells
    const gt = rows.find((r) => r.variant === 'ground-truth') as Row;
    const gtPairs = parse(gunzipSync(readFileSync(join(dir, 'pairs', 'ground-truth.csv.gz'))).toString(), { columns: true }) as Row[];
    const decided = (a: string, b: string): boolean => gtPairs.some((p) => [p.doc_a, p.doc_b].sort().join() === [a, b].sort().join() && Number(p.score) >= 0.5);
    expect(Number(gt.reply_recall)).toBe(((decided('parent', 'reply') ? 1 : 0) + (decided('question', 'answer') ? 1 : 0)) / 2);
    expect(gt.reply_span_recall).toBe('');
  });

  it('writes the examples the report shows, listed in run.json: the quote first, then the footer', () => {
    const run = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { variants: { name: string; files: { file: string }[] }[]; files: { path: string }[] };
    expect(run.variants.find((v) => v.name === 'pdc')?.files.map((f) => f.file)).toEqual(['pairs/pdc.csv.gz', 'spans/pdc.csv.gz', 'span-examples/pdc.json', 'errors/pdc.jsonl']);
    expect(run.files.map((f) => f.path)).toContain('span-examples/pdc.json');
    const ex = JSON.parse(readFileSync(join(dir, 'span-examples', 'pdc.json'), 'utf8')) as SpanExamplesFile;
    expect(ex.examples.map((e) => [e.a.id, e.b.id, e.spans.map((s) => s.kind)])).toEqual([
      ['parent', 'reply', ['other', 'footer']],
      ['parent', 'question', ['footer']],
      ['reply', 'question', ['footer']],
    ]);
    const first = ex.examples[0]!;
    const s = first.spans[0]!;
    expect(first.a.text.slice(s.a[0] - first.a.offset, s.a[1] - first.a.offset)).toBe(P);
    expect(first.b.text.slice(s.b[0] - first.b.offset, s.b[1] - first.b.offset)).toBe(quoted);
  });

  it('shows the quote highlighted in the report', () => {
    const page = parsePage(readFileSync(join(dir, 'report.html'), 'utf8'));
    expect(page.attributes).toContainEqual({ tag: 'section', name: 'id', value: 'shared-text' });
    expect(page.text).toContain('a reply and its parent (In-Reply-To)');
    expect(page.tags.filter((t) => t === 'mark').length).toBeGreaterThanOrEqual(6);
  });
});
