/**
 * Every user mistake, however hostile, is exit 2 in one line, through `node bin/bench.js` as a
 * user runs it: no stack, no raw control character, no more than 80 characters of the input
 * echoed, nothing written.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { SMALL_JSONL } from '../support/corpus.ts';
import { literal, unwritableFolder } from '../support/unwritable.ts';

const BIN = fileURLToPath(new URL('../../bin/bench.js', import.meta.url));
const run = promisify(execFile);

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function bench(args: string[]): Promise<Outcome> {
  try {
    const r = await run(process.execPath, [BIN, ...args], { env: { ...process.env, CI: 'true' }, cwd: dir, encoding: 'utf8' });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

/** Exit 2, one line on stderr starting `error: `, nothing on stdout, no control character, short. */
function expectOneLineUserError(r: Outcome): string {
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.split('\n');
  expect(lines.at(-1)).toBe('');
  expect(lines).toHaveLength(2);
  const line = lines[0] as string;
  expect(line).toMatch(/^error: /);
  expect(line).not.toMatch(CONTROL);
  expect(line.length).toBeLessThan(300);
  return line;
}

const dir = mkdtempSync(join(tmpdir(), 'ndd-hostile-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string | Buffer): string => {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
};
const corpus = fileURLToPath(SMALL_JSONL);
const config = (name: string, extra = '', path = corpus) =>
  write(name, `experiment: hostile\ncorpus:\n  format: jsonl\n  path: ${path}\n${extra}runs:\n  - algorithm: broder\n    params: { sampling: { method: mod, m: 4 } }\n`);

describe('bench run --out', () => {
  // The corpus does not exist: an error about --out shows that it was checked before the config's files.
  const noCorpus = () => config('no-corpus.yaml', '', join(dir, 'no-such-corpus.jsonl'));

  it('naming a file, or a path under a file: exit 2 in one line before anything is read, nothing written', async () => {
    const file = write('a-file', 'x');
    const cfg = noCorpus();
    const before = readdirSync(dir).sort();
    const [a, b] = await Promise.all([bench(['run', cfg, '--out', file]), bench(['run', cfg, '--out', join(file, 'sub')])]);
    expect(expectOneLineUserError(a)).toBe(`error: --out ${file}: not a directory`);
    expect(expectOneLineUserError(b)).toBe(`error: --out ${join(file, 'sub')}: ${file} is not a directory`);
    expect(readdirSync(dir).sort()).toEqual(before);
  });

  it('that cannot be written: exit 2 in one line before anything is read', async () => {
    const ro = unwritableFolder(mkdtempSync(join(dir, 'ro-')));
    const out = join(ro, 'ndd-bench-results');
    const r = await bench(['run', noCorpus(), '--out', out]);
    expect(expectOneLineUserError(r)).toMatch(new RegExp(`^error: --out ${literal(out)}: cannot write in ${literal(ro)}: (operation not permitted|permission denied)$`));
  });
});

describe('hostile configs', () => {
  it('an alias bomb, a binary file and nesting 20,000 deep: exit 2 in one line, nothing of the file echoed', async () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) {
      const [n, p] = [String.fromCharCode(97 + i), String.fromCharCode(96 + i)];
      levels.push(`${n}: &${n} [*${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}]`);
    }
    const bomb = write('bomb.yaml', `experiment: bomb\n${levels.join('\n')}\n`);
    const binary = write('binary.yaml', Buffer.from(Array.from({ length: 6000 }, (_, i) => (i * 7 + 0x7f) % 256)));
    const deep = write('deep.yaml', `experiment: deep\nx: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`);
    const [a, b, c] = await Promise.all([bench(['validate', bomb]), bench(['run', binary, '--out', join(dir, 'out')]), bench(['validate', deep])]);
    expect(expectOneLineUserError(a)).toBe(`error: ${bomb}:3:8: YAML aliases expand into too many values (more than 100 each): an alias bomb?`);
    expect(expectOneLineUserError(b)).toBe(`error: ${binary}:1:1: not a YAML config: byte 0 is the control character 0x7f (a binary file?)`);
    expect(expectOneLineUserError(c)).toBe(`error: ${deep}: not a config: mappings and lists nested more than 64 deep`);
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('terminal escapes and kilobytes in a value: escaped, at most 80 characters of it', async () => {
    const cfg = write(
      'escape.yaml',
      `experiment: x\ncorpus: { format: jsonl, path: ${corpus} }\nruns:\n  - algorithm: broder\n    params:\n      sampling: { method: mod, m: "\\e[2J\\e]0;pwned\\a${'A'.repeat(5000)}" }\n`,
    );
    const line = expectOneLineUserError(await bench(['validate', cfg]));
    expect(line).toBe(`error: ${cfg}:6:35: runs[0].params.sampling.m: expected a number, got string '\\e[2J\\e]0;pwned\\x07${'A'.repeat(66)}…'`);
  });
});

describe('hostile qrels and run files', () => {
  it('a qrels grade with terminal escapes, a binary qrels file: exit 2 in one line, escaped', async () => {
    const qrels = write('escape.qrels', `701 0 DOC-1 1\n701 0 DOC-2 \u001b[31m${'9'.repeat(300)}\n`);
    const binary = write('binary.qrels', Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 13) % 256)));
    const [a, b] = await Promise.all([
      bench(['run', config('qrels-escape.yaml', `  subset: { qrels: ${qrels} }\n`), '--out', join(dir, 'out-q')]),
      bench(['run', config('qrels-binary.yaml', `  subset: { qrels: ${binary} }\n`), '--out', join(dir, 'out-b')]),
    ]);
    expect(expectOneLineUserError(a)).toBe(`error: ${qrels}:2: grade '\\e[31m${'9'.repeat(75)}…' is not an integer`);
    expect(expectOneLineUserError(b)).toMatch(new RegExp(`^error: ${binary.replaceAll('.', '\\.')}:\\d+: `));
  });
});
