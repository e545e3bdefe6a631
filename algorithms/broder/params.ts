import { z } from 'zod';
import { fingerprintKind, shingleSpec } from '../text/params.ts';

const none = z.object({ method: z.literal('none').describe('keep every fingerprint (the ground truth)') }).strict();

const mod = z
  .object({
    method: z.literal('mod').describe('hash-value sampling: keep a fingerprint when fp mod m == residue (Broder; Nikkhoo 3.3.1)'),
    m: z.number().int().min(1).max(1_000_000).describe('modulus m: keeps about 1/m of the fingerprints (m = 64 keeps 1.56%)'),
    residue: z.number().int().min(0).default(0).describe('the residue kept, 0 <= residue < m (Ye et al. average over all of them)'),
  })
  .strict();

const sct = z
  .object({
    method: z.literal('sct').describe('shingle commonality threshold: drop fingerprints shared by more than `threshold` documents (Nikkhoo 3.3.2)'),
    threshold: z.number().int().min(1).describe('SCT: the most documents a fingerprint may be shared by and still count'),
  })
  .strict();

const adaptiveGroup = z
  .object({
    max_size: z.number().int().min(1).nullable().default(null).describe('largest document size (fingerprints) in this group; null = no upper bound'),
    m: z.number().int().min(1).describe('modulus used for documents of this group'),
  })
  .strict();

const adaptive = z
  .object({
    method: z.literal('adaptive').describe('size-adaptive sampling: the modulus depends on the document size group (Ye et al. section 6)'),
    groups: z
      .array(adaptiveGroup)
      .min(1)
      .describe('size groups in increasing max_size; the last may have max_size null'),
  })
  .strict();

export const sampling = z
  .discriminatedUnion('method', [none, mod, sct, adaptive])
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
