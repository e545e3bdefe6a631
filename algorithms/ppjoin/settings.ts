/**
 * What the join needs of the parameters, as plain data that can cross to a worker thread, and the
 * counters both the jobs and the kernel report. No zod here: plan.ts and the job script import it.
 */
import type { PPJoinParams } from './params.ts';
import { indexPrefix, probePrefix } from './bounds.ts';

export interface JoinSettings {
  /** the Jaccard threshold the join decides with */
  readonly t: number;
  readonly length: boolean;
  readonly prefix: boolean;
  readonly position: boolean;
  readonly suffix: boolean;
  readonly signature: boolean;
  readonly suffixDepth: number;
  /** 32-bit words of a signature bitmap */
  readonly signatureWords: number;
}

/**
 * The join's threshold is t, or the plan's minimum score when that is higher: pairs below it must
 * not be reported, and joining at it directly costs less than filtering afterwards.
 */
export function joinSettings(params: PPJoinParams, minScore: number): JoinSettings {
  const f = params.filters;
  return {
    t: Math.max(params.threshold, minScore),
    length: f.length,
    prefix: f.prefix,
    position: f.position,
    suffix: f.suffix,
    signature: f.signature,
    suffixDepth: params.suffix_depth,
    signatureWords: params.signature_bits / 32,
  };
}

/** Tokens a set of size n probes with: its probing prefix, or all of them without prefix filtering. */
export function probeLength(n: number, s: JoinSettings): number {
  return s.prefix ? probePrefix(n, s.t) : n;
}

/** Tokens of a set of size n that larger sets find it by. */
export function indexLength(n: number, s: JoinSettings): number {
  return s.prefix ? indexPrefix(n, s.t) : n;
}

/** The counter group of every PPJoin counter (metrics.csv columns `ppjoin.<name>`). */
export const GROUP = 'ppjoin';

/**
 * Counter names. The candidate stages count distinct document pairs still in the running after
 * each filter, in the order they apply; `candidates_after_signature` is what verification
 * compares (the plan's `candidates`). A filter that is off passes every pair on.
 */
export const C = {
  documents: 'documents',
  documentsWithoutTokens: 'documents_without_tokens',
  tokens: 'tokens',
  distinctTokens: 'distinct_tokens',
  prefixTokens: 'prefix_tokens',
  prefixMatches: 'prefix_matches',
  afterPrefix: 'candidates_after_prefix',
  afterPosition: 'candidates_after_position',
  afterSuffix: 'candidates_after_suffix',
  afterSignature: 'candidates_after_signature',
  outputPairs: 'output_pairs',
} as const;
