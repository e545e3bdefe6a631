import { describe, expect, it } from 'vitest';
import { cpuSecondsOf, mergeJobCounters, parseCountersBlock } from '../../../../harness/mapreduce/emr/counters.ts';

// The shape Hadoop's job client prints into an EMR step's syslog (written by hand).
const LOG = [
  '2026-11-22 10:00:01,000 INFO mapreduce.Job: Running job: job_1_0001',
  '2026-11-22 10:03:07,512 INFO mapreduce.Job: Counters: 6',
  '\tFile System Counters',
  '\t\tS3: Number of bytes read=2048',
  '\tMap-Reduce Framework',
  '\t\tMap input records=12',
  '\t\tCPU time spent (ms)=4500',
  '\tbroder',
  '\t\tshingles kept=40',
  '\t\tdocuments=12',
  '2026-11-22 10:03:07,513 INFO streaming.StreamJob: Output directory: s3://b/p/out',
].join('\n');

describe('parseCountersBlock', () => {
  it('reads groups and counters of the block', () => {
    expect(parseCountersBlock(LOG)).toEqual({
      'File System Counters': { 'S3: Number of bytes read': 2048 },
      'Map-Reduce Framework': { 'Map input records': 12, 'CPU time spent (ms)': 4500 },
      broder: { 'shingles kept': 40, documents: 12 },
    });
  });
  it('is undefined for a log without a block', () => {
    expect(parseCountersBlock('INFO nothing here\n')).toBeUndefined();
  });
  it('takes the last block when a job printed two', () => {
    const twice = `${LOG}\nINFO mapreduce.Job: Counters: 1\n\tbroder\n\t\tdocuments=7\n`;
    expect(parseCountersBlock(twice)).toEqual({ broder: { documents: 7 } });
  });
});

describe('mergeJobCounters and cpuSecondsOf', () => {
  it('keeps Hadoop groups per job, sums the jobs’ own groups, adds CPU ms across jobs', () => {
    const all = {};
    mergeJobCounters(all, 'mr1', { 'Map-Reduce Framework': { 'CPU time spent (ms)': 4500 }, broder: { pairs: 3 } });
    mergeJobCounters(all, 'mr2', { 'Map-Reduce Framework': { 'CPU time spent (ms)': 1500 }, broder: { pairs: 2 } });
    expect(all).toEqual({
      'hadoop mr1: Map-Reduce Framework': { 'CPU time spent (ms)': 4500 },
      'hadoop mr2: Map-Reduce Framework': { 'CPU time spent (ms)': 1500 },
      broder: { pairs: 5 },
    });
    expect(cpuSecondsOf(all)).toBe(6);
  });
});
