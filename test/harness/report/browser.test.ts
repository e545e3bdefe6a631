/**
 * The reports in real headless Chromium (Debian's chromium via playwright-core): no console
 * error, no request but the file itself, every canvas drawn, hostile names shown as text.
 * Screenshots go to test-artifacts/ (git-ignored) for a person to look at.
 */
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeLeaderboard, writeRunReport } from '../../../harness/report/write.ts';
import { ensureChromium } from '../../../scripts/ensure-chromium.ts';
import { HOSTILE } from './fixture-runs.ts';
import { copyFixtureResults } from './temp-results.ts';
import { addRunFile, hostileErrors } from './error-fixtures.ts';
import { CARRIED_TEXT, type ErrorLine } from '../../../harness/evaluate/explain/errors.ts';
import { ERROR_ROWS_PAGE } from '../../../harness/report/error-browser-script.ts';
import { requireTool, skipsWithout } from '../../support/required-tool.ts';

const ARTIFACTS = fileURLToPath(new URL('../../../test-artifacts/', import.meta.url));
const lookup = ensureChromium((line) => console.log(`ensure-chromium: ${line}`));

const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface Opened {
  readonly page: Page;
  readonly requests: string[];
  readonly errors: string[];
  readonly dialogs: string[];
}

/**
 * Per canvas: how many pixels are not fully transparent (chart.js draws on a transparent canvas).
 * Pixels are read from a copy, so the probe causes no readback warning on the page's canvases.
 * Browser-side code is a string: the project compiles without the DOM library.
 */
const PAINTED_PIXELS = `Array.from(document.querySelectorAll('canvas')).map((c) => {
  const copy = document.createElement('canvas');
  copy.width = c.width;
  copy.height = c.height;
  const ctx = copy.getContext('2d', { willReadFrequently: true });
  ctx.drawImage(c, 0, 0);
  const data = ctx.getImageData(0, 0, c.width, c.height).data;
  let painted = 0;
  for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted += 1;
  return { id: c.id, painted };
})`;

function paintedPixels(page: Page): Promise<{ id: string; painted: number }[]> {
  return page.evaluate<{ id: string; painted: number }[]>(PAINTED_PIXELS);
}

describe.skipIf(skipsWithout(lookup.found, 'the browser tests', lookup.found ? '' : lookup.reason))('reports in headless Chromium', () => {
  let browser: Browser;
  let results: Awaited<ReturnType<typeof copyFixtureResults>>;

  beforeAll(async () => {
    if (!lookup.found) return requireTool(false, 'the browser tests', lookup.reason);
    browser = await chromium.launch({ executablePath: lookup.path, args: ARGS });
    results = await copyFixtureResults();
    await mkdir(ARTIFACTS, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await results?.cleanup();
  });

  async function open(file: string): Promise<Opened> {
    const context = await browser.newContext({ viewport: { width: 1300, height: 900 }, deviceScaleFactor: 1 });
    const page = await context.newPage();
    const opened: Opened = { page, requests: [], errors: [], dialogs: [] };
    page.on('request', (r) => opened.requests.push(r.url()));
    page.on('websocket', (w) => opened.requests.push(w.url()));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') opened.errors.push(`${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => opened.errors.push(`pageerror: ${e.message}`));
    page.on('dialog', (d) => {
      opened.dialogs.push(d.message());
      void d.dismiss();
    });
    // Anything that tried the network would be recorded above; abort it rather than wait on it.
    await context.route(/^(?!file:)/, (route) => route.abort());
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    return opened;
  }

  it('opens a run report offline with every chart drawn and the hostile id as text', async () => {
    await writeRunReport(results.runA);
    const file = join(results.runA, 'report.html');
    const { page, requests, errors, dialogs } = await open(file);
    expect(errors).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(requests).toEqual([pathToFileURL(file).href]);
    const canvases = await paintedPixels(page);
    expect(canvases.length).toBe(19);
    for (const c of canvases) expect(c.painted, `canvas ${c.id} is blank`).toBeGreaterThan(500);
    expect(await page.locator('img').count()).toBe(0);
    const cell = page.locator('td', { hasText: HOSTILE }).first();
    expect(await cell.isVisible()).toBe(true);
    expect(await cell.textContent()).toBe(HOSTILE);
    await page.screenshot({ path: join(ARTIFACTS, 'report.png'), fullPage: true });
    await page.context().close();
  });

  it('renders an experiment and a variant named like markup as text, running nothing', async () => {
    const file = join(results.runB, 'run.json');
    const run = JSON.parse(await readFile(file, 'utf8')) as { experiment: string; description: string; variants: { name: string }[] };
    run.experiment = HOSTILE;
    run.description = '</script><script>alert(2)</script><!--';
    const v = run.variants[1];
    if (v) v.name = `${HOSTILE}</script>`;
    await writeFile(file, JSON.stringify(run));
    await writeRunReport(results.runB);
    const { page, errors, dialogs } = await open(join(results.runB, 'report.html'));
    expect(errors).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.locator('h1').textContent()).toBe(HOSTILE);
    expect(await page.locator('header p').first().textContent()).toBe(run.description);
    for (const c of await paintedPixels(page)) expect(c.painted, `canvas ${c.id} is blank`).toBeGreaterThan(500);
    await page.screenshot({ path: join(ARTIFACTS, 'report-hostile.png') });
    await page.context().close();
  });

  it('shows a matched pair side by side with the shared text highlighted, the texts as text', async () => {
    // A copy of run A outside the results root, given the span examples a detector that writes spans has.
    const dir = await mkdtemp(join(tmpdir(), 'ndd-report-spans-'));
    try {
      await cp(results.runA, dir, { recursive: true });
      const a = `Hello all.\n${HOSTILE} wrote:\n> We meet on Monday.\n> Bring the </pre><script>alert(3)</script> notes.\nFine by me.`;
      const b = `We meet on Monday.\nBring the </pre><script>alert(3)</script> notes.\n-- \nAnn`;
      const quote = (t: string, from: string, to: string): [number, number] => [t.indexOf(from), t.indexOf(to) + to.length];
      const examples = {
        variant: 'pdc-mr',
        spans: 1,
        examples: [
          {
            note: 'a reply and its parent (In-Reply-To): the quoted text',
            a: { id: HOSTILE, offset: 0, text: a, length: a.length },
            b: { id: 'parent', offset: 0, text: b, length: b.length },
            spans: [{ a: quote(a, 'We', 'notes.'), b: quote(b, 'We', 'notes.'), sentences: 2, kind: 'other' }],
          },
        ],
      };
      await addRunFile(dir, 1, 'span-examples/pdc-mr.json', Buffer.from(JSON.stringify(examples)), 'examples');
      await writeRunReport(dir);
      const { page, errors, dialogs } = await open(join(dir, 'report.html'));
      expect(errors).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(await page.locator('img').count()).toBe(0);
      const section = page.locator('#shared-text');
      expect(await section.isVisible()).toBe(true);
      const sides = section.locator('pre.text');
      expect(await sides.count()).toBe(2);
      // side by side: one row, the second column to the right of the first
      const [left, right] = [await sides.nth(0).boundingBox(), await sides.nth(1).boundingBox()];
      expect(left && right && Math.abs(left.y - right.y) < 2 && right.x > left.x + left.width).toBe(true);
      // the shared text is highlighted on both sides, markup shown as text
      const marked = async (i: number): Promise<string> => (await sides.nth(i).locator('mark').allTextContents()).join('').replace(/^1/, '');
      expect(await marked(0)).toBe(a.slice(...quote(a, 'We', 'notes.')));
      expect(await marked(1)).toBe(b.slice(...quote(b, 'We', 'notes.')));
      expect(await section.locator('.side-head').first().textContent()).toContain(HOSTILE);
      const color = await page.evaluate<string>(`getComputedStyle(document.querySelectorAll('#shared-text pre.text')[1].querySelector('mark')).backgroundColor`);
      expect(color).toBe('rgb(255, 224, 138)');
      await section.screenshot({ path: join(ARTIFACTS, 'report-shared-text.png') });
      await page.context().close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  /** A copy of run A outside the results root with errors/<variant>.jsonl for its second variant; removed by the caller. */
  async function runWithErrors(bytes: Buffer): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'ndd-report-errors-'));
    await cp(results.runA, dir, { recursive: true });
    await addRunFile(dir, 1, 'errors/broder/sct=4.jsonl', bytes, 'errors');
    await writeRunReport(dir);
    return dir;
  }

  /** Per side of the error open: the marks' texts, the text shown (the cut note left out), and the cut note. */
  const SIDES = `Array.from(document.querySelectorAll('#err-detail pre.err-text')).map((pre) => ({
    marks: Array.from(pre.querySelectorAll('mark')).map((m) => m.textContent),
    text: Array.from(pre.childNodes).filter((n) => !(n.classList && n.classList.contains('err-cut'))).map((n) => n.textContent).join(''),
    cut: pre.querySelector('.err-cut') ? pre.querySelector('.err-cut').textContent : null,
  }))`;

  it('opens an error with both texts side by side, the shared spans marked and the hostile texts inert', async () => {
    const { bytes, docs } = await hostileErrors();
    const lines = bytes.toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as ErrorLine);
    const dir = await runWithErrors(bytes);
    try {
      const { page, requests, errors, dialogs } = await open(join(dir, 'report.html'));
      const file = pathToFileURL(join(dir, 'report.html')).href;
      expect(await page.locator('#errors').isVisible()).toBe(true);
      expect(await page.locator('#err-rows tr').count()).toBe(2);
      // nothing of an error is built before it is opened
      expect(await page.locator('#err-detail pre').count()).toBe(0);
      for (const [row, line] of lines.entries()) {
        await page.locator('#err-rows tr').nth(row).click();
        const sides = await page.evaluate<{ marks: string[]; text: string; cut: string | null }[]>(SIDES);
        const x = line.explanation;
        for (const [k, side] of [x.a, x.b].entries()) {
          const whole = docs.texts[side.index] as string;
          const shown = whole.slice(0, CARRIED_TEXT);
          const seen = sides[k]!;
          // the whole text (or the part carried) as text: markup, entities, U+2028 and the lone surrogate unchanged
          expect(seen.text).toBe(shown);
          // the marks are the explanation's spans, cut where the text is
          const inside = side.spans.filter(([s]) => s < shown.length);
          expect(seen.marks).toEqual(inside.map(([s, e]) => whole.slice(s, Math.min(e, shown.length))));
          expect(inside.length).toBeGreaterThan(0);
          const beyond = side.spans.length - inside.length;
          if (whole.length > CARRIED_TEXT) expect(seen.cut).toBe(`[cut: the report carries the first ${CARRIED_TEXT} of ${whole.length} characters${beyond === 0 ? '' : `; ${beyond} more shared span lies in the rest`}]`);
          else expect(seen.cut).toBeNull();
        }
        // side by side, the evidence beside them
        const boxes = await Promise.all([0, 1, 2].map((i) => page.locator('.err-grid > div').nth(i).boundingBox()));
        expect(boxes.every((b, i) => b !== null && (i === 0 || Math.abs(b.y - boxes[0]!.y) < 2 && b.x > boxes[i - 1]!.x + boxes[i - 1]!.width))).toBe(true);
        expect(await page.locator('#err-detail .err-summary').textContent()).toBe(x.evidence?.summary);
        // the judges' label beside the exact truth
        expect(await page.locator('#err-detail > p.note').textContent()).toMatch(row === 0 ? / · the judges: not a duplicate$/ : / · the judges: not judged$/);
        expect(await page.locator('#err-detail .err-lines').textContent()).toBe(x.evidence?.lines.join('\n'));
        // the chain of a pair in one cluster, its hostile ids as text; none for a pair in none
        if (row === 0) {
          const rr = Number((x.chain?.links[0]?.resemblance as number).toPrecision(4));
          expect(await page.locator('#err-detail .err-chain').textContent()).toBe(`${rr}  ${docs.ids[0]} – ${docs.ids[1]}  (link 1 from A)`);
        } else expect(await page.locator('#err-detail .err-chain').count()).toBe(0);
        if (row === 0) await page.locator('#err-detail').screenshot({ path: join(ARTIFACTS, 'report-error.png') });
      }
      // a cut document says so, with one shared span past the cut
      expect(lines[1]!.explanation.a.spans.some(([s]) => s >= CARRIED_TEXT)).toBe(true);
      // the texts ran nothing and made no element of their own
      expect(await page.locator('#errors script, #errors img, #errors textarea').count()).toBe(0);
      expect(errors).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(requests).toEqual([file]);
      await page.context().close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lists the errors against the judges apart, marked, with their counts', async () => {
    const { bytes } = await hostileErrors();
    const [fp, fn] = bytes.toString('utf8').trim().split('\n');
    const judged = [{ ...(JSON.parse(fn!) as ErrorLine), against: 'judgments', of: 5, judgment: 'duplicate' }];
    const dir = await runWithErrors(Buffer.from(`${[fp, fn, ...judged.map((l) => JSON.stringify(l))].join('\n')}\n`));
    try {
      const { page, errors } = await open(join(dir, 'report.html'));
      expect(await page.locator('#err-rows tr').count()).toBe(3);
      expect(await page.locator('#err-summary').textContent()).toContain('; against the judges, 0 judged non-duplicates decided and 5 judged duplicates missed;');
      await page.selectOption('#err-kind', 'false negative against the judges');
      expect(await page.locator('#err-rows tr').count()).toBe(1);
      expect(await page.locator('#err-rows tr td').first().textContent()).toBe('false negative against the judges');
      expect(await page.locator('#err-summary').textContent()).toMatch(/, 1 of them judged duplicates it missed\.$/);
      await page.locator('#err-rows tr').first().click();
      expect(await page.locator('#err-detail > p.note').textContent()).toMatch(/ · the judges: duplicate$/);
      expect(await page.locator('#err-detail h3').textContent()).toMatch(/: false negative against the judges \(by the exact truth: false negative\)$/);
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("lists the errors of a clustered variant's clusters apart, marked, with how its clusters read the pair", async () => {
    const { bytes } = await hostileErrors();
    const [fp, fn] = bytes.toString('utf8').trim().split('\n');
    const line = JSON.parse(fp!) as ErrorLine;
    const clustered = { ...line, from: 'clusters', of: 9 };
    const dir = await runWithErrors(Buffer.from(`${[fp, fn, JSON.stringify(clustered)].join('\n')}\n`));
    try {
      const { page, errors } = await open(join(dir, 'report.html'));
      expect(await page.locator('#err-rows tr').count()).toBe(3);
      expect(await page.locator('#err-summary').textContent()).toContain('; of its clusters, 9 false positives and 0 false negatives;');
      await page.selectOption('#err-kind', 'false positive of its clusters');
      expect(await page.locator('#err-rows tr').count()).toBe(1);
      const cells = await page.locator('#err-rows tr td').allTextContents();
      expect(cells[0]).toBe('false positive of its clusters');
      // how wrong: its clusters' wrongness
      expect(cells[6]).toBe(String(Number((line.explanation.clusters?.wrongness as number).toPrecision(4))));
      await page.locator('#err-rows tr').first().click();
      // (0, 1) lie in one cluster of two in the fixture
      expect(line.explanation.clusters).toMatchObject({ together: true, size_a: 2, size_b: 2 });
      expect(await page.locator('#err-detail > p.note').textContent()).toContain(` · its clusters: both in one cluster of 2 (${line.explanation.clusters?.verdict})`);
      expect(await page.locator('#err-detail h3').textContent()).toMatch(/: false positive of its clusters \(by the exact truth: (false|true) positive\)$/);
      expect(await page.locator('#err-detail .err-chain').count()).toBe(1);
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('builds the rows of thousands of errors a page at a time', async () => {
    const { bytes } = await hostileErrors();
    const [fp] = bytes.toString('utf8').trim().split('\n');
    const many = 2500;
    const lines = Array.from({ length: many }, (_, i) => JSON.stringify({ ...(JSON.parse(fp!) as ErrorLine), rank: i + 1, of: many }));
    const dir = await runWithErrors(Buffer.from(`${lines.join('\n')}\n`));
    try {
      const { page, errors } = await open(join(dir, 'report.html'));
      expect(await page.locator('#err-rows tr').count()).toBe(ERROR_ROWS_PAGE);
      expect(await page.locator('#err-summary').textContent()).toContain(`${many} false positives`);
      await page.locator('#err-more').click();
      expect(await page.locator('#err-rows tr').count()).toBe(2 * ERROR_ROWS_PAGE);
      await page.locator('#err-rows tr').nth(ERROR_ROWS_PAGE + 1).click();
      expect(await page.locator('#err-detail h3').textContent()).toContain('false positive');
      expect(await page.locator('#err-rows tr[aria-selected="true"] td').nth(1).textContent()).toBe(String(ERROR_ROWS_PAGE + 2));
      await page.selectOption('#err-kind', 'false negative');
      expect(await page.locator('#err-rows tr').count()).toBe(0);
      expect(errors).toEqual([]);
      await page.context().close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('opens the leaderboard offline: charts drawn, measure switchable, table sortable, links resolve', async () => {
    const { file } = await writeLeaderboard(results.root);
    const { page, requests, errors, dialogs } = await open(file);
    expect(requests).toEqual([pathToFileURL(file).href]);
    for (const c of await paintedPixels(page)) expect(c.painted, `canvas ${c.id} is blank`).toBeGreaterThan(500);

    await page.selectOption('#measure', 'avg_error');
    const yTitle = await page.evaluate<string[]>('Object.values(window.benchCharts).map((c) => c.options.scales.y.title.text)');
    expect(yTitle).toEqual(['Average error of the RR', 'Average error of the RR']);
    for (const c of await paintedPixels(page)) expect(c.painted, `canvas ${c.id} is blank after switching`).toBeGreaterThan(500);

    const runtimeHeader = page.locator('th', { hasText: 'Runtime, s' });
    const runtimes = (): Promise<number[]> =>
      page.evaluate<number[]>(`Array.from(document.querySelectorAll('table.sortable tbody tr')).map((r) => Number(r.children[7].getAttribute('data-v')))`);
    await runtimeHeader.click();
    const desc = await runtimes();
    expect(desc).toEqual([...desc].sort((x, y) => y - x));
    await runtimeHeader.click();
    const asc = await runtimes();
    expect(asc).toEqual([...desc].sort((x, y) => x - y));

    const hrefs = await page.evaluate<string[]>(`Array.from(document.querySelectorAll('table.sortable a')).map((a) => a.href)`);
    for (const h of hrefs) expect(existsSync(fileURLToPath(h)), h).toBe(true);
    expect(errors).toEqual([]);
    expect(dialogs).toEqual([]);
    await page.selectOption('#measure', 'f1_pairs');
    await page.screenshot({ path: join(ARTIFACTS, 'leaderboard.png'), fullPage: true });
    await page.context().close();
  });
});
