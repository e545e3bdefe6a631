#!/usr/bin/env node
// The CLI is TypeScript run through tsx, so a fresh clone needs no build step.
import { register } from 'tsx/esm/api';

// The AWS SDK warns at load time that its 2027 releases will need Node 22. It says nothing
// about this run and would stand above every `bench` error message; every other warning stays.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = (warning, ...rest) => {
  const text = typeof warning === 'string' ? warning : `${warning?.name}: ${warning?.message}`;
  if (/NodeVersionSupportWarning/.test(text) || /NodeVersionSupportWarning/.test(String(rest[0]?.type ?? rest[0] ?? ''))) return;
  emitWarning(warning, ...rest);
};

register();
await import('../harness/cli.ts');
