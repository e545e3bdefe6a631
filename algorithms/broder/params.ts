import { z } from 'zod';
import { fingerprintKind, shingleSpec } from '../text/params.ts';
import { checkAdaptiveGroups, checkChain, DEFAULT_TARGET_MODULI, DEFAULT_TARGETS } from './sampling-checks.ts';

/** Trials one `residues: all` variant may run. */
const MAX_TRIALS = 256;

const none = z
  .object({
    method: z.literal('none').describe('keep every fingerprint (the ground truth)'),
    distinct_pairs: z
      .enum(['count', 'skip'])
      .optional()
      .describe(
        "MR#2's distinct_pairs counter, the pairs sharing any fingerprint: count (default) or skip. Counting it locally walks MR#1's emissions (d² for a fingerprint in d documents); skip changes no pair and no measure",
      ),
  })
  .strict();

const mod = z
  .object({
    method: z.literal('mod').describe('hash-value sampling: keep a fingerprint when fp mod m == residue (Broder; Nikkhoo 3.3.1)'),
    m: z.number().int().min(1).max(1_000_000).describe('modulus m: keeps about 1/m of the fingerprints (m = 64 keeps 1.56%)'),
    residue: z.number().int().min(0).default(0).describe('the residue kept, 0 <= residue < m'),
    residues: z
      .literal('all')
      .optional()
      .describe('all: run the m trials residue = 0 … m−1 and report their mean and spread as this variant, each trial as a row of its own (Ye et al. 4.4)'),
  })
  .strict()
  .superRefine((s, ctx) => {
    // An m that failed its own checks has been reported; the residue is measured against a valid one.
    if (Number.isInteger(s.m) && s.m >= 1 && s.residue >= s.m) ctx.addIssue({ code: 'custom', path: ['residue'], message: `must be below m (${s.m}): fp mod ${s.m} is never ${s.residue}, so nothing would be kept` });
    if (s.residues !== undefined && s.m > MAX_TRIALS) {
      ctx.addIssue({ code: 'custom', path: ['residues'], message: `residues: all runs one trial per residue: at most m = ${MAX_TRIALS}, got ${s.m}` });
    }
    if (s.residues !== undefined && s.residue !== 0) {
      ctx.addIssue({ code: 'custom', path: ['residues'], message: `residues: all runs every residue; leave residue out (it is ${s.residue})` });
    }
  });

const sct = z
  .object({
    method: z.literal('sct').describe('shingle commonality threshold: drop fingerprints shared by more than `threshold` documents (Nikkhoo 3.3.2)'),
    threshold: z.number().int().min(1).describe('SCT: the most documents a fingerprint may be shared by and still count'),
  })
  .strict();

const adaptiveGroup = z
  .object({
    max_size: z.number().int().min(0).nullable().default(null).describe('largest document size (in `by` units) in this group; null = no upper bound'),
    m: z.number().int().min(1).max(1_000_000).describe('modulus used for documents of this group'),
  })
  .strict();

const adaptive = z
  .object({
    method: z.literal('adaptive').describe('size-adaptive sampling: the modulus depends on the document size group (Ye et al. section 6)'),
    by: z
      .enum(['fingerprints', 'words'])
      .default('fingerprints')
      .describe("what max_size counts: the document's distinct fingerprints, or its words (Ye et al. Table 3, as evaluate.size_groups counts them)"),
    groups: z
      .array(adaptiveGroup)
      .min(1)
      .describe('size groups in increasing max_size, the last with max_size null; their moduli must divide one another (2, 4, 8, 16), so that two documents of different groups are compared on the coarser sample, which both have'),
  })
  .strict()
  .superRefine(checkAdaptiveGroups);

const unitInterval = (what: string) =>
  z
    .number()
    .gt(0, { error: `${what} must be in (0, 1]` })
    .max(1, { error: `${what} must be in (0, 1]` });

const adaptiveTarget = z
  .object({
    method: z
      .literal('adaptive-target')
      .describe('adaptive sampling chosen from a precision target (Ye et al. section 6): calibration runs at each modulus, then the adaptive run with the largest modulus per size group that meets the target'),
    precision: unitInterval('a precision target').describe('the precision (pairs) every size group must reach at `threshold`, in (0, 1]'),
    threshold: unitInterval('a similarity threshold').describe('the resemblance at or above which a pair is a near-duplicate for the target, in (0, 1]'),
    m: z
      .array(z.number().int().min(2).max(1_000_000))
      .min(1)
      .default([...DEFAULT_TARGET_MODULI])
      .superRefine((ms, ctx) => checkChain(ms, ctx, []))
      .describe('the moduli to choose from, ratios 1/m (default 1/2 … 1/16); each must divide the next; a group no modulus satisfies keeps every fingerprint'),
    targets: z
      .array(unitInterval('a precision target'))
      .min(1)
      .default([...DEFAULT_TARGETS])
      .describe('precision targets of the plan table and its figure (Ye et al. Figure 4): the share of fingerprints processed at each'),
  })
  .strict();

export const sampling = z
  .discriminatedUnion('method', [none, mod, sct, adaptive, adaptiveTarget])
  .default({ method: 'none' })
  .describe('which fingerprints take part in the join');

export const broderParams = z
  .object({
    shingle: shingleSpec,
    fingerprint: fingerprintKind,
    sampling,
  })
  .strict();

export type BroderParams = z.output<typeof broderParams>;
export type Sampling = z.output<typeof sampling>;
