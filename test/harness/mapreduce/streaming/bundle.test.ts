import { spawnSync } from 'node:child_process';
import { copyFileSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleJobScript } from '../../../../harness/mapreduce/streaming/bundle.ts';
import { removeTempDirs, tempDir, toyJobScript } from './toy/fixture.ts';

function runNode(script: string, args: string[], input: string, cwd: string) {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return spawnSync(process.execPath, [script, ...args], { input, cwd, encoding: 'utf8', env });
}

afterAll(removeTempDirs);

describe('bundleJobScript', () => {
  it('builds one file that requires nothing but Node built-ins and runs alone in an empty folder', async () => {
    const bundle = await toyJobScript();
    const text = readFileSync(bundle, 'utf8');
    const required = [...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1] as string);
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    expect(required.filter((r) => !builtins.has(r))).toEqual([]);

    // As on a Hadoop node: the script and the spec in the task's working directory, nothing else.
    const alone = tempDir('ndd-alone-');
    copyFileSync(bundle, join(alone, 'ndd-job.js'));
    writeFileSync(join(alone, 'spec.json'), JSON.stringify({ algorithm: 'toy-words', params: { max_df: 5, fail_on: null }, minScore: 0, seed: 0 }));
    const r = runNode('ndd-job.js', ['--spec', 'spec.json', '--job', 'clean', '--phase', 'map'], '4\tHello, World!\n', alone);
    expect(r.stderr).toBe('reporter:counter:toy,documents,1\n');
    expect(r.stdout).toBe('4\thello world\n');
    expect(r.status).toBe(0);
  });

  it('rebuilds when a source is newer than the bundle, and reuses it otherwise', async () => {
    const dir = tempDir('ndd-bundle-');
    const entry = join(dir, 'entry.ts');
    const out = join(dir, 'out');
    writeFileSync(entry, "const v: string = 'one';\nprocess.stdout.write(v);\n");
    const first = await bundleJobScript(out, { entry });
    expect(runNode(first, [], '', dir).stdout).toBe('one');
    const builtAt = statSync(first).mtimeMs;

    expect(await bundleJobScript(out, { entry })).toBe(first);
    expect(statSync(first).mtimeMs).toBe(builtAt);

    writeFileSync(entry, "const v: string = 'two';\nprocess.stdout.write(v);\n");
    const later = new Date(Date.now() + 5000);
    utimesSync(entry, later, later);
    await bundleJobScript(out, { entry });
    expect(runNode(first, [], '', dir).stdout).toBe('two');
  });

  it('maps import.meta.url to the bundle file, so plans that resolve worker modules still load', async () => {
    const dir = tempDir('ndd-bundle-');
    const entry = join(dir, 'meta.ts');
    writeFileSync(entry, "process.stdout.write(new URL('./x.ts', import.meta.url).href);\n");
    const script = await bundleJobScript(join(dir, 'out'), { entry });
    expect(runNode(script, [], '', dir).stdout).toBe(`file://${join(dir, 'out', 'x.ts')}`);
  });

  it('bundles the real job script (every detector’s plan) without zod: the plans import only types from it', async () => {
    const script = await bundleJobScript(tempDir('ndd-real-bundle-'));
    expect(zodIn(script)).toEqual([]);
    // The check sees zod where it is: an entry that uses zod bundles it, and it is reported.
    const dir = tempDir('ndd-zod-bundle-');
    const entry = join(dir, 'with-zod.ts');
    writeFileSync(entry, `import { z } from ${JSON.stringify(createRequire(import.meta.url).resolve('zod'))};\nprocess.stdout.write(String(z.number().safeParse('x').success));\n`);
    const withZod = await bundleJobScript(join(dir, 'out'), { entry });
    expect(runNode(withZod, [], '', dir).stdout).toBe('false');
    expect(zodIn(withZod).length).toBeGreaterThan(0);
  });
});

/** What of zod a bundle holds: its bundled source files under node_modules/zod, and zod's names in the code. */
function zodIn(script: string): string[] {
  const inputs = JSON.parse(readFileSync(`${script}.inputs.json`, 'utf8')) as string[];
  const files = inputs.filter((f) => /[\\/]node_modules[\\/]zod[\\/]/.test(f));
  const names = [...new Set([...readFileSync(script, 'utf8').matchAll(/\b(?:ZodError|ZodType|\$ZodType|zod)\b/g)].map((m) => m[0]))];
  return [...files, ...names];
}
