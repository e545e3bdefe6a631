/**
 * simhash in experiment configs: the defaults the issue asks for, sweeps over k, and the config
 * errors for bad parameters and for metadata the corpus format does not carry.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../harness/errors.ts';
import { loadExperiment } from '../../../harness/experiment/load.ts';

const dir = mkdtempSync(join(tmpdir(), 'simhash-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const trecweb = fileURLToPath(new URL('../../fixtures/trec/multi-member.trecweb.gz', import.meta.url));
const jsonl = fileURLToPath(new URL('../../fixtures/corpus/small.jsonl', import.meta.url));

let n = 0;
async function load(corpus: string, runs: string) {
  const file = join(dir, `c${n++}.yaml`);
  writeFileSync(file, `experiment: t\ncorpus: ${corpus}\nruns:\n${runs}\n`);
  return loadExperiment(file, { env: {} });
}

async function issues(corpus: string, runs: string): Promise<string[]> {
  const err = await load(corpus, runs).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return [...(err as ConfigError).issues];
}

describe('simhash configs', () => {
  it('with no params is the original simhash over words at k = 3', async () => {
    const exp = await load('{ format: spamassassin }', '  - algorithm: simhash');
    expect(exp.variants.map((v) => v.name)).toEqual(['simhash']);
    expect(exp.variants[0]?.params).toMatchObject({ k: 3, features: { unit: 'word', size: 1 }, idf: 'inverse', position: 'none' });
  });

  it('sweeps k with a list', async () => {
    const exp = await load('{ format: spamassassin }', '  - algorithm: simhash\n    params: { k: [0, 1, 2, 3] }');
    expect(exp.variants.map((v) => v.name)).toEqual(['simhash/k=0', 'simhash/k=1', 'simhash/k=2', 'simhash/k=3']);
  });

  it('refuses k > 64 in one line naming the field', async () => {
    const lines = await issues('{ format: spamassassin }', '  - algorithm: simhash\n    params: { k: 65 }');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/:5:\d+: runs\[0\]\.params\.k: must be at most 64, got 65$/);
  });

  it('refuses a metadata field the corpus format does not carry, naming it and what the format has', async () => {
    const lines = await issues('{ format: spamassassin }', '  - algorithm: simhash\n    params: { metadata: { fields: [subject, url] } }');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /runs\[0\]\.params: simhash\/\S+ needs the meta field 'url', which spamassassin documents do not carry \(they carry: group, subject, from, tagged, message_id, in_reply_to\)/,
    );
    const web = await issues(`{ format: trecweb, path: ${trecweb} }`, '  - algorithm: simhash\n    params: { metadata: { fields: [title, from] } }');
    expect(web[0]).toMatch(/needs the meta field 'from', which trecweb documents do not carry \(they carry: url, title, tagged\)/);
  });

  it('accepts the fields a format carries, and any field from jsonl', async () => {
    await expect(load('{ format: spamassassin }', '  - algorithm: simhash\n    params: { metadata: { fields: [subject, from] }, tag_boost: true }')).resolves.toBeDefined();
    await expect(load(`{ format: trecweb, path: ${trecweb} }`, '  - algorithm: simhash\n    params: { metadata: { fields: [title, url] }, tag_boost: 2 }')).resolves.toBeDefined();
    await expect(load(`{ format: jsonl, path: ${jsonl} }`, '  - algorithm: simhash\n    params: { metadata: { fields: [anything] } }')).resolves.toBeDefined();
  });

  it('refuses the url on TREC disks, which carry titles and tagged text only', async () => {
    const disks = fileURLToPath(new URL('../../fixtures/trec/disks.trec', import.meta.url));
    const lines = await issues(`{ format: trec, path: ${disks} }`, '  - algorithm: simhash\n    params: { metadata: { fields: [title, url] }, tag_boost: true }');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/needs the meta field 'url', which trec documents do not carry \(they carry: title, tagged\)/);
  });

  it('resolves a relative df path against the config file, not the directory bench runs in', async () => {
    const sub = join(dir, 'df-rel');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'df.tsv'), 'the\t2\n\t3\n');
    const file = join(sub, 'c.yaml');
    writeFileSync(file, 'experiment: t\ncorpus: { format: spamassassin }\nruns:\n  - algorithm: simhash\n    params: { document_frequencies: { from: file, path: df.tsv } }\n');
    expect(process.cwd()).not.toBe(sub);
    const exp = await loadExperiment(file, { env: {} });
    expect(exp.variants[0]?.params).toMatchObject({ document_frequencies: { from: 'file', path: join(sub, 'df.tsv') } });
    // named by the path as written, so that the name does not depend on where the config lies
    expect(exp.variants[0]?.name).toBe('simhash/from=file,path=df.tsv');
    writeFileSync(file, 'experiment: t\ncorpus: { format: spamassassin }\nruns:\n  - algorithm: simhash\n    params: { document_frequencies: { from: file, path: nodf.tsv } }\n');
    const err = await loadExperiment(file, { env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).issues).toEqual([
      `${file}:5:57: runs[0].params.document_frequencies.path: no such file: ${join(sub, 'nodf.tsv')} (absolute, or relative to the config file's directory)`,
    ]);
  });

  it('refuses a malformed df file when the config loads, in one line naming the field, the file and its line', async () => {
    const bad = join(dir, 'bad-df.tsv');
    writeFileSync(bad, 'the\t2\nfox\tmany\n\t3\n');
    const lines = await issues('{ format: spamassassin }', `  - algorithm: simhash\n    params: { document_frequencies: { from: file, path: ${bad} } }`);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/:5:\d+: runs\[0\]\.params\.document_frequencies\.path: /);
    expect(lines[0]).toContain(`document frequencies ${bad}:2: not "feature<TAB>df" with df a positive integer: "fox\\tmany"`);
  });
});
