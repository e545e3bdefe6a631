import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { studyFileRefs, resolveStudyPaths } from '../../../../harness/experiment/config/studies.ts';
import { ConfigError } from '../../../../harness/errors.ts';
import { loadExperiment } from '../../../../harness/experiment/load.ts';
import type { StudiesConfig } from '../../../../harness/experiment/types.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../../../fixtures/studies/${name}`, import.meta.url));

describe('the studies section of a config', () => {
  it('fills n and shares with the columns and rows of Table 4.1', async () => {
    const exp = await loadExperiment(fixture('studies.yaml'), { env: {} });
    const studies = (exp.resolved as { studies: StudiesConfig }).studies;
    // run paths are absolute in the resolved config, like the corpus paths
    expect(studies.topic_collections).toEqual({ runs: [fixture('runs')], top: 2 });
    expect(exp.studies?.topic_collections).toEqual({ runs: [fixture('runs')], top: 2 });
    expect(studies.run_topics?.n).toEqual([10, 20, 50, 100, 200, 500]);
    // Table 4.1's rows, written out: 5%, 10%, …, 95%
    expect(studies.run_topics?.shares).toEqual([
      0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95,
    ]);
  });

  it('reports a repeated n, a share above 1 and an unknown study at their lines', async () => {
    const err = await loadExperiment(fixture('studies-bad.yaml'), { env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    const lines = (err as ConfigError).issues.map((l) => l.replace(/^.*studies-bad\.yaml:/, ''));
    // studies-bad.yaml: line 8 `n: [10, 20, 10]` (the second 10 at column 17),
    // line 9 `shares: [0.5, 1.5]` (1.5 at column 19), line 10 `topic_collection:`
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^8:17: studies\.run_topics\.n\[2\]: n 10 is listed twice$/);
    expect(lines[1]).toMatch(/^9:19: studies\.run_topics\.shares\[1\]: /);
    expect(lines[2]).toMatch(/^10:3: studies\.topic_collection: unknown key/);
  });
});

describe('studyFileRefs and resolveStudyPaths (for the loader)', () => {
  it('names every run path with its place in the config', () => {
    const raw = { studies: { topic_collections: { runs: ['a.run', 7] }, run_topics: { runs: ['dir'] } } };
    expect(studyFileRefs(raw)).toEqual([
      { path: ['studies', 'topic_collections', 'runs', 0], value: 'a.run', mustBeFile: false },
      { path: ['studies', 'run_topics', 'runs', 0], value: 'dir', mustBeFile: false },
    ]);
    expect(studyFileRefs({ corpus: {} })).toEqual([]);
  });

  it('resolves run paths against the config folder', () => {
    const studies: StudiesConfig = { run_topics: { runs: ['x/a.run', '/abs/b.run'], n: [10], shares: [0.5] } };
    expect(resolveStudyPaths(studies, '/cfg')).toEqual({
      run_topics: { runs: ['/cfg/x/a.run', '/abs/b.run'], n: [10], shares: [0.5] },
    });
  });
});
