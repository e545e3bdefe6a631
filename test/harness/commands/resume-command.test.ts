import { describe, expect, it } from 'vitest';
import { resumeCommand, type RunArgs } from '../../../harness/commands/run.ts';

const ARGS: RunArgs = {
  config: 'configs/big.yaml',
  strict: false,
  'dry-run': false,
  out: 'out dir',
  only: ['broder/sct=*'],
  force: false,
  resume: false,
  'hash-inputs': true,
  'corpus-cache': false,
  'stored-values': true,
  backend: 'streaming',
};

describe('the command that finishes an interrupted run', () => {
  it('repeats every option the run had, the run id spelled out, quoted for the shell', () => {
    expect(resumeCommand(ARGS, 'abc123', { cwd: '/repo', script: '/repo/bin/bench.js' })).toBe(
      "./bench run configs/big.yaml --out 'out dir' --run-id abc123 --only 'broder/sct=*' --backend streaming --hash-inputs --no-corpus-cache --resume",
    );
  });

  it('names the CLI by its path when started from another folder', () => {
    expect(resumeCommand({ ...ARGS, only: [], backend: undefined, 'hash-inputs': false, 'corpus-cache': true, strict: true }, 'r', { cwd: '/elsewhere', script: '/repo/bin/bench.js' })).toBe(
      "node /repo/bin/bench.js run configs/big.yaml --out 'out dir' --run-id r --strict --resume",
    );
  });

  it("quotes a quote", () => {
    expect(resumeCommand({ ...ARGS, config: "it's.yaml", only: [], backend: undefined }, 'r', { cwd: '/repo', script: '/repo/bin/bench.js' })).toContain(`'it'\\''s.yaml'`);
  });
});
