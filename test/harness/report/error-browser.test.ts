import { describe, expect, it } from 'vitest';
import { pageExplanationJson } from '../../../harness/evaluate/explain/errors.ts';
import { errorBrowserData, errorBrowserJson, parseErrorsFile, renderErrorBrowser, variantErrors } from '../../../harness/report/error-browser.ts';
import { HOSTILE } from './fixture-runs.ts';
import { hostileErrors } from './error-fixtures.ts';

const FILE = 'results/x/errors/v.jsonl';

describe('parseErrorsFile', () => {
  it('reads the lines the run writes, with the counts of each kind', async () => {
    const { bytes } = await hostileErrors();
    const f = parseErrorsFile(bytes.toString('utf8'), FILE, 'v');
    expect([f.variant, f.falsePositives, f.falseNegatives, f.lines.length]).toEqual(['v', 7, 3, 2]);
    expect(f.lines.map((l) => [l.kind, l.rank, l.explanation.a.index, l.explanation.b.index, l.judgment])).toEqual([
      ['false positive', 1, 0, 1, 'not a duplicate'],
      ['false negative', 1, 2, 3, null],
    ]);
  });

  it('counts the errors against the judges apart, and lists them as a kind of their own', async () => {
    const { bytes } = await hostileErrors();
    const [first, second] = bytes.toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const judged = [{ ...first!, against: 'judgments', of: 4 }, { ...second!, against: 'judgments', of: 9 }];
    const f = parseErrorsFile([first, second, ...judged].map((l) => JSON.stringify(l)).join('\n'), FILE, 'v');
    expect([f.falsePositives, f.falseNegatives, f.judged]).toEqual([7, 3, { falsePositives: 4, falseNegatives: 9 }]);
    expect(errorBrowserData([f]).variants[0]!.errors.map((e) => e.kind)).toEqual(['false positive', 'false negative', 'false positive against the judges', 'false negative against the judges']);
    expect(renderErrorBrowser([f], 0.6)).toContain('<option value="false negative against the judges">judged duplicates it missed</option>');
    expect(parseErrorsFile(bytes.toString('utf8'), FILE, 'v').judged).toBeUndefined();
    expect(() => parseErrorsFile(JSON.stringify({ ...first!, against: 'judges' }), FILE, 'v')).toThrow(`${FILE}: line 1: against: expected "judgments" or nothing, got "judges"`);
  });

  it("counts the errors of a variant's clusters apart, lists them as a kind of their own, and weighs them as its clusters do", async () => {
    const { bytes } = await hostileErrors();
    const [first, second] = bytes.toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown> & { explanation: { clusters?: { wrongness: number } } });
    const ofClusters = [{ ...first!, from: 'clusters', of: 5 }];
    const f = parseErrorsFile([first, second, ...ofClusters].map((l) => JSON.stringify(l)).join('\n'), FILE, 'v');
    expect([f.falsePositives, f.falseNegatives, f.clustered, f.judged]).toEqual([7, 3, { falsePositives: 5, falseNegatives: 0 }, undefined]);
    const errors = errorBrowserData([f]).variants[0]!.errors;
    expect(errors.map((e) => e.kind)).toEqual(['false positive', 'false negative', 'false positive of its clusters']);
    expect(errors[2]!.w).toBe(first!.explanation.clusters!.wrongness);
    expect(renderErrorBrowser([f], 0.6)).toContain('<option value="false positive of its clusters">false positives of its clusters</option>');
    expect(() => parseErrorsFile(JSON.stringify({ ...first!, from: 'cluster' }), FILE, 'v')).toThrow(`${FILE}: line 1: from: expected "clusters" or nothing, got "cluster"`);
    const { clusters: _, ...bare } = first!.explanation;
    expect(() => parseErrorsFile(JSON.stringify({ ...first!, from: 'clusters', explanation: bare }), FILE, 'v')).toThrow(`${FILE}: line 1: from: clusters: expected explanation.clusters`);
  });

  it('names the file and line of a line that is not JSON', () => {
    expect(() => parseErrorsFile('\n{"kind":', FILE, 'v')).toThrow(/^results\/x\/errors\/v\.jsonl: line 2: invalid JSON/);
  });

  it('reads an error without the texts (a run written before the browser), and shows it without them', async () => {
    const { bytes } = await hostileErrors();
    const [first] = bytes.toString('utf8').split('\n');
    const { texts: _texts, ...old } = JSON.parse(first!) as Record<string, unknown>;
    const f = parseErrorsFile(JSON.stringify(old), FILE, 'v');
    expect(f.lines[0]?.texts).toBeUndefined();
    const d = errorBrowserData([f]);
    expect([d.texts.length, d.variants[0]!.errors[0]!.ta, d.variants[0]!.errors[0]!.tb]).toEqual([0, -1, -1]);
  });

  it('names the file and line of texts that are not two strings', async () => {
    const { bytes } = await hostileErrors();
    const line = JSON.parse(bytes.toString('utf8').split('\n')[0]!) as Record<string, unknown>;
    line['texts'] = { a: 'x' };
    expect(() => parseErrorsFile(JSON.stringify(line), FILE, 'v')).toThrow(`${FILE}: line 1: texts: expected the texts a and b`);
  });

  it('refuses a span that ends before it starts', async () => {
    const { bytes } = await hostileErrors();
    const line = JSON.parse(bytes.toString('utf8').split('\n')[0]!) as { explanation: { a: { spans: number[][] } } };
    line.explanation.a.spans = [[5, 2, 1]];
    expect(() => parseErrorsFile(JSON.stringify(line), FILE, 'v')).toThrow(/line 1: explanation\.a, explanation\.b/);
  });

  it('names the file and line of a judgment that is not a label', async () => {
    const { bytes } = await hostileErrors();
    const line = JSON.parse(bytes.toString('utf8').split('\n')[0]!) as Record<string, unknown>;
    line['judgment'] = 2;
    expect(() => parseErrorsFile(JSON.stringify(line), FILE, 'v')).toThrow(`${FILE}: line 1: judgment: expected "duplicate", "not a duplicate" or null, got 2`);
  });
});

describe('errorBrowserData', () => {
  it('keeps the text of a document named by several errors once, and drops the evidence data its lines show', async () => {
    const { bytes, docs } = await hostileErrors();
    const f = parseErrorsFile(bytes.toString('utf8'), FILE, 'v');
    const d = errorBrowserData([f, { ...f, variant: 'w' }]);
    expect(d.texts.length).toBe(4);
    expect(d.variants.map((v) => v.errors.map((e) => [d.texts[e.ta], d.texts[e.tb]]))).toEqual([
      [
        [docs.texts[0], docs.texts[1]],
        [f.lines[1]!.texts!.a, f.lines[1]!.texts!.b],
      ],
      [
        [docs.texts[0], docs.texts[1]],
        [f.lines[1]!.texts!.a, f.lines[1]!.texts!.b],
      ],
    ]);
    const e = d.variants[0]!.errors[0]!;
    expect(e.x.evidence).toEqual({ summary: f.lines[0]!.explanation.evidence!.summary, lines: f.lines[0]!.explanation.evidence!.lines });
  });
});

describe('errorBrowserJson', () => {
  it("is JSON.stringify of errorBrowserData's variants, from the lines the run holds (their explanations' JSON made with them) and from lines read back", async () => {
    const { bytes, lines } = await hostileErrors();
    const read = parseErrorsFile(bytes.toString('utf8'), FILE, 'read');
    expect(lines.every((l) => pageExplanationJson(l) !== undefined)).toBe(true);
    expect(read.lines.some((l) => pageExplanationJson(l) !== undefined)).toBe(false);
    const judged = variantErrors('judged', [...lines, ...lines.map((l) => ({ ...l, against: 'judgments' as const }))]);
    const files = [variantErrors('held', lines), read, judged, { ...read, variant: 'read again', lines: read.lines.slice(1) }];
    const d = errorBrowserData(files);
    const j = errorBrowserJson(files);
    expect(j.variants.json).toBe(JSON.stringify({ variants: d.variants }));
    expect(j.texts).toEqual(d.texts);
  });
});

describe('renderErrorBrowser', () => {
  it('is empty without an errors file, and escapes a variant named like markup', () => {
    expect(renderErrorBrowser([], 0.5)).toBe('');
    const html = renderErrorBrowser([{ variant: HOSTILE, falsePositives: 1, falseNegatives: 0, lines: [] }], 0.5);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt; — 1 false positives, 0 false negatives');
    expect(html).not.toContain(HOSTILE);
  });
});
