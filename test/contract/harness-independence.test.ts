/**
 * The harness knows detectors only through the contract: no code in harness/ names a detector,
 * decides by an algorithm's name, or reads a detector's counters by name. Comments may mention
 * them; the default ground truth and help texts may name Broder (listed below, line by line).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DETECTORS } from '../../algorithms/detectors.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HARNESS = join(ROOT, 'harness');

/** Words that belong to a detector: the detectors' names and the names of their jobs and counters. */
const FORBIDDEN = [...DETECTORS, 'mr1', 'mr2', 'shingle', 'fingerprint', 'sct', 'output_pairs', 'sampling', 'minhash', 'simhash', 'imatch', 'ppjoin', 'pdc-mr', 'spotsigs'];

/** `file: the line's code, trimmed` — the default ground truth and help texts. */
const ALLOWED = new Set([
  "harness/experiment/schema.ts: .prefault({ algorithm: 'broder' })",
  "harness/experiment/config/variants.ts: return isRecord(raw) && raw.ground_truth !== undefined ? raw.ground_truth : { algorithm: 'broder' };",
  `harness/cli-help.ts: ['$0 run configs/quickstart.yaml --only "broder/sct=*"', 'the ground truth and the SCT sweep only'],`,
  "harness/cli-help.ts: ['$0 validate configs/gov2-sct.yaml', 'check a config without running it'],",
  `describe: 'run only these variants (names or globs, e.g. "broder/sct=*"); the ground truth always runs',`,
]);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/** The source with comments blanked (strings kept), line numbers preserved. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

const WORD = new RegExp(`(^|[^a-z0-9])(${FORBIDDEN.map((w) => w.replace(/[-]/g, '\\-')).join('|')})([^a-z0-9]|$)`, 'i');

/** `rel:line: code` for each line of `text` (the file `rel`) whose code names a detector and is not allowed. */
function offendingLines(rel: string, text: string): string[] {
  const found: string[] = [];
  code(text)
    .split('\n')
    .forEach((line, i) => {
      const t = line.trim();
      if (!WORD.test(t)) return;
      if (ALLOWED.has(`${rel}: ${t}`) || ALLOWED.has(t)) return;
      found.push(`${rel}:${i + 1}: ${t}`);
    });
  return found;
}

describe('harness/ and the detectors', () => {
  it('names no detector, job or counter of one in code', () => {
    const found = files(HARNESS).flatMap((f) => offendingLines(relative(ROOT, f), readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('finds a planted name with the very check above (the check can fail)', () => {
    const planted = [
      'const x = 1; // broder in a comment',
      "if (v.algorithm === 'simhash') count++;",
      '/* sct and mr1 in a block comment */',
      "const pdc = counters['pdc-mr'];",
      "const fingerprints = 'fingerprints';", // a word that merely starts with a forbidden one
      "return isRecord(raw) && raw.ground_truth !== undefined ? raw.ground_truth : { algorithm: 'broder' };",
    ].join('\n');
    expect(offendingLines('harness/planted.ts', planted)).toEqual([
      "harness/planted.ts:2: if (v.algorithm === 'simhash') count++;",
      "harness/planted.ts:4: const pdc = counters['pdc-mr'];",
      "harness/planted.ts:6: return isRecord(raw) && raw.ground_truth !== undefined ? raw.ground_truth : { algorithm: 'broder' };",
    ]);
    // an allowed line is allowed only in its own file
    expect(offendingLines('harness/experiment/config/variants.ts', planted.split('\n')[5] as string)).toEqual([]);
  });
});
