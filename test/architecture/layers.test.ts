/**
 * Layers that only point down: each folder of the source tree has a place in one order, bottom
 * first, and a file imports only its own layer or lower ones; no two folders, and no two files,
 * import each other round a cycle. A new folder fails here until it is given a place.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycles, folderOf, importGraph, type Import, type Layer, layerOf, moduleReferences, sourceFiles, upwardImports } from './import-graph.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Bottom first. */
const LAYERS: readonly Layer[] = [
  // typed-array machinery: imports nothing of the project
  { name: 'kernels', paths: ['kernels/'] },
  // what a detector and the harness agree on
  { name: 'contract', paths: ['contract/'] },
  { name: 'algorithms', paths: ['algorithms/'] },
  // what every harness folder may use: errors, the built CLI's module loading, the built-in
  // detector catalog, progress lines, figures for people, CSV cells
  { name: 'harness base', paths: ['harness/errors.ts', 'harness/build/', 'harness/detectors.ts', 'harness/progress.ts', 'harness/format.ts', 'harness/csv.ts', 'harness/did-you-mean.ts'] },
  // threads, pools, stored values, the kernel context
  { name: 'runtime', paths: ['harness/runtime/'] },
  // The middle layer, in the one order its folders may import each other: reading a corpus needs
  // nothing above it; TREC's files name corpus documents; the backends run over read documents;
  // the evaluation reads qrels and run files; results hold evaluations; the report reads results;
  // synthetic corpora write the oracle file the evaluation reads.
  { name: 'corpus', paths: ['harness/corpus/'] },
  { name: 'trec', paths: ['harness/trec/'] },
  { name: 'mapreduce', paths: ['harness/mapreduce/'] },
  { name: 'evaluate', paths: ['harness/evaluate/'] },
  { name: 'results', paths: ['harness/results/'] },
  { name: 'report', paths: ['harness/report/'] },
  { name: 'synth', paths: ['harness/synth/'] },
  // a config loaded, checked and run
  { name: 'experiment', paths: ['harness/experiment/'] },
  { name: 'commands', paths: ['harness/commands/'] },
  { name: 'cli', paths: ['harness/cli.ts', 'harness/cli-help.ts'] },
];

/**
 * Back-pointing imports that the runtime folder (harness/runtime/, another line of work) removes
 * by taking the worker pool out of mapreduce/ and the stored values out of experiment/: listed so
 * that the test holds meanwhile and nothing joins them. Each is `from → to`.
 */
const PENDING = new Set([
  'harness/corpus/parallel.ts → harness/mapreduce/local/pool.ts',
  'harness/mapreduce/backends.ts → harness/experiment/stored-values.ts',
  'harness/mapreduce/local/backend.ts → harness/experiment/stored-values.ts',
]);

const pending = (i: Import): boolean => PENDING.has(`${i.from} → ${i.to}`);

const FILES = sourceFiles(ROOT, [...new Set(LAYERS.flatMap((l) => l.paths.map((p) => p.split('/')[0] as string)))]);
const IMPORTS = importGraph(ROOT, FILES);
const checked = IMPORTS.filter((i) => !pending(i));

/** A folder as the cycle check sees it: harness/'s own files split by their layer (the CLI is not the base). */
const folder = (file: string): string => (folderOf(file) === 'harness' ? `harness (${layerOf(LAYERS, file)?.name ?? '?'})` : folderOf(file));

/**
 * A folder and the folders inside it are one unit to the folder check: a parent composes its
 * subfolders (mapreduce/backends.ts chooses among local/, streaming/ and emr/), which share the
 * parent's modules (mapreduce/outputs.ts). Their files still may not import round a cycle.
 */
const nested = (a: string, b: string): boolean => a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

describe('the layers', () => {
  it('reads a graph of the whole tree', () => {
    expect(FILES.length).toBeGreaterThan(250);
    expect(IMPORTS.length).toBeGreaterThan(800);
    const has = (from: string, to: string): boolean => IMPORTS.some((i) => i.from === from && i.to === to);
    // a module a worker task names by URL, a command loaded when used, a worker's entry in JavaScript
    expect(has('harness/mapreduce/local/parallel-engine.ts', 'harness/mapreduce/local/tasks.ts')).toBe(true);
    expect(has('harness/commands/index.ts', 'harness/commands/run.ts')).toBe(true);
    expect(has('harness/mapreduce/local/worker-entry.js', 'harness/mapreduce/local/worker.ts')).toBe(true);
  });

  it('has no import from a lower layer to a higher one', () => {
    expect(upwardImports(LAYERS, FILES, checked)).toEqual([]);
  });

  it('has no cycle between folders', () => {
    expect(cycles(checked, folder, nested)).toEqual([]);
  });

  it('has no cycle between files', () => {
    expect(cycles(checked, (f) => f)).toEqual([]);
  });

  it('still has each pending import (drop it from PENDING once it is gone)', () => {
    expect([...PENDING].filter((p) => !IMPORTS.some((i) => `${i.from} → ${i.to}` === p))).toEqual([]);
  });
});

describe('the layer check itself', () => {
  const layers: Layer[] = [
    { name: 'low', paths: ['low/'] },
    { name: 'mid', paths: ['mid/', 'top/base.ts'] },
    { name: 'high', paths: ['top/'] },
  ];
  const edge = (from: string, to: string, specifier: string, line = 1): Import => ({ from, to, specifier, line });

  it('names the file and the import that point up, and a file in no layer', () => {
    const imports = [edge('mid/a.ts', 'low/b.ts', '../low/b.ts'), edge('low/b.ts', 'mid/a.ts', '../mid/a.ts', 7), edge('top/base.ts', 'top/c.ts', './c.ts', 3), edge('top/c.ts', 'top/base.ts', './base.ts')];
    expect(upwardImports(layers, ['mid/a.ts', 'low/b.ts', 'top/base.ts', 'top/c.ts', 'other/d.ts'], imports)).toEqual([
      'other/d.ts: in no layer',
      "low/b.ts:7 imports '../mid/a.ts' (mid/a.ts): low is below mid",
      "top/base.ts:3 imports './c.ts' (top/c.ts): mid is below high",
    ]);
  });

  it('names a cycle with the imports that close it, between folders and between files', () => {
    const imports = [edge('a/x.ts', 'b/y.ts', '../b/y.ts', 2), edge('b/y.ts', 'c/z.ts', '../c/z.ts', 4), edge('c/z.ts', 'a/w.ts', '../a/w.ts', 6), edge('a/w.ts', 'd/v.ts', '../d/v.ts')];
    expect(cycles(imports, folderOf)).toEqual([
      "cycle between a, b, c:\n  a/x.ts:2 imports '../b/y.ts' (b/y.ts)\n  b/y.ts:4 imports '../c/z.ts' (c/z.ts)\n  c/z.ts:6 imports '../a/w.ts' (a/w.ts)",
    ]);
    // a folder and one inside it are one unit to the folder check
    const parentChild = [edge('p/a.ts', 'p/q/b.ts', './q/b.ts'), edge('p/q/b.ts', 'p/c.ts', '../c.ts')];
    expect(cycles(parentChild, folderOf)).toHaveLength(1);
    expect(cycles(parentChild, folderOf, (a, b) => a.startsWith(`${b}/`) || b.startsWith(`${a}/`))).toEqual([]);
    // the same imports close no cycle between files: a/w.ts is not a/x.ts
    expect(cycles(imports, (f) => f)).toEqual([]);
    expect(cycles([...imports, edge('a/w.ts', 'a/x.ts', './x.ts', 9)], (f) => f)).toEqual([
      "cycle between a/w.ts, a/x.ts, b/y.ts, c/z.ts:\n  a/w.ts:9 imports './x.ts' (a/x.ts)\n  a/x.ts:2 imports '../b/y.ts' (b/y.ts)\n  b/y.ts:4 imports '../c/z.ts' (c/z.ts)\n  c/z.ts:6 imports '../a/w.ts' (a/w.ts)",
    ]);
  });
});

describe('reading module references', () => {
  it('finds static, type-only, re-exported, dynamic and URL-named modules, not ones in comments or strings', () => {
    const text = [
      "import { a } from './a.ts';",
      "import type { B } from '../b.ts';",
      "export { c } from './c.ts';",
      "const d = await import('./d.ts');",
      "type E = import('./e.ts').E;",
      "const F = new URL('./f.ts', import.meta.url).href;",
      "// import { g } from './g.ts';",
      "const h = \"import { h } from './h.ts'\";",
      "import { readFileSync } from 'node:fs';",
      "const folder = new URL('./', import.meta.url);",
    ].join('\n');
    expect(moduleReferences('x.ts', text)).toEqual([
      { specifier: './a.ts', line: 1 },
      { specifier: '../b.ts', line: 2 },
      { specifier: './c.ts', line: 3 },
      { specifier: './d.ts', line: 4 },
      { specifier: './e.ts', line: 5 },
      { specifier: './f.ts', line: 6 },
      { specifier: './', line: 10 },
    ]);
  });
});
