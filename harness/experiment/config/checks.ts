/**
 * Checks that look at several parts of a config together, once each part is valid on its own:
 * the ground truth against the evaluation, calibrated variants against the size groups, the
 * variants' meta fields against the corpus format, the variants' names against each other.
 */
import { findCorpusReader } from '../../corpus/registry.ts';
import { findDetector } from '../../detectors.ts';
import { quote } from '../../errors.ts';
import { sizeGroupGaps } from '../../evaluate/size-groups.ts';
import { expansionOf } from '../expansion.ts';
import { formatPath } from '../issues.ts';
import type { Experiment, Variant } from '../types.ts';
import type { Path } from '../zod-walk.ts';
import type { ConfigScope } from './scope.ts';
import type { Built } from './variants.ts';

/**
 * A ground truth must score pairs by their resemblance, and report every pair from the lowest
 * score the evaluation looks at: the measures compare every variant with its scores.
 */
export function groundTruthProblem(
  gt: Variant,
  { detectors, evaluate, seed }: { readonly detectors: ConfigScope['detectors']; readonly evaluate: Experiment['evaluate']; readonly seed: number },
): string | undefined {
  const adapter = findDetector(detectors, gt.algorithm);
  if (!adapter) return undefined;
  if (expansionOf(adapter, { ...gt, groundTruth: false }, { evaluate })) {
    return `${gt.algorithm} as configured is several runs (trials averaged or calibration runs): the ground truth must be one run`;
  }
  const { score } = adapter.plan(gt.params, { minScore: Number.MIN_VALUE, seed }).output;
  if (score.kind !== 'resemblance') return `${gt.algorithm} cannot be the ground truth: its scores are not resemblances (${score.why})`;
  const lowest = Math.min(evaluate.min_score, evaluate.threshold);
  if (score.floor > lowest) {
    return `${gt.algorithm} as configured reports pairs from RR ${score.floor} up, but the evaluation needs every pair from ${lowest} (evaluate.min_score ${evaluate.min_score}, threshold ${evaluate.threshold}): lower its threshold or raise min_score`;
  }
  return undefined;
}

/**
 * A calibration (contract/derived.ts) judges its runs per size group and chooses the parameters
 * every document runs with: a document size in no group would run with parameters chosen on no
 * evidence about it. So a calibrated variant needs groups that cover every size, from 0 words
 * up, without gaps, the last unbounded.
 */
export function calibrationGapProblem(
  variants: readonly Variant[],
  { detectors, evaluate }: { readonly detectors: ConfigScope['detectors']; readonly evaluate: Experiment['evaluate'] },
): string | undefined {
  const gaps = sizeGroupGaps(evaluate.size_groups);
  if (gaps.length === 0) return undefined;
  const calibrated = variants.filter((v) => {
    const adapter = findDetector(detectors, v.algorithm);
    return adapter !== undefined && expansionOf(adapter, { ...v, groundTruth: false }, { evaluate })?.kind === 'calibration';
  });
  if (calibrated.length === 0) return undefined;
  const names = calibrated.map((v) => quote(v.name)).join(', ');
  return `documents of ${gaps.join(', ')} words are in no size group, but ${names} chooses its parameters per size group (calibration): make the groups cover every size from 0 words, the last without max_words`;
}

/** A variant needing a `meta` field its corpus format never carries (adapter.metaFields) is a config error. */
export function checkMetaFields(
  built: readonly Built[],
  format: string | undefined,
  { detectors, locate, issues }: Pick<ConfigScope, 'detectors' | 'locate' | 'issues'>,
): void {
  const carried = format === undefined ? undefined : findCorpusReader(format)?.meta;
  if (carried === undefined || carried === 'any') return;
  const reported = new Set<string>();
  for (const b of built) {
    const needs = findDetector(detectors, b.variant.algorithm)?.metaFields?.(b.variant.params) ?? [];
    for (const field of needs) {
      const at: Path = [...b.origin, 'params'];
      const key = `${formatPath(at)}:${field}`;
      if (carried.includes(field) || reported.has(key)) continue;
      reported.add(key);
      const has = carried.length > 0 ? carried.join(', ') : 'none';
      issues.add(locate.value(at), at, `${b.variant.name} needs the meta field '${field}', which ${format} documents do not carry (they carry: ${has})`);
    }
  }
}

export function checkNames(built: readonly Built[], { locate, issues }: Pick<ConfigScope, 'locate' | 'issues'>): void {
  const seen = new Map<string, Built>();
  for (const b of built) {
    const earlier = seen.get(b.variant.name);
    if (earlier === undefined) seen.set(b.variant.name, b);
    else {
      issues.add(
        locate.value(b.namePath),
        b.namePath,
        `duplicate variant name ${quote(b.variant.name)} (${formatPath(earlier.origin)} has it too)`,
      );
    }
  }
}
