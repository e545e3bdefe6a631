/**
 * The run report's error browser (issue 26) at a run's size: page weight, time to open, time to
 * open an error, in headless Chromium (Debian's, as the browser tests use), and a screenshot.
 *
 *   node --import tsx scripts/bench-error-browser.ts RUN_DIR [--runs 5] [--screenshot docs/images/error-browser.png]
 *
 * RUN_DIR is a finished run (`./bench run configs/quickstart.yaml` for the quickstart's size);
 * its report.html is written again first, and beside it (in a temporary folder) the same report
 * without the errors, the page as it was before the browser: the two are opened alternately.
 * Opening is timed by the page's own navigation timing (load event end), each time in a fresh
 * browser context; opening an error from the click to the texts laid out. Prints the figures,
 * median and range.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { readRunFolder } from '../harness/report/read-run.ts';
import { renderRunReport } from '../harness/report/run-report.ts';
import { writeRunReport } from '../harness/report/write.ts';
import { ensureChromium } from './ensure-chromium.ts';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] !== undefined ? (process.argv[i + 1] as string) : fallback;
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? (s[s.length >> 1] as number) : ((s[s.length / 2 - 1] as number) + (s[s.length / 2] as number)) / 2;
};

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir || dir.startsWith('--')) {
    process.stderr.write('usage: bench-error-browser.ts RUN_DIR [--runs N] [--screenshot FILE]\n');
    process.exit(2);
  }
  const runs = Number(option('runs', '5'));
  const shot = option('screenshot', '');
  const lookup = ensureChromium((line) => process.stderr.write(`ensure-chromium: ${line}\n`));
  if (!lookup.found) throw new Error(lookup.reason);
  await writeRunReport(dir);
  const file = join(dir, 'report.html');
  const bytes = statSync(file).size;
  const scratch = mkdtempSync(join(tmpdir(), 'bench-error-browser-'));
  const plain = join(scratch, 'report.html');
  const folder = await readRunFolder(dir);
  const { errors: _errors, ...withoutErrors } = folder.tables;
  writeFileSync(plain, renderRunReport(folder.run, withoutErrors));
  const plainBytes = statSync(plain).size;
  const plainLoad: number[] = [];
  const browser = await chromium.launch({ executablePath: lookup.path, args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
  const load: number[] = [];
  const dcl: number[] = [];
  const openError: number[] = [];
  let nodes = { initial: 0, opened: 0 };
  let errors = 0;
  try {
    for (let r = 0; r < runs; r++) {
      const before = await browser.newContext({ viewport: { width: 1300, height: 900 }, deviceScaleFactor: 1 });
      await before.route(/^(?!file:)/, (route) => route.abort());
      const p0 = await before.newPage();
      await p0.goto(pathToFileURL(plain).href, { waitUntil: 'load' });
      plainLoad.push(await p0.evaluate<number>(`performance.getEntriesByType('navigation')[0].loadEventEnd`));
      await before.close();
      const context = await browser.newContext({ viewport: { width: 1300, height: 900 }, deviceScaleFactor: 1 });
      await context.route(/^(?!file:)/, (route) => route.abort());
      const page = await context.newPage();
      await page.goto(pathToFileURL(resolve(file)).href, { waitUntil: 'load' });
      const t = await page.evaluate<{ load: number; dcl: number }>(`(() => { const n = performance.getEntriesByType('navigation')[0]; return { load: n.loadEventEnd, dcl: n.domContentLoadedEventEnd }; })()`);
      load.push(t.load);
      dcl.push(t.dcl);
      const initial = await page.evaluate<number>(`document.getElementsByTagName('*').length`);
      errors = await page.evaluate<number>(`JSON.parse(document.getElementById('error-data').textContent).variants.reduce((n, v) => n + v.errors.length, 0)`);
      // From the click to the texts laid out (a forced layout inside the timed span).
      const ms = await page.evaluate<number>(`(() => {
        const row = document.querySelector('#err-rows tr');
        const t0 = performance.now();
        row.click();
        document.getElementById('err-detail').getBoundingClientRect();
        return performance.now() - t0;
      })()`);
      openError.push(ms);
      nodes = { initial, opened: await page.evaluate<number>(`document.getElementsByTagName('*').length`) };
      if (r === 0 && shot) {
        // The list's last rows above the error opened: what a reader sees after a click.
        await page.evaluate(`document.getElementById('err-detail').scrollIntoView({ block: 'end' })`);
        await page.screenshot({ path: shot });
      }
      await context.close();
    }
  } finally {
    await browser.close();
    rmSync(scratch, { recursive: true, force: true });
  }
  const f = (xs: number[]): string => `${median(xs).toFixed(0)} ms (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`;
  process.stdout.write(
    [
      `report.html: ${(bytes / 2 ** 20).toFixed(2)} MiB, ${errors} errors; without them ${(plainBytes / 2 ** 20).toFixed(2)} MiB`,
      `load without the errors: ${f(plainLoad)}`,
      `elements: ${nodes.initial} on opening, ${nodes.opened} with one error open`,
      `DOMContentLoaded: ${f(dcl)}; load: ${f(load)} over ${runs} runs`,
      `opening an error: ${f(openError)}`,
    ].join('\n') + '\n',
  );
}

await main();
