/**
 * The run report's error browser (issue 26): per variant, the false positives and false
 * negatives of its `errors/<variant>.jsonl` (evaluate/explain/errors.ts), each opening both texts
 * side by side with the shared spans highlighted and the detector's evidence beside them.
 *
 * The page carries the errors as two JSON blocks (escaped by jsonForScript): the explanations,
 * and each document's text once however many errors name it. The markup holds only the controls;
 * the script (error-browser-script.ts) builds the list of the variant shown, a page of rows at a
 * time, and one error's texts when it is opened, with text nodes only: a few thousand errors
 * cost no DOM until they are looked at, and no text is ever parsed as HTML.
 */
import { pageExplanationJson, type ErrorLine } from '../evaluate/explain/errors.ts';
import { DataError } from '../errors.ts';
import { escapeHtml, SerializedJson } from './escape.ts';

/** One variant's errors file, read. */
export interface VariantErrors {
  readonly variant: string;
  /** how many errors of each kind the variant made (the sample holds at most a few of each) */
  readonly falsePositives: number;
  readonly falseNegatives: number;
  /** with `evaluate.judgments`: how many errors of each kind it made against the judges (lines marked `against: judgments`) */
  readonly judged?: { readonly falsePositives: number; readonly falseNegatives: number };
  /** a clustered variant: how many errors of each kind its clusters made (lines marked `from: clusters`) */
  readonly clustered?: { readonly falsePositives: number; readonly falseNegatives: number };
  readonly lines: readonly ReadErrorLine[];
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isSpans(x: unknown): boolean {
  return Array.isArray(x) && x.every((s) => Array.isArray(s) && s.length === 3 && s.every((n) => Number.isInteger(n) && (n as number) >= 0) && (s[0] as number) <= (s[1] as number));
}

function isSide(x: unknown): boolean {
  return isObject(x) && typeof x['id'] === 'string' && Number.isInteger(x['index']) && Number.isInteger(x['chars']) && isSpans(x['spans']);
}

/** What is wrong with a parsed line, or undefined: the fields the browser reads. */
function lineProblem(x: unknown): string | undefined {
  if (!isObject(x)) return 'expected an object';
  if (x['kind'] !== 'false positive' && x['kind'] !== 'false negative') return `kind: expected "false positive" or "false negative", got ${JSON.stringify(x['kind'])}`;
  if (!Number.isInteger(x['rank']) || !Number.isInteger(x['of'])) return 'rank, of: expected integers';
  const e = x['explanation'];
  if (!isObject(e) || !isSide(e['a']) || !isSide(e['b'])) return 'explanation.a, explanation.b: expected a document side each (id, index, chars, spans)';
  if (!isObject(e['exact']) || !isObject(e['run'])) return 'explanation.exact, explanation.run: expected objects';
  const ev = e['evidence'];
  if (ev !== null && !(isObject(ev) && typeof ev['summary'] === 'string' && Array.isArray(ev['lines']) && ev['lines'].every((l) => typeof l === 'string'))) return 'explanation.evidence: expected null or a summary and lines';
  const t = x['texts'];
  // A run written before the error browser carries no texts: its errors are listed without them.
  if (t !== undefined && !(isObject(t) && typeof t['a'] === 'string' && typeof t['b'] === 'string')) return 'texts: expected the texts a and b';
  const c = e['chain'];
  if (c !== undefined && !(isObject(c) && typeof c['cluster_size'] === 'number' && Array.isArray(c['links']) && c['links'].every((l) => isObject(l) && typeof l['from'] === 'string' && typeof l['to'] === 'string' && typeof l['resemblance'] === 'number' && typeof l['step'] === 'number'))) {
    return 'explanation.chain: expected a cluster size and links (from, to, resemblance, step)';
  }
  if (c !== undefined && c['bounded'] !== undefined && typeof c['bounded'] !== 'string') return 'explanation.chain.bounded: expected a string';
  if (x['against'] !== undefined && x['against'] !== 'judgments') return `against: expected "judgments" or nothing, got ${JSON.stringify(x['against'])}`;
  if (x['from'] !== undefined && x['from'] !== 'clusters') return `from: expected "clusters" or nothing, got ${JSON.stringify(x['from'])}`;
  const r = e['clusters'];
  if (r !== undefined && !(isObject(r) && typeof r['together'] === 'boolean' && typeof r['verdict'] === 'string' && typeof r['wrongness'] === 'number')) return 'explanation.clusters: expected together, verdict and wrongness';
  if (x['from'] === 'clusters' && r === undefined) return 'from: clusters: expected explanation.clusters';
  const j = x['judgment'];
  if (j !== undefined && j !== null && j !== 'duplicate' && j !== 'not a duplicate') return `judgment: expected "duplicate", "not a duplicate" or null, got ${JSON.stringify(j)}`;
  return undefined;
}

/** A line as read: a run written before the error browser carries no texts. */
export type ReadErrorLine = Omit<ErrorLine, 'texts'> & { readonly texts?: ErrorLine['texts'] };

/** `errors/<variant>.jsonl`'s text, checked line by line; `file` names it in errors. */
export function parseErrorsFile(text: string, file: string, variant: string): VariantErrors {
  const lines: ReadErrorLine[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new DataError(`${file}: line ${i + 1}: invalid JSON: ${(e as Error).message}`);
    }
    const problem = lineProblem(value);
    if (problem !== undefined) throw new DataError(`${file}: line ${i + 1}: ${problem}`);
    lines.push(value as ReadErrorLine);
  });
  return variantErrors(variant, lines);
}

/** A variant's errors file from its lines, checked or as the run wrote them: how many errors of each kind there are, from the lines' `of`. */
export function variantErrors(variant: string, lines: readonly ReadErrorLine[]): VariantErrors {
  const of = { 'false positive': 0, 'false negative': 0 };
  const judged = { 'false positive': 0, 'false negative': 0 };
  const clustered = { 'false positive': 0, 'false negative': 0 };
  let anyJudged = false;
  let anyClustered = false;
  for (const line of lines) {
    if (line.against === 'judgments') {
      judged[line.kind] = line.of;
      anyJudged = true;
    } else if (line.from === 'clusters') {
      clustered[line.kind] = line.of;
      anyClustered = true;
    } else of[line.kind] = line.of;
  }
  return {
    variant,
    falsePositives: of['false positive'],
    falseNegatives: of['false negative'],
    ...(anyJudged ? { judged: { falsePositives: judged['false positive'], falseNegatives: judged['false negative'] } } : {}),
    ...(anyClustered ? { clustered: { falsePositives: clustered['false positive'], falseNegatives: clustered['false negative'] } } : {}),
    lines,
  };
}

/** An error as the page's script reads it: the explanation without the evidence's data (its lines say it), the texts by reference. */
interface PageError {
  readonly kind: string;
  readonly rank: number;
  /** the documents' places in `texts`; -1: the run carried no texts */
  readonly ta: number;
  readonly tb: number;
  /** the judges' label, when the run had judgments (null: not judged) */
  readonly judgment?: ErrorLine['judgment'];
  /** how wrong the error is: of its clusters (from: clusters), else of the pair */
  readonly w: number;
  readonly x: Omit<ErrorLine['explanation'], 'evidence'> & { readonly evidence: { readonly summary: string; readonly lines: readonly string[] } | null };
}

export interface ErrorBrowserData {
  readonly variants: readonly { readonly name: string; readonly falsePositives: number; readonly falseNegatives: number; readonly judged?: VariantErrors['judged']; readonly clustered?: VariantErrors['clustered']; readonly errors: readonly PageError[] }[];
  /** each document's carried text once, however many errors name it */
  readonly texts: readonly string[];
}

/** The page's data: the texts of a document named by several errors kept once (by its index in the run). */
export function errorBrowserData(files: readonly VariantErrors[]): ErrorBrowserData {
  const texts = new PageTexts();
  const variants = files.map((f) => ({
    ...variantHead(f),
    errors: f.lines.map((l): PageError => ({ ...pageErrorHead(l, texts), x: pageExplanation(l.explanation) })),
  }));
  return { variants, texts: texts.list };
}

/**
 * errorBrowserData as the page carries it: `variants` is JSON.stringify({ variants }) of its
 * variants, made from each explanation's JSON where the run made it with its line
 * (evaluate/explain/errors.ts pageExplanationJson) instead of serializing the explanations again
 * (the most of the error browser's cost), the same text (the tests hold the two equal).
 */
export function errorBrowserJson(files: readonly VariantErrors[]): { readonly variants: SerializedJson; readonly texts: readonly string[] } {
  const texts = new PageTexts();
  const variants = files.map((f) => {
    const errors = f.lines.map((l) => `${JSON.stringify(pageErrorHead(l, texts)).slice(0, -1)},"x":${pageExplanationJson(l) ?? JSON.stringify(pageExplanation(l.explanation))}}`);
    return `${JSON.stringify({ ...variantHead(f), errors: [] }).slice(0, -2)}${errors.join(',')}]}`;
  });
  return { variants: new SerializedJson(`{"variants":[${variants.join(',')}]}`), texts: texts.list };
}

/** A variant's entry in the page's data, but its errors. */
function variantHead(f: VariantErrors): Omit<ErrorBrowserData['variants'][number], 'errors'> {
  return {
    name: f.variant,
    falsePositives: f.falsePositives,
    falseNegatives: f.falseNegatives,
    ...(f.judged ? { judged: f.judged } : {}),
    ...(f.clustered ? { clustered: f.clustered } : {}),
  };
}

/** An error as the page's script reads it, but its explanation. */
function pageErrorHead(l: ReadErrorLine, texts: PageTexts): Omit<PageError, 'x'> {
  return {
    // an error against the judges, or of the clusters, is a kind of its own in the list and its filter
    kind: l.against === 'judgments' ? `${l.kind} against the judges` : l.from === 'clusters' ? `${l.kind} of its clusters` : l.kind,
    rank: l.rank,
    w: l.from === 'clusters' ? (l.explanation.clusters?.wrongness ?? 0) : l.explanation.wrongness,
    ta: texts.place(l.explanation.a.index, l.texts?.a),
    tb: texts.place(l.explanation.b.index, l.texts?.b),
    ...(l.judgment !== undefined ? { judgment: l.judgment } : {}),
  };
}

/** The explanation as the page's script reads it: the evidence without its data (its lines say it), last. */
function pageExplanation(x: ErrorLine['explanation']): PageError['x'] {
  const { evidence, ...rest } = x;
  return { ...rest, evidence: evidence ? { summary: evidence.summary, lines: evidence.lines } : null };
}

/** Each document's carried text once, however many errors name it, in the order first named; the longest carried when they differ. */
class PageTexts {
  readonly list: string[] = [];
  private readonly at = new Map<number, number>();

  /** The place of document `index`'s text (-1: the run carried no texts). */
  place(index: number, text: string | undefined): number {
    if (text === undefined) return -1;
    let at = this.at.get(index);
    if (at === undefined) {
      at = this.list.push(text) - 1;
      this.at.set(index, at);
    } else if (text.length > (this.list[at] as string).length) {
      this.list[at] = text;
    }
    return at;
  }
}

export const ERROR_BROWSER_STYLE = `
.err-controls { display: flex; gap: 8px; align-items: center; flex-wrap: wrap; margin: 6px 0; }
.err-controls label { font-weight: 600; }
table.err-list tbody tr { cursor: pointer; }
table.err-list tbody tr:hover, table.err-list tbody tr:focus { background: var(--band); outline: none; }
table.err-list tbody tr[aria-selected="true"] { background: #ddf4ff; }
table.err-list td.id { max-width: 22em; overflow: hidden; text-overflow: ellipsis; }
.err-detail { border: 1px solid var(--line); border-radius: 6px; padding: 8px 12px; margin: 8px 0 16px; }
.err-detail h3 { margin: 4px 0; }
.err-grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr) minmax(0, 0.8fr); gap: 12px; }
.err-grid pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 560px; overflow-y: auto; margin: 4px 0 0; }
.err-grid .side-head { font-size: 12.5px; color: var(--muted); overflow-wrap: anywhere; }
.err-grid mark { background: #ffe08a; }
.err-cut { display: block; color: var(--muted); font-style: italic; }
`;

/** The section's controls, or '' when no variant wrote errors. */
export function renderErrorBrowser(files: readonly VariantErrors[], threshold: number): string {
  if (files.length === 0) return '';
  const shown = files.reduce((n, f) => n + f.lines.length, 0);
  const options = files
    .map((f, i) => `<option value="${i}">${escapeHtml(`${f.variant} — ${f.falsePositives} false positives, ${f.falseNegatives} false negatives`)}</option>`)
    .join('');
  return `<section id="errors"><h2>Errors</h2>
<p class="note">${escapeHtml(
    `Each variant's false positives (decided, exact resemblance below ${threshold}) and false negatives (not decided, at or above it) against the ground truth: ` +
      `a seeded sample of each kind, the most wrong first (${shown} errors in all, from errors/<variant>.jsonl). ` +
      (files.some((f) => f.clustered)
        ? 'A variant that writes clusters has the errors of its clusters too, read as a pipeline reads them (every pair inside a cluster decided): pairs put in one cluster below the threshold, near-duplicates split. '
        : '') +
      (files.some((f) => f.judged) ? 'With judgments, a sample of its errors against the judges too: judged non-duplicates it decided, judged duplicates it missed. ' : '') +
      'Open one to see both texts side by side, the text they share highlighted, and what the detector saw of the pair.',
  )}</p>
<div class="err-controls"><label for="err-variant">Variant</label><select id="err-variant">${options}</select>
<label for="err-kind">Show</label><select id="err-kind"><option value="">both kinds</option><option value="false positive">false positives</option><option value="false negative">false negatives</option>${
    files.some((f) => f.clustered) ? '<option value="false positive of its clusters">false positives of its clusters</option><option value="false negative of its clusters">false negatives of its clusters</option>' : ''
  }${
    files.some((f) => f.judged) ? '<option value="false positive against the judges">judged non-duplicates it decided</option><option value="false negative against the judges">judged duplicates it missed</option>' : ''
  }</select></div>
<p class="note" id="err-summary"></p>
<div class="table-wrap"><table class="err-list"><thead><tr><th>kind</th><th>rank</th><th>document A</th><th>document B</th><th>exact resemblance</th><th>score</th><th>how wrong</th></tr></thead><tbody id="err-rows"></tbody></table></div>
<button type="button" id="err-more" hidden></button>
<div class="err-detail" id="err-detail" hidden></div>
</section>`;
}
