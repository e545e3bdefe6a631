import { existsSync } from 'node:fs';
import { InputFileError, type Plan, type PlanContext, type ScoreMeaning } from '../../contract/index.ts';
import { CLUSTERS, externalKernel } from './kernel.ts';
import type { ExternalParams } from './params.ts';

/**
 * A command as a detector: no MapReduce jobs, a local kernel that runs it (`kernel.ts`), so the
 * local backend alone can run it. What its output means is what the config declares
 * (docs/design.md §8.4): a resemblance estimate from `score_floor` up, a score on another
 * scale, or none (every pair scores 1); clusters are their induced pairs, each a decision.
 */
export function plan(params: ExternalParams, ctx: PlanContext): Plan {
  // Before anything runs: a missing program would otherwise fail only after the ground truth.
  for (const [key, path] of [['program', params.program], ['interpreter', params.interpreter], ['file', params.file]] as const) {
    if (path !== undefined && !existsSync(path)) {
      const hint = /[/\\]\.venv[/\\]/.test(path) ? ' (a project environment: `npm run peers:install` makes .venv/peers, see python/README.md)' : '';
      throw new InputFileError(`${path}: no such file (the external detector's ${key})${hint}`);
    }
  }
  return {
    jobs: [],
    output: {
      pairs: 'external-pairs',
      ...(params.output === 'clusters'
        ? {
            tables: [
              {
                dataset: CLUSTERS,
                folder: 'clusters',
                columns: ['doc_id', 'cluster', 'cluster_size'],
                description: 'the clusters the command wrote: each clustered document, the smallest document index of its cluster, and its size',
              },
            ],
            clusters: CLUSTERS,
          }
        : {}),
      score: scoreMeaning(params),
      decisions: params.decisions === 'score-at-threshold' ? { kind: 'score-at-threshold' } : { kind: 'every-reported-pair' },
    },
    local: externalKernel({ params, seed: ctx.seed, strict: ctx.strict ?? false }),
    placement: { only: 'local', why: params.file === undefined ? 'it runs a command on this machine and has no MapReduce jobs' : 'it reads a file on this machine and has no MapReduce jobs' },
  };
}

function scoreMeaning(p: ExternalParams): ScoreMeaning {
  if (p.output === 'clusters') return { kind: 'other', why: 'clusters: every pair inside a cluster scores 1, which estimates nothing' };
  if (p.score === 'resemblance') return { kind: 'resemblance', floor: p.score_floor };
  if (p.score === 'other') return { kind: 'other', why: 'the command declares its score is on another scale than the resemblance' };
  return { kind: 'other', why: 'the command writes no score: every pair scores 1' };
}
