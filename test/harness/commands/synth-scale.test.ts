/**
 * `bench synth scale` as users run it: sources from the real-format fixtures of
 * ../shared/fixtures (a TREC-web segment and a ClueWeb09 WARC, read with the project's readers), a
 * corpus the jsonl reader reads back, its oracle and manifest, the same bytes from the same seed.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { newCorpusStats, readCorpus } from '../../../harness/corpus/read.ts';
import { runBench } from '../../support/cli.ts';

const repo = new URL('../../../', import.meta.url);
const fixture = (name: string): string => fileURLToPath(new URL(`../shared/fixtures/anserini/${name}`, repo));
const dir = mkdtempSync(join(tmpdir(), 'synth-scale-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bench = (...args: string[]) => runBench(args);

const sources = ['--source', `trecweb:${fixture('trecweb-segment1.txt')}`, '--source', `warc:${fixture('clueweb09-segment1.warc.gz')}`];

describe('bench synth scale', () => {
  it('writes a corpus of the size asked for, its oracle pairs and manifest, the same from the same seed', async () => {
    const one = await bench('synth', 'scale', '--documents', '2000', '--out', join(dir, 'one'), ...sources);
    expect(one.stderr).toBe('');
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(/^2,000 documents \(1,800 base, 200 copies in \d+ clusters\)/);
    const manifest = JSON.parse(readFileSync(join(dir, 'one', 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest['documents']).toBe(2000);
    expect((manifest['sources'] as { source: string }[]).map((s) => s.source.replace(/:.*\//, ':'))).toEqual(['trecweb:trecweb-segment1.txt', 'warc:clueweb09-segment1.warc.gz']);
    const docs: { id: string; text: string }[] = [];
    for await (const d of readCorpus({ format: 'jsonl', path: join(dir, 'one', 'corpus.jsonl.gz') }, newCorpusStats())) docs.push(d);
    expect(docs.length).toBe(2000);
    expect(docs.reduce((s, d) => s + d.text.length, 0)).toBe(manifest['text_chars']);
    const oracle = readFileSync(join(dir, 'one', 'oracle-pairs.csv'), 'utf8').trim().split('\n');
    expect(oracle[0]).toBe('doc_a,doc_b,edit_rate_a,edit_rate_b');
    expect(oracle.length - 1).toBe(manifest['oracle_pairs']);
    // An exact copy (both rates 0) is the same text.
    const exact = oracle.slice(1).map((l) => l.split(',')).find((r) => r[2] === '0' && r[3] === '0');
    const text = (id: string | undefined): string | undefined => docs.find((d) => d.id === id)?.text;
    expect(exact).toBeDefined();
    expect(text(exact?.[0])).toBe(text(exact?.[1]));

    const two = await bench('synth', 'scale', '--documents', '2000', '--out', join(dir, 'two'), ...sources);
    expect(two.code).toBe(0);
    for (const f of ['corpus.jsonl.gz', 'oracle-pairs.csv']) expect(readFileSync(join(dir, 'two', f)).equals(readFileSync(join(dir, 'one', f)))).toBe(true);
  });

  it('refuses bad options in one line', async () => {
    const missing = await bench('synth', 'scale', '--out', join(dir, 'x'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/synth scale needs --documents N/);
    const rates = await bench('synth', 'scale', '--documents', '10', '--edit-rates', '0,1.5', '--out', join(dir, 'x'));
    expect(rates.code).toBe(2);
    expect(rates.stderr).toMatch(/edit rates must be 1 to 255 numbers in \[0, 1\), got 0,1.5/);
    const source = await bench('synth', 'scale', '--documents', '10', '--source', 'pdf:x.pdf', '--out', join(dir, 'x'));
    expect(source.code).toBe(2);
    expect(source.stderr).toMatch(/--source pdf:x.pdf: expected mail or FORMAT:PATH with FORMAT one of/);
  });
});
