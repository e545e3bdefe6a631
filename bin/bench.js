#!/usr/bin/env node
// The CLI: the build in dist/cli/ (scripts/build.mjs, run by `npm install`) while it is fresh,
// else the TypeScript sources through tsx, so that an edit never runs stale code and a clone
// that was never built still works.
import { readFileSync, statSync } from 'node:fs';

// The AWS SDK warns at load time that its 2027 releases will need Node 22. It says nothing
// about this run and would stand above every `bench` error message; every other warning stays.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = (warning, ...rest) => {
  const text = typeof warning === 'string' ? warning : `${warning?.name}: ${warning?.message}`;
  if (/NodeVersionSupportWarning/.test(text) || /NodeVersionSupportWarning/.test(String(rest[0]?.type ?? rest[0] ?? ''))) return;
  emitWarning(warning, ...rest);
};

const root = new URL('../', import.meta.url);

/** The build exists and none of the files it was built from changed since (a stat each: a few milliseconds). */
function freshBuild() {
  try {
    const { built, inputs } = JSON.parse(readFileSync(new URL('dist/cli/build.json', root), 'utf8'));
    return inputs.every((f) => statSync(new URL(f, root)).mtimeMs <= built);
  } catch {
    return false;
  }
}

// Loading the CLI takes a few hundred milliseconds, seconds on a busy machine, before its own
// handler (harness/interrupts.ts) is installed. An interrupt meanwhile ends the process as that
// handler would before a command starts, instead of Node's silent death by signal. Once the CLI's
// handler is there, this one steps aside for good, so that a second interrupt still ends the
// process at once.
function interruptedWhileLoading(signal) {
  process.off('SIGINT', interruptedWhileLoading);
  process.off('SIGTERM', interruptedWhileLoading);
  if (process.listenerCount(signal) > 0) return;
  process.stderr.write('interrupted: nothing was written\n');
  process.exit(130);
}
process.on('SIGINT', interruptedWhileLoading);
process.on('SIGTERM', interruptedWhileLoading);

if (process.env.NDD_BENCH_FROM_SOURCES === undefined && freshBuild()) {
  await import(new URL('dist/cli/bench.mjs', root).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../harness/cli.ts');
}
