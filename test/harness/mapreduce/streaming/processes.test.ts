/**
 * Process pipelines (`processes.ts`): what the last process writes to a piped stdout reaches its
 * reader, whenever the reader starts.
 */
import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { ChildSet, describeExit, startPipeline, succeeded, type Command } from '../../../../harness/mapreduce/streaming/processes.ts';

/** A task that writes `lines` records and exits at once (the output stays under every buffer's size). */
function quickTask(lines: number): Command {
  return { label: 'mapper', file: process.execPath, args: ['-e', `process.stdout.write('key\\tvalue\\n'.repeat(${lines}))`] };
}

async function readAll(stream: AsyncIterable<Buffer>): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += chunk.toString('utf8');
  return text;
}

describe('startPipeline', () => {
  // The map side of the streaming backend awaits the opening of its partition files before it
  // reads the mapper's stdout. Node resumes the stdout of a child that has exited when nobody reads
  // it yet (child_process flushStdio), and the data goes nowhere: a map task that ended meanwhile
  // (under load) lost its whole output and still succeeded. Awaiting `done` first makes the late
  // reader certain here: by then Node has seen the exit.
  it("keeps the last process's output for a reader that starts after the processes have exited", async () => {
    const pipeline = startPipeline([quickTask(500)], { kind: 'none' }, { kind: 'pipe' }, new ChildSet());
    const outcomes = await pipeline.done;
    expect(outcomes.map((o) => [o.label, o.code, o.signal])).toEqual([['mapper', 0, null]]);
    expect(await readAll(pipeline.stdout as AsyncIterable<Buffer>)).toBe('key\tvalue\n'.repeat(500));
  });

  it('hands a reader that starts at once the whole output of a pipeline of several processes', async () => {
    const sort: Command = { label: 'sort', file: 'sort', args: [], env: { ...process.env, LC_ALL: 'C' } };
    const pipeline = startPipeline([quickTask(20_000), sort], { kind: 'none' }, { kind: 'pipe' }, new ChildSet());
    const [text, outcomes] = await Promise.all([readAll(pipeline.stdout as AsyncIterable<Buffer>), pipeline.done]);
    expect(outcomes.map((o) => o.code)).toEqual([0, 0]);
    expect(text).toBe('key\tvalue\n'.repeat(20_000));
  });

  it('fails a task whose input could not be read to the end, though its process exits 0 on what it got', async () => {
    // A split that fails halfway (a disk error): the mapper sees its input end and succeeds on half of it.
    const input = new Readable({ read() {} });
    input.push('a\t1\n');
    setImmediate(() => input.destroy(new Error('EIO: i/o error, read')));
    const cat: Command = { label: 'mapper', file: 'cat', args: [] };
    const pipeline = startPipeline([cat], { kind: 'stream', stream: input }, { kind: 'pipe' }, new ChildSet());
    const [, outcomes] = await Promise.all([readAll(pipeline.stdout as AsyncIterable<Buffer>), pipeline.done]);
    expect(outcomes[0]?.code).toBe(0);
    expect(succeeded(outcomes[0]!)).toBe(false);
    expect(describeExit(outcomes[0]!)).toBe('mapper got part of its input only (reading it failed: EIO: i/o error, read)');
  });
});
