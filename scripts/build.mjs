#!/usr/bin/env node
/**
 * `npm run build` (also npm's `prepare`, so `npm install` runs it): the CLI as JavaScript in
 * dist/cli/, so that `bench` starts without transpiling TypeScript. bin/bench.js runs it while
 * it is fresh (no source it was built from is newer than the build) and the sources through
 * tsx otherwise, so an edit never runs stale code; the tests always run the sources.
 *
 *   dist/cli/bench.mjs    the CLI (harness/cli.ts); commands and the EMR backend in chunks
 *                         loaded when used; the npm packages it runs with bundled too (a
 *                         package is ~100 files to resolve and read at every start: 70 ms of
 *                         `bench validate`'s 350), except the AWS SDK (EMR only), esbuild and
 *                         tsx (tools), and the packages read as files (chart.js, the corpus)
 *   dist/cli/worker.mjs   the worker threads' entry (harness/runtime/worker.ts)
 *   dist/cli/build.json   the sources it was built from, for bin/bench.js's freshness check
 *
 * Modules find files relative to themselves (`new URL('./join.ts', import.meta.url)`, the
 * price table, package.json): in the bundle each module's `import.meta.url` is its source
 * file's URL, so every such path means what it means in the sources. The modules that worker
 * tasks name that way are found here and bundled into harness/build/module-table.ts's table,
 * through which harness/build/import-module.ts loads them.
 */
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'dist', 'cli');
/** Folders whose TypeScript is ours (bundled, its import.meta.url rewritten). */
const SOURCES = ['harness', 'algorithms', 'contract'].map((d) => join(ROOT, d) + sep);

const rel = (file) => relative(ROOT, file).split(sep).join('/');

function tsFiles(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) tsFiles(p, out);
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Every module named by `new URL('<relative>.ts', import.meta.url)` in the sources: what worker tasks load. */
function workerModules() {
  const found = new Set();
  const pattern = /new URL\(\s*['"](\.{1,2}\/[^'"]+\.ts)['"]\s*,\s*import\.meta\.url\s*\)/g;
  for (const dir of SOURCES) {
    for (const file of tsFiles(dir)) {
      for (const m of readFileSync(file, 'utf8').matchAll(pattern)) {
        // (a comment may show the pattern with a made-up name)
        const target = resolve(dirname(file), m[1]);
        if (existsSync(target)) found.add(target);
      }
    }
  }
  return [...found].sort();
}

/** Each of our modules gets `import.meta.url` = its source file's URL (see the define below). */
const sourceUrls = {
  name: 'ndd-source-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (!SOURCES.some((d) => args.path.startsWith(d))) return undefined;
      const source = readFileSync(args.path, 'utf8');
      // import.meta.dirname is the bundle's folder (dist/cli): the package root is two up.
      const prelude =
        "import { pathToFileURL as __nddToUrl } from 'node:url';\n" +
        `const __nddModuleUrl = new URL(${JSON.stringify(rel(args.path))}, __nddToUrl(import.meta.dirname + '/../../')).href;\n`;
      // Our modules' import.meta.url, and only theirs: the bundled packages keep their own. (Not
      // in a string: the job-script bundler names it as a define key.)
      return { contents: prelude + source.replace(/(?<!['"`])import\.meta\.url(?!['"`])/g, '__nddModuleUrl'), loader: 'ts' };
    });
  },
};

/** harness/build/module-table.ts, filled in: source path → lazy import of the bundled module. */
const MODULE_TABLE = join(ROOT, 'harness', 'build', 'module-table.ts');
const moduleTable = {
  name: 'ndd-module-table',
  setup(b) {
    b.onLoad({ filter: /module-table\.ts$/ }, (args) => {
      if (args.path !== MODULE_TABLE) return undefined;
      const entries = workerModules().map((f) => `  ${JSON.stringify(rel(f))}: () => import(${JSON.stringify(f)}),`);
      return { contents: `export const modules = {\n${entries.join('\n')}\n};\n`, loader: 'js', resolveDir: dirname(MODULE_TABLE) };
    });
  },
};

/**
 * zod's `locales` namespace, every language's error messages (half of zod's bundled size), is
 * imported by its entry module whether used or not; the harness uses only English, zod's default.
 */
const englishOnlyZod = {
  name: 'ndd-zod-english',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};

/**
 * string-width (yargs' help layout) makes an Intl.Segmenter as it loads: ICU's break-iterator
 * data, 20 to 25 ms at every start of every command, for a help text most commands never lay
 * out. Here it is made when a width is first measured. Where the line is not found (another
 * release), the module is bundled as it is.
 */
const lazySegmenter = {
  name: 'ndd-lazy-segmenter',
  setup(b) {
    b.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const eager = 'const segmenter = new Intl.Segmenter();';
      if (!source.includes(eager)) return undefined;
      const lazy = 'let madeSegmenter; const segmenter = { segment: (text) => (madeSegmenter ??= new Intl.Segmenter()).segment(text) };';
      return { contents: source.replace(eager, lazy), loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

const started = Date.now();
const tmp = `${OUT}.${process.pid}.tmp`;
rmSync(tmp, { recursive: true, force: true });
const result = await build({
  absWorkingDir: ROOT,
  entryPoints: { bench: 'harness/cli.ts', worker: 'harness/runtime/worker.ts' },
  outdir: tmp,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['@aws-sdk/*', '@smithy/*', 'esbuild', 'tsx', 'tsx/*', 'chart.js', '@stdlib/*', 'typescript'],
  // The packages written as CommonJS call require() for Node's own modules.
  banner: { js: "import { createRequire as __nddCreateRequire } from 'node:module'; const require = __nddCreateRequire(import.meta.url);" },
  outExtension: { '.js': '.mjs' },
  entryNames: '[name]',
  chunkNames: '[name]-[hash]',
  define: { __NDD_BUILT__: 'true' },
  plugins: [moduleTable, sourceUrls, englishOnlyZod, lazySegmenter],
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
});
// A bundled package is fresh while its package.json is: one stat for it at start-up, not one per file.
const inputs = [
  ...new Set(
    Object.keys(result.metafile.inputs).map((p) => {
      const r = rel(resolve(ROOT, p));
      const pkg = /^(node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(r);
      return pkg ? `${pkg[1]}/package.json` : r;
    }),
  ),
];
inputs.push('scripts/build.mjs', 'bin/bench.js');
writeFileSync(join(tmp, 'build.json'), `${JSON.stringify({ built: started, inputs }, null, 1)}\n`);
// Swap the folder into place: a `bench` starting meanwhile finds no build.json and runs the sources.
mkdirSync(dirname(OUT), { recursive: true });
const old = `${OUT}.${process.pid}.old`;
try {
  renameSync(OUT, old);
} catch {
  // no earlier build
}
renameSync(tmp, OUT);
rmSync(old, { recursive: true, force: true });
const size = Object.values(result.metafile.outputs).reduce((s, o) => s + o.bytes, 0);
process.stdout.write(`built ${rel(OUT)}/ (${inputs.length} sources, ${(size / 1024).toFixed(0)} KiB) in ${((Date.now() - started) / 1000).toFixed(2)} s\n`);
