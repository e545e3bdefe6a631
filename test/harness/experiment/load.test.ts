import { DEFAULT_SIZE_GROUPS } from '../../../harness/evaluate/size-groups.ts';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAdapters } from '../../../algorithms/registry.ts';

const adapters = await loadAdapters();
import { ConfigError } from '../../../harness/errors.ts';
import { loadExperiment } from '../../../harness/experiment/load.ts';
import { corpusFormats } from '../../../harness/experiment/schema.ts';

const dir = fileURLToPath(new URL('../../fixtures/configs/', import.meta.url));
const fixture = (name: string) => join(dir, name);

/** The lines of the ConfigError that loading `name` throws. */
async function issuesOf(name: string, env: Record<string, string> = {}): Promise<readonly string[]> {
  const err = await loadExperiment(fixture(name), { env }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfigError);
  return (err as ConfigError).issues;
}

// A second, naive canonical form: keys sorted at every level, then JSON.
function sortedJson(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(sortedJson).join(',')}]`;
  if (x !== null && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    const keys = Object.keys(o).filter((k) => o[k] !== undefined).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(x);
}

const broderDefaults = {
  shingle: { unit: 'char', size: 64, start: 'word' },
  fingerprint: 'rabin64',
  sampling: { method: 'none' },
};

describe('loadExperiment: valid configs', () => {
  it('fills every default of a minimal config', async () => {
    const exp = await loadExperiment(fixture('valid-minimal.yaml'), { env: {} });
    expect(exp.file).toBe(fixture('valid-minimal.yaml'));
    expect(exp.name).toBe('minimal');
    expect(exp.description).toBeUndefined();
    expect(exp.seed).toBe(1);
    expect(exp.corpus).toEqual({ format: 'spamassassin', strict: false });
    expect(exp.groundTruth).toEqual({
      name: 'ground-truth',
      algorithm: 'broder',
      params: broderDefaults,
      swept: {},
      groundTruth: true,
    });
    expect(exp.variants).toEqual([]);
    expect(exp.evaluate).toEqual({ threshold: 0.5, min_score: 0.1, distribution: [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1], size_groups: DEFAULT_SIZE_GROUPS });
    expect(exp.backend).toEqual({
      kind: 'local',
      engine: 'auto',
      workers: availableParallelism(),
      memory_mb: 2048,
      price_per_vcpu_hour: 0.0504,
    });
  });

  it('reads every section of a full config, with paths made absolute', async () => {
    const exp = await loadExperiment(fixture('valid-full.yaml'), { env: {} });
    expect(exp.name).toBe('full.example_1');
    expect(exp.description).toBe('every section of a config');
    expect(exp.seed).toBe(7);
    expect(exp.corpus).toEqual({
      format: 'jsonl',
      path: join(dir, 'data', 'docs.jsonl'),
      limit: 2,
      strict: true,
      subset: { qrels: join(dir, 'data', 'qrels.txt'), relevant_only: true },
    });
    const word3 = { unit: 'word', size: 3 };
    expect(exp.groundTruth.params).toEqual({ ...broderDefaults, shingle: word3 });
    expect(exp.variants).toEqual([
      { name: 'sct/sct=3', algorithm: 'broder', params: { shingle: word3, fingerprint: 'rabin64', sampling: { method: 'sct', threshold: 3 } }, swept: { 'sampling.threshold': 3 }, groundTruth: false },
      { name: 'sct/sct=2', algorithm: 'broder', params: { shingle: word3, fingerprint: 'rabin64', sampling: { method: 'sct', threshold: 2 } }, swept: { 'sampling.threshold': 2 }, groundTruth: false },
      // unswept and unnamed: named by what sets it apart from the defaults (word shingles of 3, MD5)
      { name: 'broder/unit=word,size=3,fingerprint=md5', algorithm: 'broder', params: { shingle: word3, fingerprint: 'md5', sampling: { method: 'none' } }, swept: {}, groundTruth: false },
    ]);
    expect(exp.evaluate).toEqual({ threshold: 0.6, min_score: 0.2, distribution: [0.8, 0.6], size_groups: DEFAULT_SIZE_GROUPS });
    expect(exp.backend).toEqual({ kind: 'local', engine: 'auto', workers: 3, memory_mb: 512, price_per_vcpu_hour: 0.1 });
  });

  it('reads a subset of TREC runs with its default-free fields as given', async () => {
    const exp = await loadExperiment(fixture('valid-runs.yaml'), { env: {} });
    expect(exp.corpus).toEqual({
      format: 'trecweb',
      path: join(dir, 'data'),
      strict: false,
      subset: { runs: [join(dir, 'data', 'run1.txt')], top: 10 },
    });
  });

  it('takes a ${VAR:-default} variable from the environment when it is set', async () => {
    const exp = await loadExperiment(fixture('valid-full.yaml'), { env: { NDD_TEST_DATA: join(dir, 'data') } });
    expect(exp.corpus.path).toBe(join(dir, 'data', 'docs.jsonl'));
    // `./docs.jsonl` next to the config does not exist, so a used variable shows as a missing file.
    expect(await issuesOf('valid-full.yaml', { NDD_TEST_DATA: '.' })).toEqual([
      `${fixture('valid-full.yaml')}:7:9: corpus.path: no such file or directory: ${join(dir, 'docs.jsonl')}`,
    ]);
  });

  it('hashes the canonical JSON of the resolved config, whatever the key order', async () => {
    const exp = await loadExperiment(fixture('valid-full.yaml'), { env: {} });
    const reordered = await loadExperiment(fixture('valid-full-reordered.yaml'), { env: {} });
    expect(exp.hash).toBe(createHash('sha256').update(sortedJson(exp.resolved)).digest('hex'));
    expect(reordered.hash).toBe(exp.hash);
    const other = await loadExperiment(fixture('valid-minimal.yaml'), { env: {} });
    expect(other.hash).not.toBe(exp.hash);
  });

  it('resolves to plain JSON with defaults applied and sweeps kept as lists', async () => {
    const exp = await loadExperiment(fixture('sweep-mod.yaml'), { env: {} });
    expect(exp.resolved).toEqual({
      experiment: 'sweep-mod',
      seed: 1,
      corpus: { format: 'spamassassin', strict: false },
      ground_truth: { algorithm: 'broder', params: broderDefaults },
      runs: [
        {
          algorithm: 'broder',
          params: { ...broderDefaults, sampling: { method: 'mod', m: [2, 4, 8, 16, 32, 64, 128, 256, 512], residue: 0 } },
        },
      ],
      evaluate: { threshold: 0.5, min_score: 0.1, distribution: [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1], size_groups: DEFAULT_SIZE_GROUPS },
      // No `workers`: the number of CPUs of this machine must not change the hash.
      backend: { kind: 'local', engine: 'auto', memory_mb: 2048, price_per_vcpu_hour: 0.0504 },
    });
    expect(JSON.parse(JSON.stringify(exp.resolved))).toEqual(exp.resolved);
  });
});

describe('loadExperiment: sweeps', () => {
  it('expands m: [2, 4, ..., 512] with method mod into 9 variants broder/mod=2 ... broder/mod=512', async () => {
    const exp = await loadExperiment(fixture('sweep-mod.yaml'), { env: {} });
    const ms = [2, 4, 8, 16, 32, 64, 128, 256, 512];
    expect(exp.variants.map((v) => v.name)).toEqual(ms.map((m) => `broder/mod=${m}`));
    expect(exp.variants.map((v) => v.swept)).toEqual(ms.map((m) => ({ 'sampling.m': m })));
    expect(exp.variants.map((v) => v.params)).toEqual(
      ms.map((m) => ({ ...broderDefaults, sampling: { method: 'mod', m, residue: 0 } })),
    );
    expect(exp.variants.every((v) => v.algorithm === 'broder' && !v.groundTruth)).toBe(true);
  });

  it('gives the cross product of two swept fields, the first in the document outermost', async () => {
    const exp = await loadExperiment(fixture('sweep-two.yaml'), { env: {} });
    expect(exp.variants.map((v) => v.name)).toEqual([
      'word/size=3,mod=16', 'word/size=3,mod=64', 'word/size=3,mod=256',
      'word/size=5,mod=16', 'word/size=5,mod=64', 'word/size=5,mod=256',
    ]);
    expect(exp.variants[4]?.swept).toEqual({ 'shingle.size': 5, 'sampling.m': 64 });
    expect(exp.variants[4]?.params).toEqual({
      shingle: { unit: 'word', size: 5 },
      fingerprint: 'rabin64',
      sampling: { method: 'mod', m: 64, residue: 0 },
    });
  });

  it('follows the document order of the swept fields, not the schema order', async () => {
    const exp = await loadExperiment(fixture('sweep-two-reversed.yaml'), { env: {} });
    expect(exp.variants.map((v) => v.name)).toEqual([
      'word/mod=16,size=3', 'word/mod=16,size=5', 'word/mod=64,size=3',
      'word/mod=64,size=5', 'word/mod=256,size=3', 'word/mod=256,size=5',
    ]);
  });

  it('names swept fields by dotted path when two would get the same key', async () => {
    const exp = await loadExperiment(fixture('sweep-collide.yaml'), { env: {} });
    expect(exp.variants.map((v) => v.name)).toEqual([
      'broder/sampling.m=4,sampling.residue=0',
      'broder/sampling.m=4,sampling.residue=1',
      'broder/sampling.m=8,sampling.residue=0',
      'broder/sampling.m=8,sampling.residue=1',
    ]);
  });
});

describe('loadExperiment: errors, each with its exact message', () => {
  it('points a malformed YAML file at the YAML error', async () => {
    expect(await issuesOf('bad-yaml.yaml')).toEqual([
      `${fixture('bad-yaml.yaml')}:4:1: malformed YAML: Tabs are not allowed as indentation`,
    ]);
  });

  it('explains that ${VAR} must be quoted inside a flow mapping', async () => {
    expect(await issuesOf('bad-yaml-flow-var.yaml')).toEqual([
      `${fixture('bad-yaml-flow-var.yaml')}:5:21: malformed YAML: Unexpected flow-map-start at node end ` +
        '(inside [ ] or { }, quote a value that uses a variable: "${VAR}")',
    ]);
  });

  it('names unknown keys at the key, with a suggestion when one is close', async () => {
    const f = fixture('bad-unknown-key.yaml');
    expect(await issuesOf('bad-unknown-key.yaml')).toEqual([
      `${f}:4:3: corpus.limt: unknown key 'limt'; did you mean 'limit'?`,
      `${f}:8:39: runs[0].params.sampling.modulus: unknown key 'modulus'`,
      `${f}:9:1: colour: unknown key 'colour'`,
    ]);
  });

  it('suggests a missing required key beside an unknown key a typo away, however short', async () => {
    const f = fixture('bad-typo-beside-missing.yaml');
    expect(await issuesOf('bad-typo-beside-missing.yaml')).toEqual([
      `${f}:7:17: runs[0].params.sampling.m: missing required field`,
      `${f}:7:32: runs[0].params.sampling.mm: unknown key 'mm'; did you mean 'm'?`,
    ]);
  });

  it('names the expected and the given type', async () => {
    const f = fixture('bad-type.yaml');
    expect(await issuesOf('bad-type.yaml')).toEqual([
      `${f}:2:7: seed: expected a number, got string 'abc'`,
      `${f}:5:10: corpus.limit: expected an integer, got number 1.5`,
      `${f}:6:11: corpus.strict: expected a boolean (true or false), got string 'yes'`,
      `${f}:10:36: runs[0].params.shingle.size: expected a number, got string '64'`,
    ]);
  });

  it('reports missing required fields at the mapping that lacks them', async () => {
    const f = fixture('bad-missing.yaml');
    expect(await issuesOf('bad-missing.yaml')).toEqual([
      `${f}:1:1: experiment: missing required field`,
      `${f}:3:3: corpus.format: missing required field`,
      `${f}:5:5: runs[0].algorithm: missing required field`,
    ]);
  });

  it('lists the known algorithms for an unknown one', async () => {
    const f = fixture('bad-algorithm.yaml');
    const known = adapters.map((a) => a.name).join(', ');
    expect(await issuesOf('bad-algorithm.yaml')).toEqual([
      `${f}:5:14: ground_truth.algorithm: unknown algorithm 'shinglez' (known: ${known})`,
      `${f}:7:16: runs[0].algorithm: unknown algorithm 'nosuch' (known: ${known})`,
    ]);
  });

  it('lists the known formats for an unknown one', async () => {
    expect(await issuesOf('bad-format.yaml')).toEqual([
      `${fixture('bad-format.yaml')}:3:11: corpus.format: unknown format 'pdf' (known: ${corpusFormats.join(', ')})`,
    ]);
  });

  it('says which environment variable is missing, what it is and where to get it', async () => {
    const f = fixture('bad-env.yaml');
    expect(await issuesOf('bad-env.yaml')).toEqual([
      `${f}:4:9: corpus.path: environment variable GOV2_ROOT is not set: set it to the folder of the GOV2 collection ` +
        '(licensed from the University of Glasgow: ir.dcs.gla.ac.uk/test_collections)',
      `${f}:5:20: corpus.subset.qrels: environment variable TREC_QRELS is not set: set it to the TREC 2004 Terabyte ` +
        'track qrels file 04.qrels.12-Nov-04 (NIST: trec.nist.gov)',
      `${f}:6:14: description: environment variable NDD_UNSET_THING is not set: set it in the environment, ` +
        'or give a default in the config: ${NDD_UNSET_THING:-value}',
    ]);
  });

  it('gives the absolute path of each missing file, resolved against the config folder', async () => {
    const f = fixture('bad-file.yaml');
    expect(await issuesOf('bad-file.yaml')).toEqual([
      `${f}:4:9: corpus.path: no such file or directory: ${join(dir, 'no-such-folder')}`,
      `${f}:6:27: corpus.subset.runs[1]: no such file or directory: ${join(dir, 'no-such-run.txt')}`,
    ]);
  });

  it('wants a file, not a folder, for qrels', async () => {
    expect(await issuesOf('bad-file-kind.yaml')).toEqual([
      `${fixture('bad-file-kind.yaml')}:5:20: corpus.subset.qrels: expected a file, found a directory: ${join(dir, 'data')}`,
    ]);
  });

  it('rejects duplicate variant names, from sweeps, defaults and the ground truth', async () => {
    const f = fixture('bad-duplicate.yaml');
    expect(await issuesOf('bad-duplicate.yaml')).toEqual([
      `${f}:8:16: runs[1].algorithm: duplicate variant name 'broder/sct=80' (runs[0] has it too)`,
      `${f}:13:11: runs[3].name: duplicate variant name 'ground-truth' (ground_truth has it too)`,
      `${f}:14:16: runs[4].algorithm: duplicate variant name 'broder' (runs[2] has it too)`,
    ]);
  });

  it('checks every swept value and points at the offending list item', async () => {
    const f = fixture('bad-sweep.yaml');
    expect(await issuesOf('bad-sweep.yaml')).toEqual([
      `${f}:7:33: ground_truth.params.sampling.m: the ground truth cannot be swept: give a single value`,
      `${f}:11:40: runs[0].params.sampling.m: must be at least 1, got 0`,
      `${f}:11:43: runs[0].params.sampling.m: must be at most 1000000, got 2000000`,
      `${f}:14:27: runs[1].params.sampling.method: method cannot be swept: write one run per method`,
      `${f}:17:36: runs[2].params.shingle.size: an empty list sweeps nothing: give at least one value`,
    ]);
  });

  it('validates the slug, spamassassin groups, evaluate and backend sections', async () => {
    const f = fixture('bad-sections.yaml');
    expect(await issuesOf('bad-sections.yaml')).toEqual([
      `${f}:1:13: experiment: must be lower-case letters, digits, '.', '_' or '-', starting with a letter or digit`,
      `${f}:4:20: corpus.groups[1]: expected one of 'easy-ham-1', 'easy-ham-2', 'hard-ham-1', 'spam-1', 'spam-2', got 'spam-3'`,
      `${f}:6:14: evaluate.threshold: must be at least evaluate.min_score (0.1)`,
      `${f}:8:9: backend.kind: unknown kind 'cloud' (known: local, streaming, hadoop, spark, emr)`,
    ]);
  });

  it('says that an empty file is empty', async () => {
    expect(await issuesOf('bad-empty.yaml')).toEqual([
      `${fixture('bad-empty.yaml')}:1:1: config: the file is empty; an experiment needs at least 'experiment' and 'corpus'`,
    ]);
  });

  it('makes the ConfigError message the issue lines, one a line', async () => {
    const err = (await loadExperiment(fixture('bad-missing.yaml'), { env: {} }).catch((e: unknown) => e)) as ConfigError;
    expect(err.message.split('\n')).toEqual(err.issues);
    expect(err.exitCode).toBe(2);
  });

  it('names a config file that does not exist', async () => {
    const missing = join(dir, 'no-such-config.yaml');
    await expect(loadExperiment(missing, { env: {} })).rejects.toThrow(
      new ConfigError([`${missing}: cannot read the config: no such file or directory`]),
    );
  });
});

describe('loadExperiment: hostile configs, each a one-line ConfigError', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'ndd-hostile-config-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));
  const write = (name: string, text: string | Buffer): string => {
    const f = join(tmp, name);
    writeFileSync(f, text);
    return f;
  };
  const issues = async (f: string): Promise<readonly string[]> => {
    const err = await loadExperiment(f, { env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).issues;
  };
  const HEAD = 'experiment: x\ncorpus: { format: jsonl, path: x.jsonl }\n';

  it('refuses an alias bomb with yaml\'s alias limit, at the first alias', async () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) {
      const [n, p] = [String.fromCharCode(97 + i), String.fromCharCode(96 + i)];
      levels.push(`${n}: &${n} [*${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}, *${p}]`);
    }
    const f = write('bomb.yaml', `experiment: bomb\n${levels.join('\n')}\n`);
    expect(await issues(f)).toEqual([`${f}:3:8: YAML aliases expand into too many values (more than 100 each): an alias bomb?`]);
  });

  it('refuses a binary file without quoting it', async () => {
    const f = write('binary.yaml', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...Array.from({ length: 4000 }, (_, i) => i % 256)]));
    expect(await issues(f)).toEqual([`${f}:1:1: not a YAML config: byte 0 is the control character 0x7f (a binary file?)`]);
    const g = write('latin1.yaml', Buffer.concat([Buffer.from('experiment: caf'), Buffer.from([0xe9]), Buffer.from('\n')]));
    expect(await issues(g)).toEqual([`${g}:1:16: not a YAML config: byte 15 is not UTF-8 (a binary file?)`]);
  });

  it('refuses a file too large to be a config', async () => {
    const f = write('huge.yaml', `${HEAD}description: "${'x'.repeat(1_100_000)}"\n`);
    expect(await issues(f)).toEqual([expect.stringMatching(new RegExp(`^${f.replaceAll('.', '\\.')}: not a config: \\d+ bytes, more than 1048576`))]);
  });

  it('refuses nesting deeper than 64, whether it would exhaust the parser\'s stack or not', async () => {
    const expected = (f: string) => [`${f}: not a config: mappings and lists nested more than 64 deep`];
    const deepSeq = write('deep-seq.yaml', `${HEAD}x: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`);
    expect(await issues(deepSeq)).toEqual(expected(deepSeq));
    const deepMap = write('deep-map.yaml', `${HEAD}x: ${'{a: '.repeat(100)}1${'}'.repeat(100)}\n`);
    expect(await issues(deepMap)).toEqual(expected(deepMap));
    const block = write('deep-block.yaml', `${HEAD}${Array.from({ length: 80 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n')} 1\n`);
    expect(await issues(block)).toEqual(expected(block));
  });

  it('quotes values, keys and variable references escaped and at most 80 characters long', async () => {
    const f = write(
      'escapes.yaml',
      'experiment: x\ncorpus:\n  format: jsonl\n  path: "${\\e[2J' + 'V'.repeat(200) + '}"\n  "\\e]0;t\\a": 1\n' +
        'runs:\n  - algorithm: broder\n    params:\n      sampling: { method: mod, m: "\\e[2J' + 'A'.repeat(500) + '" }\n',
    );
    const lines = await issues(f);
    expect(lines).toEqual([
      `${f}:4:9: corpus.path: malformed variable reference '\${\\e[2J${'V'.repeat(74)}…': write \${NAME} or \${NAME:-default}`,
      `${f}:5:3: corpus.\\e]0;t\\x07: unknown key '\\e]0;t\\x07'`,
      `${f}:9:35: runs[0].params.sampling.m: expected a number, got string '\\e[2J${'A'.repeat(76)}…'`,
    ]);
  });
});
