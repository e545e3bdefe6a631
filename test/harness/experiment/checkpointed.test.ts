import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkpointed, type RunFolderSink } from '../../../harness/experiment/checkpointed.ts';
import { Checkpoint, type SavedVariant } from '../../../harness/results/checkpoint.ts';
import { variantRecord } from '../../support/variant-record.ts';

const root = mkdtempSync(join(tmpdir(), 'ndd-checkpointed-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function sink(dir: string, resume: boolean): RunFolderSink & { written: string[] } {
  const written: string[] = [];
  return { checkpoint: Checkpoint.open(dir, 'inputs', resume).checkpoint, write: (file) => void written.push(file), written };
}

const outcome = (name: string): SavedVariant => {
  const file = `pairs/${name}.csv.gz`;
  return { record: variantRecord(name, { files: [{ file, rows: 1, description: 'pairs' }] }), files: [{ file, bytes: Buffer.from('x') }] };
};
const id = { name: 'v', algorithm: 'broder', params: { sct: 70 } };

describe('a resumable step', () => {
  it('runs and saves what no checkpoint holds; a resumed run takes it, with its files, without running it', async () => {
    const dir = join(root, 'a');
    const first = sink(dir, false);
    const ran = await checkpointed(first, id, async () => outcome('v'));
    expect({ resumed: ran.resumed, written: first.written }).toEqual({ resumed: false, written: ['pairs/v.csv.gz'] });

    const again = sink(dir, true);
    const resumed = await checkpointed(again, id, () => expect.fail('ran again'));
    expect({ resumed: resumed.resumed, name: resumed.saved.record.name, written: again.written }).toEqual({ resumed: true, name: 'v', written: ['pairs/v.csv.gz'] });
  });

  it('runs again what was saved with other parameters, another suffix, or what `usable` turns down', async () => {
    const dir = join(root, 'b');
    await checkpointed(sink(dir, false), id, async () => outcome('v'));
    for (const [other, usable] of [
      [{ ...id, params: { sct: 60 } }, undefined],
      [{ ...id, suffix: ' from 0.5' }, undefined],
      [id, () => false],
    ] as const) {
      let runs = 0;
      const step = await checkpointed(sink(dir, true), other, async () => (runs++, outcome('v')), usable);
      expect({ resumed: step.resumed, runs }).toEqual({ resumed: false, runs: 1 });
      // Saved again as it was: the next case finds the original identity.
      await checkpointed(sink(dir, true), id, async () => outcome('v'));
    }
  });
});
