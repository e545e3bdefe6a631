/**
 * Corpora for the cost curve (`bench synth scale`): any number of documents made from real text
 * (`text-model.ts`), with planted near-duplicates at known edit rates and their oracle pairs,
 * deterministic from a seed. Three kinds of document:
 *
 * - base documents: a length drawn from the source's document lengths, and that many words
 *   drawn at their frequencies in the source, in sentences and paragraphs. Two base documents
 *   share no run of words by construction (only by the chance of common words in a row).
 * - shared passages: a share (`boilerplate`) of the base documents carries one real line of the
 *   source as a paragraph of its own, at a random place. Each line is planted in `df` documents,
 *   df drawn from a power law, P(df >= k) = 2 / k for 2 <= k <= `maxShare`, the long tail of list
 *   footers and signatures that shingle commonality thresholds are for. The tail does not grow
 *   with the corpus (more documents make more passages, not more popular ones), so the ground
 *   truth's pairs grow about linearly with the number of documents.
 * - planted copies (`copies` of all documents): clusters of one base document (the source) and
 *   one to three copies of it, each copy edited at a rate drawn from `editRates`: every word is,
 *   with that probability, replaced by a random word, deleted, or followed by an inserted random
 *   word (one of the three, equally likely). A copy carries its source's passage too.
 *
 * Documents are written in a random order (copies are not next to their sources) with ids
 * `doc-NNNNNNN`, their position. The oracle lists every pair of documents of a cluster with the
 * edit rate of each (0 for the source).
 */
import type { Document } from '../../contract/index.ts';
import { below, generator, itemGenerator, shuffle } from './random.ts';
import { walkWords, type TextModel } from './text-model.ts';

export interface ScaleSynthOptions {
  readonly documents: number;
  readonly seed: number;
  /** share of the documents that are planted copies, in [0, 0.5] */
  readonly copies: number;
  /** the edit rates a copy is made at, each in [0, 1) */
  readonly editRates: readonly number[];
  /** share of the base documents that carry a shared passage, in [0, 1] */
  readonly boilerplate: number;
  /** the most base documents one passage is planted in */
  readonly maxShare: number;
  /**
   * How base documents' words are made: `words`, drawn one at a time at their frequencies (two
   * documents share a run of words only where one is planted); `walk`, a random walk over the
   * source's word pairs (text-model.ts walkWords), which shares short phrases as real text does.
   */
  readonly text: 'words' | 'walk';
  /**
   * Site templates (0: none): each base document carries the header and footer of one of them,
   * picked at random, as web pages of a site carry its navigation and disclaimers. With T
   * templates a header is in about base / T documents: shared text whose document frequency
   * grows with the corpus, the full join's quadratic case.
   */
  readonly templates: number;
}

export const DEFAULT_SCALE: Omit<ScaleSynthOptions, 'documents' | 'seed'> = {
  copies: 0.1,
  editRates: [0, 0.01, 0.02, 0.05, 0.1, 0.2, 0.3],
  boilerplate: 0.3,
  maxShare: 500,
  text: 'words',
  templates: 0,
};

/** Cluster sizes (copies of one source) and their probabilities. */
const CLUSTER_COPIES = [
  { copies: 1, p: 0.6 },
  { copies: 2, p: 0.3 },
  { copies: 3, p: 0.1 },
];
/** Words of a base document, whatever the source's lengths: no empty or one-line documents, no giants. */
const LENGTH = { min: 8, max: 20_000 } as const;
/** Mean words of a sentence, and sentences of a paragraph, of the generated text. */
const SENTENCE_WORDS = 14;
const PARAGRAPH_SENTENCES = 5;

// Streams of `itemGenerator`: one a kind of random choice.
const BASE_TEXT = 1;
const COPY_EDITS = 2;
const TEMPLATE_TEXT = 3;
/** Words of a template's header, and of its footer (a navigation bar, a disclaimer). */
const TEMPLATE_WORDS = { header: 40, footer: 60 } as const;
/** Mean words of a paragraph of walked text (its sentences are the source's own). */
const WALK_PARAGRAPH_WORDS = 70;

export interface ScalePlan {
  readonly options: ScaleSynthOptions;
  readonly base: number;
  /** base document of each copy */
  readonly copySource: Uint32Array;
  /** index into `editRates` of each copy */
  readonly copyRate: Uint8Array;
  readonly clusters: number;
  /** passage of each base document, -1 for none */
  readonly passageOf: Int32Array;
  readonly passages: number;
  /** template of each base document, -1 for none */
  readonly templateOf: Int32Array;
  /** logical document (base 0..base-1, then copies) at each position of the corpus */
  readonly order: Uint32Array;
  /** position of each logical document */
  readonly positionOf: Uint32Array;
}

export function checkScaleOptions(o: ScaleSynthOptions): void {
  if (!Number.isInteger(o.documents) || o.documents < 2) throw new Error(`synth scale: documents must be an integer of at least 2, got ${o.documents}`);
  if (!(o.copies >= 0 && o.copies <= 0.5)) throw new Error(`synth scale: copies must be in [0, 0.5], got ${o.copies}`);
  if (!(o.boilerplate >= 0 && o.boilerplate <= 1)) throw new Error(`synth scale: boilerplate must be in [0, 1], got ${o.boilerplate}`);
  if (!Number.isInteger(o.maxShare) || o.maxShare < 2) throw new Error(`synth scale: max-share must be an integer of at least 2, got ${o.maxShare}`);
  if (!Number.isInteger(o.templates) || o.templates < 0) throw new Error(`synth scale: templates must be an integer of at least 0, got ${o.templates}`);
  if (o.text !== 'words' && o.text !== 'walk') throw new Error(`synth scale: text must be words or walk, got ${String(o.text)}`);
  if (o.editRates.length === 0 || o.editRates.length > 255 || o.editRates.some((r) => !(r >= 0 && r < 1))) {
    throw new Error(`synth scale: edit rates must be 1 to 255 numbers in [0, 1), got ${o.editRates.join(',')}`);
  }
}

/** Decides every document's kind, cluster, passage and position. */
export function planScale(o: ScaleSynthOptions): ScalePlan {
  checkScaleOptions(o);
  const random = generator(o.seed);
  const copies = Math.round(o.copies * o.documents);
  const base = o.documents - copies;

  // Clusters: a source used once, one to three copies each.
  const sources = shuffle(Uint32Array.from({ length: base }, (_, i) => i), random);
  const copySource = new Uint32Array(copies);
  const copyRate = new Uint8Array(copies);
  let clusters = 0;
  for (let c = 0; c < copies; clusters++) {
    const u = random();
    let acc = 0;
    let size = 1;
    for (const k of CLUSTER_COPIES) {
      acc += k.p;
      size = k.copies;
      if (u < acc) break;
    }
    const source = sources[clusters] as number;
    for (let j = 0; j < size && c < copies; j++, c++) {
      copySource[c] = source;
      copyRate[c] = below(random, o.editRates.length);
    }
  }

  // Passages: df from the power law until the slots are filled, then spread over base documents.
  const slots = Math.round(o.boilerplate * base);
  const passageOf = new Int32Array(base).fill(-1);
  let filled = 0;
  let passages = 0;
  while (filled < slots) {
    let df = Infinity;
    while (!(df <= o.maxShare)) df = Math.floor(2 / (1 - random()));
    df = Math.min(df, slots - filled);
    passageOf.fill(passages, filled, filled + df);
    filled += df;
    passages++;
  }
  shuffle(passageOf, random);

  const order = shuffle(Uint32Array.from({ length: o.documents }, (_, i) => i), random);
  const positionOf = new Uint32Array(o.documents);
  order.forEach((logical, position) => (positionOf[logical] = position));
  // Drawn last, so that a corpus without templates is the one earlier versions made.
  const templateOf = new Int32Array(base).fill(-1);
  if (o.templates > 0) for (let i = 0; i < base; i++) templateOf[i] = below(random, o.templates);
  return { options: o, base, copySource, copyRate, clusters, passageOf, passages, templateOf, order, positionOf };
}

export function documentId(position: number): string {
  return `doc-${String(position).padStart(7, '0')}`;
}

/** The text of passage `p`: a real line, or two for passages beyond the source's lines. */
export function passageText(model: TextModel, p: number): string {
  const lines = model.passages;
  const first = lines[p % lines.length] as string;
  return p < lines.length ? first : `${first} ${lines[(Math.floor(p / lines.length) * 7919 + p) % lines.length] as string}`;
}

function randomWord(model: TextModel, random: () => number): string {
  return model.words[model.tokens[below(random, model.tokens.length)] as number] as string;
}

const SENTENCE_END = /[.!?]$/;

/** Template `t`'s header or footer: a walk of its own, the same in every document carrying it. */
export function templateText(model: TextModel, plan: ScalePlan, t: number, part: 'header' | 'footer'): string {
  const random = itemGenerator(plan.options.seed, TEMPLATE_TEXT, 2 * t + (part === 'header' ? 0 : 1));
  return walkWords(model, random, TEMPLATE_WORDS[part]).join(' ');
}

/** Base document `i`: the same text whenever it is asked for. */
export function baseText(model: TextModel, plan: ScalePlan, i: number): string {
  const random = itemGenerator(plan.options.seed, BASE_TEXT, i);
  const length = Math.min(LENGTH.max, Math.max(LENGTH.min, model.lengths[below(random, model.lengths.length)] as number));
  const passage = plan.passageOf[i] as number;
  const at = passage >= 0 ? below(random, length + 1) : -1;
  const walk = plan.options.text === 'walk' ? walkWords(model, random, length) : undefined;
  const parts: string[] = [];
  for (let w = 0; w < length; w++) {
    if (w === at) parts.push(`\n\n${passageText(model, passage)}\n\n`);
    if (walk) {
      // The walk's words carry the source's own punctuation: only paragraphs are added.
      parts.push(walk[w] as string, random() < 1 / WALK_PARAGRAPH_WORDS ? '\n\n' : ' ');
      continue;
    }
    const word = randomWord(model, random);
    parts.push(word);
    if (random() < 1 / SENTENCE_WORDS) {
      if (!SENTENCE_END.test(word)) parts.push('.');
      parts.push(random() < 1 / PARAGRAPH_SENTENCES ? '\n\n' : ' ');
    } else {
      parts.push(' ');
    }
  }
  if (at === length) parts.push(`\n\n${passageText(model, passage)}`);
  const body = parts.join('').trim();
  const t = plan.templateOf[i] as number;
  return t < 0 ? body : `${templateText(model, plan, t, 'header')}\n\n${body}\n\n${templateText(model, plan, t, 'footer')}`;
}

/** Copy `c`: its source's text with every word edited at the copy's rate. */
export function copyText(model: TextModel, plan: ScalePlan, c: number, sourceText?: string): string {
  const rate = plan.options.editRates[plan.copyRate[c] as number] as number;
  const text = sourceText ?? baseText(model, plan, plan.copySource[c] as number);
  if (rate === 0) return text;
  const random = itemGenerator(plan.options.seed, COPY_EDITS, c);
  const out: string[] = [];
  for (const piece of text.split(' ')) {
    if (random() >= rate) {
      out.push(piece);
      continue;
    }
    const op = below(random, 3);
    if (op === 0) out.push(randomWord(model, random));
    else if (op === 2) out.push(piece, randomWord(model, random));
    // op 1: deleted
  }
  return out.join(' ');
}

/** The documents in corpus order. */
export function* scaleDocuments(model: TextModel, plan: ScalePlan): Generator<Document> {
  for (let position = 0; position < plan.order.length; position++) {
    const logical = plan.order[position] as number;
    const text = logical < plan.base ? baseText(model, plan, logical) : copyText(model, plan, logical - plan.base);
    yield { id: documentId(position), text };
  }
}

/** A planted pair: ids in corpus order, with each document's edit rate (0 for the source). */
export interface OraclePair {
  readonly a: string;
  readonly b: string;
  readonly rateA: number;
  readonly rateB: number;
}

/** Every pair of documents of every cluster, sorted by (a, b). */
export function oraclePairs(plan: ScalePlan): OraclePair[] {
  const rates = plan.options.editRates;
  const members = new Map<number, { position: number; rate: number }[]>();
  for (let c = 0; c < plan.copySource.length; c++) {
    const source = plan.copySource[c] as number;
    let m = members.get(source);
    if (!m) members.set(source, (m = [{ position: plan.positionOf[source] as number, rate: 0 }]));
    m.push({ position: plan.positionOf[plan.base + c] as number, rate: rates[plan.copyRate[c] as number] as number });
  }
  const pairs: { pa: number; pb: number; rateA: number; rateB: number }[] = [];
  for (const m of members.values()) {
    m.sort((x, y) => x.position - y.position);
    for (let i = 0; i < m.length; i++) {
      for (let j = i + 1; j < m.length; j++) {
        const x = m[i] as { position: number; rate: number };
        const y = m[j] as { position: number; rate: number };
        pairs.push({ pa: x.position, pb: y.position, rateA: x.rate, rateB: y.rate });
      }
    }
  }
  pairs.sort((x, y) => x.pa - y.pa || x.pb - y.pb);
  return pairs.map((p) => ({ a: documentId(p.pa), b: documentId(p.pb), rateA: p.rateA, rateB: p.rateB }));
}
