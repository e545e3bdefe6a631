import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The chart.js UMD bundle, read from node_modules at render time so that a report carries the
 * exact library it was drawn with and needs no network. `<\/script` cannot occur in it today;
 * the replace keeps a future release from ending the inline script early.
 */
export function chartJsSource(): string {
  // chart.js' export map hides dist/; resolve the package entry and step beside it.
  const entry = createRequire(import.meta.url).resolve('chart.js');
  const source = readFileSync(join(dirname(entry), 'chart.umd.min.js'), 'utf8');
  return source.replace(/<\/script/gi, '<\\/script').replace(/<!--/g, '<\\!--');
}
