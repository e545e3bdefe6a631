/**
 * The one builder of hadoop-streaming arguments (EMR steps and `hadoop jar` runs): the runner's
 * settings first, generic options before streaming options, side data shipped with -files under
 * the alias the task command names, and a command Hadoop could not split refused.
 */
import { describe, expect, it } from 'vitest';
import type { JobSpec } from '../../../../contract/index.ts';
import { sideDatasetsOf, streamingArgs, type StreamingJobContext } from '../../../../harness/mapreduce/hadoop/streaming-args.ts';

const job = (over: Partial<JobSpec> = {}): JobSpec => ({
  name: 'filter',
  description: '',
  inputs: ['documents'],
  output: 'pairs',
  mapper: () => ({ map() {} }),
  reducer: () => ({ reduce() {} }),
  ...over,
});

const ctx = (over: Partial<StreamingJobContext> = {}): StreamingJobContext => ({
  jobName: 'ndd-bench r1 v01 filter',
  reduceTasks: 3,
  node: '/usr/bin/node',
  jobScript: 'file:///s/ndd-job.js',
  spec: 'file:///s/spec.json',
  dataset: (d) => `file:///s/${d}`,
  compressOutput: true,
  settings: [['mapreduce.framework.name', 'local']],
  ...over,
});

describe('streamingArgs', () => {
  it('gives the settings first, then the job options, -files, and the streaming options', () => {
    const args = streamingArgs(ctx(), job({ side: ['df'] }));
    expect(args).toEqual([
      '-D', 'mapreduce.framework.name=local',
      '-D', 'mapreduce.job.name=ndd-bench r1 v01 filter',
      '-D', 'mapreduce.job.reduces=3',
      '-D', 'mapreduce.map.output.compress=true',
      '-D', 'mapreduce.map.output.compress.codec=org.apache.hadoop.io.compress.SnappyCodec',
      '-D', 'mapreduce.output.fileoutputformat.compress=true',
      '-D', 'mapreduce.output.fileoutputformat.compress.codec=org.apache.hadoop.io.compress.GzipCodec',
      '-files', 'file:///s/ndd-job.js,file:///s/spec.json,file:///s/df#side-df',
      '-input', 'file:///s/documents',
      '-output', 'file:///s/pairs',
      '-mapper', '/usr/bin/node ndd-job.js --spec spec.json --job filter --phase map --side df=side-df',
      '-reducer', '/usr/bin/node ndd-job.js --spec spec.json --job filter --phase reduce --side df=side-df',
    ]);
  });

  it('gives a map-only job no reduce tasks and an uncompressed output when asked', () => {
    const args = streamingArgs(ctx({ compressOutput: false }), job({ reducer: undefined }));
    expect(args).toContain('mapreduce.job.reduces=0');
    expect(args.join(' ')).not.toContain('fileoutputformat.compress');
    expect(args).not.toContain('-reducer');
  });

  it('refuses a node path with white space, which PipeMapRed would split', () => {
    expect(() => streamingArgs(ctx({ node: '/opt/my node/bin/node' }), job())).toThrow(/white space/);
  });
});

describe('sideDatasetsOf', () => {
  it('lists every dataset some job loads whole', () => {
    expect([...sideDatasetsOf([job({ side: ['df'] }), job({ name: 'x', side: ['df', 'lexicon'] }), job({ name: 'y' })])]).toEqual(['df', 'lexicon']);
  });
});
